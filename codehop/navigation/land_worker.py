"""Jedi's landings at a repository's call sites (and reads of properties), computed ahead of the call hierarchy requests
that need them, into the landing cache (codehop.index.landings) they read.

A call site the index cannot place costs Jedi up to a second at request time; the answer depends
only on file contents, so a worker process computes it beforehand: every call site of every
indexed file (the sites an outgoing request asks at, and the `.name(` calls an incoming one asks
at), the files the editor has open first, then the most recently modified. What is in the cache
already is not asked again, so a worker stopped (session closed, budget spent) resumes where it
stopped, and a file edited since gets its new sites asked on the next run.

The work runs only in a long-running server (the LSP server, once its index is ready): one
process per repository (a lock file beside the cache), at the lowest priority (`os.nice(19)`),
bounded by `budget_s`, ended when the session closes; no request waits for it. It reads the
index (never writes it), writes only the cache in the index's folder, and runs Jedi under
codehop's interpreter as the server does (the repository's code is never executed).
May import: index (store, symbols, landings, environment), navigation.source/callers, resolve.jedi_resolver,
resolve.ladder, stdlib.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from codehop.index.confine import live_lock, read_own, write_own

LAND_BUDGET_S = 1800.0  # per worker run; the next session resumes
_LOCK = "landings.lock"


def precompute(root: Path, index_db: Path, *, first: Sequence[str], budget_s: float) -> tuple[int, int]:
    """Ask Jedi at every call site of the repository not in the cache yet, `first` files first,
    then by modification time (newest first), for at most `budget_s`; (files read, sites asked)."""
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
    try:
        files = list(store.file_states())

        def age(rel_path: str) -> float:
            try:
                return -(root / rel_path).stat().st_mtime
            except OSError:
                return 0.0

        opened = [f for f in dict.fromkeys(first) if f in set(files)]
        order = opened + sorted((f for f in files if f not in set(opened)), key=age)
        asked = done = 0
        parent = os.getppid()
        properties: dict[str, bool] = {}

        def line_text(rel_path: str, line: int) -> str:
            return line_of(repo_lines(root, rel_path), line) or ""

        def is_property(name: str) -> bool:
            if name not in properties:
                properties[name] = property_named(store, line_text, name)
            return properties[name]

        for rel_path in order:
            left = budget_s - (time.monotonic() - start)
            if left <= 0 or os.getppid() != parent:  # spent, or the server that started it is gone
                break
            toks = scan.tokens(rel_path)
            if not toks:
                continue
            # the sites an outgoing request asks at: calls, and reads of an attribute that is a property
            last = toks[-1][0]
            sites = call_sites(rel_path, toks, 1, last)
            sites += [c for c in attribute_reads(rel_path, toks, 1, last) if is_property(c.name)]
            positions = sorted({(c.line, c.col) for c in sites})
            resolver.land(rel_path, positions, deadline_s=left)
            # a fresh inference state for each file: one state shared over hundreds of files gives
            # no answer where a file's own gives one (Starlette, every file in mtime order: 115
            # sites without a landing, 72 with a state per file, in 14 and 15 s)
            resolver.forget()
            asked += len(positions)
            done += 1
        return done, asked
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
                self._proc = subprocess.Popen(
                    cmd,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,  # an editor's Ctrl-C to the server is not the worker's
                    env=env,
                )
            except OSError:
                return False
            return True

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
    try:
        precompute(args.root.resolve(), args.index_db, first=args.first, budget_s=args.budget_s)
    finally:
        try:
            if read_own(lock, 32).decode().strip() == str(os.getpid()):
                lock.unlink()
        except (OSError, UnicodeDecodeError):
            pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
