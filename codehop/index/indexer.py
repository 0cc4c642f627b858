"""Build and update a repository's index: walk, hash, parse (two processes), write once.

An update is one SQLite transaction: a reader sees the old index or the new
one, never half. A first build (or a rebuild after a schema change or a
corrupt file, which is moved aside) goes to a temporary file swapped in with
`os.replace()`. May import: records, errors, walk, chunking, store, symbols,
xref_resolve, stdlib.

Why it is a little over 500 lines: a first build, an incremental update and the damaged-index
paths share the same transaction and lock handling; the parse pool and the resolution are
already elsewhere (chunking, xref_resolve).
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codehop.index.pool import start_method
from codehop.index.store.failures import out_of_room, room_left, translated
from codehop.index.store.schema import connect, create_indexes, create_schema, damage, move_aside
from codehop.index.store.sqlite import SqliteStore
from codehop.index.store.write import (
    FTS_STAGE,
    LoadedRows,
    add_to_counter,
    binding_lines,
    bump_generation,
    delete_files,
    enable_wal,
    file_interface,
    fill_fts,
    insert_edges,
    insert_resolved_xrefs,
    keep_segmented,
    shift_targets,
    stage_fts,
    stamp_edges,
    touch_file,
    write_file_rows,
)
from codehop.index.survey import IndexReport, index_dir_for, locate_index, repo_key, survey, user_cache_dir
from codehop.index.walk import SourceFile, TreeStamp, repo_root
from codehop.kernel.errors import IndexSchemaError

__all__ = ["IndexReport", "index_dir_for", "index_repo", "locate_index", "repair_index", "repo_key", "user_cache_dir"]

if TYPE_CHECKING:  # tree-sitter and its compiled queries load only when a file is parsed
    from codehop.index.chunking import FileRows

DEFAULT_MAX_FILE_BYTES = 1_000_000
_POOL_MIN_FILES = 48

# progress(phase, done, total): phase is "walk", "parse", "resolve" or "write"; counts are files
# (total 0 while the walk has not finished)
Progress = Callable[[str, int, int], None]


def _read(sf: SourceFile, max_bytes: int) -> tuple[bytes | None, str | None]:
    """The file's bytes, or None and a warning naming the file."""
    if sf.size > max_bytes:
        return None, f"{sf.rel_path}: {sf.size} bytes exceeds the {max_bytes}-byte cap; skipped"
    try:
        # never blocks: a file turned into a FIFO since the walk is skipped, not waited on
        fd = os.open(sf.abs_path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None, f"{sf.rel_path}: not a regular file; skipped"
            with os.fdopen(fd, "rb", closefd=False) as fh:
                data = fh.read(max_bytes + 1)
        finally:
            os.close(fd)
    except OSError as exc:
        return None, f"{sf.rel_path}: cannot read ({exc.strerror}); skipped"
    if len(data) > max_bytes:
        return None, f"{sf.rel_path}: grew past the {max_bytes}-byte cap; skipped"
    if b"\x00" in data[:8192]:
        return None, f"{sf.rel_path}: binary content (NUL bytes); skipped"
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data, None


def _parse_one(job: tuple[str, bytes]) -> tuple[FileRows | None, str | None]:
    from codehop.index.chunking import parse_rows

    rel, data = job
    warning = None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        warning = f"{rel}: not valid UTF-8; decoded with replacement characters"
    try:
        rows = parse_rows(rel, data)
    except RecursionError:
        return None, f"{rel}: nesting too deep; skipped"
    if rows[4]:
        w = f"{rel}: syntax error; indexed what tree-sitter recovered"
        warning = f"{warning}; {w}" if warning else w
    return rows, warning


def _parse_all(jobs: list[tuple[str, bytes]], workers: int) -> Iterator[tuple[FileRows | None, str | None]]:
    """Parse every job (order not kept), yielding each as it is done: in this process when few,
    else in a process pool while the caller writes what has arrived (one writer, two parsers)."""
    # fork while this process runs one thread; forkserver beside other threads, unless its workers
    # would run the caller's unguarded `__main__` again: then no pool (codehop.index.pool)
    method = start_method() if len(jobs) >= _POOL_MIN_FILES and workers > 1 else None
    if method is None:
        yield from map(_parse_one, jobs)
        return
    import multiprocessing  # with its pool, ~8 ms of a no-change `codehop index`: only to parse many
    from concurrent.futures import ProcessPoolExecutor

    # big files first so the workers finish together
    ordered = sorted(jobs, key=lambda j: -len(j[1]))
    with ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context(method),
        initializer=_exit_with_parent,
        initargs=(os.getpid() if method == "fork" else 0,),
    ) as pool:
        yield from pool.map(_parse_one, ordered, chunksize=8)


def _exit_with_parent(parent: int) -> None:
    """In a pool worker: no cyclic garbage collection (`_no_cycle_collection`), and exit when the
    indexer dies (killed, it never closes the pipes, and an orphaned worker would block on them
    forever). A forked worker gets the indexer's pid from the indexer itself (read here, it would
    already be init's if the indexer died while this worker started); a forkserver's worker
    (`parent` 0) watches the forkserver, which exits with it."""
    import gc

    gc.disable()
    parent = parent or os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def repair_index(repo: str | os.PathLike[str], index_dir: str | os.PathLike[str] | None = None) -> str | None:
    """After a query met a database error: if the index is damaged, move it aside (the next
    open rebuilds it) and say why; None when it is sound (the error had another cause)."""
    root = repo_root(repo)
    path = index_dir_for(root, index_dir) / "index.db"
    why = damage(path)
    if why is None:
        return None
    aside = move_aside(path, "corrupt")
    return f"the index was damaged ({why}); moved aside to {aside.name}, rebuilding"


def index_repo(
    repo: str | os.PathLike[str],
    *,
    index_dir: str | os.PathLike[str] | None = None,
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
    workers: int | None = None,
    progress: Progress | None = None,
    stamp: TreeStamp | None = None,
    include: frozenset[str] | None = None,
    verify: bool = False,
) -> tuple[SqliteStore, IndexReport]:
    """Bring the index of `repo` up to date; return the store and what was done.

    `stamp`, from an earlier report of the same process, lets an update skip the directory
    walk when no directory changed (only files were edited). `verify` checks every page of
    the existing index first and rebuilds a damaged one."""
    t0 = time.perf_counter()
    tell = progress or (lambda phase, done, total: None)
    s = survey(repo, index_dir, stamp=stamp, include=include, verify=verify, tell=tell)
    report, idx_dir, old, deleted = s.report, s.idx_dir, s.old or {}, s.deleted
    store = SqliteStore(idx_dir / "index.db") if s.old is not None else None
    jobs: list[tuple[str, bytes]] = []
    hashes: dict[str, str] = {}
    stats: dict[str, tuple[int, int, int, int]] = {}
    touched_only: list[tuple[str, tuple[int, int, int, int]]] = []
    if s.changed:
        import hashlib
    for sf in s.changed:
        data, warning = _read(sf, max_file_bytes)
        if warning:
            report.warnings.append(warning)
        if data is None:
            if sf.rel_path in old:
                deleted.append(sf.rel_path)
            continue
        digest = hashlib.blake2b(data, digest_size=16).hexdigest()
        if sf.rel_path in old and old[sf.rel_path][0] == digest:
            touched_only.append((sf.rel_path, sf.stamp))
            continue
        hashes[sf.rel_path] = digest
        stats[sf.rel_path] = sf.stamp
        jobs.append((sf.rel_path, data))
    if store is not None and not jobs and not deleted and not touched_only:
        report.seconds = time.perf_counter() - t0
        _fill_counts(store, report)
        return store, report
    parsed = _parse_all(jobs, workers if workers is not None else min(2, os.cpu_count() or 1))

    def arrived() -> Iterator[FileRows]:
        done = 0
        for rows, warning in parsed:
            done += 1
            if warning:
                report.warnings.append(warning)
            if rows is not None:
                report.parsed += 1
                yield rows
            tell("parse", done, len(jobs))

    def after_parse(phase: str) -> None:
        tell(phase, len(jobs), len(jobs))

    report.deleted = len(deleted)
    with _terminate_raises(), _out_of_space(idx_dir), _no_cycle_collection():
        if store is None:
            store = _build_fresh(idx_dir, arrived(), hashes, stats, after_parse)
            report.rebuilt = True
        else:
            _update(store, list(arrived()), deleted, hashes, stats, touched_only, after_parse)
    report.seconds = time.perf_counter() - t0
    _fill_counts(store, report)
    return store, report


@contextmanager
def _terminate_raises() -> Iterator[None]:
    """While an index is written, SIGTERM (and SIGHUP: the terminal closed) raises SystemExit(143,
    129) in the main thread (their default ends the process where it stands, leaving a
    half-written temporary file), so the cleanup around the build runs; and a file size limit (`ulimit -f`) fails the write (EFBIG) instead of
    killing the process (SIGXFSZ). Elsewhere (a server's worker thread, a handler already set)
    unchanged."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    import signal

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    saved = {}
    for signum, handler in ((signal.SIGTERM, stop), (signal.SIGHUP, stop), (signal.SIGXFSZ, signal.SIG_IGN)):
        if signal.getsignal(signum) is signal.SIG_DFL:
            saved[signum] = signal.signal(signum, handler)
    try:
        yield
    finally:
        for signum, old in saved.items():
            signal.signal(signum, old)


# builds running in this process (threads), and whether the collector was on when the first began
_UNCOLLECTED: dict[str, int] = {"builds": 0, "was_enabled": 0}
_UNCOLLECTED_LOCK = threading.Lock()


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """No cyclic garbage collection while an index is parsed and written. A build allocates
    millions of tuples and strings that form no cycles (a Django build's collections freed 23
    objects), yet each allocation burst starts a collection that traverses every live object,
    the rows held for the write and the term caches included: about 0.2 s of CPU on Django, 5%
    of the build. Reference counting frees everything as before. The collector is one per
    process: builds in several threads share one pause, and the last to finish turns it back on
    (if it was on when the first began)."""
    import gc

    with _UNCOLLECTED_LOCK:
        if _UNCOLLECTED["builds"] == 0:
            _UNCOLLECTED["was_enabled"] = int(gc.isenabled())
            gc.disable()
        _UNCOLLECTED["builds"] += 1
    try:
        yield
    finally:
        with _UNCOLLECTED_LOCK:
            _UNCOLLECTED["builds"] -= 1
            if _UNCOLLECTED["builds"] == 0 and _UNCOLLECTED["was_enabled"]:
                gc.enable()


@contextmanager
def _out_of_space(idx_dir: Path) -> Iterator[None]:
    """A write that failed for want of room (a full disk, a file size limit) is IndexWriteError
    (exit 3) naming the folder and saying so, the OS's or SQLite's word for it kept at the end;
    SQLite's errors from the statements run outside the store's transaction are translated as the
    store translates them (`failures`)."""
    import errno

    try:
        with translated(idx_dir / "index.db"):
            yield
    except OSError as exc:
        full, too_big = exc.errno == errno.ENOSPC, exc.errno == errno.EFBIG
        why = (room_left(idx_dir) or ("no space left on the device" if full else "")) if full or too_big else ""
        if not why:
            raise
        raise out_of_room(idx_dir, why, exc) from exc


def _fill_counts(store: SqliteStore, report: IndexReport) -> None:
    # what the index holds; skipped files are in the warnings
    report.files, report.chunks, report.xrefs = store.index_size()


def _build_fresh(
    idx_dir: Path,
    facts: Iterable[FileRows],
    hashes: dict[str, str],
    stats: dict[str, tuple[int, int, int, int]],
    phase: Callable[[str], None] = lambda p: None,
) -> SqliteStore:
    final = idx_dir / "index.db"
    tmp = idx_dir / f"index.db.tmp-{os.getpid()}"
    _remove_build(tmp)
    tmp_store = SqliteStore(tmp)
    try:
        return _build_into(tmp_store, tmp, final, facts, hashes, stats, phase)
    except BaseException:  # an error, Ctrl-C, SIGTERM, a full disk: the partial build goes
        tmp_store.close()
        _remove_build(tmp)
        raise


def _remove_build(tmp: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        try:
            os.unlink(f"{tmp}{suffix}")
        except FileNotFoundError:
            pass


def _build_into(
    tmp_store: SqliteStore,
    tmp: Path,
    final: Path,
    facts: Iterable[FileRows],
    hashes: dict[str, str],
    stats: dict[str, tuple[int, int, int, int]],
    phase: Callable[[str], None],
) -> SqliteStore:
    from codehop.index.xref_resolve import fresh_table, resolve_fresh

    conn = tmp_store.adopt(connect(tmp, fast_unsafe=True))  # a build file needs no journal
    create_schema(conn, indexes=False)  # a bulk load reads nothing by index until it is done
    stage_fts(conn)
    xrefs: list[tuple[Any, ...]] = []
    loaded = LoadedRows()
    with tmp_store.transaction() as c:
        batch: list[FileRows] = []
        for f in facts:  # written while the parsers go on; cross-references wait for every file
            xrefs.extend(f[9])
            batch.append((*f[:9], []))
            if len(batch) >= 64:
                write_file_rows(c, batch, hashes, stats, keep=loaded, fts=FTS_STAGE)
                batch = []
        write_file_rows(c, batch, hashes, stats, keep=loaded, fts=FTS_STAGE)
        phase("resolve")
        table = fresh_table(tmp_store, loaded)

        # the parsers are done, so a core is free: SQLite tokenises the FTS rows and indexes the
        # tables already complete there (one statement each, run without the GIL) while this thread
        # resolves in memory and touches no SQL
        def fts_and_indexes() -> None:
            fill_fts(c)
            create_indexes(c, _LOADED_TABLES)

        if sqlite3.threadsafety == 0:  # an SQLite built single-threaded: no connection crosses threads
            fts_and_indexes()
        finish = _beside(fts_and_indexes) if sqlite3.threadsafety else (lambda: None)
        try:
            xref_rows, edges = resolve_fresh(table, xrefs, loaded)
        finally:
            finish()
        phase("write")
        insert_resolved_xrefs(c, xref_rows)
        insert_edges(c, edges)
        stamp_edges(c, [f[1] for f in loaded.files])
        create_indexes(c, ("xrefs", "edges"))
        keep_segmented(c)
        bump_generation(c)
        add_to_counter(c, "rebuilds")
    enable_wal(tmp_store.conn)
    tmp_store.close()
    gone = IndexSchemaError(
        f"the index being built ({tmp.name}) was deleted while it was written; "
        "nothing was replaced: run the command again",
        path=str(tmp),
    )
    if not tmp.exists():  # another process deleted it mid-build: the old index stays untouched
        raise gone
    for suffix in ("-wal", "-shm"):
        Path(str(final) + suffix).unlink(missing_ok=True)
    try:
        os.replace(tmp, final)
    except FileNotFoundError:
        raise gone from None
    return SqliteStore(final)


_LOADED_TABLES = ("files", "chunks", "bindings", "classes", "stars", "terms")


def _beside(work: Callable[[], None]) -> Callable[[], None]:
    """Start `work` in a thread; the call returned waits for it and raises what it raised."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as exc:  # handed to the waiting thread
            failed.append(exc)

    thread = threading.Thread(target=run, name="codehop-build-sql", daemon=True)
    thread.start()

    def wait() -> None:
        thread.join()
        if failed:
            raise failed[0]

    return wait


def _interface(conn: sqlite3.Connection, rel: str) -> tuple[str, frozenset[tuple[str, ...]]]:
    """(module, what it binds): names, kinds and targets of its bindings, its classes' bases."""
    return file_interface(conn, rel)


def _declaration_lines(conn: sqlite3.Connection, rel: str) -> dict[str, int]:
    """qualname -> line of each binding in a file (the last binding of a name wins, as at run time)."""
    return {f"{s}.{n}": line for s, n, line in binding_lines(conn, rel)}


def _shift_targets(conn: sqlite3.Connection, moved: dict[str, dict[int, int]]) -> None:
    """References into a file whose declarations only moved follow them (negated first, so a
    line that moves onto another's old line is not moved twice)."""
    for rel, lines in moved.items():
        if not lines:
            continue
        shift_targets(conn, rel, lines)


def _interface_of_rows(f: FileRows) -> frozenset[tuple[str, ...]]:
    names: set[tuple[str, ...]] = {(b[0], b[1], b[2], b[7]) for b in f[6]}
    names |= {("class", q, json.dumps(bases)) for q, _, _, bases in f[7]}
    names |= {("star", t) for t, _ in f[8]}
    return frozenset(names)


def _update(
    store: SqliteStore,
    facts: list[FileRows],
    deleted: list[str],
    hashes: dict[str, str],
    stats: dict[str, tuple[int, int, int, int]],
    touched_only: list[tuple[str, tuple[int, int, int, int]]],
    phase: Callable[[str], None] = lambda p: None,
) -> None:
    from codehop.index.xref_resolve import resolve_static

    changed_paths = [f[0] for f in facts]
    with store.transaction() as conn:
        for rel, stamp in touched_only:
            touch_file(conn, rel, stamp)
        if changed_paths or deleted:
            old = {rel: _interface(conn, rel) for rel in changed_paths + deleted}
            old_lines = {rel: _declaration_lines(conn, rel) for rel in changed_paths}
            phase("write")
            delete_files(conn, changed_paths + deleted)
            write_file_rows(conn, facts, hashes, stats)
            keep_segmented(conn)
            store.invalidate()
            # a module whose names (and bases) kept their meaning changes no resolution elsewhere:
            # its own references are redone, references into it only follow its lines
            dirty = {old[rel][0] for rel in deleted if old[rel][0]}
            redo_into = list(deleted)
            moved: dict[str, dict[int, int]] = {}
            for f in facts:
                if old.get(f[0]) != (f[1], _interface_of_rows(f)):
                    dirty.add(f[1])
                    redo_into.append(f[0])
                    if old.get(f[0]) and old[f[0]][0]:
                        dirty.add(old[f[0]][0])
                    continue
                new_lines = {f"{b[0]}.{b[1]}": b[4] for b in sorted(f[6], key=lambda b: b[4])}
                moved[f[0]] = {
                    line: new_lines[q] for q, line in old_lines[f[0]].items() if q in new_lines and new_lines[q] != line
                }
            _shift_targets(conn, moved)
            phase("resolve")
            resolve_static(store, conn, (changed_paths, redo_into, sorted(dirty)))
            add_to_counter(conn, "rebuilds")
        bump_generation(conn)
