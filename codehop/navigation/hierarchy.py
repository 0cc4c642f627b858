"""What is around a declaration, for editors: its references, bases and subclasses, the outline
of a file, and the members a class inherits (a code lens); callers and callees: codehop.navigation.calls.

A split of codehop.navigation.cursor (which qualifies the cursor and follows it to the declaration):
each function here starts from a declaration that navigation found, then walks the dependents
engine, the symbol table's MRO or the file's chunks. `Item` and `Outline` are what it returns.

May import: cursor, sites, records, store, symbols, dependents, walk, stdlib.
"""

from __future__ import annotations

from dataclasses import dataclass

from codehop.kernel.records import BindingKind, ChunkKind, Location
from codehop.navigation.cursor import Sources, definition, name_span, read_lines, source_line
from codehop.navigation.sites import Relation, Site


@dataclass(frozen=True, slots=True, kw_only=True)
class Item:
    """A declaration as a hierarchy node: where it starts and ends, and what it is. A declaration
    outside the repository (a typeshed stub, the interpreter's library, an installed package) has
    an absolute `rel_path`, the column of its name and `where` saying where it lives."""

    qualname: str
    kind: str  # "class", "function", "method", "property", "value", "module"
    rel_path: str
    line: int
    end_line: int
    col: int | None = None  # code-point column of the name, when known without reading the file
    where: str = ""  # for a declaration outside the repository: where it lives

    @property
    def name(self) -> str:
        return self.qualname.rpartition(".")[2]


def item(nav: Sources, qualname: str) -> Item | None:
    """The declaration `qualname` names (a module, class, function, method or value), or None."""
    path = nav.store.module_path(qualname)
    if path is not None:
        return Item(qualname=qualname, kind="module", rel_path=path, line=1, end_line=1)
    res = nav.table.resolve(qualname)
    if res is None or res.is_external or not res.target.rel_path:
        return None
    t = res.target
    q = t.qualname
    owner = q.rpartition(".")[0]
    if nav.table.class_binding(q) is not None:
        kind = "class"
    else:
        b = nav.table.binding_of(q)
        is_function = b is not None and b.kind is BindingKind.FUNCTION
        kind = ("method" if nav.table.class_binding(owner) is not None else "function") if is_function else "value"
    return Item(qualname=q, kind=kind, rel_path=t.rel_path, line=t.line, end_line=max(t.end_line, t.line))


def item_at(nav: Sources, rel_path: str, line: int, col: int, buffer: str | None = None) -> Item | None:
    res = definition(nav, rel_path, line, col, buffer)
    if res is None or res.is_external:
        return None
    return item(nav, res.target.qualname)


def references(
    nav: Sources, rel_path: str, line: int, col: int, buffer: str | None = None
) -> tuple[Location | None, list[Site]]:
    """The declaration under the cursor and every site that names it: through re-exports, `as`
    renames, aliases, star imports (not the star import line itself, which does not name it),
    module aliases; an inherited member's uses on subclasses.
    The re-export lines are uses of the name (a rename or "who depends on this" needs them), so
    they are always there, after the other uses: an editor may list them last. The declaration
    itself is the caller's to add (LSP's `includeDeclaration`)."""
    res = definition(nav, rel_path, line, col, buffer)
    if res is None or res.is_external:
        return None, []
    found = nav.finder().dependents(res.target, transitive=True)
    out = [
        s
        for s in found.sites
        # another declaration, a reference to a subclass in between, or a star import (it does
        # not name the declaration: a rename leaves it as it is)
        if not (
            s.relation is Relation.OVERRIDES
            or (s.relation is Relation.INHERITS and s.via)
            or (s.relation is Relation.REEXPORTS and s.anchor_text == "*")
        )
    ]
    out.sort(key=lambda s: (s.relation is Relation.REEXPORTS, s.rel_path, s.line, s.col))
    return res.target, out


def supertypes(nav: Sources, class_qualname: str) -> list[Item]:
    """The class's bases in method-resolution order (C3, as Python looks members up)."""
    out = []
    for base in nav.table.mro(class_qualname)[1:]:
        it = item(nav, base)
        if it is not None:
            out.append(it)
    return out


def subtypes(nav: Sources, class_qualname: str) -> list[Item]:
    """The classes that name this one as a base, in any file."""
    out = []
    for sub, _path, _line, _parent in nav.finder().subclasses(class_qualname, transitive=False):
        it = item(nav, sub)
        if it is not None:
            out.append(it)
    return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Outline:
    """One node of a file's symbol tree."""

    name: str
    qualname: str
    kind: str  # "class", "function", "method", "value"
    line: int
    end_line: int
    col: int  # code-point column of the name on `line`
    children: tuple[Outline, ...] = ()


def document_symbols(nav: Sources, rel_path: str) -> list[Outline]:
    """The file's classes, functions and methods (its chunk tree), with the values bound at
    module and class level, nested by span."""
    lines = read_lines(nav, rel_path)
    nodes: list[tuple[int, int, str, str, str, int]] = []  # (line, end, name, qualname, kind, col)
    seen: set[str] = set()
    for c in nav.store.chunks_of_file(rel_path):
        if c.kind is ChunkKind.MODULE or c.qualname in seen:
            continue
        seen.add(c.qualname)
        b = nav.table.binding_of(c.qualname)
        own = b is not None and b.rel_path == rel_path
        line = b.line if b is not None and own else c.start_line
        end = max(c.end_line, b.end_line) if b is not None and own else c.end_line  # a class chunk may be its head only
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        col = name_span(text, c.name)[0]
        kind = {ChunkKind.CLASS: "class", ChunkKind.METHOD: "method"}.get(c.kind, "function")
        nodes.append((line, end, c.name, c.qualname, kind, col))
    module = nav.store.module_of(rel_path) or ""
    scopes = [module] + [q for _l, _e, _n, q, k, _c in nodes if k == "class"]
    for scope in scopes:
        for b in nav.store.bindings_in(scope):
            if b.rel_path != rel_path or b.kind not in (BindingKind.VALUE, BindingKind.ALIAS):
                continue
            q = f"{b.scope}.{b.name}"
            if q in seen:
                continue
            seen.add(q)
            nodes.append((b.line, max(b.end_line, b.line), b.name, q, "value", b.col))
    nodes.sort(key=lambda n: (n[0], -n[1]))

    def build(parent: str, items: list[tuple[int, int, str, str, str, int]]) -> list[Outline]:
        out = []
        for node in items:
            if node[3].rpartition(".")[0] != parent:
                continue
            kids = build(node[3], items)
            out.append(
                Outline(
                    name=node[2],
                    qualname=node[3],
                    kind=node[4],
                    line=node[0],
                    end_line=node[1],
                    col=node[5],
                    children=tuple(kids),
                )
            )
        return out

    top = build(module, nodes)
    placed = {o.qualname for o in _walk(top)}
    # nested functions and members of classes declared in odd places: put them at the top level
    top += [
        Outline(name=n[2], qualname=n[3], kind=n[4], line=n[0], end_line=n[1], col=n[5])
        for n in nodes
        if n[3] not in placed
    ]
    return sorted(top, key=lambda o: o.line)


def _walk(nodes: list[Outline] | tuple[Outline, ...]) -> list[Outline]:
    out: list[Outline] = []
    for n in nodes:
        out.append(n)
        out.extend(_walk(n.children))
    return out


# ---- code lenses -------------------------------------------------------------------
def inherited_members(nav: Sources, class_qualname: str) -> tuple[int, int]:
    """(members the class gets from its bases and does not define itself, files they live in)."""
    seen = {b.name for b in nav.store.bindings_in(class_qualname)}
    members = 0
    files: set[str] = set()
    for base in nav.table.mro(class_qualname)[1:]:
        for b in nav.store.bindings_in(base):
            if b.name in seen:
                continue
            seen.add(b.name)
            members += 1
            files.add(b.rel_path)
    return members, len(files)


def class_lenses(nav: Sources, rel_path: str) -> list[tuple[Location, int, int]]:
    """(class statement, inherited members, their files) for each class of a file that inherits any."""
    out: list[tuple[Location, int, int]] = []
    seen: set[str] = set()
    for chunk in nav.store.chunks_of_file(rel_path):
        if chunk.kind is not ChunkKind.CLASS or chunk.qualname in seen:
            continue
        seen.add(chunk.qualname)
        b = nav.table.class_binding(chunk.qualname)
        if b is None or b.rel_path != rel_path:
            continue
        n_members, n_files = inherited_members(nav, chunk.qualname)
        if n_members:
            out.append((Location(rel_path=rel_path, line=b.line, qualname=chunk.qualname), n_members, n_files))
    return out


def site_span(nav: Sources, site: Site, target_name: str) -> tuple[str, int, int]:
    """(the text of a dependent site's line, the code-point columns of the name used there): the
    identifier at its column (`X` of `a.X`), the right-hand name of an alias line
    (`measure = area`), the `*` of a star import."""
    text = source_line(nav, site.rel_path, site.line) or ""
    start = site.col
    if site.relation is Relation.ALIASES and target_name and "=" in text:
        eq = text.index("=") + 1
        s0, e0 = name_span(text[eq:], target_name)
        if text[eq + s0 : eq + e0] == target_name:
            return text, eq + s0, eq + e0
    if site.anchor_text == "*" and "*" in text:
        start = text.index("*")
        return text, start, start + 1
    end = start
    while end < len(text) and (text[end] == "_" or text[end].isalnum()):
        end += 1
    if end == start:
        start, end = name_span(text, site.anchor_text.rpartition(".")[2])
    return text, start, end
