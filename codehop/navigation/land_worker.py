"""Jedi's landings at a repository's call sites (and reads of properties), computed ahead of the call hierarchy requests
that need them, into the landing cache (codehop.index.landings) they read.

A call site the index cannot place costs Jedi up to a second at request time; the answer depends
only on file contents, so a worker process computes it beforehand: every call site of every
indexed file (the sites an outgoing request asks at, and the `.name(` calls an incoming one asks
at), the files the editor has open first (and each it opens later, once the requests pause:
`LandWorkers.ask` with no sites), then the most recently modified. What is in the cache
already is not asked again, so a worker stopped (session closed, budget spent) resumes where it
stopped, and a file edited since gets its new sites asked on the next run.

The work runs only in a long-running server (the LSP server, started as soon as its index is
ready): one process per repository (a lock file beside the cache), at the lowest priority
(`os.nice(19)`), bounded by `budget_s`, ended when the session closes; no request waits for it.
While it runs, a call hierarchy request answers from the index, the cache and the server's own
Jedi (within its deadline) and sends the sites it could not place to the worker's stdin
(`LandWorkers.ask`, one line a file); the worker lands them before its next batch of the pass
(the builtins' places come first of all), once the requests pause for half a second, and the
pass itself waits for a two-second pause (each request writes a `-` line: `LandWorkers.touch`;
Jedi beside them would take their CPU), and says `done <id>` on its stdout, so that the server knows when what its requests asked for is
in the cache (`LandWorkers.status`, the LSP request `codehop/landingStatus`). It reads the
index (never writes it), writes only the cache in the index's folder, and runs Jedi under
codehop's interpreter as the server does (the repository's code is never executed).
May import: index (store, symbols, landings, environment), navigation.source/callers, resolve.jedi_resolver,
resolve.ladder, stdlib.
"""

from __future__ import annotations

import argparse
import builtins
import itertools
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from codehop.index.confine import live_lock, read_own, write_own

LAND_BUDGET_S = 1800.0  # per worker run; the next session resumes
ASKED_DEADLINE_S = 30.0  # the sites one request asked for
_BATCH = 10  # sites of the pass landed between two looks at what requests asked
PASS_QUIET_S = 2.0  # the pass goes on once the server's requests have paused this long
ASKED_QUIET_S = 0.5  # and the sites they asked for are landed once they pause this long
_LOCK = "landings.lock"
_TOUCH_S = 0.2  # (well under ASKED_QUIET_S: requests a little apart still read as a burst)


@dataclass(frozen=True, slots=True, kw_only=True)
class Asked:
    """Sites of one file a request could not answer from the cache, sent to the worker (none:
    every site of the file, a document the editor opened)."""

    ident: str
    rel_path: str
    positions: tuple[tuple[int, int], ...]

    def line(self) -> str:
        return f"{self.ident}\t{self.rel_path}\t" + " ".join(f"{ln}:{c}" for ln, c in self.positions) + "\n"

    @classmethod
    def parse(cls, text: str) -> Asked | None:
        parts = text.rstrip("\n").split("\t")
        if len(parts) != 3 or not parts[1] or parts[1].startswith("/") or ".." in parts[1].split("/"):
            return None
        try:
            positions = tuple((int(a), int(b)) for a, _, b in (p.partition(":") for p in parts[2].split()))
        except ValueError:
            return None
        return cls(ident=parts[0], rel_path=parts[1], positions=positions)


@dataclass(frozen=True, slots=True, kw_only=True)
class WorkerStatus:
    """What the land worker is doing: running, and how many requests' site lists it has not
    landed yet (0: every site a request asked about is in the cache)."""

    running: bool
    asked: int
    pending: int


def precompute(
    root: Path,
    index_db: Path,
    *,
    first: Sequence[str],
    budget_s: float,
    asked: queue.Queue[Asked | None] | None = None,
    answered: Callable[[str], None] = lambda ident: None,
    last_heard: Callable[[], float] = lambda: float("-inf"),
) -> tuple[int, int]:
    """Place every builtin, then ask Jedi at every call site of the repository not in the cache
    yet, `first` files first, then by modification time (newest first), for at most `budget_s`;
    (files read, sites asked). The sites a request could not answer (`asked`, from the server;
    no sites: every site of a document the editor opened) go before the next batch of the pass,
    each told `answered` by its id once in the cache. Jedi would take the CPU the server's
    requests need: the asked sites wait until they pause for ASKED_QUIET_S, the pass for
    PASS_QUIET_S (`last_heard`: when the server last wrote, a site list or a ping)."""
    from codehop.index.environment import find_environment
    from codehop.index.landings import LandingCache
    from codehop.index.store.sqlite import SqliteStore
    from codehop.index.symbols import SymbolTable
    from codehop.index.walk import line_of, repo_lines
    from codehop.navigation.callers import attribute_reads, call_sites
    from codehop.navigation.calls import property_named
    from codehop.navigation.source import SourceScan
    from codehop.resolve.jedi_resolver import JediResolver
    from codehop.resolve.ladder import Boundary

    start = time.monotonic()
    store = SqliteStore(index_db, read_only=True)
    try:
        env = find_environment(root)
    except Exception:  # no environment: only the repository is trusted, as in the server
        env = None
    python = env.interpreter if env is not None else None
    sys_path = env.search_paths if env is not None else None
    resolver = JediResolver(
        str(root),
        SymbolTable(store),
        python=python,
        sys_path=sys_path,
        boundary=Boundary(root, environment=env.contains) if env is not None else Boundary(root),
        cache=LandingCache.beside(store, root, python, sys_path),
    )
    resolver.record_misses = True  # (each file is inferred afresh: forget() after it)
    scan = SourceScan(store, root)
    properties: dict[str, bool] = {}

    def line_text(rel_path: str, line: int) -> str:
        return line_of(repo_lines(root, rel_path), line) or ""

    def is_property(name: str) -> bool:
        if name not in properties:
            properties[name] = property_named(store, line_text, name)
        return properties[name]

    def sites_of(rel_path: str) -> list[tuple[int, int]] | None:
        """The sites an outgoing request asks at in a file: calls, and reads of an attribute that
        is a property (None: the index has no tokens of it)."""
        toks = scan.tokens(rel_path)
        if not toks:
            return None
        last = toks[-1][0]
        sites = call_sites(rel_path, toks, 1, last)
        sites += [c for c in attribute_reads(rel_path, toks, 1, last) if is_property(c.name)]
        return sorted({(c.line, c.col) for c in sites})

    placed: list[bool] = []

    def place_builtins() -> None:
        """The builtins' places, once, before any site (a later session's server reads them from
        the cache), when the requests first pause (Jedi's start is a second of CPU)."""
        if not placed:
            resolver.land_builtins([n for n in dir(builtins) if not n.startswith("_")], deadline_s=budget_s)
            placed.append(True)

    def serve() -> bool:
        """Land what requests asked for once they pause (ASKED_QUIET_S); False once the server is gone."""
        while time.monotonic() - last_heard() >= ASKED_QUIET_S:
            place_builtins()
            if asked is None:
                break
            try:
                job = asked.get_nowait()
            except queue.Empty:
                break
            if job is None:
                return False
            resolver.forget()  # the file's own inference state, as in the pass
            # (no positions: a document the editor opened, every site of it)
            positions = job.positions or tuple(sites_of(job.rel_path) or ())
            resolver.land(job.rel_path, positions, deadline_s=ASKED_DEADLINE_S)
            resolver.forget()
            answered(job.ident)
        return os.getppid() == parent

    def quiet() -> bool:
        """Serve what is asked until the server's requests pause; False once it is gone."""
        while serve():
            if time.monotonic() - last_heard() >= PASS_QUIET_S:
                return True
            time.sleep(0.05)
        return False

    parent = os.getppid()
    try:
        files = list(store.file_states())

        def age(rel_path: str) -> float:
            try:
                return -(root / rel_path).stat().st_mtime
            except OSError:
                return 0.0

        opened = [f for f in dict.fromkeys(first) if f in set(files)]
        order = opened + sorted((f for f in files if f not in set(opened)), key=age)
        n_sites = done = 0
        for rel_path in order:
            left = budget_s - (time.monotonic() - start)
            if left <= 0 or not quiet():  # spent, or the server that started it is gone
                break
            positions = sites_of(rel_path)
            if positions is None:
                continue
            for i in range(0, len(positions), _BATCH):  # a request's sites wait for one batch at most
                if not quiet():
                    break
                resolver.land(rel_path, positions[i : i + _BATCH], deadline_s=max(left, 1.0))
            # a fresh inference state for each file: one state shared over hundreds of files gives
            # no answer where a file's own gives one (Starlette, every file in mtime order: 115
            # sites without a landing, 72 with a state per file, in 14 and 15 s)
            resolver.forget()
            n_sites += len(positions)
            done += 1
        if quiet():  # what was asked meanwhile (then it ends: a later request asks Jedi itself)
            serve()
        return done, n_sites
    finally:
        resolver.close()
        store.close()


class LandWorkers:
    """A server's precomputation: one worker process for its repository, at low priority,
    started once its index is ready and ended by `close` (the next session resumes)."""

    def __init__(self, root: Path, index_db: Path, *, budget_s: float = LAND_BUDGET_S) -> None:
        self.root = root
        self.index_db = index_db
        self.budget_s = budget_s
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._closed = False
        self._ids = itertools.count(1)
        self._pending: dict[tuple[str, tuple[tuple[int, int], ...]], str] = {}  # asked, not landed yet
        self._asked = 0
        self._told = float("-inf")  # when the worker was last written to

    def start(self, first: Sequence[str] = ()) -> bool:
        """Start the worker unless one runs on this repository already; never waits."""
        lock = self.index_db.parent / _LOCK
        with self._lock:
            if self._closed or self._proc is not None or live_lock(lock):
                return False
            top = str(Path(__file__).resolve().parents[2])  # the folder holding the `codehop` package
            env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [top, os.environ.get("PYTHONPATH")]))}
            # (-P: the working folder, often the repository, is not put on the worker's sys.path: a
            # repository's `argparse.py` or `codehop/` is never imported, so never run)
            cmd = [sys.executable, "-P", "-m", "codehop.navigation.land_worker", str(self.root), str(self.index_db)]
            cmd += ["--budget-s", str(self.budget_s), *(a for f in first for a in ("--first", f))]
            try:
                self._proc = proc = subprocess.Popen(
                    cmd,
                    stdin=subprocess.PIPE,  # the sites requests ask for (`ask`)
                    stdout=subprocess.PIPE,  # "done <id>" for each
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,  # an editor's Ctrl-C to the server is not the worker's
                    env=env,
                )
            except OSError:
                return False
        threading.Thread(target=self._read_answers, args=(proc,), name="codehop-land-answers", daemon=True).start()
        return True

    def _read_answers(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stdout is not None
        for raw in proc.stdout:
            word, _, ident = raw.decode("utf-8", "replace").strip().partition("\t")
            if word == "done":
                with self._lock:
                    self._pending = {k: v for k, v in self._pending.items() if v != ident}
        with self._lock:  # the worker ended: nothing it was asked is coming
            self._pending.clear()

    def ask(self, rel_path: str, positions: Sequence[tuple[int, int]]) -> bool:
        """Have the running worker land these sites of one file before the rest of its pass (a
        request that could not answer them from the cache; none: every site of the file, a
        document the editor opened); never waits. False: no worker runs."""
        key = (rel_path, tuple(sorted(set(positions))))
        with self._lock:
            proc = self._proc
            if proc is None or proc.poll() is not None or proc.stdin is None:
                return False
            if key in self._pending:
                return True
            job = Asked(ident=str(next(self._ids)), rel_path=rel_path, positions=key[1])
            try:
                proc.stdin.write(job.line().encode())
                proc.stdin.flush()
            except (OSError, ValueError):
                return False
            self._pending[key] = job.ident
            self._asked += 1
            self._told = time.monotonic()
            return True

    def touch(self) -> None:
        """Tell the worker a request is being answered (its pass waits; at most one line in
        _TOUCH_S); never waits."""
        now = time.monotonic()
        with self._lock:
            proc = self._proc
            if proc is None or proc.stdin is None or now - self._told < _TOUCH_S or proc.poll() is not None:
                return
            self._told = now
            try:
                proc.stdin.write(b"-\n")
                proc.stdin.flush()
            except (OSError, ValueError):
                pass

    def status(self) -> WorkerStatus:
        with self._lock:
            running = self._proc is not None and self._proc.poll() is None
            return WorkerStatus(running=running, asked=self._asked, pending=len(self._pending) if running else 0)

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def running(self) -> int | None:
        """The pid of the worker process while it runs."""
        with self._lock:
            return self._proc.pid if self._proc is not None and self._proc.poll() is None else None

    def close(self) -> None:
        with self._lock:
            self._closed = True
            proc = self._proc
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="codehop.navigation.land_worker")
    ap.add_argument("root", type=Path)
    ap.add_argument("index_db", type=Path)
    ap.add_argument("--budget-s", type=float, default=LAND_BUDGET_S)
    ap.add_argument("--first", action="append", default=[])
    args = ap.parse_args(argv)
    lock = args.index_db.parent / _LOCK
    if live_lock(lock):
        return 0
    try:
        os.nice(19)
    except OSError:
        pass
    try:
        write_own(lock, str(os.getpid()).encode())  # (never through a link planted in the repository)
    except OSError:
        return 1
    asked: queue.Queue[Asked | None] = queue.Queue()
    heard = [time.monotonic()]  # the server's last word (the pass starts after a quiet start too)

    def read_asked() -> None:  # the server's requests, as they come; None once it is gone
        for text in sys.stdin:
            heard[0] = time.monotonic()
            job = Asked.parse(text)
            if job is not None:
                asked.put(job)
        asked.put(None)

    def answered(ident: str) -> None:
        sys.stdout.write(f"done\t{ident}\n")
        sys.stdout.flush()

    threading.Thread(target=read_asked, name="codehop-land-asked", daemon=True).start()
    parent = os.getppid()
    # (Jedi and the index are loaded once the requests first pause: a second of CPU beside them)
    while time.monotonic() - heard[0] < ASKED_QUIET_S and os.getppid() == parent:
        time.sleep(0.05)
    try:
        precompute(
            args.root.resolve(),
            args.index_db,
            first=args.first,
            budget_s=args.budget_s,
            asked=asked,
            answered=answered,
            last_heard=lambda: heard[0],
        )
    except BrokenPipeError:  # the server is gone
        pass
    finally:
        try:
            if read_own(lock, 32).decode().strip() == str(os.getpid()):
                lock.unlink()
        except (OSError, UnicodeDecodeError):
            pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
