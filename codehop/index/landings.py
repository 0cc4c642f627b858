"""LandingCache: where Jedi landed at a repository file's sites, kept across server sessions.

Jedi's inference at a call site costs up to a second (a parameter's callers searched, a chain
that finds nothing); its answer depends on what the files read for it hold, so it is kept in a
SQLite file beside the index (`landings.db` in the repository's `.codehop/`, the only place
written) and found again by content, never by time:

- a site's row is keyed by its file's path, line and column and by the file's *scope digest*:
  the content hash of the file and of the repository files it imports directly (where the types
  of its names come from). Editing any of them gives new keys; the old rows are never read again
  and are pruned when a file has more than a few generations;
- a landing inside the repository also keeps its target file's content hash, checked on every
  read (a callee that moved or went is asked again);
- landings outside the repository (typeshed, installed packages) and the builtins' places are
  valid for one `environment` stamp (Jedi's version, the interpreter, the environment's paths):
  another stamp empties the file.

What is not tracked: a name's type that comes through two imports or more (a module's import of
an import) whose far end changed while the near files did not; such a row is right again once
one of the near files changes. A cache that fails (locked, corrupt, read-only) answers nothing
and stores nothing: it is never a request's error.
Lives with the index because it owns a SQLite file; knows Jedi's answers only as `Row`s (the
jedi resolver converts). May import: stdlib.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codehop.index.confine import foreign_file

if TYPE_CHECKING:
    from codehop.index.store.sqlite import SqliteStore

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sites (
    rel_path TEXT NOT NULL, scope TEXT NOT NULL, line INTEGER NOT NULL, col INTEGER NOT NULL,
    path TEXT, tline INTEGER, tcol INTEGER, qualname TEXT, kind TEXT, place TEXT,
    target_hash TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (rel_path, scope, line, col)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS generations (
    rel_path TEXT NOT NULL, scope TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (rel_path, scope)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS builtins (
    name TEXT PRIMARY KEY, path TEXT, tline INTEGER, tcol INTEGER, qualname TEXT, kind TEXT, place TEXT
) WITHOUT ROWID;
"""
_VERSION = "2"  # 2: landed without Jedi's dynamic parameters
_GENERATIONS = 3  # scope digests kept per file (an undo finds its rows again)
FILE_NAME = "landings.db"


def environment_stamp(python: str | None, sys_path: Sequence[str] | None) -> str:
    """What the landings outside the repository depend on: Jedi's version, the interpreter that
    runs it, the environment's interpreter and import paths."""
    try:
        jedi_version = metadata.version("jedi")
    except metadata.PackageNotFoundError:
        jedi_version = "?"
    return "\0".join([jedi_version, sys.version, python or "", *(sys_path or ())])


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


class LandingCache:
    """Landings by content, in one SQLite file; safe from several threads (one connection, a lock)."""

    def __init__(
        self,
        db_path: Path,
        environment: str,
        root: Path,
        *,
        imports_of: Callable[[str], Sequence[str]] | None = None,
        indexed: Callable[[], dict[str, tuple[str, int, int, int, int]]] | None = None,
    ) -> None:
        self.path = db_path
        self.environment = environment
        self.imports_of = imports_of  # the repository files a file imports directly
        self.hashes = FileHashes(root, indexed)
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._broken = False

    def _open(self) -> sqlite3.Connection | None:
        if self._conn is not None or self._broken:
            return self._conn
        try:
            if not self.path.parent.is_dir():  # the index's folder: never created here
                raise sqlite3.OperationalError(f"no folder {self.path.parent}")
            if any(foreign_file(self.path.with_name(self.path.name + end)) for end in ("", "-wal", "-shm", "-journal")):
                raise OSError(f"{self.path}: a link or not a regular file")  # never written through one
            conn = sqlite3.connect(str(self.path), timeout=0.2, check_same_thread=False, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.executescript(_SCHEMA)
            row = conn.execute("SELECT value FROM meta WHERE key='environment'").fetchone()
            version = conn.execute("SELECT value FROM meta WHERE key='version'").fetchone()
            if row is None or row[0] != self.environment or version is None or version[0] != _VERSION:
                with conn:
                    conn.execute("BEGIN IMMEDIATE")
                    conn.execute("DELETE FROM sites")
                    conn.execute("DELETE FROM generations")
                    conn.execute("DELETE FROM builtins")
                    conn.execute("INSERT OR REPLACE INTO meta VALUES ('environment', ?)", (self.environment,))
                    conn.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (_VERSION,))
            self._conn = conn
        except (sqlite3.Error, OSError):
            self._broken = True
        return self._conn

    @classmethod
    def beside(cls, store: SqliteStore, root: Path, python: str | None, sys_path: Sequence[str] | None) -> LandingCache:
        """The cache beside an index (in the repository's `.codehop/`, or the folder chosen for
        the index), its scopes read from that index."""
        return cls(
            Path(store.path).parent / FILE_NAME,
            environment_stamp(python, sys_path),
            root,
            imports_of=lambda rel_path: [loc.rel_path for loc in store.imports_in(rel_path)],
            indexed=store.file_states,
        )

    def scope(self, rel_path: str) -> str:
        """The scope digest of a repository file: its content and its direct imports' ('' unreadable)."""
        self.hashes.load()
        own = self.hashes(rel_path)
        if not own:
            return ""
        deps = sorted({p for p in (self.imports_of(rel_path) if self.imports_of else ()) if not p.startswith("/")})
        return content_hash("\0".join([own, *(f"{p}={self.hashes(p)}" for p in deps)]).encode())

    def get(self, rel_path: str, scope: str, positions: Sequence[tuple[int, int]]) -> dict[tuple[int, int], Row]:
        """The rows kept for these sites under this scope digest (a site without a row is absent)."""
        with self._lock:
            conn = self._open()
            if conn is None or not positions:
                return {}
            try:
                rows = conn.execute(
                    "SELECT line, col, path, tline, tcol, qualname, kind, place, target_hash FROM sites"
                    " WHERE rel_path=? AND scope=?",
                    (rel_path, scope),
                ).fetchall()
            except sqlite3.Error:
                return {}
        wanted = set(positions)
        return {(r[0], r[1]): _row(r[2:]) for r in rows if (r[0], r[1]) in wanted}

    def put(self, rel_path: str, scope: str, rows: Iterable[tuple[int, int, Row]]) -> None:
        """Keep (line, col, answer) for one file's scope digest."""
        values = [(rel_path, scope, line, col, *_columns(row), row.target_hash) for line, col, row in rows]

        def drop_old(conn: sqlite3.Connection) -> None:
            for old in self._scopes(conn, rel_path, scope)[_GENERATIONS:]:
                conn.execute("DELETE FROM sites WHERE rel_path=? AND scope=?", (rel_path, old))

        self._write("INSERT OR REPLACE INTO sites VALUES (?,?,?,?,?,?,?,?,?,?,?)", values, then=drop_old)

    def _write(
        self,
        sql: str,
        values: Sequence[tuple[object, ...]],
        *,
        then: Callable[[sqlite3.Connection], None] | None = None,
    ) -> None:
        """Insert `values` in one immediate transaction (and `then` in it); a busy or broken cache
        keeps what it had."""
        with self._lock:
            conn = self._open()
            if conn is None or not values:
                return
            try:
                with conn:
                    conn.execute("BEGIN IMMEDIATE")
                    conn.executemany(sql, values)
                    if then is not None:
                        then(conn)
            except sqlite3.Error:
                pass

    def _scopes(self, conn: sqlite3.Connection, rel_path: str, newest: str) -> list[str]:
        # the generations of a file, newest first; a table of when each was last written keeps order
        seq = conn.execute("SELECT coalesce(max(seq), 0) + 1 FROM generations").fetchone()[0]
        conn.execute("INSERT OR REPLACE INTO generations VALUES (?, ?, ?)", (rel_path, newest, seq))
        scopes = [
            r[0] for r in conn.execute("SELECT scope FROM generations WHERE rel_path=? ORDER BY seq DESC", (rel_path,))
        ]
        for old in scopes[_GENERATIONS:]:
            conn.execute("DELETE FROM generations WHERE rel_path=? AND scope=?", (rel_path, old))
        return scopes

    def builtins(self) -> dict[str, Row]:
        with self._lock:
            conn = self._open()
            if conn is None:
                return {}
            try:
                rows = conn.execute("SELECT name, path, tline, tcol, qualname, kind, place FROM builtins").fetchall()
            except sqlite3.Error:
                return {}
        return {r[0]: _row((*r[1:], "")) for r in rows}

    def put_builtins(self, places: Iterable[tuple[str, Row]]) -> None:
        values = [(name, *_columns(row)) for name, row in places]
        self._write("INSERT OR REPLACE INTO builtins VALUES (?,?,?,?,?,?,?)", values)

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
            self._conn, self._broken = None, True


@dataclass(frozen=True, slots=True)
class Row:
    """One kept answer: no landing (`path` None), or where it lies and its target file's hash."""

    path: str | None
    line: int
    col: int
    qualname: str
    kind: str
    place: str
    target_hash: str


def _row(r: Sequence[Any]) -> Row:
    """A Row of (path, line, col, qualname, kind, place, target_hash) as SQLite returns them."""
    return Row(r[0], r[1] or 0, r[2] or 0, r[3] or "", r[4] or "", r[5] or "", r[6] or "")


def _columns(row: Row) -> tuple[str | int | None, ...]:
    if row.path is None:
        return (None, None, None, None, None, None)
    return (row.path, row.line, row.col, row.qualname, row.kind, row.place)


NO_LANDING = Row(None, 0, 0, "", "", "", "")


class FileHashes:
    """Content hashes of repository files, read again only when a file's stat changes; a file
    whose stat is the one the index recorded has the index's hash (the same blake2b of its
    bytes), so most are never read here."""

    def __init__(
        self, root: Path, indexed: Callable[[], dict[str, tuple[str, int, int, int, int]]] | None = None
    ) -> None:
        self.root = root
        self._indexed = indexed
        self._known: dict[str, tuple[str, int, int, int, int]] | None = None
        self._memo: dict[str, tuple[tuple[int, int, int, int], str]] = {}
        self._lock = threading.Lock()

    def load(self) -> None:
        """Read the index's hashes now (from the thread that owns the index's connection)."""
        if self._known is None and self._indexed is not None:
            try:
                self._known = self._indexed()
            except Exception:  # no index to read (closed, swapped): every file is read instead
                self._known = {}

    def reset(self) -> None:
        """Forget what was recorded (the index was updated): read the index again on `load`."""
        with self._lock:
            self._known = None
            self._memo.clear()

    def __call__(self, rel_path: str) -> str:
        """The file's content hash ('' when it cannot be read)."""
        path = self.root / rel_path
        try:
            st = os.stat(path)
        except OSError:
            return ""
        stamp = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
        with self._lock:
            kept = self._memo.get(rel_path)
            indexed = self._known.get(rel_path) if self._known is not None else None
        if kept is not None and kept[0] == stamp:
            return kept[1]
        if indexed is not None and indexed[1:] == stamp:
            digest = indexed[0]
        else:
            try:
                digest = content_hash(path.read_bytes())
            except OSError:
                return ""
        with self._lock:
            self._memo[rel_path] = (stamp, digest)
        return digest
