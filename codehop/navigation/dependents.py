"""What depends on a declaration: the engine behind every front-end's "who uses X".

`DependentsFinder.dependents(target)` lists the sites that use a declaration, each with its
relation (`Relation`, codehop.navigation.sites): importers, re-exporters (explicit, `as`, star
imports the name passes through), aliases (`X = Y`), callers (through all of those, since the
indexer resolved each site to its final declaration), subclasses (transitively on request),
overriding methods, uses of an inherited member on a subclass (`Sub.m`, `Sub().m()`,
`s = Sub(); s.m()`), reads of a module-level value (`settings.TIMEOUT` through the module that
star-imports it). Sources: the xref table, the graph's edges, and a token scan of only the files
the table already says bind the target (an import, a re-export, the declaring module), so plain
reads the indexer records no row for (a function passed as a callback, `prod.TIMEOUT`) are found
too. `callees(target)` is codehop.navigation.callees; the source reading (lines, tokens, the
token shapes of a use, the one map of sites by position) is the base class,
codehop.navigation.source.SourceScan.

Each result says how far it can be trusted: `cut` when the limit stopped the walk, `notes` when
dynamic dispatch or unresolved sites may hide users. May import: records, store, symbols,
sites, source, callers, callees, stdlib.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from codehop.kernel.records import Location, RefType, XRef
from codehop.navigation.callees import callees
from codehop.navigation.callers import Infer, candidates, infer_uses
from codehop.navigation.sites import ALL_RELATIONS, DEFAULT_LIMIT, RELATION_OF, Dependents, Found, Relation, name_col
from codehop.navigation.source import SourceScan

if TYPE_CHECKING:
    from codehop.index.store.sqlite import SqliteStore
    from codehop.index.symbols import SymbolTable

_BINDERS = (RefType.IMPORT, RefType.REEXPORT, RefType.ALIAS)


_LOCAL_FROM = re.compile(r"^\s+from\s+(\.*[\w.]*)\s+import\s+\(?([^)#]+)")
_LOCAL_IMPORT = re.compile(r"^\s+import\s+([^#]+)")
_MAX_IMPORT_LINES = 50  # lines read for one parenthesised import


def _imported(m: re.Match[str], file_module: str, rel_path: str) -> list[tuple[str, str, bool]]:
    """(local name, dotted target, is `import` of a module) for one local import statement."""
    out: list[tuple[str, str, bool]] = []
    if m.re is _LOCAL_FROM:
        source = m.group(1)
        if source.startswith("."):
            dots = len(source) - len(source.lstrip("."))
            package = file_module if rel_path.endswith("__init__.py") else file_module.rpartition(".")[0]
            for _ in range(dots - 1):
                package = package.rpartition(".")[0]
            rest = source.lstrip(".")
            source = f"{package}.{rest}" if rest else package
        for part in m.group(2).split(","):
            bits = part.split()
            if not bits or not bits[0].isidentifier():
                continue
            local = bits[2] if len(bits) == 3 and bits[1] == "as" else bits[0]
            out.append((local, f"{source}.{bits[0]}", False))
            out.append((local, f"{source}.{bits[0]}", True))  # `from pkg import module`
        return out
    for part in m.group(1).split(","):
        bits = part.split()
        if not bits:
            continue
        if len(bits) == 3 and bits[1] == "as":
            out.append((bits[2], bits[0], True))
        else:
            out.append((bits[0], bits[0], True))
    return out


class DependentsFinder(SourceScan):
    """Answers "what depends on X" and "what does X call" over one index."""

    def __init__(self, store: SqliteStore, table: SymbolTable, root: Path, *, infer: Infer | None = None) -> None:
        super().__init__(store, root)
        self.table = table
        self.infer = infer  # an inference rung asked at a site (uses through objects of unknown type)

    # ---- public --------------------------------------------------------------------
    def dependents(
        self,
        target: Location,
        *,
        relations: Iterable[Relation] = ALL_RELATIONS,
        transitive: bool = False,
        limit: int = DEFAULT_LIMIT,
        infer: bool = False,
    ) -> Dependents:
        """Sites that depend on the declaration at `target` (qualname, rel_path and line set); with
        `infer`, a member's uses through objects of unknown type are asked of the inference rung."""
        wanted = tuple(relations)
        found: Found = {}
        notes: list[str] = []
        qual = target.qualname
        owner, _, name = qual.rpartition(".")
        owner_is_class = self.table.class_binding(owner) is not None
        is_class = self.table.class_binding(qual) is not None
        rows = self.store.xrefs_to(target.rel_path, target.line)
        if target.line == 1 and self.store.module_path(qual) == target.rel_path:
            rows = self._module_importers(qual) + [x for x in rows if x.ref_type not in _BINDERS]
        for x in rows:
            rel = RELATION_OF.get(x.ref_type, Relation.READS)
            if rel is Relation.CALLS and owner_is_class and self._names_subclass(x, owner, name):
                rel = Relation.USES_INHERITED
            if rel is Relation.IMPORTS and x.ref_type is RefType.IMPORT and self._is_package_init(x.rel_path):
                rel = Relation.REEXPORTS  # `from .m import X` in an `__init__` re-exports X
            self.add_site(found, x.rel_path, x.line, name_col(x), rel, x.anchor_text, x.scope)
        module = qual.rpartition(".")[0] if not owner_is_class else ""
        if module and self.store.module_path(module) is not None:
            for importer, rel_path, line in self._star_reexports(module, name):
                self.add_site(found, rel_path, line, 0, Relation.REEXPORTS, "*", importer)
        if Relation.READS in wanted or Relation.CALLS in wanted:
            self._scan_name_uses(found, target, rows, module)
        if Relation.OVERRIDES in wanted and owner_is_class:
            for src, _etype, rel_path, line in self._overrides(qual, transitive=True):
                self.add_site(
                    found, rel_path, line, self.col_of(rel_path, line, name), Relation.OVERRIDES, name, src, via=src
                )
        subclasses: list[tuple[str, str, int, str]] = []
        if is_class or owner_is_class:
            subclasses = self._subclasses(qual if is_class else owner, transitive or owner_is_class)
        if Relation.INHERITS in wanted and is_class:
            for sub, rel_path, line, parent in subclasses:
                if parent != qual:  # direct ones are base_class xref rows already
                    self.add_site(
                        found,
                        rel_path,
                        line,
                        self.col_of(rel_path, line, parent.rpartition(".")[2]),
                        Relation.INHERITS,
                        parent.rpartition(".")[2],
                        sub,
                        via=sub,
                    )
        if owner_is_class and (Relation.USES_INHERITED in wanted or Relation.CALLS in wanted):
            self._scan_member_uses(found, target, owner, name, subclasses)
        if owner_is_class:
            notes += self._inferred_uses(found, target, owner, name, wanted, infer)
        unresolved = self.store.unresolved_xrefs_named(name, limit=50)
        placed = {(k[0], k[1]) for k in found}  # (a site inference placed is not a doubt)
        unresolved = [
            x
            for x in unresolved
            if x.target != qual and not x.target.startswith("?") and (x.rel_path, x.line) not in placed
        ]
        if unresolved:
            shown = ", ".join(f"{x.rel_path}:{x.line}" for x in unresolved[:3])
            notes.append(f"{len(unresolved)} site(s) named {name} stayed unresolved ({shown})")
        sites = sorted(
            (s for s in found.values() if s.relation in wanted),
            key=lambda s: (s.rel_path, s.line, s.col, str(s.relation)),
        )
        cut = len(sites) > limit
        return Dependents(target=target, sites=tuple(sites[:limit]), walked=wanted, cut=cut, notes=tuple(notes))

    def callees(self, target: Location, *, limit: int = DEFAULT_LIMIT, infer: bool = False) -> Dependents:
        """What the declaration calls or instantiates, in source order (codehop.navigation.callees);
        with `infer`, calls on objects of unknown type are asked of the inference rung."""
        return callees(self, self.table, target, limit=limit, infer=self.infer if infer else None)

    def subclasses(self, class_qualname: str, *, transitive: bool = True) -> list[tuple[str, str, int, str]]:
        """(subclass qualname, rel_path, class line, the parent it names) breadth-first."""
        return self._subclasses(class_qualname, transitive)

    # ---- graph walks -------------------------------------------------------------------
    def _subclasses(self, qual: str, transitive: bool) -> list[tuple[str, str, int, str]]:
        out: list[tuple[str, str, int, str]] = []
        seen = {qual}
        frontier = [qual]
        while frontier:
            nxt = []
            for parent in frontier:
                for edge in self.store.edges_into(parent, ("inherits",)):
                    if edge.src in seen:
                        continue
                    seen.add(edge.src)
                    out.append((edge.src, edge.rel_path, edge.line, parent))
                    nxt.append(edge.src)
            frontier = nxt if transitive else []
        return out

    def _overrides(self, qual: str, *, transitive: bool) -> list[tuple[str, str, str, int]]:
        out: list[tuple[str, str, str, int]] = []
        seen = {qual}
        frontier = [qual]
        while frontier:
            nxt = []
            for method in frontier:
                for edge in self.store.edges_into(method, ("overrides",)):
                    if edge.src not in seen:
                        seen.add(edge.src)
                        out.append((edge.src, edge.type, edge.rel_path, edge.line))
                        nxt.append(edge.src)
            frontier = nxt if transitive else []
        return out

    def _star_reexports(self, module: str, name: str) -> list[tuple[str, str, int]]:
        """Star imports through which `module.name` passes (`__all__` and privacy respected)."""
        out: list[tuple[str, str, int]] = []
        seen = {module}
        frontier = [module]
        while frontier:
            nxt = []
            for mod in frontier:
                names = self.store.all_names(mod)
                if (names is not None and name not in names) or (names is None and name.startswith("_")):
                    continue
                for star in self.store.star_importers(mod):
                    if star.module in seen:
                        continue
                    seen.add(star.module)
                    out.append((star.module, star.rel_path, star.line))
                    nxt.append(star.module)
            frontier = nxt
        return out

    def _module_importers(self, module: str) -> list[XRef]:
        """Sites importing the module or a name from it (not from one of its submodules)."""
        out = []
        for x in self.store.xrefs_importing(module):
            if x.target != module:
                found = self.table.find_module(x.target)
                if found is None or found[0] != module:
                    continue
            out.append(x)
        return out

    def _names_subclass(self, x: XRef, owner: str, name: str) -> bool:
        """Does the site name the member on a subclass of `owner` (`Sub.m`, `self.m` in a subclass)?"""
        head = x.target.rpartition(".")[0]
        if not x.target.endswith("." + name) or not head:
            return False
        res = self.table.resolve(head)
        if res is None or res.is_external:
            return False
        cls = res.target.qualname
        return cls != owner and self.table.class_binding(cls) is not None and owner in self.table.mro(cls)

    # ---- token scans ---------------------------------------------------------------------
    def _scan_name_uses(self, found: Found, target: Location, rows: list[XRef], module: str) -> None:
        """Plain uses of the name in the files that bind it (importers, aliases, its own module):
        calls the table recorded are there already; this adds reads, callbacks, arguments."""
        qual = target.qualname
        name = qual.rpartition(".")[2]
        local: dict[str, set[str]] = {}  # rel_path -> local names bound to the target
        for x in rows:
            if x.ref_type in _BINDERS:
                local.setdefault(x.rel_path, set()).add(x.anchor_text.rpartition(".")[2])
        if module:
            local.setdefault(target.rel_path, set()).add(name)
        for rel_path, names in sorted(local.items()):
            binding_lines = {x.line for x in rows if x.rel_path == rel_path and x.ref_type in _BINDERS}
            for line, col, text, nxt in self._name_tokens(rel_path, names):
                if line in binding_lines or (rel_path == target.rel_path and line == target.line):
                    continue
                if self._shadowed(rel_path, line, text):
                    continue  # a parameter or local of the same name
                rel = Relation.CALLS if nxt == ord("(") else Relation.READS
                self.add_site(found, rel_path, line, col, rel, text, self._scope_at(rel_path, line))
        if module:
            self._scan_module_attribute(found, target, module, name)
            self._scan_local_imports(found, target, module, name)

    def _scan_local_imports(self, found: Found, target: Location, module: str, name: str) -> None:
        """Imports inside functions (the index records only module-level ones): in the files whose
        chunks mention the name, `from M import name [as a]` or `from P import mod [as m]` /
        `import M as m` that reach the target, then its uses in the same function."""
        if not name.isidentifier():
            return
        decl = (target.rel_path, target.line)
        paths = sorted({c.rel_path for c, _score in self.store.search(f'"{name}"', 400)})
        for rel_path in paths:
            lines = self._file_lines(rel_path)
            file_module = self.store.module_of(rel_path) or ""
            for i, text in enumerate(lines):
                m = _LOCAL_FROM.match(text) or _LOCAL_IMPORT.match(text)
                if m is None:
                    continue
                line = i + 1
                span = self._function_span(rel_path, line)
                if span is None:
                    continue
                names_at = {line: text}
                if m.re is _LOCAL_FROM and "(" in text and ")" not in text:
                    # `from m import (\n    a,\n    b,\n)`: the names are on the lines below
                    j = i + 1
                    while j < len(lines) and j - i <= _MAX_IMPORT_LINES and ")" not in lines[j - 1]:
                        names_at[j + 1] = lines[j]
                        j += 1
                    joined = " ".join(t.strip() for t in names_at.values())
                    m = _LOCAL_FROM.match(" " + joined) or m
                for local, dotted, is_module in _imported(m, file_module, rel_path):
                    if is_module:
                        if self._lands(f"{dotted}.{name}", decl) and self.store.module_path(dotted) is not None:
                            for ln, col, text_, nxt in self._dotted_tokens(rel_path, local, name):
                                if span[0] <= ln <= span[1]:
                                    rel = Relation.CALLS if nxt == ord("(") else Relation.READS
                                    self.add_site(found, rel_path, ln, col, rel, text_, self._scope_at(rel_path, ln))
                        continue
                    if dotted.rpartition(".")[2] != name or not self._lands(dotted, decl):
                        continue
                    at = next((ln for ln, t in names_at.items() if re.search(rf"\b{re.escape(name)}\b", t)), line)
                    start = names_at[at].find("import") if at == line else 0
                    col = names_at[at].find(name, max(start, 0))
                    self.add_site(
                        found, rel_path, at, max(col, 0), Relation.IMPORTS, local, self._scope_at(rel_path, at)
                    )
                    for ln, col, text_, nxt in self._name_tokens(rel_path, {local}):
                        if span[0] <= ln <= span[1] and ln not in names_at:
                            rel = Relation.CALLS if nxt == ord("(") else Relation.READS
                            self.add_site(found, rel_path, ln, col, rel, text_, self._scope_at(rel_path, ln))

    def _lands(self, dotted: str, decl: tuple[str, int]) -> bool:
        res = self.table.resolve(dotted)
        return res is not None and not res.is_external and (res.target.rel_path, res.target.line) == decl

    def _scan_module_attribute(self, found: Found, target: Location, module: str, name: str) -> None:
        """`mod.NAME` where `mod` is the declaring module or one that star-imports the name."""
        modules = {module} | {m for m, _p, _l in self._star_reexports(module, name)}
        for mod in sorted(modules):
            path = self.store.module_path(mod)
            if path is None:
                continue
            for x in self.store.xrefs_to(path, 1):
                if x.ref_type not in _BINDERS:
                    continue
                res = self.table.resolve(x.target)
                if res is None or res.target.qualname != mod:
                    continue  # a declaration on line 1, not the module
                alias = (
                    x.anchor_text.rpartition(".")[2]
                    if x.ref_type is not RefType.IMPORT or not x.anchor_text.count(".")
                    else x.anchor_text
                )
                for line, col, text, nxt in self._dotted_tokens(x.rel_path, alias, name):
                    rel = Relation.CALLS if nxt == ord("(") else Relation.READS
                    self.add_site(found, x.rel_path, line, col, rel, text, self._scope_at(x.rel_path, line))

    def _scan_member_uses(
        self,
        found: Found,
        target: Location,
        owner: str,
        name: str,
        subclasses: list[tuple[str, str, int, str]],
    ) -> None:
        """`C.m`, `C(...).m`, `v = C(...)` / `with C(...) as v` then `v.m`, for the owner class and
        each subclass that does not replace `m` (its MRO still reaches the target)."""
        classes = [owner] + [s for s, _p, _l, _b in subclasses]
        members = {name}  # `tag = to_json` in the class body: `obj.tag()` calls the target too
        members |= {
            x.anchor_text
            for x in self.store.xrefs_to(target.rel_path, target.line)
            if x.ref_type is RefType.ALIAS and x.scope in classes
        }
        for cls in classes:
            res = self.table.resolve(f"{cls}.{name}")
            if res is None or (res.target.rel_path, res.target.line) != (target.rel_path, target.line):
                continue
            decl = self.table.class_binding(cls)
            if decl is None:
                continue
            rows = self.store.xrefs_to(decl.rel_path, decl.line)
            local: dict[str, set[str]] = {decl.rel_path: {cls.rpartition(".")[2]}}
            for x in rows:
                if x.ref_type in _BINDERS:
                    local.setdefault(x.rel_path, set()).add(x.anchor_text.rpartition(".")[2])
            rel = Relation.CALLS if cls == owner else Relation.USES_INHERITED
            for rel_path, names in sorted(local.items()):
                for line, col, text in self._member_tokens(rel_path, names, members):
                    self.add_site(
                        found,
                        rel_path,
                        line,
                        col,
                        rel,
                        text,
                        self._scope_at(rel_path, line),
                        via="" if cls == owner else cls,
                    )

    def _inferred_uses(
        self,
        found: Found,
        target: Location,
        owner: str,
        name: str,
        wanted: tuple[Relation, ...],
        infer: bool,
    ) -> list[str]:
        """Uses through objects of unknown type, each `.name` site asked of the inference rung."""
        if (
            not infer
            or self.infer is None
            or not ({Relation.CALLS, Relation.READS, Relation.USES_INHERITED} & set(wanted))
        ):
            return [
                f"{name} is a member of {owner}: calls through objects of unknown type "
                "(parameters, attributes, return values) are not traced statically"
            ]
        known = {(k[0], k[1]) for k in found}
        got = infer_uses(target, candidates(self.store, self._tokens_of, name), self.infer, known=known)
        for c in got.uses:
            relation = Relation.CALLS if c.called else Relation.READS
            if relation in wanted:
                self.add_site(found, c.rel_path, c.line, c.col, relation, name, self._scope_at(c.rel_path, c.line))
        doubtful = got.unknown + got.unchecked
        if not doubtful:
            return []
        shown = ", ".join(f"{c.rel_path}:{c.line}" for c in doubtful[:5]) + (" …" if len(doubtful) > 5 else "")
        past = f", {len(got.unchecked)} of them past the bound of sites asked" if got.unchecked else ""
        return [f"{len(doubtful)} site(s) spelt `.{name}` on objects whose type was not inferred ({shown}{past})"]

    # ---- helpers ---------------------------------------------------------------------------
