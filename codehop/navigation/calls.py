"""The call hierarchy for editors: who calls a declaration and what it calls, grouped by the
calling or called declaration (`Item`s of codehop.navigation.hierarchy), each with its call sites.

Outgoing calls, cheapest first: the index's call edges inside the repository; the builtins,
placed by name; `super().m()` through the MRO; then Jedi at every other call site of the body
(methods on parameters, locals, subscripts and call results; functions imported from outside)
and at attribute reads that run a property, one Script for the file; each Jedi step within
OUTGOING_DEADLINE_S. A callee outside the repository is an item on its typeshed stub or
installed file, as basedpyright answers. Incoming calls: the dependents engine's
calls, then for a method every `.name(` call of the repository asked of Jedi, one Script a
file, until INCOMING_DEADLINE_S; the caller is the innermost function, nested ones too.
Past a deadline, what was placed is the answer. The sites Jedi would be asked at are read from
the landing cache first; Jedi in the process answers the others within the deadline, so a first
request is complete (issue 27: an editor, or a checker, that asks right after the start sees the
answer the land worker would give; Jedi's inference costs a first request of Starlette 0.2 s
at the median in process, 0.4 s over the wire on a loaded machine: no budget of ~10 ms holds it,
so a first request takes longer once, and a later one reads the cache). While a
land worker runs (an editor's server: `Sources.defer`), the sites still unknown go to it, and a
later request reads them from the cache; never a wrong callee or caller either way.

May import: hierarchy, navigation, callers, dependents, records, index.store, resolve.jedi_resolver (its
Landing record, never Jedi), stdlib.
"""

from __future__ import annotations

import bisect
import builtins
import functools
import os
import re
import time
from collections.abc import Callable, Sequence

from codehop.index.store.sqlite import SqliteStore
from codehop.kernel.records import BindingKind, ChunkKind, Location, XRef
from codehop.navigation.callers import Candidate, attribute_calls, attribute_reads, call_sites, candidates
from codehop.navigation.cursor import Lander, Sources, read_lines
from codehop.navigation.hierarchy import Item, item
from codehop.navigation.sites import Relation, Site
from codehop.resolve.jedi_resolver import Landing, Place

OUTGOING_DEADLINE_S = 2.0  # Jedi's builtins, then Jedi at the sites: past it, the calls placed so far
INCOMING_DEADLINE_S = 3.0  # Jedi at `.name(` calls across the repository: past it, the callers found


def _deadline(base_s: float) -> float:
    """A call-hierarchy deadline, raised as the resolver timeout is raised (CODEHOP_RESOLVER_TIMEOUT_S,
    default 5 s: a loaded machine, a test run) so that a slow Jedi answers late rather than less."""
    try:
        timeout = float(os.environ.get("CODEHOP_RESOLVER_TIMEOUT_S", "5"))
    except ValueError:
        timeout = 5.0
    return base_s * max(1.0, timeout / 5.0)


_BUILTINS = frozenset(name for name in dir(builtins) if not name.startswith("_"))
Token = tuple[int, int, str, int]  # (line, col, text, kind: 1 name, 0 operator), as callers reads them
_NESTED_DEF = re.compile(r"(?:async\s+)?def\s+(\w+)")


def incoming_calls(nav: Sources, qualname: str) -> list[tuple[Item, list[Site]]]:
    """Who calls `qualname`, grouped by the calling declaration (the innermost function, nested
    ones too; a module for top-level calls): the dependents engine's calls (through re-exports,
    aliases, imports inside functions), then, for a member of a class, every `.name(` call in
    the repository asked of Jedi, one Script a file, the files that import the declaring module
    first, until INCOMING_DEADLINE_S (calls through a module-level instance, on a call's result,
    on a parameter)."""
    target = item(nav, qualname)
    if target is None:
        return []
    loc = Location(rel_path=target.rel_path, line=target.line, qualname=target.qualname, end_line=target.end_line)
    finder = nav.finder()
    found = list(finder.dependents(loc, relations=(Relation.CALLS, Relation.USES_INHERITED)).sites)
    if nav.land is not None and target.kind == "method":
        found += _inferred_callers(nav, nav.land, target, {(s.rel_path, s.line, s.col) for s in found})
    groups: dict[tuple[str, int], tuple[Item, list[Site]]] = {}
    lines = functools.lru_cache(maxsize=None)(lambda rel_path: read_lines(nav, rel_path))
    for s in sorted(found, key=lambda s: (s.rel_path, s.line, s.col)):
        caller = _caller(nav, s, lines(s.rel_path))
        if caller is not None:
            groups.setdefault((caller.rel_path, caller.line), (caller, []))[1].append(s)
    return list(groups.values())


def _inferred_callers(nav: Sources, lander: Lander, target: Item, known: set[tuple[str, int, int]]) -> list[Site]:
    """The `.name(` calls Jedi lands on the target, read file by file within the deadline."""
    finder = nav.finder()
    module = target.qualname.rpartition(".")[0].rpartition(".")[0]
    by_file: dict[str, list[Candidate]] = {}
    for c in candidates(nav.store, finder.tokens, target.name):
        if c.called and (c.rel_path, c.line, c.col) not in known:
            by_file.setdefault(c.rel_path, []).append(c)
    # a call through an object mostly lives where its module is imported (or in that module)
    near = {target.rel_path} | {x.rel_path for x in _importers(nav, module)}
    order = sorted(by_file, key=lambda p: (p not in near, p))
    out: list[Site] = []
    start = time.monotonic()
    for rel_path in order:
        left = _deadline(INCOMING_DEADLINE_S) - (time.monotonic() - start)
        if left <= 0 and nav.defer is None:
            break  # (with a land worker, the rest of the files are read from the cache and handed to it)
        sites = by_file[rel_path]
        for c, landing in zip(sites, _land(nav, lander, rel_path, [(c.line, c.col) for c in sites], left), strict=True):
            # by name too: Jedi may land on a stub of the repository's own package (it ships django-stubs)
            if landing is None or (
                landing.qualname != target.qualname and (landing.path, landing.line) != (target.rel_path, target.line)
            ):
                continue
            out.append(
                Site(
                    rel_path=rel_path,
                    line=c.line,
                    col=c.col,
                    code=finder.line_text(rel_path, c.line),
                    relation=Relation.CALLS,
                    anchor_text=c.name,
                    scope=_scope_at(nav, rel_path, c.line),
                )
            )
    return out


def _importers(nav: Sources, module: str) -> list[XRef]:
    path = nav.store.module_path(module)
    return nav.store.xrefs_to(path, 1) if path is not None else []


def _scope_at(nav: Sources, rel_path: str, line: int) -> str:
    chunks = [c for c in nav.store.chunks_at(rel_path, line) if c.kind is not ChunkKind.MODULE]
    return chunks[0].qualname if chunks else nav.store.module_of(rel_path) or ""


def _caller(nav: Sources, site: Site, lines: list[str]) -> Item | None:
    """The declaration a call site is in (`lines`: its file's): a function nested in `site.scope`
    when one encloses the line (`def` lines above it, less indented), the module for a class
    body (as basedpyright answers), else the scope itself."""
    outer = item(nav, site.scope)
    if outer is not None and outer.kind == "class":  # a class body runs with its module
        module = nav.store.module_of(site.rel_path)
        return item(nav, module) if module else outer
    if outer is None or outer.kind not in ("function", "method") or outer.rel_path != site.rel_path:
        return outer
    text = lines[site.line - 1] if 0 < site.line <= len(lines) else ""
    indent = len(text) - len(text.lstrip())
    for n in range(site.line - 1, outer.line, -1):
        above = lines[n - 1]
        stripped = above.lstrip()
        if not stripped or len(above) - len(stripped) >= indent:
            continue
        indent = len(above) - len(stripped)
        m = _NESTED_DEF.match(stripped)
        if m is None:
            continue
        end = n
        while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > indent):
            end += 1
        name = m.group(1)
        return Item(
            qualname=f"{outer.qualname}.<locals>.{name}",
            kind="function",
            rel_path=site.rel_path,
            line=n,
            end_line=end,
        )
    return outer


def outgoing_calls(nav: Sources, qualname: str) -> list[tuple[Item, list[Site]]]:
    """What `qualname` calls in its whole body, grouped by callee, in source order of the first
    call. Cheapest first: the index's call edges inside the repository; the builtins, placed by
    name; `super().m()` through the MRO; then Jedi at every other call site (methods on
    parameters, locals, subscripts and call results; functions imported from outside) and at
    attribute reads that run a property. Each Jedi step within OUTGOING_DEADLINE_S: past it,
    what was placed."""
    source = item(nav, qualname)
    if source is None:
        return []
    loc = Location(rel_path=source.rel_path, line=source.line, qualname=source.qualname, end_line=source.end_line)
    finder = nav.finder()
    toks = (
        finder.span_tokens(source.rel_path, source.line, source.end_line) if not source.rel_path.startswith("/") else []
    )
    sites = call_sites(source.rel_path, toks, source.line, source.end_line)
    calls = _Callees(source, finder.line_text, {(c.line, c.col) for c in sites})
    deadline = time.monotonic() + _deadline(OUTGOING_DEADLINE_S)
    for s in finder.callees(loc).sites:
        # a callee outside the repository is asked at its site below, where Jedi names its file
        it = None if s.via.endswith(_OUTSIDE) else item(nav, s.via)
        if it is not None and it.kind not in ("value", "module"):  # a value holding a function: no declaration of one
            calls.add_edge(it, s)
    rest = [c for c in sites if not calls.placed(c)]
    if nav.land is not None:
        rest = _by_name(nav, nav.land, source, toks, rest, calls, deadline)
    rest = _through_super(nav, source, toks, rest, calls)
    if nav.land is not None and toks:
        properties: dict[str, bool] = {}
        for c in attribute_reads(source.rel_path, toks, source.line, source.end_line):
            if c.name not in properties:
                properties[c.name] = _property_named(nav, c.name)
            if properties[c.name]:
                rest.append(c)
        # its own deadline: typeshed's builtins load once per process, in the step above
        landings = _land(
            nav, nav.land, source.rel_path, [(c.line, c.col) for c in rest], _deadline(OUTGOING_DEADLINE_S)
        )
        for c, landing in zip(rest, landings, strict=True):
            it = _landed_item(nav, landing, c.called)
            if it is not None and names_the_call(nav, source.rel_path, c.name, it.qualname):
                calls.add(it, c)
    return calls.groups()


def _land(
    nav: Sources, lander: Lander, rel_path: str, positions: list[tuple[int, int]], deadline_s: float
) -> list[Landing | None]:
    """Where the names at these sites of one file land: the landing cache first, then Jedi in this
    process for the sites it does not know, within `deadline_s` (a request is complete the first
    time it is asked, not only once a land worker has been by). When a land worker runs
    (`nav.defer`), the sites still unknown past the deadline (or where Jedi here found nothing: the
    worker, inferring each file afresh, records that) are handed to it, and a later request reads
    them from the cache; past the deadline, only the cache is read."""
    if nav.defer is None:
        return lander.land(rel_path, positions, deadline_s=deadline_s)
    if deadline_s > 0:
        found = lander.land(rel_path, positions, deadline_s=deadline_s)
        unknown = [p for p, landing in zip(positions, found, strict=True) if landing is None]
        missing = lander.landed(rel_path, unknown)[1] if unknown else []
    else:
        found, missing = lander.landed(rel_path, positions)
    if missing:
        nav.defer(rel_path, missing)
    return found


_OUTSIDE = " (outside the repository)"  # how the dependents engine marks an external callee


class _Callees:
    """Callees grouped by declaration, each with its call sites in the body."""

    def __init__(self, source: Item, line_text: Callable[[str, int], str], at_call: set[tuple[int, int]]) -> None:
        self.source = source
        self.line_text = line_text
        self.at_call = at_call
        self._groups: dict[tuple[str, int], tuple[Item, list[Site]]] = {}
        self._placed: set[tuple[int, int]] = set()
        # an edge's site whose column is not a call's (`surface(x)` for `area`, imported `as`):
        # a call on that line that lands on the same callee is that site, not a second one
        self._loose: dict[tuple[int, str, int], Site] = {}

    def placed(self, c: Candidate) -> bool:
        return (c.line, c.col) in self._placed

    def add_edge(self, it: Item, s: Site) -> None:
        self._groups.setdefault((it.rel_path, it.line), (it, []))[1].append(s)
        self._placed.add((s.line, s.col))
        if (s.line, s.col) not in self.at_call:
            self._loose[(s.line, it.rel_path, it.line)] = s

    def add(self, it: Item, c: Candidate) -> None:
        group = self._groups.setdefault((it.rel_path, it.line), (it, []))[1]
        edge = self._loose.pop((c.line, it.rel_path, it.line), None)
        if edge is not None:
            group.remove(edge)
        self._placed.add((c.line, c.col))
        group.append(
            Site(
                rel_path=c.rel_path,
                line=c.line,
                col=c.col,
                code=self.line_text(c.rel_path, c.line),
                relation=Relation.CALLEE,
                anchor_text=c.name,
                scope=self.source.qualname,
                via=it.qualname,
            )
        )

    def groups(self) -> list[tuple[Item, list[Site]]]:
        out = [(it, sorted(sites, key=lambda s: (s.line, s.col))) for it, sites in self._groups.values()]
        out.sort(key=lambda g: (g[1][0].line, g[1][0].col))
        return out


def _by_name(
    nav: Sources,
    lander: Lander,
    source: Item,
    toks: Sequence[Token],
    rest: list[Candidate],
    calls: _Callees,
    deadline: float,
) -> list[Candidate]:
    """Place the calls of builtins (`len(...)`, `ValueError(...)`) that nothing in the module or
    the body rebinds; the others are returned."""
    attribute = {(c.line, c.col) for c in attribute_calls(source.rel_path, toks, source.line, source.end_line)}
    module = nav.store.module_of(source.rel_path) or ""
    body = "\n".join(read_lines(nav, source.rel_path)[source.line - 1 : source.end_line])
    names = sorted({c.name for c in rest if c.name in _BUILTINS})
    # (the server starts Jedi and places them all once its index is ready: `warm`)
    placed = lander.land_builtins(names, deadline_s=deadline - time.monotonic())
    local = _bound_in(body)
    out = []
    for c in rest:
        if (c.line, c.col) in attribute or c.name not in _BUILTINS or nav.store.binding(module, c.name) is not None:
            out.append(c)
            continue
        if c.name in local:
            out.append(c)  # a local or parameter of that name: Jedi will tell
            continue
        it = _landed_item(nav, placed.get(c.name), called=True)
        if it is None or not names_the_call(nav, source.rel_path, c.name, it.qualname):
            out.append(c)
        else:
            calls.add(it, c)
    return out


_ASSIGNED = re.compile(r"(?<![\w.])(\w+)(?=\s*(?:=[^=]|,[^\n]*=[^=]))")  # `x = `, `x, y = `
_INTRODUCED = re.compile(r"\b(?:as|for|def|class|import)\s+(\w+)\b")
_PARAMETERS = re.compile(r"\bdef\s+\w+\s*\(([^)]*)")
_WORD = re.compile(r"\w+")


def _bound_in(body: str) -> set[str]:
    """The names a body may bind (assigned, `as`/`for`/`def`/`class`/`import`ed, a word of a
    parameter list), read once for all its calls (a pattern per called name cost a compile each)."""
    out = set(_ASSIGNED.findall(body)) | set(_INTRODUCED.findall(body))
    for params in _PARAMETERS.findall(body):
        out.update(_WORD.findall(params))
    return out


def _through_super(
    nav: Sources, source: Item, toks: Sequence[Token], rest: list[Candidate], calls: _Callees
) -> list[Candidate]:
    """Place `super().m(...)` in a method on the first class after its own in the MRO that
    declares `m`; the others are returned."""
    owner = source.qualname.rpartition(".")[0]
    if source.kind != "method" or nav.table.class_binding(owner) is None:
        return rest
    # the body's tokens only (a file's are thousands; this runs on every outgoing request)
    lo, hi = bisect.bisect_left(toks, (source.line,)), bisect.bisect_left(toks, (source.end_line + 1,))
    index = {(toks[i][0], toks[i][1]): i for i in range(lo, hi)}
    if not any(toks[i][2] == "super" for i in index.values()):
        return rest
    out = []
    for c in rest:
        i = index.get((c.line, c.col), 0)
        if i < 4 or [t[2] for t in toks[i - 4 : i]] != ["super", "(", ")", "."]:
            out.append(c)
            continue
        it = next(
            (
                found
                for base in nav.table.mro(owner)[1:]
                if nav.store.binding(base, c.name) is not None and (found := item(nav, f"{base}.{c.name}")) is not None
            ),
            None,
        )
        if it is None:
            out.append(c)
        else:
            calls.add(it, c)
    return out


_ALIASING = (BindingKind.IMPORT, BindingKind.ALIAS, BindingKind.VALUE)


def names_the_call(nav: Sources, rel_path: str, called: str, qualname: str) -> bool:
    """Is the declaration `qualname` one a call of `called` in `rel_path` can run: of that name, or
    through an alias the file writes (`import join as pjoin`, `pjoin = join`) or the index knows
    (a binding of `called` to it)? A landing that fails this is dropped, never shown: a wrong
    callee is worse than a missing one (issue 27: `super()` once landed on `AssertionError`)."""
    declared = qualname.rpartition(".")[2]
    if declared == called:
        return True
    d, c = re.escape(declared), re.escape(called)
    alias = re.compile(rf"\b{d}\s+as\s+{c}\b|(?<![\w.]){c}\s*(?::[^=\n]*)?=\s*[\w.]*\b{d}\b")
    if alias.search("\n".join(read_lines(nav, rel_path))):
        return True
    return any(
        b.kind in _ALIASING and (b.target.rpartition(".")[2] == declared or re.search(rf"\b{d}\b", b.value))
        for b in nav.store.bindings_named(called, limit=20)
    )


def _property_named(nav: Sources, name: str) -> bool:
    return property_named(nav.store, nav.finder().line_text, name)


def property_named(store: SqliteStore, line_text: Callable[[str, int], str], name: str) -> bool:
    """Is `name` a property somewhere in the repository (`@property` or `@cached_property` above
    a `def` of that name)? Only there does reading the attribute run a call."""
    for b in store.bindings_named(name, limit=20):
        if b.kind is BindingKind.FUNCTION and "property" in line_text(b.rel_path, b.line - 1):
            return True
    return False


_CALLABLE = {"function": "function", "method": "method", "class": "class", "property": "property"}


def _landed_item(nav: Sources, landing: Landing | None, called: bool) -> Item | None:
    """The hierarchy item of a declaration Jedi landed on: one the index knows inside the
    repository, a stub's or an installed file's declaration outside it; None for anything that
    is not run there (a variable, a parameter, a module; a method named without a call)."""
    if landing is None or landing.kind not in _CALLABLE or (not called and landing.kind != "property"):
        return None
    it = item(nav, landing.qualname)
    if it is not None and (it.rel_path == landing.path or landing.place is not Place.REPOSITORY):
        # outside: a stub of the repository's own package (Jedi ships django-stubs); a value
        # holding a function (`from_epsg = void_output(...)`) is no declaration of one
        return it if it.kind not in ("value", "module") else None
    if landing.place is Place.REPOSITORY:
        chunk = next((c for c in nav.store.chunks_at(landing.path, landing.line) if c.start_line <= landing.line), None)
        end = (
            chunk.end_line if chunk is not None and chunk.name == landing.qualname.rpartition(".")[2] else landing.line
        )
        return Item(
            qualname=landing.qualname,
            kind=_CALLABLE[landing.kind],
            rel_path=landing.path,
            line=landing.line,
            end_line=end,
        )
    where = {
        Place.STUB: "typeshed stub",
        Place.ENVIRONMENT: "installed package",
        Place.OUTSIDE: "outside the repository",
    }[landing.place]
    return Item(
        qualname=landing.qualname,
        kind=_CALLABLE[landing.kind],
        rel_path=landing.path,
        line=landing.line,
        end_line=landing.line,
        col=landing.col,
        where=f"{where}: {landing.path}",
    )
