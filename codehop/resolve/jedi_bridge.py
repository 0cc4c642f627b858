"""Index-time bridging of an installed distribution's inferred pointers (Jedi, in an index worker).

An installed distribution never changes while it is installed and is read by every repository
that uses it, so the pointers in it that only inference can place (a member called on a local or
on an attribute, `adapter.send(...)`, `self.poolmanager.clear()`; a decorator `@x.y`) are
resolved once, after the distribution is indexed, and stored in its shared index as xref rows
with provenance `jedi`; a loop-time hop from such a site reads the row instead of asking Jedi
(`hops_from_index`). The repository, which churns, keeps loop-time resolution (with reuse).

The work runs only inside a long-running server (LSP, MCP), whose session queues a
distribution when it is mounted and its bridge is not complete (`BridgeWorkers`): one worker
process at a time, at low priority (`os.nice`), ended when the session closes; no question waits
for it, and a command-line run never starts one (no process outlives the command). One worker per
index (a lock file in the index folder), resumable (`bridge_next` counts the sites asked, in a
fixed order), bounded by `budget_s` per run. Bounds on the sites: only members called or used as decorators whose receiver
is a name or an attribute chain, whose name one of the distribution's classes declares, and that
the symbol table did not place; shallow modules first (a package's public surface), each file in
line order; at most `max_sites` per distribution. Only landings inside the distribution's own
top-level modules are kept: another distribution's version is not part of this index's key, so a
row pointing into it could go stale.
The second user of `jedi` (with the jedi resolver); Jedi runs with the environment's interpreter.
May import: records, store.rows, stdlib, jedi (in the worker only).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import tokenize
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from codehop.index.confine import live_lock
from codehop.index.store.rows import landing
from codehop.kernel.records import Declaration, PendingReference, Provenance, QueryLog, RefType, XRef

BRIDGE_BUDGET_S = 120.0  # per worker run; a later mount resumes where it stopped
BRIDGE_MAX_SITES = 2000  # per distribution, shallow modules first; the rest stay for the loop
_LOCK = "bridge.lock"
_BATCH = 25  # sites asked between two progress writes


class BridgeStore(Protocol):
    """What the bridge needs of a package's index (a `SqliteStore`)."""

    def xrefs(self) -> list[XRef]: ...
    def class_names(self) -> set[str]: ...
    def declarations(self) -> list[Declaration]: ...
    def record_query(self, log: QueryLog) -> bool: ...
    def counters(self) -> dict[str, int]: ...

    @property
    def path(self) -> Path: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class BridgeReport:
    candidates: int  # sites the symbol table did not place
    asked: int  # of those, asked of Jedi so far (all runs)
    bridged: int  # rows written so far (landed inside the distribution)
    seconds: float  # this run

    @property
    def complete(self) -> bool:
        return self.asked >= self.candidates


def bridge_done(counters: dict[str, int]) -> bool:
    """True once every candidate site of the index was asked."""
    return counters.get("bridge_complete", 0) > 0


def spawn_bridge(
    store: BridgeStore,
    site_dir: str,
    tops: Iterable[str],
    *,
    python: str | None,
    sys_path: Sequence[str] | None = None,
    budget_s: float = BRIDGE_BUDGET_S,
) -> subprocess.Popen[bytes] | None:
    """Start a worker process bridging the package index `store` (its file), unless its bridge is
    complete or a worker runs on it already; never waits. The caller owns the process."""
    if bridge_done(store.counters()):
        return None
    index_db = Path(store.path)
    if live_lock(index_db.parent / _LOCK):
        return None
    root = str(Path(__file__).resolve().parents[2])  # the folder holding the `codehop` package
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
    # (-P: the working folder is not put on sys.path; a repository's modules are never imported)
    cmd = [sys.executable, "-P", "-m", "codehop.resolve.jedi_bridge", str(index_db), site_dir, *sorted(tops)]
    cmd += ["--budget-s", str(budget_s), *(["--python", python] if python else [])]
    cmd += ["--sys-path", os.pathsep.join(sys_path)] if sys_path is not None else []
    try:
        return subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # an editor's Ctrl-C to the server is not the worker's
            env=env,
        )
    except OSError:
        return None


class BridgeWorkers:
    """A long-running server's bridging: distributions queued as they are mounted, bridged one
    worker process at a time (each at low priority), the running one ended by `close`."""

    def __init__(
        self, *, python: str | None, sys_path: Sequence[str] | None, budget_s: float = BRIDGE_BUDGET_S
    ) -> None:
        self.python = python
        self.sys_path = tuple(sys_path) if sys_path is not None else None
        self.budget_s = budget_s
        self._queue: queue.Queue[tuple[BridgeStore, str, tuple[str, ...]] | None] = queue.Queue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._closed = False

    def __call__(self, store: BridgeStore, site_dir: str, tops: Iterable[str]) -> bool:
        """Queue a distribution's bridge (the package layer's `Bridge`); False when nothing is left to do."""
        if bridge_done(store.counters()):
            return False
        with self._lock:
            if self._closed:
                return False
            self._queue.put((store, site_dir, tuple(sorted(tops))))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="codehop-bridge", daemon=True)
                self._thread.start()
        return True

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            store, site_dir, tops = item
            with self._lock:
                if self._closed:
                    return
                self._proc = spawn_bridge(
                    store, site_dir, tops, python=self.python, sys_path=self.sys_path, budget_s=self.budget_s
                )
                proc = self._proc
            if proc is not None:
                proc.wait()
            with self._lock:
                self._proc = None

    @property
    def running(self) -> int | None:
        """The pid of the worker process running now, if one is."""
        with self._lock:
            return self._proc.pid if self._proc is not None and self._proc.poll() is None else None

    def close(self) -> None:
        """Stop: nothing more is started, and the running worker is ended (it resumes next time)."""
        with self._lock:
            self._closed = True
            proc = self._proc
        self._queue.put(None)
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def bridge_distribution(
    store: BridgeStore,
    site_dir: str,
    tops: Iterable[str],
    *,
    python: str | None,
    sys_path: Sequence[str] | None = None,
    budget_s: float = BRIDGE_BUDGET_S,
    max_sites: int = BRIDGE_MAX_SITES,
) -> BridgeReport:
    """Resolve the distribution's inferred pointers with Jedi (imports looked up in `sys_path`,
    inference run by `python` or codehop's own interpreter: see `jedi_project`), from where an
    earlier run stopped, for at most `budget_s`, into `store`'s xref table."""
    t0 = time.perf_counter()
    root = Path(site_dir).resolve()
    tops = tuple(sorted(tops))
    # placed by the symbol table (not by an earlier run of this bridge: the candidates, and so where
    # a run resumes, stay the same from run to run)
    placed = {
        (x.rel_path, x.line, x.anchor_text)
        for x in store.xrefs()
        if (x.target_path and x.provenance is not Provenance.JEDI) or x.provenance is Provenance.EXTERNAL
    }
    classes = store.class_names()
    members = frozenset(d.name for d in store.declarations() if d.scope in classes)
    todo: list[tuple[Path, str, list[PendingReference]]] = []
    for path in _files(root, tops):
        try:
            code = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        rel = path.relative_to(root).as_posix()
        sites = [s for s in _sites(code, rel, members) if (s.origin_path, s.origin_line, s.anchor_text) not in placed]
        sites = sites[: max_sites - sum(len(t[2]) for t in todo)]
        if sites:
            todo.append((path, code, sites))
    candidates = sum(len(t[2]) for t in todo)
    counters = store.counters()
    start = counters.get("bridge_next", 0)
    _bump(store, "bridge_candidates", candidates - counters.get("bridge_candidates", 0))
    deadline = t0 + budget_s
    n = asked = 0
    pending: list[XRef] = []
    project: Any = None
    jedi: Any = None
    for path, code, sites in todo:
        if n + len(sites) <= start:
            n += len(sites)
            continue
        script: Any = None
        for s in sites:
            n += 1
            if n <= start:
                continue
            if asked and time.perf_counter() > deadline:  # each run asks one site at least
                break
            if jedi is None:
                jedi, project = _jedi(root, python, sys_path)
            if script is None:
                script = jedi.Script(code=code, path=str(path), project=project)
            landing_at = _land(script, s, root, tops)
            asked += 1
            if landing_at is not None:
                pending.append(landing(s, landing_at[0], landing_at[1], Provenance.JEDI))
            if asked % _BATCH == 0:
                _flush(store, pending, _BATCH)
                pending = []
        if asked and time.perf_counter() > deadline:
            break
    _flush(store, pending, asked % _BATCH)
    done = start + asked >= candidates
    if done:
        _bump(store, "bridge_complete", 1 - counters.get("bridge_complete", 0))
    seconds = time.perf_counter() - t0
    _bump(store, "bridge_ms", int(seconds * 1000))
    after = store.counters()
    return BridgeReport(
        candidates=candidates, asked=after.get("bridge_next", 0), bridged=after.get("bridged_rows", 0), seconds=seconds
    )


def _bump(store: BridgeStore, key: str, by: int) -> None:
    store.record_query(QueryLog(counters=((key, by),)))


def _flush(store: BridgeStore, rows: list[XRef], asked: int) -> None:
    """One write: the batch's rows and the counters that say how far the bridge got."""
    store.record_query(QueryLog(counters=(("bridged_rows", len(rows)), ("bridge_next", asked)), landings=tuple(rows)))


def _jedi(root: Path, python: str | None, sys_path: Sequence[str] | None = None) -> tuple[Any, Any]:
    limit = sys.getrecursionlimit()
    import jedi  # noqa: PLC0415 - heavy; imported only in the worker

    sys.setrecursionlimit(limit)
    return jedi, jedi_project(jedi, root, python=python, sys_path=sys_path)


def jedi_project(jedi: Any, root: Path, *, python: str | None, sys_path: Sequence[str] | None) -> Any:
    """A Jedi project on `root` that runs nothing of the repository's: its inference runs under
    `python` (an interpreter outside the repository the user chose) or else under codehop's own
    interpreter, never one Jedi would pick by itself (`$VIRTUAL_ENV` may point into the repository);
    imports are looked up in `root`, then `sys_path` (the environment's paths, read), else the
    interpreter's own. Compiled extensions load only from the interpreter's own paths (Jedi's
    default): one shipped inside the repository or its virtualenv is never imported."""
    exe = python or sys.executable
    env = jedi.create_environment(exe, safe=False)
    paths = list(sys_path) if sys_path is not None else list(env.get_sys_path())
    others = [p for p in paths if p and Path(p).resolve() != root.resolve()]
    return jedi.Project(
        str(root),
        sys_path=[str(root), *others],
        smart_sys_path=False,
        environment_path=exe,
        load_unsafe_extensions=False,
    )


def _files(root: Path, tops: tuple[str, ...]) -> list[Path]:
    """The distribution's Python files, shallow modules first (its public surface), then by path."""
    out: list[Path] = []
    for t in tops:
        if (root / f"{t}.py").is_file():
            out.append(root / f"{t}.py")
        if (root / t).is_dir():
            out += [p for p in (root / t).rglob("*.py") if p.is_file()]
    return sorted(out, key=lambda p: (len(p.relative_to(root).parts), p.name != "__init__.py", p.as_posix()))


def _sites(code: str, rel: str, members: frozenset[str]) -> Iterator[PendingReference]:
    """Members called (`a.b.m(`) or used as decorators (`@a.m`) whose receiver is a name or an
    attribute chain, and whose name the distribution declares in one of its classes (a member no
    class of it declares, `str.split`, lands outside it anyway). Read with the stdlib tokenizer,
    so strings and comments never count."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError):
        return
    chain: list[tokenize.TokenInfo] = []  # the dotted chain being read, name by name
    expect_name = decorated = False
    prev: tokenize.TokenInfo | None = None
    for tok in tokens:
        if tok.type == tokenize.NAME:
            if expect_name and chain:
                chain.append(tok)
            else:
                chain = [tok]
                decorated = prev is not None and prev.type == tokenize.OP and prev.string == "@"
            expect_name = False
        elif tok.type == tokenize.OP and tok.string == "." and chain and not expect_name and prev is chain[-1]:
            expect_name = True
        else:
            if len(chain) >= 2 and not expect_name and chain[-1].string in members:
                called = tok.type == tokenize.OP and tok.string == "("
                if called or (decorated and tok.type == tokenize.NEWLINE):
                    last = chain[-1]
                    anchor = ".".join(t.string for t in chain)  # `receiver.member`, as a reader names it
                    yield PendingReference(
                        anchor_text=anchor,
                        ref_type=RefType.DECORATOR if decorated else RefType.CALL,
                        ref_target=anchor,
                        origin_path=rel,
                        origin_line=last.start[0],
                        origin_col=last.start[1],  # of the member's name (where Jedi is asked)
                    )
            chain, expect_name, decorated = [], False, False
        prev = tok


def _land(script: Any, s: PendingReference, root: Path, tops: tuple[str, ...]) -> tuple[str, int] | None:
    """Where Jedi lands for the site, relative to the import root, when inside the distribution."""
    try:
        names = [n for n in script.goto(s.origin_line, s.origin_col, follow_imports=True) if n.module_path is not None]
        if any(n.type == "statement" for n in names):
            names = [n for n in script.infer(s.origin_line, s.origin_col) if n.module_path is not None] or names
    except Exception:  # Jedi's own failure on one site: left for the loop
        return None
    for n in sorted(names, key=lambda n: (str(n.module_path), n.line or 0)):
        p = Path(str(n.module_path)).resolve()
        if root not in p.parents or p.relative_to(root).parts[0].removesuffix(".py") not in tops:
            continue
        return p.relative_to(root).as_posix(), n.line or 1
    return None


def main(argv: list[str] | None = None) -> int:
    """The worker: `python -m codehop.resolve.jedi_bridge INDEX_DB SITE_DIR TOP... [--python P]`."""
    from codehop.index.store.sqlite import SqliteStore

    p = argparse.ArgumentParser(prog="codehop.resolve.jedi_bridge")
    p.add_argument("index_db")
    p.add_argument("site_dir")
    p.add_argument("tops", nargs="+")
    p.add_argument("--python", default=None)
    p.add_argument("--sys-path", default=None)
    p.add_argument("--budget-s", type=float, default=BRIDGE_BUDGET_S)
    a = p.parse_args(argv)
    lock = Path(a.index_db).parent / _LOCK
    try:
        fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        if live_lock(lock):
            return 0
        lock.unlink(missing_ok=True)  # left by a worker that died
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            return 0
    with os.fdopen(fd, "w") as fh:
        fh.write(str(os.getpid()))
    # ended by its server (SIGTERM): unwind, so the lock goes and the store closes
    signal.signal(signal.SIGTERM, lambda _sig, _frame: sys.exit(0))
    with contextlib.suppress(OSError):
        os.nice(10)  # background work: the questions being asked come first
    store = SqliteStore(Path(a.index_db))
    try:
        if not bridge_done(store.counters()):
            sys_path = a.sys_path.split(os.pathsep) if a.sys_path is not None else None
            bridge_distribution(store, a.site_dir, a.tops, python=a.python, sys_path=sys_path, budget_s=a.budget_s)
    finally:
        store.close()
        with contextlib.suppress(OSError):
            lock.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
