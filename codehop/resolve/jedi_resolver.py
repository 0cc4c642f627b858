"""JediResolver: Jedi's goto/infer, in process, with a deadline per call.

A reference that carries its site (the wanted name stands at its origin line
and column) is asked there, position-based, as an editor would; otherwise a
dotted absolute target is resolved through a two-line probe (`import mod`
then `mod.rest`), which lets Jedi follow re-exports, star imports and
attribute lookup through the MRO; a landing on `X = Y` goes through with
`infer()`.
Several targets are sorted, because Jedi's order changes between runs.
For the call hierarchy, `land` asks at many sites of one file with one Script (their inference
shared, stubs preferred: builtins land in typeshed as basedpyright answers) within a deadline,
and `land_builtins` places the builtins by name; each answer is a `Landing` and says its `Place`.
Their Scripts share one inference state (Jedi makes one per Script), so typeshed and the modules
one file imports are inferred once for the next file too: dropped with the kept landings, after
_LANDINGS_TTL_S or `forget()` (the index saw a change). Every answer Jedi gives `land` and
`land_builtins` is also kept across sessions in the repository's `.codehop/landings.db`, by
content (codehop.index.landings): a site found there is answered without Jedi.
Owns the only use of `jedi`. May import: records, symbols, stdlib, jedi.
"""

from __future__ import annotations

import builtins
import re
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from codehop.index.landings import NO_LANDING, LandingCache, Row
from codehop.index.symbols import SymbolTable
from codehop.kernel.errors import CodehopError
from codehop.kernel.records import BindingKind, Location, PendingReference, Provenance, Resolution, Step, StepNote
from codehop.resolve.jedi_bridge import jedi_project
from codehop.resolve.ladder import Boundary, names_the_target, site_of

_STUB_DIRS = frozenset({"typeshed", "typeshed-fallback"})
_MAX_LANDINGS = 20_000  # landings kept for later requests (a few MB at most)
_LAND_GRACE_S = 0.25  # past a deadline, how long `land` waits for the site Jedi is reading
_IDLE_WARM_S = 2.0  # a later session starts Jedi after this long without a call hierarchy request
_LANDINGS_TTL_S = 120.0  # and for this long: they also depend on the files the names land in

# Jedi and parso keep state for the whole process: parso's parser cache holds a tree by its path
# and updates that same tree in place for the next Script at the path (two probes of different
# names at `__codehop_probe__.py`, on two resolvers' threads, read each other's lines: `super`
# placed as `AssertionError`), and Jedi's settings are globals (`_land` turns some off). Every
# use of Jedi holds this lock, whichever resolver it runs for.
_JEDI_LOCK = threading.Lock()
_P = ParamSpec("_P")
_T = TypeVar("_T")


def _one_at_a_time(fn: Callable[_P, _T]) -> Callable[_P, _T]:
    """`fn` under _JEDI_LOCK: one Jedi job at a time in the process."""

    def locked(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        with _JEDI_LOCK:
            return fn(*args, **kwargs)

    return locked


class JediTimeout(CodehopError):
    pass


class Place(StrEnum):
    """Where a landing lies, for what an editor shows beside it."""

    REPOSITORY = "repository"
    ENVIRONMENT = "environment"  # an installed package of the chosen environment
    STUB = "stub"  # a typeshed stub (builtins, the standard library)
    OUTSIDE = "outside"  # anywhere else: the interpreter's own library, another tool's files


@dataclass(frozen=True, slots=True, kw_only=True)
class Landing:
    """Where the name at one site lands: `path` repository-relative for REPOSITORY, absolute
    otherwise (named, never fetched: no distribution is indexed or mounted for it)."""

    path: str
    line: int  # 1-based
    col: int  # 0-based code points
    qualname: str
    kind: str  # Jedi's type of the name ("function", "class", "property", "statement", ...), "method" in a class
    place: Place


class JediResolver:
    name = Provenance.JEDI

    record_misses = False  # keep "lands nowhere" in the cache (the land worker: a fresh state per file)

    def __init__(
        self,
        root: str,
        table: SymbolTable,
        *,
        timeout_s: float = 5.0,
        python: str | None = None,
        sys_path: tuple[str, ...] | None = None,
        boundary: Boundary | None = None,
        cache: LandingCache | None = None,
    ) -> None:
        self.root = Path(root)
        self.cache = cache  # landings kept across sessions, by content (see codehop.index.landings)
        # an interpreter outside the repository the user chose (else codehop's own: nothing of the
        # repository's ever runs) and the environment's import paths, read (see jedi_project)
        self.python = python
        self.sys_path = sys_path
        self.boundary = boundary or Boundary(self.root)
        self.table = table
        self.timeout_s = timeout_s
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="codehop-jedi")
        self._project: Any = None
        self._lock = threading.Lock()
        self._warm = False
        self._script: tuple[tuple[str, int, int], Any] | None = None  # (file stamp, Script) of `land`
        self._state: Any = None  # the inference state `land`'s Scripts share (see `_shared_script`)
        self._landings: dict[tuple[str, int, int, int, int], Landing | None] = {}
        self._land_epoch = time.monotonic()
        self._builtins: dict[str, Landing | None] = {}  # `land_builtins`'s answers, for the process
        self._last_use = time.monotonic()  # of `land`, `land_builtins` or `busy`: when to warm (`warm`)
        self._closed = False

    def _jedi(self) -> Any:
        # importing jedi raises the process-wide recursion limit to 3000; the indexer in the same
        # process relies on the default to refuse absurdly nested files, so it is put back (a
        # deeper Jedi recursion becomes this rung's failure, caught by the ladder)
        limit = sys.getrecursionlimit()
        import jedi

        sys.setrecursionlimit(limit)

        if self._project is None:
            # the indexed root comes first, so an installed copy of the same package never wins
            self._project = jedi_project(jedi, self.root, python=self.python, sys_path=self.sys_path)
        return jedi

    def resolve(self, ref: PendingReference) -> Resolution | None:
        # the first calls load the environment's modules: they get a longer deadline
        timeout_s = self.timeout_s if self._warm else max(20.0, 4 * self.timeout_s)
        fut = self._pool.submit(self._resolve, ref)
        try:
            res = fut.result(timeout=timeout_s)
        except FutureTimeout as exc:
            raise JediTimeout(f"jedi took longer than {timeout_s:g} s", ref=ref.ref_target) from exc
        self._warm = True
        return res

    @_one_at_a_time
    def _resolve(self, ref: PendingReference) -> Resolution | None:
        jedi = self._jedi()
        names: list[Any] = []
        site = site_of(self.root, ref)
        # at the site when it names the declaration wanted, as an editor would; a dotted absolute
        # target (a member inherited through a base, a module's export) through a probe
        order = ("site", "probe") if names_the_target(ref) else ("probe", "site")
        for how in order:
            if how == "site" and site is not None:
                script = jedi.Script(path=str(site.path), project=self._project)
                names = self._goto(script, ref.origin_line, site.col, self._alias_at)
            elif how == "probe" and (found := self.table.find_module(ref.ref_target)) is not None:
                mod, rest = found
                expr = ".".join([mod, *rest])
                script = jedi.Script(
                    code=f"import {mod}\n{expr}\n", path=str(self.root / "__codehop_probe__.py"), project=self._project
                )
                names = self._goto(script, 2, len(expr), self._alias_at)
            if names:
                break
        if not names:
            return None
        n = names[0]
        mpath = Path(str(n.module_path)).resolve()
        origin = Location(rel_path=ref.origin_path, line=ref.origin_line, qualname=ref.anchor_text)
        rel = self.boundary.place(mpath)
        if rel is None:
            ext = n.module_name or mpath.stem
            return Resolution(target=Location(rel_path="", line=0, qualname=ext), provenance=self.name, external=ext)
        target = Location(rel_path=rel, line=n.line or 1, qualname=n.full_name or n.name)
        landed = Step(from_loc=origin, to_loc=target, resolver=self.name, note=StepNote.GOTO)
        on = self._alias_at(n)
        if on is not None:  # `X = Y`: the assignment, then where the symbol table takes `Y`
            return Resolution(target=on.target, provenance=self.name, steps=(landed, *on.steps), external=on.external)
        return Resolution(target=target, provenance=self.name, steps=(landed,))

    @staticmethod
    def _goto(script: Any, line: int, col: int, keep: Callable[[Any], object] | None = None) -> list[Any]:
        names = [n for n in script.goto(line, col, follow_imports=True) if n.module_path is not None]
        statements = [n for n in names if n.type == "statement"]
        if statements and not (keep is not None and any(keep(n) is not None for n in statements)):
            # `X = f()`: only infer() goes through; `X = Y` in the repository is kept, and the
            # ladder follows the alias itself (a class attribute is answered where it is assigned)
            inferred = [n for n in script.infer(line, col) if n.module_path is not None]
            names = inferred or names
        names = [n for n in names if not str(n.module_path).endswith("__codehop_probe__.py")]
        return sorted(names, key=lambda n: (str(n.module_path), n.line or 0))

    def _alias_at(self, n: Any) -> Resolution | None:
        """Where the symbol table takes Jedi's landing on an `X = Y` of the repository, if it does."""
        if n.type != "statement" or not n.line:
            return None
        rel = self.boundary.place(Path(str(n.module_path)).resolve())
        here = [b for b in self.table.store.bindings_at(rel, n.line) if b.name == n.name] if rel else []
        if not here or here[0].kind is not BindingKind.ALIAS:
            return None
        return self.table.resolve(f"{here[0].scope}.{n.name}")

    def land(self, rel_path: str, positions: Sequence[tuple[int, int]], *, deadline_s: float) -> list[Landing | None]:
        """Where the name at each (1-based line, 0-based col) of one repository file lands, asked of
        one Script so that every site shares its inference cache, stubs preferred (builtins and the
        standard library land in typeshed, as basedpyright answers). None: no answer, or the site
        came after the deadline (counted from the call: behind another request, fewer are read;
        Jedi's first use gets 4 x its timeout)."""
        self._last_use = time.monotonic()
        if not positions:
            return []
        scope = self.cache.scope(rel_path) if self.cache is not None else ""
        kept = self._kept(rel_path, scope, positions) if scope else {}
        missing = tuple(p for p in dict.fromkeys(positions) if p not in kept)
        if missing:
            deadline_s = deadline_s if self._warm else max(deadline_s, 4 * self.timeout_s)  # Jedi's first use
            if deadline_s > 0:
                fut = self._pool.submit(self._land, rel_path, missing, time.monotonic() + deadline_s, scope)
                try:
                    kept.update(zip(missing, fut.result(timeout=deadline_s + _LAND_GRACE_S), strict=True))
                    self._warm = True
                except FutureTimeout:  # one slow site: the worker finishes it and keeps it for the next request
                    pass
        return [kept.get(p) for p in positions]

    def landed(
        self, rel_path: str, positions: Sequence[tuple[int, int]]
    ) -> tuple[list[Landing | None], list[tuple[int, int]]]:
        """What the landing cache already knows at these sites, never asking Jedi: (the answer at
        each position, None where none is kept; the positions with no answer kept, asked of no one).
        A request that must not wait for Jedi reads this and hands the rest to the land worker."""
        scope = self.cache.scope(rel_path) if self.cache is not None and positions else ""
        kept = self._kept(rel_path, scope, positions) if scope else {}
        return [kept.get(p) for p in positions], [p for p in dict.fromkeys(positions) if p not in kept]

    def _kept(
        self, rel_path: str, scope: str, positions: Sequence[tuple[int, int]]
    ) -> dict[tuple[int, int], Landing | None]:
        """The cache's valid answers at these sites: a landing in the repository only while its
        target file holds what it held."""
        assert self.cache is not None
        out: dict[tuple[int, int], Landing | None] = {}
        for pos, row in self.cache.get(rel_path, scope, positions).items():
            if row.path is None:
                out[pos] = None
            elif row.place != Place.REPOSITORY or self.cache.hashes(row.path) == row.target_hash:
                out[pos] = _from_row(row)
        return out

    def land_builtins(self, names: Sequence[str], *, deadline_s: float) -> dict[str, Landing]:
        """Where builtins land (`len` -> typeshed's `builtins.pyi`): the ones not placed yet all at
        once, one probe of one name a line in one Script, so typeshed's builtins are read once
        per process. Past the deadline, the names placed so far (the rest are kept for later)."""
        self._last_use = time.monotonic()
        self._kept_builtins()
        wanted = tuple(n for n in dict.fromkeys(names) if n.isidentifier() and n not in self._builtins)
        if wanted:
            fut = self._pool.submit(self._land_builtins, wanted)
            try:  # Jedi's first use loads its environment and typeshed: it gets longer
                fut.result(timeout=max(deadline_s, 0.0) if self._warm else max(deadline_s, 4 * self.timeout_s))
                self._warm = True
            except FutureTimeout:
                pass
        return {n: landing for n in names if (landing := self._builtins.get(n)) is not None}

    def open_cache(self) -> None:
        """Open the landing cache and read the index's file hashes now (a server, once its index is
        ready), so that the first request does not pay for it (about 30 ms on Starlette)."""
        if self.cache is not None:
            self.cache.hashes.load()
            self._kept_builtins()

    def warm(self) -> None:
        """Start Jedi in the background (its environment, typeshed's builtins, each builtin's place),
        so that the first `land` or `land_builtins` does not pay for it; a request that comes
        meanwhile waits for it on Jedi's one thread. When the cache placed every builtin (a later
        session), the requests it answers need no Jedi: the start waits until they leave the
        server idle for _IDLE_WARM_S, so that it does not take their interpreter from them."""
        self._kept_builtins()
        names = tuple(n for n in dir(builtins) if not n.startswith("_") and n not in self._builtins)
        if names:
            self._pool.submit(self._land_builtins, names)
            return
        threading.Thread(target=self._warm_when_idle, name="codehop-jedi-warm", daemon=True).start()

    def busy(self) -> None:
        """A request is being answered (any editor request, not only one that asks Jedi): a start
        that waits for the server to be idle (`warm`) waits on (a references pass longer than
        _IDLE_WARM_S read as idle, and Jedi's start, a second of CPU, came beside the requests
        after it)."""
        self._last_use = time.monotonic()

    def idle_s(self) -> float:
        """Seconds since the last `land`, `land_builtins` or `busy` (since the start when none came)."""
        return time.monotonic() - self._last_use

    def _warm_when_idle(self) -> None:
        while not self._closed and not self._warm:
            idle = time.monotonic() - self._last_use
            if idle >= _IDLE_WARM_S:
                self._pool.submit(self._land_builtins, ("len",))  # the environment and typeshed's builtins
                return
            time.sleep(_IDLE_WARM_S - idle)

    def _kept_builtins(self) -> None:
        """The builtins' places from the cache, once (they depend only on its environment stamp); a
        row placing a name on a declaration of another name is never taken (Jedi is asked again)."""
        if self.cache is not None and not self._builtins:
            for name, row in self.cache.builtins().items():
                if row.path is None:
                    self._builtins.setdefault(name, None)
                elif row.qualname.rpartition(".")[2] == name:
                    self._builtins.setdefault(name, _from_row(row))

    @_one_at_a_time
    def _land_builtins(self, names: tuple[str, ...]) -> None:
        jedi = self._jedi()
        code = "".join(f"{n}\n" for n in names)
        # (a Script of its own, apart from `land`'s shared state; the probe's tree at its path is
        # parso's, shared by the process: hence _JEDI_LOCK)
        script = jedi.Script(code=code, path=str(self.root / "__codehop_probe__.py"), project=self._project)
        done = []
        for i, name in enumerate(names):
            if self._closed:  # a resolver closed under a refresh: its successor needs the lock
                break
            try:
                # only a declaration of that name (every builtin lands on its own in typeshed):
                # a probe line that reads another name is no landing
                goto = script.goto(i + 1, 0, follow_imports=True, prefer_stubs=True)
                found = [n for n in goto if n.module_path and n.name == name]
            except Exception:  # a name Jedi cannot place: no landing for it
                found = []
            n = min(found, key=lambda n: (str(n.module_path), n.line or 0)) if found else None
            self._builtins[name] = self._landing(Path(str(n.module_path)), n) if n is not None else None
            done.append(name)
        if self.cache is not None:
            self.cache.put_builtins((name, self._row(self._builtins[name])) for name in done)

    @_one_at_a_time
    def _land(
        self, rel_path: str, positions: tuple[tuple[int, int], ...], deadline: float, scope: str = ""
    ) -> list[Landing | None]:
        """`land` on Jedi's thread, without Jedi's dynamic parameters: a parameter without an
        annotation or a default is not typed by searching the repository for its callers (what
        basedpyright does not do either). That search cost `user_input.lstrip()` 0.64 s, and the
        callees it found were not the peer's (Django's outgoing `copy` of builtins.dict); without
        it, calls_bench's first session on Django: out p50 206 -> 86 ms, in p90 1767 -> 671,
        recall unchanged. Settings are Jedi's globals: `resolve` (the same thread) keeps them."""
        jedi = self._jedi()
        kept = (jedi.settings.dynamic_params, jedi.settings.dynamic_params_for_other_modules)
        jedi.settings.dynamic_params = jedi.settings.dynamic_params_for_other_modules = False
        try:
            return self._land_sites(jedi, rel_path, positions, deadline, scope)
        finally:
            jedi.settings.dynamic_params, jedi.settings.dynamic_params_for_other_modules = kept

    def _land_sites(
        self, jedi: Any, rel_path: str, positions: tuple[tuple[int, int], ...], deadline: float, scope: str
    ) -> list[Landing | None]:
        path = self.root / rel_path
        try:
            st = path.stat()
        except OSError:
            return [None] * len(positions)
        # one Script per file while it is unchanged (its inference cache serves later requests),
        # and each site's landing, for the next request on the same body
        stamp = (rel_path, st.st_mtime_ns, st.st_size)
        if time.monotonic() - self._land_epoch > _LANDINGS_TTL_S:  # another file may have changed since
            self._drop_landings()
        if self._script is not None and self._script[0][0] == rel_path and self._script[0] != stamp:
            self._drop_landings()  # this file changed: what was inferred from it is stale
        if self._script is None or self._script[0] != stamp:
            self._script = (stamp, self._shared_script(jedi, path=str(path)))
        script = self._script[1]
        if len(self._landings) > _MAX_LANDINGS:
            self._drop_landings()
        out: list[Landing | None] = []
        fresh: list[tuple[int, int, Row]] = []  # asked of Jedi now: for the cache
        for line, col in positions:
            key = (*stamp, line, col)
            if key in self._landings:
                out.append(self._landings[key])
                continue
            if time.monotonic() > deadline:
                out.append(None)
                continue
            try:
                names = [n for n in script.goto(line, col, follow_imports=True, prefer_stubs=True) if n.module_path]
            except Exception:  # Jedi's failure at one site is no answer there, never the request's end
                names = []
            landing = None
            if names:
                n = min(names, key=lambda n: (str(n.module_path), n.line or 0))
                landing = self._landing(Path(str(n.module_path)), n)
            self._landings[key] = landing
            out.append(landing)
            if landing is not None or self.record_misses:
                # (kept across sessions only when found: an inference state shared over many files
                # misses landings a file's own state finds; the land worker, which infers each file
                # afresh, is what records a site that lands nowhere)
                fresh.append((line, col, self._row(landing)))
        if self.cache is not None and scope:
            self.cache.put(rel_path, scope, fresh)
        return out

    def _shared_script(self, jedi: Any, *, path: str, code: str | None = None) -> Any:
        """A Script for `land` on the inference state the earlier ones used: Jedi gives each Script
        its own, and most of a first request's time on a file (typeshed, the modules the file
        imports) is spent filling it again. A file read from disk is parsed through parso's disk
        cache (keyed by path and mtime, as Jedi reads every module a file imports): a Script parses
        its own file afresh otherwise (0.3 s for Django's models/base.py). The state is Jedi's
        private attribute: a Jedi without it gets a Script of its own, as before."""
        if self._state is None:
            self._state = getattr(jedi.Script(code="", path=path, project=self._project), "_inference_state", None)
        if self._state is None:
            return jedi.Script(code=code, path=path, project=self._project)
        if code is None:
            try:  # the Script then finds the same lines in parso's memory and takes that tree
                self._state.parse(
                    path=Path(path), cache=True, diff_cache=True, cache_path=jedi.settings.cache_directory
                )
            except Exception:  # an unreadable file: the Script says so as before
                pass
        script = jedi.Script(code=code, path=path, project=self._project)
        script._inference_state = self._state
        return script

    def _row(self, landing: Landing | None) -> Row:
        """A landing as the cache keeps it: in the repository, with its target file's content hash."""
        if landing is None:
            return NO_LANDING
        target = self.cache.hashes(landing.path) if self.cache is not None and landing.place is Place.REPOSITORY else ""
        return Row(landing.path, landing.line, landing.col, landing.qualname, landing.kind, str(landing.place), target)

    def _drop_landings(self) -> None:
        self._script, self._state, self._land_epoch = None, None, time.monotonic()
        self._landings.clear()

    def forget(self) -> None:
        """Drop the kept landings and the shared inference (the repository changed on disk); the
        builtins' places stay (typeshed does not change under a running process)."""
        self._pool.submit(self._drop_landings)  # on Jedi's thread, never under a running `_land`
        if self.cache is not None:
            self.cache.hashes.reset()

    def _landing(self, module_path: Path, n: Any) -> Landing:
        mpath = module_path.resolve()
        where, shown = Place.OUTSIDE, str(mpath)
        if _STUB_DIRS.intersection(mpath.parts):
            where = Place.STUB
            if mpath.name == "ntpath.pyi" and sys.platform != "win32":
                posix = _posix_twin(mpath, n.name)
                if posix is not None:
                    line, col = posix
                    return Landing(
                        path=str(mpath.with_name("posixpath.pyi")),
                        line=line,
                        col=col,
                        qualname=f"posixpath.{n.name}",
                        kind="function" if n.type == "function" else n.type,
                        place=Place.STUB,
                    )
        elif self.boundary.environment(mpath):
            where = Place.ENVIRONMENT
        else:
            try:
                shown = mpath.relative_to(self.root.resolve()).as_posix()
                where = Place.REPOSITORY
            except ValueError:
                pass
        kind = n.type
        if kind == "function":
            try:
                parent = n.parent()
            except Exception:  # a name whose tree Jedi cannot walk: a function, then
                parent = None
            kind = "method" if parent is not None and parent.type == "class" else kind
        return Landing(
            path=shown, line=n.line or 1, col=n.column or 0, qualname=n.full_name or n.name, kind=kind, place=where
        )

    def close(self) -> None:
        self._closed = True
        self._pool.shutdown(wait=False, cancel_futures=True)
        if self.cache is not None:
            self.cache.close()


def _from_row(row: Row) -> Landing:
    return Landing(
        path=row.path or "", line=row.line, col=row.col, qualname=row.qualname, kind=row.kind, place=Place(row.place)
    )


def _posix_twin(ntpath_stub: Path, name: str) -> tuple[int, int] | None:
    """(line, col) of `name`'s declaration in the `posixpath.pyi` beside an `ntpath.pyi`: typeshed's
    `os.path` picks its module by `sys.platform`, which Jedi does not read (it takes the first)."""
    try:
        lines = ntpath_stub.with_name("posixpath.pyi").read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    pattern = re.compile(rf"^(?:async\s+)?def\s+({re.escape(name)})\b|^({re.escape(name)})\s*[:=]")
    for i, text in enumerate(lines):
        m = pattern.match(text)
        if m is not None:
            return i + 1, m.start(1) if m.group(1) else m.start(2)
    return None
