"""The index file: its schema (tables, indexes, version), opening it (WAL; read-only when the
file or its folder cannot be written), and telling a damaged file from a busy one.

May import: errors, confine, stdlib (sqlite3).
"""

from __future__ import annotations

import os
import sqlite3
import time
import urllib.parse
from collections.abc import Collection
from pathlib import Path

from codehop.index.confine import read_own, replace_own, write_own
from codehop.kernel.errors import IndexLocationError, IndexSchemaError

# 12: a file's ctime and inode are kept beside its size and mtime (change detection)
# 13: the derived search terms of each declaration (`terms`, `terms_fts`, `odd_parts`)
SCHEMA_VERSION = 14  # 14: a signature without the comments between its parameters


_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files (
    rel_path TEXT PRIMARY KEY, hash TEXT NOT NULL, size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL, module TEXT NOT NULL, is_package INTEGER NOT NULL,
    all_names TEXT, has_error INTEGER NOT NULL DEFAULT 0, edges_gen INTEGER NOT NULL DEFAULT 0,
    ctime_ns INTEGER NOT NULL DEFAULT 0, inode INTEGER NOT NULL DEFAULT 0);
CREATE INDEX files_module ON files(module);
CREATE TABLE chunks (
    id INTEGER PRIMARY KEY, rel_path TEXT NOT NULL, start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL, kind TEXT NOT NULL, qualname TEXT NOT NULL, name TEXT NOT NULL,
    signature TEXT NOT NULL, docstring TEXT NOT NULL, text TEXT NOT NULL);
CREATE INDEX chunks_path ON chunks(rel_path, start_line);
CREATE INDEX chunks_qualname ON chunks(qualname);
CREATE VIRTUAL TABLE chunks_fts USING fts5(
    name, qualname, words, tokenize = 'unicode61');
CREATE VIRTUAL TABLE chunks_vocab USING fts5vocab(chunks_fts, row);
CREATE TABLE bindings (
    scope TEXT NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL, rel_path TEXT NOT NULL,
    line INTEGER NOT NULL, col INTEGER NOT NULL, end_line INTEGER NOT NULL,
    target TEXT NOT NULL, value TEXT NOT NULL);
CREATE INDEX bindings_scope ON bindings(scope, name);
CREATE INDEX bindings_name ON bindings(name);
CREATE INDEX bindings_path ON bindings(rel_path);
CREATE TABLE classes (
    qualname TEXT NOT NULL, rel_path TEXT NOT NULL, line INTEGER NOT NULL, bases TEXT NOT NULL);
CREATE INDEX classes_qualname ON classes(qualname);
CREATE INDEX classes_path ON classes(rel_path);
CREATE TABLE stars (module TEXT NOT NULL, target TEXT NOT NULL, line INTEGER NOT NULL,
    rel_path TEXT NOT NULL);
CREATE INDEX stars_module ON stars(module);
CREATE TABLE xrefs (
    id INTEGER PRIMARY KEY, rel_path TEXT NOT NULL, line INTEGER NOT NULL, col INTEGER NOT NULL,
    anchor_text TEXT NOT NULL, ref_type TEXT NOT NULL, target TEXT NOT NULL, scope TEXT NOT NULL,
    target_path TEXT NOT NULL DEFAULT '', target_line INTEGER NOT NULL DEFAULT 0,
    provenance TEXT NOT NULL DEFAULT '');
CREATE INDEX xrefs_site ON xrefs(rel_path, line);
CREATE INDEX xrefs_target_path ON xrefs(target_path);
CREATE TABLE edges (
    src TEXT NOT NULL, dst TEXT NOT NULL, type TEXT NOT NULL, rel_path TEXT NOT NULL,
    line INTEGER NOT NULL, resolved INTEGER NOT NULL);
CREATE INDEX edges_path ON edges(rel_path);
CREATE INDEX edges_src ON edges(src);
CREATE INDEX edges_dst ON edges(dst);
CREATE TABLE counters (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE terms (
    id INTEGER PRIMARY KEY, qualname TEXT NOT NULL, rel_path TEXT NOT NULL, line INTEGER NOT NULL,
    end_line INTEGER NOT NULL, kind TEXT NOT NULL, odd TEXT NOT NULL);
CREATE INDEX terms_path ON terms(rel_path);
CREATE VIRTUAL TABLE terms_fts USING fts5(
    name, path, params, doc, assigns, tokenize = 'unicode61', detail = 'column');
CREATE VIRTUAL TABLE terms_vocab USING fts5vocab(terms_fts, row);
CREATE TABLE odd_parts (part TEXT PRIMARY KEY, n INTEGER NOT NULL);
"""


def connect(path: Path, *, fast_unsafe: bool = False, read_only: bool | None = None) -> sqlite3.Connection:
    """`read_only`: open for reading only (None: when the file or its folder is not writable).
    Never through a link: SQLite would follow it (and switch whatever it finds to WAL)."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.islink(f"{path}{suffix}"):
            raise IndexLocationError(
                f"refusing {path}{suffix}: it is a symbolic link; codehop never opens an index through one",
                path=f"{path}{suffix}",
            )
    if not fast_unsafe and (read_only if read_only is not None else not_writable(path)):
        return _connect_read_only(path)
    conn = sqlite3.connect(str(path), timeout=30.0, isolation_level=None, check_same_thread=False)
    if fast_unsafe:
        conn.execute("PRAGMA journal_mode=OFF")
        conn.execute("PRAGMA synchronous=OFF")
    else:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA busy_timeout=30000")
    return conn


def not_writable(path: Path) -> bool:
    """Is the index file (or its folder, where SQLite keeps the WAL) not writable by us?"""
    return path.exists() and not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK))


def _connect_read_only(path: Path) -> sqlite3.Connection:
    # a WAL database in a folder we cannot write has no `-shm` to share: SQLite reads it only as
    # immutable (nobody writes it meanwhile: no one can, through us); every write fails, and a
    # query's one write (`record_query`) is skipped
    uri = "file:" + urllib.parse.quote(str(path.resolve())) + "?immutable=1"
    return sqlite3.connect(uri, uri=True, timeout=30.0, isolation_level=None, check_same_thread=False)


_INDEX_LINES = tuple(line for line in _SCHEMA.splitlines() if line.startswith("CREATE INDEX"))


def create_schema(conn: sqlite3.Connection, *, indexes: bool = True) -> None:
    """The tables (and, unless a bulk build adds them after loading, their indexes)."""
    tables = "\n".join(line for line in _SCHEMA.splitlines() if not line.startswith("CREATE INDEX"))
    conn.executescript(tables)
    if indexes:
        create_indexes(conn)
    conn.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))


def create_indexes(conn: sqlite3.Connection, tables: Collection[str] | None = None) -> None:
    """Indexes built once over loaded tables cost less than kept up row by row (those of `tables`,
    or all). One statement each: SQLite builds it without holding the GIL."""
    for line in _INDEX_LINES:
        if tables is None or line.split(" ON ", 1)[1].split("(", 1)[0] in tables:
            conn.execute(line.rstrip(";"))


def check_schema(conn: sqlite3.Connection) -> None:
    """Raise IndexSchemaError unless this is a codehop index of our version."""
    try:
        row = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    except sqlite3.DatabaseError as exc:
        raise IndexSchemaError(f"not a codehop index: {exc}") from exc
    if row is None or row[0] != str(SCHEMA_VERSION):
        raise IndexSchemaError(f"index schema {row[0] if row else '?'} != {SCHEMA_VERSION}")


def file_states(conn: sqlite3.Connection) -> dict[str, tuple[str, int, int, int, int]]:
    """rel_path -> (hash, size, mtime_ns, ctime_ns, inode) of every indexed file: what an update
    compares the walk to (all four, as git does: a rewrite whose size and mtime were put back, by
    `cp -p`, `rsync -a` or `tar x`, still moves the ctime, which cannot be set, or the inode)."""
    sql = "SELECT rel_path, hash, size, mtime_ns, ctime_ns, inode FROM files"
    return {r[0]: (r[1], r[2], r[3], r[4], r[5]) for r in conn.execute(sql)}


def index_size(conn: sqlite3.Connection) -> tuple[int, int, int]:
    """(files, chunks, xrefs) in one statement: what every `codehop index` reports, without the
    scans of `SqliteStore.counts()` (resolved xrefs, edges)."""
    files, chunks, xrefs = conn.execute(
        "SELECT (SELECT count(*) FROM files), (SELECT count(*) FROM chunks), (SELECT count(*) FROM xrefs)"
    ).fetchone()
    return int(files), int(chunks), int(xrefs)


def move_aside(path: Path, reason: str) -> Path:
    """Keep a bad index (and its WAL) next to the new one; never delete silently."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.{reason}-{stamp}")
    n = 1
    while os.path.lexists(aside):  # a second move within the second never replaces the first
        aside = path.with_name(f"{path.name}.{reason}-{stamp}-{n}")
        n += 1
    for suffix in ("", "-wal", "-shm"):
        src = Path(str(path) + suffix)
        if os.path.lexists(src):  # the rename moves a link itself (never its target); see replace_own
            replace_own(src, Path(str(aside) + suffix))
    forget_verified(path)
    return aside


_SQLITE_MAGIC = b"SQLite format 3\x00"

# A page check passed on the file as it then was: its and its WAL's identity, size and times
# (ctime moves on every write, chmod or `touch`, and cannot be set back), in a sidecar next to it.
_MEMO_SUFFIX = "-verified"
# A write within one tick of the filesystem clock after the check can leave every time as it
# was: a file whose last change is this recent (or whose times are whole seconds: a coarse
# filesystem) is checked again next time rather than remembered.
_RACY_NS = 100_000_000
_COARSE_RACY_NS = 2_000_000_000


def _file_key(path: str) -> tuple[int, ...]:
    """(device, inode, size, mtime, ctime), or () when there is no such file."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return ()
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _memo_key(path: Path) -> tuple[int, ...]:
    """Our schema version, the index file's key and its WAL's, as the sidecar writes them."""
    return (SCHEMA_VERSION, *_file_key(str(path)), -1, *_file_key(str(path) + "-wal"))


def _remembered(path: Path) -> tuple[int, ...] | None:
    try:
        return tuple(int(v) for v in read_own(Path(str(path) + _MEMO_SUFFIX), 4096).split())
    except (OSError, ValueError):
        return None


def _remember(path: Path, key: tuple[int, ...], checked_at_ns: int) -> None:
    sep = key.index(-1)
    times = [*key[4:6], *key[sep + 4 : sep + 6]]  # each file's mtime and ctime
    coarse = all(t % 1_000_000_000 == 0 for t in times)
    if checked_at_ns - max(times) < (_COARSE_RACY_NS if coarse else _RACY_NS):
        forget_verified(path)
        return
    try:
        write_own(Path(str(path) + _MEMO_SUFFIX), (" ".join(map(str, key)) + "\n").encode("ascii"))
    except OSError:  # a read-only folder: every verification reads every page
        pass


def forget_verified(path: Path) -> None:
    try:
        os.unlink(str(path) + _MEMO_SUFFIX)
    except OSError:
        pass


def damage(path: Path, *, remember: bool = False) -> str | None:
    """Why the index file at `path` is damaged, or None when it looks sound: the header and the
    size first (free), then the schema and `PRAGMA quick_check` (reads every page once).
    A database that is only busy (locked by a writer) is not damaged. Reading the header opens
    and closes the file, which drops this process's SQLite POSIX locks on it: call it before the
    process opens the index, or when the index is about to be moved aside anyway.

    `remember` (`codehop index`): a passing page check is remembered beside the file, and skipped
    while the file and its WAL are the very files it read (same inode, size, mtime and ctime):
    only a file changed since its last check is read again. (A query that met a database error,
    and `doctor`, read every page whatever was remembered.)"""
    try:
        size = os.lstat(path).st_size
        header = read_own(path, 100)  # a link or a FIFO planted as index.db is never followed
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot read it ({exc.strerror or exc})"
    if size == 0:
        return None  # SQLite's own empty database: nothing to lose, check_schema decides
    if len(header) < 100 or not header.startswith(_SQLITE_MAGIC):
        return "not an SQLite file (bad header)"
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1) or size % page_size:
        return f"size {size} is not a whole number of {page_size}-byte pages"
    key = _memo_key(path) if remember else ()
    if remember and _remembered(path) == key:
        return None
    checked_at = time.time_ns()
    why, read = _page_damage(path)
    if remember:
        if read and why is None and _memo_key(path) == key:  # nobody wrote while it was read
            _remember(path, key, checked_at)
        else:
            forget_verified(path)
    return why


def _page_damage(path: Path) -> tuple[str | None, bool]:
    """(why the schema or a page is damaged, or None; whether every page was read)."""
    try:
        conn = connect(path)
        try:
            check_schema(conn)
            rows = [r[0] for r in conn.execute("PRAGMA quick_check(5)")]
        finally:
            conn.close()
    except IndexSchemaError as exc:
        return exc.message, True
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            return None, False
        return str(exc), True
    except sqlite3.DatabaseError as exc:
        return str(exc), True
    if rows != ["ok"]:
        detail = "; ".join(line for r in rows for line in str(r).splitlines() if not line.startswith("***"))
        return "quick_check: " + detail[:200], True
    return None, True
