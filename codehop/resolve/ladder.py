"""The resolver ladder: symbol table, Jedi, a language server, prose, (model); first answer wins.

Each resolver is one small class behind `Resolver`; the ladder tries them in
order, records which failed and why, follows a landing that is itself a
pointer (an import or an alias) to the declaration within a step bound, and
enforces the trust boundary: a target outside the indexed root is reported
as external, never fetched. Engines arrive as constructor arguments.
May import: records, protocols, symbols, store, errors, stdlib.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from codehop.index.store.rows import landing
from codehop.index.store.sqlite import SqliteStore
from codehop.index.symbols import SymbolTable
from codehop.kernel.errors import CodehopError
from codehop.kernel.protocols import Resolver
from codehop.kernel.records import (
    Binding,
    BindingKind,
    FailureKind,
    Location,
    PendingReference,
    Provenance,
    QueryLog,
    RefType,
    Resolution,
    RungFailure,
    Step,
    StepNote,
    XRef,
)

_PROSE = re.compile(r"(?:see|See|cf\.|refer to|uses?|calls?|defined in)\s+[`:]*(?:\w+:`)?`?~?([A-Za-z_][\w.]*)`?")


class SymbolTableResolver:
    name = Provenance.SYMBOL_TABLE

    def __init__(self, table: SymbolTable) -> None:
        self.table = table

    def resolve(self, ref: PendingReference) -> Resolution | None:
        res = self.table.resolve(ref.ref_target)
        if res is not None:
            return res
        module = self.table.store.module_of(ref.origin_path)
        if module and ref.anchor_text.replace(".", "").isidentifier():
            return self.table.resolve(f"{module}.{ref.anchor_text}")
        return None


class RegexResolver:
    """In-prose references in docstrings and comments: "see `Foo.bar`"."""

    name = Provenance.REGEX

    def __init__(self, table: SymbolTable, root: str) -> None:
        self.table = table
        self.root = root

    def resolve(self, ref: PendingReference) -> Resolution | None:
        from codehop.index.walk import line_of, repo_lines

        line = line_of(repo_lines(Path(self.root), ref.origin_path), ref.origin_line)
        if line is None:  # unreadable, outside the repository, past the end
            return None
        module = self.table.store.module_of(ref.origin_path) or ""
        parts = module.split(".") if module else []
        # as written, then relative to the module and to each package above it
        scopes = [".".join(parts[:i]) for i in range(len(parts), 0, -1)]
        for name in _PROSE.findall(line):
            for dotted in [name, *(f"{s}.{name}" for s in scopes)]:
                res = self.table.resolve(dotted)
                if res is not None and not res.is_external:
                    return Resolution(target=res.target, provenance=self.name, steps=res.steps)
        return None


def _nowhere(path: Path) -> bool:
    return False


def _no_mount(path: str) -> object:
    return None


_TYPESHED = frozenset({"typeshed", "typeshed-fallback"})


@dataclass(frozen=True, slots=True)
class Boundary:
    """The trust boundary a position-based rung's landing must pass: the repository, plus the chosen
    environment's package directories (`environment`: its `contains`). A landing in the environment
    has its distribution indexed and mounted (`mount`) so its declaration can be fetched."""

    root: Path
    environment: Callable[[Path], bool] = _nowhere
    mount: Callable[[str], object] = _no_mount

    def place(self, path: Path) -> str | None:
        """Where a landing goes: its path relative to the repository, its absolute path in the
        environment (mounted), or None outside both (external: named, never fetched)."""
        path = path.resolve()
        if _TYPESHED.intersection(path.parts):
            # the standard library's stubs vendored by a tool (jedi/third_party/typeshed, basedpyright's
            # typeshed-fallback) are not that tool's package code, nor the interpreter's own library
            # (`Lib/`, which the environment serves): they stay external
            return None
        if self.environment(path):  # first: a `.venv` inside the repository is the environment's
            return str(path) if self.mount(str(path)) is not None else None
        from codehop.index.walk import confine

        root = self.root.resolve()
        try:
            return confine(root, str(path)).relative_to(root).as_posix()
        except CodehopError:  # outside the repository
            return None


@dataclass(frozen=True, slots=True)
class Site:
    path: Path  # absolute, inside the root
    line_text: str
    col: int  # 0-based code-point column of the name whose declaration is wanted


def names_the_target(ref: PendingReference) -> bool:
    """The anchor's last name is the declaration wanted (an attribute or call site, an import of
    it), not a step on the way (a base class, a module) whose member is wanted."""
    return ref.anchor_text.rpartition(".")[2] == ref.ref_target.rpartition(".")[2]


def site_of(root: Path, ref: PendingReference) -> Site | None:
    """Where a position-based rung should ask: the last name of the anchor, when the anchor (or
    that name) stands at the reference's origin line and column; None for a reference without
    a real site (a dotted target named in prose, a class statement's column 0)."""
    from codehop.index.walk import confine, file_lines, line_of

    root = root.resolve()
    try:
        path = confine(root, ref.origin_path)
    except CodehopError:  # outside the repository
        return None
    line = line_of(file_lines(path), ref.origin_line)
    if line is None:
        return None
    anchor = ref.anchor_text
    name = anchor.rpartition(".")[2]
    col = ref.origin_col
    if not name or col < 0:
        return None
    if "." in anchor and _word_at(line, col, anchor):
        return Site(path=path, line_text=line, col=col + len(anchor) - len(name))
    if _word_at(line, col, name):
        return Site(path=path, line_text=line, col=col)
    # a cursor inside the name (an editor's position)
    start = col
    while 0 < start <= len(line) and (line[start - 1].isalnum() or line[start - 1] == "_"):
        start -= 1
    if start != col and _word_at(line, start, name):
        return Site(path=path, line_text=line, col=start)
    return None


def _word_at(line: str, col: int, word: str) -> bool:
    if not line.startswith(word, col):
        return False
    before = line[col - 1] if col > 0 else " "
    end = col + len(word)
    after = line[end] if end < len(line) else " "
    return not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_")


@dataclass(frozen=True, slots=True, kw_only=True)
class LadderResult:
    resolution: Resolution | None
    failures: tuple[RungFailure, ...] = ()
    timings_ms: tuple[tuple[str, float], ...] = ()  # (rung, ms) in the order asked
    tried: tuple[str, ...] = ()  # rungs asked, in order
    cached: bool = False  # served from the xref row a previous loop wrote


class Ladder:
    """Each reference is resolved once: the first rung that lands inside the trust boundary wins.

    A resolution the reader already computed (`ref.resolution`) is the symbol-table rung's
    answer, taken without a lookup (rungs placed before that one are still asked first). Before a position-based rung (Jedi, a language server) is asked, the xref
    row a previous loop wrote for the same site is read. Every rung asked that gives no answer
    (or raises, or times out) is recorded in `failures` with why. A landing outside the indexed
    root (an installed package) ends the ladder as external: named, never fetched.
    """

    def __init__(
        self, resolvers: Sequence[Resolver], table: SymbolTable, *, max_steps: int = 8, record: bool = True
    ) -> None:
        self.resolvers = list(resolvers)
        self.table = table
        self.store: SqliteStore = table.store
        self.max_steps = max_steps
        self.record = record

    def resolve(self, ref: PendingReference, via: str | None = None) -> LadderResult:
        failures: list[RungFailure] = []
        timings: list[tuple[str, float]] = []
        tried: list[str] = []
        resolution: Resolution | None = None
        cache_read = False
        for r in self.resolvers:
            name = str(r.name)
            if via is not None and name != via:
                continue
            if r.name in _SITE_RUNGS and not cache_read and via is None:  # `via`: that rung itself
                cache_read = True
                cached = self.cached(ref)
                if cached is not None:
                    return LadderResult(
                        resolution=self.follow(cached),
                        failures=tuple(failures),
                        timings_ms=tuple(timings),
                        tried=tuple(tried),
                        cached=True,
                    )
            tried.append(name)
            t0 = time.perf_counter()
            res: Resolution | None
            if r.name is Provenance.SYMBOL_TABLE and ref.resolution is not None:
                res = ref.resolution  # the reader's own table lookup: handed over, not redone
            else:
                try:
                    res = r.resolve(ref)
                except Exception as exc:  # a resolver's failure is a rung skipped, never the query's end
                    failures.append(
                        RungFailure(resolver=name, kind=FailureKind.RAISED, detail=f"{type(exc).__name__}: {exc}")
                    )
                    res = None
            timings.append((name, (time.perf_counter() - t0) * 1000))
            if res is None:
                if not any(f.resolver == name for f in failures):
                    failures.append(RungFailure(resolver=name, kind=FailureKind.NO_ANSWER))
                continue
            if res.is_external:
                # a module outside the indexed root (an installed package, the standard library):
                # named, never fetched; a later rung would land there too, so none is asked
                resolution = res
                break
            res = self.follow(res)
            if ref.ref_type is RefType.INHERITED_MEMBER and not names_the_target(ref):
                member = self.member_of(res, ref.ref_target.rpartition(".")[2])
                if member is None:  # landed on the base, whose table does not hold the member either
                    where = res.target.qualname or res.target.rel_path
                    failures.append(RungFailure(resolver=name, kind=FailureKind.NOT_THE_MEMBER, detail=where))
                    continue
                res = member
            resolution = res
            break
        return LadderResult(
            resolution=resolution, failures=tuple(failures), timings_ms=tuple(timings), tried=tuple(tried)
        )

    def member_of(self, res: Resolution, member: str) -> Resolution | None:
        """A landing on the base class of an inherited member -> the member, through that class."""
        qual = res.target.qualname
        if res.is_external or not qual or self.table.class_binding(qual) is None:
            return res if qual.rpartition(".")[2] == member else None
        found = self.table.resolve(f"{qual}.{member}")
        if found is None or found.is_external:
            return None
        return Resolution(target=found.target, provenance=res.provenance, steps=res.steps + found.steps)

    def cached(self, ref: PendingReference) -> Resolution | None:
        """The landing a previous loop recorded for this site (xref row), if it is still a declaration."""
        try:
            row = self.store.cached_resolution(ref.origin_path, ref.origin_line, ref.anchor_text)
        except Exception:  # a busy index: ask the rungs instead
            return None
        if row is None or row.provenance not in _SITE_RUNGS:
            return None
        here = self.store.bindings_at(row.target_path, row.target_line)
        if not here:
            return None
        target = Location(rel_path=row.target_path, line=row.target_line, qualname=f"{here[0].scope}.{here[0].name}")
        origin = Location(rel_path=ref.origin_path, line=ref.origin_line, qualname=ref.anchor_text)
        prov = row.provenance
        # a row in an installed package's index was bridged when the package was indexed; a row in
        # the repository's was written by an earlier loop
        note = StepNote.BRIDGED if self.store.mounted(ref.origin_path) is not None else StepNote.CACHED
        return Resolution(
            target=target,
            provenance=prov,
            steps=(Step(from_loc=origin, to_loc=target, resolver=prov, note=note),),
        )

    def follow(self, res: Resolution) -> Resolution:
        """A landing on an import or alias line is followed to the declaration (bounded)."""
        steps = list(res.steps)
        for _ in range(self.max_steps):
            if res.is_external or not res.target.rel_path:
                break
            if res.target.qualname and self.store.module_of(res.target.rel_path) == res.target.qualname:
                # a module (its line 1 stands for the whole file), not a landing on whatever its
                # first line binds (`from .serving import run_simple` in a package's __init__.py)
                break
            b = self._binding_at(res.target)
            if b is None or b.kind not in (BindingKind.IMPORT, BindingKind.ALIAS):
                break
            nxt = self.table.resolve(f"{b.scope}.{b.name}")
            if nxt is None or nxt.target == res.target:
                break
            first = nxt.steps[0].from_loc if nxt.steps else None
            if first is None or (first.rel_path, first.line) != (res.target.rel_path, res.target.line):
                steps.append(
                    Step(
                        from_loc=res.target,
                        to_loc=nxt.target,
                        resolver=Provenance.SYMBOL_TABLE,
                        note=StepNote.ALIAS if b.kind is BindingKind.ALIAS else StepNote.IMPORT,
                    )
                )
            steps.extend(nxt.steps)
            res = Resolution(target=nxt.target, provenance=res.provenance, steps=tuple(steps), external=nxt.external)
        return res

    def _binding_at(self, loc: Location) -> Binding | None:
        """The binding in force for the name declared at `loc` (the last one wins, as at run time)."""
        here = self.store.bindings_at(loc.rel_path, loc.line)
        return self.store.binding(here[0].scope, here[0].name) if here else None

    def log(self, landed: Sequence[tuple[PendingReference, Resolution]]) -> QueryLog:
        """What the landings of one query leave in the index: how each hop was served (counters)
        and, for a position-based landing not read from a row, the xref row that remembers it, so
        the site is not resolved again. The store writes it after the query's read snapshot."""
        if not self.record:
            return QueryLog()
        table = bridged = resolver = 0
        rows: list[XRef] = []
        for ref, res in landed:
            if res.is_external:
                continue
            if res.provenance is Provenance.SYMBOL_TABLE:
                table += 1
                continue
            if any(s.note is StepNote.BRIDGED for s in res.steps):
                bridged += 1  # served by a row written when an installed package was indexed
                continue
            resolver += 1
            if any(s.note is StepNote.CACHED for s in res.steps):
                continue
            at = _rung_landing(res)
            rows.append(landing(ref, at.rel_path, at.line, res.provenance))
        counts = (("hops_from_table", table), ("hops_from_index", bridged), ("hops_from_resolver", resolver))
        counters = tuple((k, n) for k, n in counts if n)
        return QueryLog(counters=counters, landings=tuple(rows))

    def feed_back(self, ref: PendingReference, res: Resolution) -> None:
        """Write one loop-time landing now (outside any read snapshot; a busy index is skipped)."""
        self.store.record_query(self.log([(ref, res)]))


_SITE_RUNGS = frozenset({Provenance.JEDI, Provenance.LSP})
_FOLLOWED = frozenset({StepNote.ALIAS, StepNote.IMPORT})


def _rung_landing(res: Resolution) -> Location:
    """Where the rung itself landed, before the symbol table followed an alias or import on (the
    row remembers that, and a cached read follows again: the assignment stays in the chain)."""
    if len(res.steps) > 1 and all(s.note in _FOLLOWED for s in res.steps[1:]):
        return res.steps[0].to_loc
    return res.target
