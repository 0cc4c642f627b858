"""What depends on a declaration, and what a declaration calls: one engine for every front-end.

`Dependents.of(target)` lists the sites that use a declaration, each with its
relation (`Relation`): importers, re-exporters (explicit, `as`, star imports
the name passes through), aliases (`X = Y`), callers (through all of those,
since the indexer resolved each site to its final declaration), subclasses
(transitively on request), overriding methods, uses of an inherited member on
a subclass (`Sub.m`, `Sub().m()`, `s = Sub(); s.m()`), reads of a module-level
value (`settings.TIMEOUT` through the module that star-imports it). Sources:
the xref table, the graph's edges, and a token scan of only the files the
table already says bind the target (an import, a re-export, the declaring
module), so plain reads the indexer records no row for (a function passed as
a callback, `prod.TIMEOUT`) are found too. `Dependents.callees(target)` reads
the graph's outgoing call edges.

Each result says how far it can be trusted: `cut` when the limit stopped the
walk, `notes` when dynamic dispatch or unresolved sites may hide users. May
import: records, store, symbols, stdlib.

Why this module is over 500 lines: the relations are walked into one map of sites keyed by
position, where a table row wins over a scan of the same spot, and they read each other's
results (callers through aliases and re-exports, member uses through subclasses), so they stay
in one class. Its seam is the source reading at the end (lines, tokens, the token shapes of a
use, cached by stat), the next split: a `SourceScan` base class in its own module, now that
the line readers are one (`walk.file_lines`).
"""

from __future__ import annotations

import builtins
import io
import keyword
import re
import tokenize
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from codehop.index.walk import file_lines
from codehop.kernel.paths import is_test_path
from codehop.kernel.records import BindingKind, Location, Provenance, RefType, XRef
from codehop.navigation.callers import Infer, attribute_calls, candidates, infer_uses, land

if TYPE_CHECKING:
    from codehop.index.store.sqlite import SqliteStore
    from codehop.index.symbols import SymbolTable

DEFAULT_LIMIT = 500


class Relation(StrEnum):
    """How a site depends on the declaration."""

    CALLS = "calls"  # a call (or instantiation) of the declaration
    IMPORTS = "imports"
    REEXPORTS = "reexports"  # `from .m import X` in a package, `as` renames, star imports it passes
    ALIASES = "aliases"  # `Y = X`
    INHERITS = "inherits"  # a subclass (its class line)
    OVERRIDES = "overrides"  # a method replacing the declaration in a subclass
    USES_INHERITED = "uses_inherited"  # the member used on a subclass: `Sub.m`, `Sub().m()`
    READS = "reads"  # any other use of the name: an attribute read, a callback, an argument
    DECORATES = "decorates"
    ANNOTATES = "annotates"
    CALLEE = "callee"  # (callees) a declaration the subject calls


# how a site depends on the declaration, by the kind of reference read there
RELATION_OF = {
    RefType.IMPORT: Relation.IMPORTS,
    RefType.REEXPORT: Relation.REEXPORTS,
    RefType.STAR_IMPORT: Relation.REEXPORTS,
    RefType.ALIAS: Relation.ALIASES,
    RefType.BASE_CLASS: Relation.INHERITS,
    RefType.CALL: Relation.CALLS,
    RefType.DECORATOR: Relation.DECORATES,
    RefType.TYPE_ANNOTATION: Relation.ANNOTATES,
}
_BINDERS = (RefType.IMPORT, RefType.REEXPORT, RefType.ALIAS)
_CALL_EDGES = ("calls", "instantiates")
_BUILTINS = frozenset(dir(builtins))


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


def name_col(x: XRef) -> int:
    """Column of the last dotted part of a site's anchor (`enc.dumps` -> `dumps`): where the name is."""
    if "." in x.anchor_text and "(" not in x.anchor_text and " " not in x.anchor_text:
        return x.col + x.anchor_text.rfind(".") + 1
    return x.col


@dataclass(frozen=True, slots=True, kw_only=True)
class Site:
    """One place that depends on the declaration (1-based line, 0-based column)."""

    rel_path: str
    line: int
    col: int
    code: str  # the source line, stripped
    relation: Relation
    anchor_text: str  # the text at the site that names the declaration
    scope: str  # qualname of the enclosing declaration
    via: str = ""  # the declaration the site names, when not the target itself (a subclass, an override)
    is_test: bool = False

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.rel_path,
            "line": self.line,
            "col": self.col,
            "code": self.code,
            "relation": str(self.relation),
            "anchor_text": self.anchor_text,
            "scope": self.scope,
            "via": self.via,
            "is_test": self.is_test,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Dependents:
    """The sites found for one declaration, and how complete the list is."""

    target: Location
    sites: tuple[Site, ...]
    walked: tuple[Relation, ...]  # the relations this walk looked for
    cut: bool = False  # the limit stopped the walk
    notes: tuple[str, ...] = ()  # why users may be missing (dynamic dispatch, unresolved sites)

    def of(self, *relations: Relation) -> tuple[Site, ...]:
        return tuple(s for s in self.sites if s.relation in relations)

    @property
    def complete(self) -> bool:
        return not self.cut and not self.notes


ALL_RELATIONS = tuple(r for r in Relation if r is not Relation.CALLEE)


class DependentsFinder:
    """Answers "what depends on X" and "what does X call" over one index."""

    def __init__(self, store: SqliteStore, table: SymbolTable, root: Path, *, infer: Infer | None = None) -> None:
        self.store = store
        self.table = table
        self.root = Path(root)
        self.infer = infer  # an inference rung asked at a site (uses through objects of unknown type)
        self._tokens: dict[tuple[str, int, int], list[tuple[int, int, str, int]]] = {}
        self._lines: dict[str, tuple[int, list[str]]] = {}  # rel_path -> (mtime_ns, lines)

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
        found: dict[tuple[str, int, int, Relation], Site] = {}
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
            self._add(found, x.rel_path, x.line, name_col(x), rel, x.anchor_text, x.scope)
        module = qual.rpartition(".")[0] if not owner_is_class else ""
        if module and self.store.module_path(module) is not None:
            for importer, rel_path, line in self._star_reexports(module, name):
                self._add(found, rel_path, line, 0, Relation.REEXPORTS, "*", importer)
        if Relation.READS in wanted or Relation.CALLS in wanted:
            self._scan_name_uses(found, target, rows, module)
        if Relation.OVERRIDES in wanted and owner_is_class:
            for src, _etype, rel_path, line in self._overrides(qual, transitive=True):
                self._add(
                    found, rel_path, line, self._col_of(rel_path, line, name), Relation.OVERRIDES, name, src, via=src
                )
        subclasses: list[tuple[str, str, int, str]] = []
        if is_class or owner_is_class:
            subclasses = self._subclasses(qual if is_class else owner, transitive or owner_is_class)
        if Relation.INHERITS in wanted and is_class:
            for sub, rel_path, line, parent in subclasses:
                if parent != qual:  # direct ones are base_class xref rows already
                    self._add(
                        found,
                        rel_path,
                        line,
                        self._col_of(rel_path, line, parent.rpartition(".")[2]),
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
        """What the declaration calls or instantiates: the graph's outgoing call edges (a class's
        methods included), in source order. Calls outside the repository are listed with their
        dotted name; calls the index could not place (on a parameter, a call's result, a local)
        make a note, counted from the call expressions in the body."""
        found: dict[tuple[str, int, int, Relation], Site] = {}
        unresolved: list[tuple[str, str, int]] = []  # (callee, path, line)
        scopes = [target.qualname]
        if self.table.class_binding(target.qualname) is not None:
            scopes += [
                f"{b.scope}.{b.name}" for b in self.store.bindings_in(target.qualname) if b.kind is BindingKind.FUNCTION
            ]
        external = {
            (x.rel_path, x.line, x.target.rpartition(".")[2])
            for x in self.store.xrefs(rel_path=target.rel_path, ref_type=RefType.CALL.value)
            if x.provenance is Provenance.EXTERNAL
        }
        recorded = 0
        for scope in scopes:
            for edge in self.store.edges_out_of(scope, _CALL_EDGES):
                dst, rel_path, line, ok = edge.dst, edge.rel_path, edge.line, edge.resolved
                recorded += 1
                short = dst.rpartition(".")[2]
                if not ok:
                    if (rel_path, line, short) in external:
                        self._add(
                            found,
                            rel_path,
                            line,
                            self._col_of(rel_path, line, short),
                            Relation.CALLEE,
                            short,
                            scope,
                            via=dst.lstrip("?") + " (outside the repository)",
                        )
                    else:
                        unresolved.append((dst.lstrip("?"), rel_path, line))
                    continue
                self._add(
                    found, rel_path, line, self._col_of(rel_path, line, short), Relation.CALLEE, short, scope, via=dst
                )
        for line, col, scope_cls, member in self._instance_calls(target):
            res = self.table.resolve(f"{scope_cls}.{member}")
            if res is None or res.is_external:
                continue
            recorded += 1
            self._add(
                found, target.rel_path, line, col, Relation.CALLEE, member, target.qualname, via=res.target.qualname
            )
        if infer and self.infer is not None:
            # calls on objects of unknown type (`get_console().print_json(...)`): asked at the site
            placed = {(k[1], k[2]) for k in found}
            end = target.end_line or target.line
            toks = self._tokens_of(target.rel_path)
            asked = [
                c for c in attribute_calls(target.rel_path, toks, target.line, end) if (c.line, c.col) not in placed
            ]
            for c, res in land(asked, self.infer):
                if res is None:
                    continue
                recorded += 1
                via = res.target.qualname or res.target.rel_path
                if res.is_external:
                    via = f"{via} (outside the repository)"
                self._add(found, target.rel_path, c.line, c.col, Relation.CALLEE, c.name, target.qualname, via=via)
        sites = sorted(found.values(), key=lambda s: (s.rel_path, s.line, s.col))
        # a call the index could not place but inference at its site did is not a doubt
        placed_at = {(s.rel_path, s.line, s.anchor_text) for s in found.values()}
        missing = [
            callee
            for callee, rel_path, line in unresolved
            if (rel_path, line, callee.rpartition(".")[2]) not in placed_at
        ]
        notes = []
        if missing:
            shown = ", ".join(sorted(set(missing))[:5])
            notes.append(f"{len(missing)} call(s) not resolved in the repository ({shown})")
        untraced = self._call_expressions(target) - recorded
        if untraced > 0:
            notes.append(
                f"{untraced} call(s) on objects of unknown type (parameters, locals, call results) "
                "are not traced statically"
            )
        return Dependents(
            target=target,
            sites=tuple(sites[:limit]),
            walked=(Relation.CALLEE,),
            cut=len(sites) > limit,
            notes=tuple(notes),
        )

    def _instance_calls(self, target: Location) -> list[tuple[int, int, str, str]]:
        """(line, col, class, member) of `C.m(`, `C(...).m(` and `v.m(` after `v = C(...)` or
        `with C(...) as v`, in the declaration's span, where C names a class of the repository."""
        end = target.end_line or target.line
        toks = [t for t in self._tokens_of(target.rel_path) if target.line <= t[0] <= end]
        module = self.store.module_of(target.rel_path) or ""
        classes: dict[str, str | None] = {}

        def class_of(name: str) -> str | None:
            if name not in classes:
                res = self.table.resolve(f"{module}.{name}")
                ok = res is not None and not res.is_external and self.table.class_binding(res.target.qualname)
                classes[name] = res.target.qualname if ok and res is not None else None
            return classes[name]

        out: list[tuple[int, int, str, str]] = []
        instances: dict[str, str] = {}
        n = len(toks)
        for i, (_line, _col, text, kind) in enumerate(toks):
            if kind != 1 or (i and toks[i - 1][2] == "."):
                continue
            if text in instances and i + 3 < n and toks[i + 1][2] == "." and toks[i + 3][2] == "(":
                out.append((toks[i + 2][0], toks[i + 2][1], instances[text], toks[i + 2][2]))
                continue
            cls = class_of(text) if text[:1].isupper() or text in classes else None
            if cls is None:
                continue
            if i + 3 < n and toks[i + 1][2] == "." and toks[i + 3][2] == "(":
                out.append((toks[i + 2][0], toks[i + 2][1], cls, toks[i + 2][2]))
                continue
            if i + 1 < n and toks[i + 1][2] == "(":
                depth, k = 0, i + 1
                while k < n:
                    if toks[k][3] == 0 and toks[k][2] in "([{":
                        depth += 1
                    elif toks[k][3] == 0 and toks[k][2] in ")]}":
                        depth -= 1
                        if depth == 0:
                            break
                    k += 1
                if k + 3 < n and toks[k + 1][2] == "." and toks[k + 3][2] == "(":
                    out.append((toks[k + 2][0], toks[k + 2][1], cls, toks[k + 2][2]))
                elif i >= 2 and toks[i - 1][2] == "=" and toks[i - 2][3] == 1:
                    instances[toks[i - 2][2]] = cls
                elif k + 2 < n and toks[k + 1][2] == "as" and toks[k + 2][3] == 1:
                    instances[toks[k + 2][2]] = cls
        return out

    def _call_expressions(self, target: Location) -> int:
        """Call expressions in the declaration's span that are not builtins (`name(`, `x.m(`, `f()(`)."""
        end = target.end_line or target.line
        toks = [t for t in self._tokens_of(target.rel_path) if target.line <= t[0] <= end]
        count = 0
        for i in range(1, len(toks)):
            if toks[i][2] != "(" or toks[i][3] != 0:
                continue
            prev = toks[i - 1]
            if prev[3] == 1:
                before = toks[i - 2][2] if i >= 2 else ""
                if before in ("def", "class") or keyword.iskeyword(prev[2]):
                    continue
                if before != "." and prev[2] in _BUILTINS:
                    continue
                count += 1
            elif prev[2] in (")", "]"):
                count += 1
        return count

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
    def _scan_name_uses(self, found: dict, target: Location, rows: list[XRef], module: str) -> None:  # type: ignore[type-arg]
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
                self._add(found, rel_path, line, col, rel, text, self._scope_at(rel_path, line))
        if module:
            self._scan_module_attribute(found, target, module, name)
            self._scan_local_imports(found, target, module, name)

    def _scan_local_imports(self, found: dict, target: Location, module: str, name: str) -> None:  # type: ignore[type-arg]
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
                                    self._add(found, rel_path, ln, col, rel, text_, self._scope_at(rel_path, ln))
                        continue
                    if dotted.rpartition(".")[2] != name or not self._lands(dotted, decl):
                        continue
                    at = next((ln for ln, t in names_at.items() if re.search(rf"\b{re.escape(name)}\b", t)), line)
                    start = names_at[at].find("import") if at == line else 0
                    col = names_at[at].find(name, max(start, 0))
                    self._add(found, rel_path, at, max(col, 0), Relation.IMPORTS, local, self._scope_at(rel_path, at))
                    for ln, col, text_, nxt in self._name_tokens(rel_path, {local}):
                        if span[0] <= ln <= span[1] and ln not in names_at:
                            rel = Relation.CALLS if nxt == ord("(") else Relation.READS
                            self._add(found, rel_path, ln, col, rel, text_, self._scope_at(rel_path, ln))

    def _shadowed(self, rel_path: str, line: int, name: str) -> bool:
        """Is `name` a parameter or a local of a function enclosing `line`?"""
        n = re.escape(name)
        binds = re.compile(
            rf"^\s*(?:async\s+)?def\s+\w+\s*\((?:[^)]*[(,\s*])?{n}\s*[:=,)]"
            rf"|^\s*{n}\s*(?::[^=]*)?=[^=]|^\s*for\s+(?:[\w,\s]*\b)?{n}\b[\w,\s]*\bin\b"
            rf"|\bas\s+{n}\s*[:,)]|^\s*(?:global|nonlocal)\s",
            re.M,
        )
        for c in self.store.chunks_at(rel_path, line):
            if str(c.kind) not in ("function", "method"):
                continue
            if any(not m.group(0).lstrip().startswith(("global", "nonlocal")) for m in binds.finditer(c.text)):
                return True
        return False

    def _lands(self, dotted: str, decl: tuple[str, int]) -> bool:
        res = self.table.resolve(dotted)
        return res is not None and not res.is_external and (res.target.rel_path, res.target.line) == decl

    def _function_span(self, rel_path: str, line: int) -> tuple[int, int] | None:
        for c in self.store.chunks_at(rel_path, line):
            if str(c.kind) in ("function", "method"):
                return c.start_line, c.end_line
        return None

    def _scan_module_attribute(self, found: dict, target: Location, module: str, name: str) -> None:  # type: ignore[type-arg]
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
                    self._add(found, x.rel_path, line, col, rel, text, self._scope_at(x.rel_path, line))

    def _scan_member_uses(
        self,
        found: dict,  # type: ignore[type-arg]
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
                    self._add(
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
        found: dict,  # type: ignore[type-arg]
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
                self._add(found, c.rel_path, c.line, c.col, relation, name, self._scope_at(c.rel_path, c.line))
        doubtful = got.unknown + got.unchecked
        if not doubtful:
            return []
        shown = ", ".join(f"{c.rel_path}:{c.line}" for c in doubtful[:5]) + (" …" if len(doubtful) > 5 else "")
        past = f", {len(got.unchecked)} of them past the bound of sites asked" if got.unchecked else ""
        return [f"{len(doubtful)} site(s) spelt `.{name}` on objects whose type was not inferred ({shown}{past})"]

    def tokens(self, rel_path: str) -> list[tuple[int, int, str, int]]:
        """(line, col, text, kind) of the file's NAME (kind 1) and OP (kind 0) tokens, cached by stat."""
        return self._tokens_of(rel_path)

    def _tokens_of(self, rel_path: str) -> list[tuple[int, int, str, int]]:
        """(line, col, text, kind) of the file's NAME and OP tokens (kind: 1 name, 0 op); cached by stat."""
        path = self.root / rel_path
        try:
            st = path.stat()
        except OSError:
            return []
        key = (rel_path, st.st_mtime_ns, st.st_size)
        hit = self._tokens.get(key)
        if hit is not None:
            return hit
        out: list[tuple[int, int, str, int]] = []
        try:
            source = path.read_bytes()
            for tok in tokenize.tokenize(io.BytesIO(source).readline):
                if tok.type == tokenize.NAME:
                    out.append((tok.start[0], tok.start[1], tok.string, 1))
                elif tok.type == tokenize.OP:
                    out.append((tok.start[0], tok.start[1], tok.string, 0))
        except (tokenize.TokenError, SyntaxError, UnicodeDecodeError, ValueError):
            pass  # keep what was read before the error
        if len(self._tokens) > 2000:
            self._tokens.clear()
        self._tokens[key] = out
        return out

    def _name_tokens(self, rel_path: str, names: set[str]) -> list[tuple[int, int, str, int]]:
        """Loads of a bare name: not an attribute (`x.name`), not a keyword argument, not a def."""
        toks = self._tokens_of(rel_path)
        out = []
        for i, (line, col, text, kind) in enumerate(toks):
            if kind != 1 or text not in names:
                continue
            prev = toks[i - 1][2] if i else ""
            nxt = toks[i + 1][2] if i + 1 < len(toks) else ""
            if prev in (".", "def", "class", "import", "as") or (nxt == "=" and prev in ("(", ",")):
                continue
            out.append((line, col, text, ord(nxt[0]) if nxt else 0))
        return out

    def _dotted_tokens(self, rel_path: str, head: str, name: str) -> list[tuple[int, int, str, int]]:
        toks = self._tokens_of(rel_path)
        parts = head.split(".") + [name]
        out = []
        n = 2 * len(parts) - 1
        for i in range(len(toks) - n + 1):
            if toks[i][2] != parts[0] or (i and toks[i - 1][2] == "."):
                continue
            window = [t[2] for t in toks[i : i + n]]
            if window[0::2] == parts and all(w == "." for w in window[1::2]):
                nxt = toks[i + n][2] if i + n < len(toks) else ""
                last = toks[i + n - 1]
                out.append((last[0], last[1], ".".join(parts), ord(nxt[0]) if nxt else 0))
        return out

    def _member_tokens(self, rel_path: str, classes: set[str], members: set[str]) -> list[tuple[int, int, str]]:
        """`C.m`, `C(...).m`, and `v.m` after `v = C(...)` or `with C(...) as v` in the same scope;
        the column is the member's."""
        toks = self._tokens_of(rel_path)
        out: list[tuple[int, int, str]] = []
        instances: dict[str, int] = {}  # variable -> line where it was bound to an instance
        for i, (line, _col, text, kind) in enumerate(toks):
            if kind != 1 or text not in classes or (i and toks[i - 1][2] == "."):
                continue
            j = i + 1
            if j + 1 < len(toks) and toks[j][2] == "." and toks[j + 1][2] in members:
                out.append((toks[j + 1][0], toks[j + 1][1], f"{text}.{toks[j + 1][2]}"))
                continue
            if j < len(toks) and toks[j][2] == "(":
                depth, k = 0, j
                while k < len(toks):
                    if toks[k][2] in "([{" and toks[k][3] == 0:
                        depth += 1
                    elif toks[k][2] in ")]}" and toks[k][3] == 0:
                        depth -= 1
                        if depth == 0:
                            break
                    k += 1
                if k + 2 < len(toks) and toks[k + 1][2] == "." and toks[k + 2][2] in members:
                    out.append((toks[k + 2][0], toks[k + 2][1], f"{text}().{toks[k + 2][2]}"))
                elif i >= 2 and toks[i - 1][2] == "=" and toks[i - 2][3] == 1:
                    instances[toks[i - 2][2]] = line
                elif k + 2 < len(toks) and toks[k + 1][2] == "as" and toks[k + 2][3] == 1:
                    instances[toks[k + 2][2]] = line
        if instances:
            for i, (line, _col, text, kind) in enumerate(toks[:-2]):
                bound = instances.get(text)
                if (
                    kind == 1
                    and bound is not None
                    and line >= bound
                    and toks[i + 1][2] == "."
                    and toks[i + 2][2] in members
                    and not (i and toks[i - 1][2] == ".")
                    and self._scope_at(rel_path, line) == self._scope_at(rel_path, bound)
                ):
                    out.append((toks[i + 2][0], toks[i + 2][1], f"{text}.{toks[i + 2][2]}"))
        return out

    # ---- helpers ---------------------------------------------------------------------------
    def _add(
        self,
        found: dict,  # type: ignore[type-arg]
        rel_path: str,
        line: int,
        col: int,
        relation: Relation,
        anchor: str,
        scope: str,
        via: str = "",
    ) -> None:
        # one site per position: a table row wins over a scan of the same spot
        if any((rel_path, line, col, r) in found for r in Relation):
            return
        found[(rel_path, line, col, relation)] = Site(
            rel_path=rel_path,
            line=line,
            col=col,
            code=self.line_text(rel_path, line),
            relation=relation,
            anchor_text=anchor,
            scope=scope,
            via=via,
            is_test=is_test_path(rel_path),
        )

    def line_text(self, rel_path: str, line: int) -> str:
        lines = self._file_lines(rel_path)
        return lines[line - 1].strip() if 0 < line <= len(lines) else ""

    def _file_lines(self, rel_path: str) -> list[str]:
        path = self.root / rel_path
        try:
            stamp = path.stat().st_mtime_ns
        except OSError:
            return []
        hit = self._lines.get(rel_path)
        if hit is not None and hit[0] == stamp:
            return hit[1]
        lines = file_lines(path)
        if len(self._lines) > 2000:
            self._lines.clear()
        self._lines[rel_path] = (stamp, lines)
        return lines

    def _col_of(self, rel_path: str, line: int, word: str) -> int:
        text = self._raw_line(rel_path, line)
        m = re.search(rf"\b{re.escape(word)}\b", text) if word else None
        return m.start() if m else len(text) - len(text.lstrip())

    def _raw_line(self, rel_path: str, line: int) -> str:
        lines = self._file_lines(rel_path)
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def _scope_at(self, rel_path: str, line: int) -> str:
        chunks = [c for c in self.store.chunks_at(rel_path, line) if str(c.kind) != "module"]
        if chunks:
            return chunks[0].qualname
        return self.store.module_of(rel_path) or ""

    def _is_package_init(self, rel_path: str) -> bool:
        return rel_path.endswith("__init__.py")
