"""The index's own symbol table: exact, static resolution of dotted names.

Follows what Python itself would: module namespaces (last binding wins),
`from m import X [as Y]`, `import a.b [as c]`, `X = Y` aliases (in a class
body, names defined earlier in that body come first), `from m import *`
honouring `__all__`, submodules, and attribute lookup on classes through
their C3 MRO. Every link it follows is kept as a Step. May import: records,
store, stdlib.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from codehop.index.snapshot import LayeredSnapshot, PackageProvider, SqlSymbols, SymbolSnapshot
from codehop.index.store.rows import SymbolRows
from codehop.index.store.sqlite import SqliteStore
from codehop.kernel.records import Binding, BindingKind, ClassInfo, Location, Provenance, Resolution, Step, StepNote

PS = Provenance.SYMBOL_TABLE


@dataclass(frozen=True, slots=True)
class _Module:
    name: str
    rel_path: str


@dataclass(frozen=True, slots=True)
class _External:
    name: str


_Target = Binding | _Module | _External
# a link of a chain as it is walked: (from, to, note); made a Step only when a Resolution is built
_Link = tuple[_Target | Location, _Target | Location, StepNote]


class _Budget(Exception):
    """The chain is longer than the step bound, or cycles."""


# how many classes an MRO walk follows up an inheritance chain before it stops (Python allows any
# depth; a chain this deep is a generated or hostile file, and the walk must not cost the stack)
MAX_MRO = 400


_SHADOWING = frozenset({BindingKind.FUNCTION, BindingKind.CLASS, BindingKind.VALUE})


class SymbolTable:
    """Resolution over an in-memory snapshot of the index, reloaded when the index changes."""

    def __init__(self, store: SqliteStore, *, max_steps: int = 24, packages: PackageProvider | None = None) -> None:
        self.store = store
        self.packages = packages  # installed distributions, indexed and mounted on first use
        self.max_steps = max_steps
        # each thread keeps the snapshot of the index version its query reads, so a query in
        # one thread never sees symbols another thread loaded for a newer version
        self._local = threading.local()
        self._shared: dict[int, SymbolSnapshot] = {}
        self._lock = threading.Lock()

    @property
    def _src(self) -> SymbolSnapshot:
        snap: SymbolSnapshot | None = getattr(self._local, "snap", None)
        return snap if snap is not None else self.src

    @property
    def src(self) -> SymbolSnapshot:
        snap: SymbolSnapshot | None = getattr(self._local, "snap", None)
        if snap is not None and getattr(self._local, "pinned", False):
            return snap
        version = self.store.data_version()
        if snap is None or snap.version != version:
            with self._lock:
                snap = self._shared.get(version)
                if snap is None:
                    snap = SymbolSnapshot(self.store)
                    if self.packages is not None:
                        snap = LayeredSnapshot(snap, self.packages)  # type: ignore[assignment]
                    self._shared = {snap.version: snap}  # threads on older versions keep their own
            self._local.snap = snap
        return snap

    def pin(self, lazy: bool = False, rows: SymbolRows | None = None) -> None:
        """Fix this thread's symbols to its transaction's own view (a writer calls this after writing):
        all loaded at once (from `rows` when the writer holds them), or (`lazy`, for a small update)
        looked up as needed."""
        self._local.snap = SqlSymbols(self.store) if lazy else SymbolSnapshot(self.store, rows)
        self._local.pinned = True

    def check(self) -> None:
        """Follow the index version this thread reads (skipped while pinned by a writer)."""
        if not getattr(self._local, "pinned", False):
            _ = self.src

    # ---- public ------------------------------------------------------------
    def resolve(self, dotted: str) -> Resolution | None:
        """Declaration of `dotted` (`pkg.mod.Class.member`), with the chain, or None."""
        self.check()
        self._local.missing = set()
        steps: list[_Link] = []
        try:
            target = self._dotted(dotted, steps, set())
        except _Budget:
            return None
        if target is None:
            return None
        return self.resolution(target, steps)

    def resolve_flat(self, dotted: str) -> tuple[str, int, str, str] | None:
        """`resolve` without the chain, for bulk resolution: (path, line, qualname, external name)
        of the target's location (the external name empty when it is not external), or None."""
        self.check()
        self._local.missing = set()
        try:
            target = self._dotted(dotted, [], set())
        except _Budget:
            return None
        if target is None:
            return None
        if isinstance(target, _External):
            return ("", 0, target.name, target.name)
        if isinstance(target, _Module):
            return (target.rel_path, 1, target.name, "")
        return (target.rel_path, target.line, f"{target.scope}.{target.name}", "")

    def resolution(self, target: _Target, steps: list[_Link]) -> Resolution:
        chain = tuple(Step(from_loc=_as_loc(a), to_loc=_as_loc(b), resolver=PS, note=note) for a, b, note in steps)
        if isinstance(target, _External):
            return Resolution(
                target=Location(rel_path="", line=0, qualname=target.name),
                provenance=PS,
                steps=chain,
                external=target.name,
            )
        return Resolution(target=_loc(target), provenance=PS, steps=chain)

    def binding_of(self, dotted: str) -> Binding | None:
        """The binding that `dotted` names in its own scope, without following it."""
        scope, _, name = dotted.rpartition(".")
        if not scope:
            return None
        b = self._src.binding(scope, name)
        if b is not None:
            return b
        self._local.missing = set()
        try:
            owner = self._dotted(scope, [], set())
        except _Budget:
            return None
        if isinstance(owner, Binding) and owner.kind is BindingKind.CLASS:
            for k in self.mro(f"{owner.scope}.{owner.name}"):
                b = self._src.binding(k, name)
                if b is not None:
                    return b
        if isinstance(owner, _Module):
            return self._src.binding(owner.name, name)
        return None

    def find_module(self, dotted: str) -> tuple[str, list[str]] | None:
        """Longest module prefix of `dotted` in the index, and the remaining names."""
        src = self._src
        hit = src.prefixes.get(dotted)
        if hit is None:
            mod = src.module_prefix(dotted)
            hit = (mod, tuple(dotted[len(mod) + 1 :].split(".")) if mod != dotted else ())
            src.prefixes[dotted] = hit
        if not hit[0]:
            return None
        return hit[0], list(hit[1])

    def mro(self, class_qualname: str) -> tuple[str, ...]:
        """C3 linearisation over the bases the index can resolve (external ones dropped). Computed
        without recursion, ancestors first, so an inheritance chain as deep as a repository likes
        costs no stack; the walk visits at most MAX_MRO classes (a deeper chain is cut there, and
        only the linearisations the cut did not touch are cached)."""
        cache = self._src.mro  # per snapshot: the same version gives the same answer in every thread
        if class_qualname in cache:
            return cache[class_qualname]
        done: dict[str, tuple[str, ...]] = {}
        cut: set[str] = set()
        pending: list[tuple[str, list[str] | None]] = [(class_qualname, None)]
        on_path: set[str] = set()
        visited = 0
        while pending:
            qual, bases = pending[-1]
            if bases is None:
                if qual in cache or qual in done:
                    pending.pop()
                    continue
                visited += 1
                bases = [f"{b.scope}.{b.name}" for _, b in self.base_classes(qual) if b is not None]
                bases = [b for b in bases if b != qual]
                pending[-1] = (qual, bases)
                on_path.add(qual)
                todo = [b for b in bases if b not in cache and b not in done and b not in on_path]
                if todo and visited < MAX_MRO:
                    pending.extend((b, None) for b in reversed(todo))
                    continue
                if todo:
                    cut.add(qual)
            pending.pop()
            on_path.discard(qual)
            # a base still on the path is an inheritance cycle: it stands for itself alone
            seqs = [list(cache.get(b) or done.get(b) or (b,)) for b in bases]
            done[qual] = _c3(qual, [*seqs, list(bases)])
            if qual in cut or any(b in cut or b in on_path for b in bases):
                cut.add(qual)
            else:
                cache[qual] = done[qual]
        return cache.get(class_qualname) or done[class_qualname]

    def mro_partial(self, class_qualname: str) -> bool:
        """Whether the class's MRO is cut: its inheritance chain runs past MAX_MRO classes, or
        cycles. An answer that misses a member in such an MRO is partial, not "no such member"."""
        self.mro(class_qualname)
        return class_qualname not in self._src.mro

    def class_binding(self, qualname: str) -> Binding | None:
        scope, _, name = qualname.rpartition(".")
        b = self._src.binding(scope, name)
        return b if b is not None and b.kind is BindingKind.CLASS else None

    def class_info(self, class_qualname: str) -> ClassInfo | None:
        """The class statement's facts (bases as written: `?expr` for one the index cannot name)."""
        return self._src.class_info(class_qualname)

    def base_classes(self, class_qualname: str) -> list[tuple[str, Binding | None]]:
        """(base as written, its class binding or None) for each base of a class."""
        info = self._src.class_info(class_qualname)
        if info is None:
            return []
        self._local.missing = set()  # a walk of its own (inside another, it only forgets)
        out: list[tuple[str, Binding | None]] = []
        for base in info.bases:
            if base.startswith("?"):
                out.append((base[1:], None))
                continue
            try:
                t = self._dotted(base, [], set())
            except _Budget:
                t = None
            out.append((base, t if isinstance(t, Binding) and t.kind is BindingKind.CLASS else None))
        return out

    # ---- internals -----------------------------------------------------------
    def _dotted(
        self, dotted: str, steps: list[_Link], seen: set[str], imported: bool = False, depth: int = 0
    ) -> _Target | None:
        """`imported`: the name comes from an import statement, so a module the index lacks is
        external; a bare dotted name with no module of ours in front is merely unknown (a local).
        `depth`: the links followed to get here (each alias, import or star import is one); past
        `max_steps` the chain is given up, so the stack never grows with a repository's chains."""
        if depth > self.max_steps or len(steps) > self.max_steps:
            raise _Budget
        found = self.find_module(dotted)
        if found is None:
            return _External(dotted) if dotted and imported else None
        mod, rest = found
        parent, _, last = mod.rpartition(".")
        shadow = self._src.binding(parent, last) if parent and not rest else None
        if shadow is not None and shadow.kind in _SHADOWING:
            # `def markdown` in `mistune/__init__.py` rebinds `mistune.markdown` after the submodule
            # set it: the package's own binding is what `pkg.name` is at run time
            return self._follow(shadow, steps, seen | {dotted}, depth)
        cur: _Target | None = _Module(mod, self._src.module_path(mod) or "")
        for name in rest:
            assert cur is not None
            cur = self._member(cur, name, steps, seen, depth)
            if cur is None or isinstance(cur, _External):
                return cur
        return cur

    def _member(self, cur: _Target, name: str, steps: list[_Link], seen: set[str], depth: int) -> _Target | None:
        if isinstance(cur, _External):
            return _External(f"{cur.name}.{name}")
        if isinstance(cur, _Module):
            return self._module_member(cur, name, steps, seen, depth)
        if cur.kind is BindingKind.CLASS:
            owner = f"{cur.scope}.{cur.name}"
            binding = self._src.binding
            for k in self.mro(owner):
                b = binding(k, name)
                if b is not None:
                    if k != owner:
                        steps.append((cur, b, StepNote.MRO))
                    return self._follow(b, steps, seen, depth)
            return None
        return None  # attribute of a function or a value: beyond static tables

    def _module_member(self, mod: _Module, name: str, steps: list[_Link], seen: set[str], depth: int) -> _Target | None:
        key = f"{mod.name}.{name}"
        if key in seen or depth > self.max_steps:
            raise _Budget
        src = self._src
        b = src.binding(mod.name, name)
        if b is not None:
            return self._follow(b, steps, seen | {key}, depth)
        sub = src.module_path(key)
        if sub is not None:
            return _Module(key, sub)
        stars = src.stars(mod.name)
        if not stars:
            return None
        missing = self._missing()
        if key in missing:
            return None  # searched already in this walk: star imports that meet again are read once
        for star, line in stars:
            names = src.all_names(star)
            if names is not None and name not in names:
                continue
            if names is None and name.startswith("_"):
                continue
            star_path = src.module_path(star)
            if star_path is None:
                continue
            sub_steps: list[_Link] = []
            found = self._module_member(_Module(star, star_path), name, sub_steps, seen | {key}, depth + 1)
            if found is not None and not isinstance(found, _External):
                here = Location(rel_path=mod.rel_path, line=line, qualname=key)
                steps.append((here, _first_loc(sub_steps, found), StepNote.STAR_IMPORT))
                steps.extend(sub_steps)
                return found
        missing.add(key)
        return None

    def _missing(self) -> set[str]:
        """`module.name` lookups through star imports that found nothing, in the current walk (a
        lattice of star imports is otherwise searched once per path: exponential in its depth)."""
        missing: set[str] | None = getattr(self._local, "missing", None)
        if missing is None:
            missing = self._local.missing = set()
        return missing

    def _follow(self, b: Binding, steps: list[_Link], seen: set[str], depth: int) -> _Target | None:
        kind = b.kind
        if kind is BindingKind.CLASS or kind is BindingKind.FUNCTION or kind is BindingKind.VALUE:
            return b
        if depth >= self.max_steps or len(steps) > self.max_steps:
            raise _Budget
        sub_steps: list[_Link] = []
        if kind is BindingKind.MODULE:
            path = self._src.module_path(b.target)
            target: _Target = _Module(b.target, path) if path else _External(b.target)
        else:
            found = self._dotted(b.target, sub_steps, seen, imported=kind is BindingKind.IMPORT, depth=depth + 1)
            if found is None:
                return None
            target = found
        steps.append(
            (b, _first_loc(sub_steps, target), StepNote.ALIAS if kind is BindingKind.ALIAS else StepNote.IMPORT)
        )
        steps.extend(sub_steps)
        return target


def _c3(qual: str, seqs: list[list[str]]) -> tuple[str, ...]:
    """C3 merge of the bases' linearisations, in time linear in their total length (a count of
    each class's appearances in the sequences' tails replaces the quadratic `head in tail` test);
    an inconsistent hierarchy falls back to depth-first order."""
    seqs = [s for s in seqs if s]
    tails: dict[str, int] = {}
    for s in seqs:
        for x in s[1:]:
            tails[x] = tails.get(x, 0) + 1
    starts = [0] * len(seqs)
    out = [qual]
    placed = {qual}
    while True:
        live = [i for i in range(len(seqs)) if starts[i] < len(seqs[i])]
        if not live:
            return tuple(out)
        for i in live:
            head = seqs[i][starts[i]]
            if not tails.get(head):
                break
        else:
            for i in live:
                for x in seqs[i][starts[i] :]:
                    if x not in placed:
                        placed.add(x)
                        out.append(x)
            return tuple(out)
        if head not in placed:
            placed.add(head)
            out.append(head)
        for i in live:
            if seqs[i][starts[i]] == head:
                starts[i] += 1
                if starts[i] < len(seqs[i]):
                    tails[seqs[i][starts[i]]] -= 1


def _loc(t: _Target) -> Location:
    if isinstance(t, _Module):
        return Location(rel_path=t.rel_path, line=1, qualname=t.name)
    if isinstance(t, _External):
        return Location(rel_path="", line=0, qualname=t.name)
    return Location(rel_path=t.rel_path, line=t.line, qualname=f"{t.scope}.{t.name}", end_line=t.end_line)


def _as_loc(t: _Target | Location) -> Location:
    return t if isinstance(t, Location) else _loc(t)


def _first_loc(sub_steps: list[_Link], final: _Target) -> _Target | Location:
    return sub_steps[0][0] if sub_steps else final
