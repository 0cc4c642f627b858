"""SQLite store: chunks + FTS5, symbol tables, cross-references, graph edges, counters.

Owns every SQL statement in codehop. One file, `<index_dir>/index.db`, WAL
mode; a schema version is checked on open. May import: records, errors,
stdlib (sqlite3).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from codehop.kernel.errors import IndexSchemaError
from codehop.kernel.records import Binding, BindingKind, Chunk, ChunkKind, ClassInfo, RefType, XRef
from codehop.kernel.words import index_words

SCHEMA_VERSION = 11  # 11: a definition under a module-level `if`/`try` gets its chunk and class facts

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files (
    rel_path TEXT PRIMARY KEY, hash TEXT NOT NULL, size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL, module TEXT NOT NULL, is_package INTEGER NOT NULL,
    all_names TEXT, has_error INTEGER NOT NULL DEFAULT 0, edges_gen INTEGER NOT NULL DEFAULT 0);
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
"""


def _chunk(row: sqlite3.Row | tuple) -> Chunk:  # type: ignore[type-arg]
    return Chunk(
        chunk_id=row[0],
        rel_path=row[1],
        start_line=row[2],
        end_line=row[3],
        kind=ChunkKind(row[4]),
        qualname=row[5],
        name=row[6],
        signature=row[7],
        docstring=row[8],
        text=row[9],
        identifiers="",
    )


def _binding(row: tuple) -> Binding:  # type: ignore[type-arg]
    return Binding(
        scope=row[0],
        name=row[1],
        kind=BindingKind(row[2]),
        rel_path=row[3],
        line=row[4],
        col=row[5],
        end_line=row[6],
        target=row[7],
        value=row[8],
    )


_CHUNK_COLS = "id, rel_path, start_line, end_line, kind, qualname, name, signature, docstring, text"
_BINDING_COLS = "scope, name, kind, rel_path, line, col, end_line, target, value"
_XREF_COLS = "rel_path, line, col, anchor_text, ref_type, target, scope, target_path, target_line, provenance"


def _xref(row: tuple) -> XRef:  # type: ignore[type-arg]
    return XRef(
        rel_path=row[0],
        line=row[1],
        col=row[2],
        anchor_text=row[3],
        ref_type=RefType(row[4]),
        target=row[5],
        scope=row[6],
        target_path=row[7],
        target_line=row[8],
        provenance=row[9],
    )


def connect(path: Path, *, fast_unsafe: bool = False) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), timeout=30.0, isolation_level=None, check_same_thread=False)
    if fast_unsafe:
        conn.execute("PRAGMA journal_mode=OFF")
        conn.execute("PRAGMA synchronous=OFF")
    else:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA busy_timeout=30000")
    return conn


_INDEX_LINES = tuple(line for line in _SCHEMA.splitlines() if line.startswith("CREATE INDEX"))


def create_schema(conn: sqlite3.Connection, *, indexes: bool = True) -> None:
    """The tables (and, unless a bulk build adds them after loading, their indexes)."""
    tables = "\n".join(line for line in _SCHEMA.splitlines() if not line.startswith("CREATE INDEX"))
    conn.executescript(tables)
    if indexes:
        create_indexes(conn)
    conn.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))


def create_indexes(conn: sqlite3.Connection) -> None:
    """Indexes built once over loaded tables cost less than kept up row by row."""
    for line in _INDEX_LINES:
        conn.execute(line.rstrip(";"))


def check_schema(conn: sqlite3.Connection) -> None:
    """Raise IndexSchemaError unless this is a codehop index of our version."""
    try:
        row = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    except sqlite3.DatabaseError as exc:
        raise IndexSchemaError(f"not a codehop index: {exc}") from exc
    if row is None or row[0] != str(SCHEMA_VERSION):
        raise IndexSchemaError(f"index schema {row[0] if row else '?'} != {SCHEMA_VERSION}")


class SqliteStore:
    """Reads and writes one index file. Thread-safe: one connection per thread."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._local = threading.local()
        self._memo: dict[tuple[str, ...], object] = {}
        self._memo_version = -1
        self._mounts: list[Mount] = []
        # called once, the first time a name the repository never binds is looked up by name:
        # mounts the installed distributions the repository imports (set by the package layer)
        self.mount_imports: Callable[[], None] | None = None
        # the mount serving an installed top-level module, indexing it first (set by the package layer)
        self.mount_top: Callable[[str], Mount | None] | None = None

    # ---- connections -------------------------------------------------------
    @property
    def conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = connect(self.path)
            check_schema(conn)
            self._local.conn = conn
        return conn

    def close(self) -> None:
        for name in ("conn", "write_conn"):
            conn = getattr(self._local, name, None)
            if conn is not None:
                conn.close()
                setattr(self._local, name, None)

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """One read transaction: every read inside sees the same commit, whatever writers do meanwhile."""
        conn = self.conn
        if conn.in_transaction:  # nested, or inside a writer's transaction: that one holds
            yield
            return
        conn.execute("BEGIN")
        try:
            # the first read fixes the snapshot; its version holds until COMMIT
            self._local.snapshot_version = self.data_version()
            yield
        finally:
            self._local.snapshot_version = None
            conn.execute("COMMIT")

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        conn = self.conn
        if conn.in_transaction:  # a write (a counter, a feed-back) from inside a read snapshot
            conn = getattr(self._local, "write_conn", None) or connect(self.path)
            self._local.write_conn = conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def data_version(self) -> int:
        """Changes whenever another connection commits; memo keys hang off it."""
        pinned = getattr(self._local, "snapshot_version", None)
        if pinned is not None:
            return int(pinned)
        row = self.conn.execute("SELECT value FROM counters WHERE key='generation'").fetchone()
        return int(row[0]) if row else 0

    def invalidate(self) -> None:
        """Forget memoised lookups (a writer calls this inside its own transaction)."""
        self._memo.clear()

    def _cached(self, key: tuple[str, ...], compute):  # type: ignore[no-untyped-def]
        version = self.data_version()
        if version != self._memo_version:
            self._memo.clear()
            self._memo_version = version
        # keyed by version too: threads reading different snapshots never see each other's values
        full = (str(version), *key)
        if full not in self._memo:
            self._memo[full] = compute()
        return self._memo[full]

    # ---- files -------------------------------------------------------------
    def file_states(self) -> dict[str, tuple[str, int, int]]:
        return {r[0]: (r[1], r[2], r[3]) for r in self.conn.execute("SELECT rel_path, hash, size, mtime_ns FROM files")}

    # The symbol table's five questions. `query_*` ask SQL every time (a writer's SymbolTable
    # memoises them in its own transaction); the plain names share this store's memo.
    def query_module_path(self, module: str) -> str | None:
        row = self.conn.execute(
            "SELECT rel_path FROM files WHERE module=? ORDER BY is_package DESC, rel_path LIMIT 1", (module,)
        ).fetchone()
        return row[0] if row else None

    def query_all_names(self, module: str) -> tuple[str, ...] | None:
        row = self.conn.execute("SELECT all_names FROM files WHERE module=? LIMIT 1", (module,)).fetchone()
        return tuple(json.loads(row[0])) if row and row[0] is not None else None

    def query_binding(self, scope: str, name: str) -> Binding | None:
        # the last binding in source order wins, as at run time
        row = self.conn.execute(
            f"SELECT {_BINDING_COLS} FROM bindings WHERE scope=? AND name=? ORDER BY line DESC LIMIT 1", (scope, name)
        ).fetchone()
        return _binding(row) if row else None

    def query_class_info(self, qualname: str) -> ClassInfo | None:
        row = self.conn.execute(
            "SELECT qualname, rel_path, line, bases FROM classes WHERE qualname=? ORDER BY line DESC LIMIT 1",
            (qualname,),
        ).fetchone()
        if row is None:
            return None
        return ClassInfo(qualname=row[0], rel_path=row[1], line=row[2], bases=tuple(json.loads(row[3])))

    def query_stars(self, module: str) -> list[tuple[str, int]]:
        return [
            (r[0], r[1])
            for r in self.conn.execute("SELECT target, line FROM stars WHERE module=? ORDER BY line", (module,))
        ]

    def module_path(self, module: str) -> str | None:
        return self._cached(("module", module), lambda: self.query_module_path(module))  # type: ignore[no-any-return]

    def module_of(self, rel_path: str) -> str | None:
        m = self.mounted(rel_path) if rel_path.startswith("/") else None
        if m is not None:
            return m.store.module_of(m.rel(rel_path))
        row = self.conn.execute("SELECT module FROM files WHERE rel_path=?", (rel_path,)).fetchone()
        return row[0] if row else None

    def all_names(self, module: str) -> tuple[str, ...] | None:
        return self._cached(("all", module), lambda: self.query_all_names(module))  # type: ignore[no-any-return]

    def modules(self) -> list[str]:
        # memoised per index version: a question reads all of them once or twice (Django: ~1 ms each)
        return list(
            self._cached(
                ("modules",), lambda: tuple(r[0] for r in self.conn.execute("SELECT module FROM files ORDER BY module"))
            )
        )

    # ---- mounted package indexes -------------------------------------------
    def mount(self, mount: Mount) -> None:
        """Serve an installed distribution's index through this store: its chunks and bindings
        come back with absolute paths (under `mount.root`) and chunk ids above `mount.offset`."""
        self._mounts = [m for m in self._mounts if m.root != mount.root or m.tops != mount.tops] + [mount]

    def unmount_all(self) -> None:
        self._mounts = []
        self.mount_imports = None
        self.mount_top = None

    def mounted(self, key: str) -> Mount | None:
        """The mount serving an absolute path, a chunk id (as text), or a dotted name's top-level module."""
        for m in self._mounts:
            if key.startswith("/") and key.startswith(m.root + "/"):
                rel = key[len(m.root) + 1 :]
                if rel.split("/", 1)[0].removesuffix(".py") in m.tops:
                    return m
            elif not key.startswith("/") and key.split(".", 1)[0] in m.tops:
                return m
        return None

    # ---- chunks ------------------------------------------------------------
    def chunk(self, chunk_id: int) -> Chunk | None:
        for m in self._mounts:
            if m.offset < chunk_id < m.offset + MOUNT_SPAN:
                c = m.store.chunk(chunk_id - m.offset)
                return m.chunk(c) if c is not None else None
        row = self.conn.execute(f"SELECT {_CHUNK_COLS} FROM chunks WHERE id=?", (chunk_id,)).fetchone()
        return _chunk(row) if row else None

    def chunks_at(self, rel_path: str, line: int) -> list[Chunk]:
        """Chunks of `rel_path` whose span contains `line`, smallest first."""
        m = self.mounted(rel_path) if rel_path.startswith("/") else None
        if m is not None:
            return [m.chunk(c) for c in m.store.chunks_at(m.rel(rel_path), line)]
        rows = self.conn.execute(
            f"SELECT {_CHUNK_COLS} FROM chunks WHERE rel_path=? AND start_line<=? AND end_line>=?"
            " ORDER BY end_line - start_line",
            (rel_path, line, line),
        ).fetchall()
        return [_chunk(r) for r in rows]

    def chunks_of_file(self, rel_path: str) -> list[Chunk]:
        m = self.mounted(rel_path) if rel_path.startswith("/") else None
        if m is not None:
            return [m.chunk(c) for c in m.store.chunks_of_file(m.rel(rel_path))]
        rows = self.conn.execute(
            f"SELECT {_CHUNK_COLS} FROM chunks WHERE rel_path=? ORDER BY start_line", (rel_path,)
        ).fetchall()
        return [_chunk(r) for r in rows]

    def chunks_named(self, qualname: str) -> list[Chunk]:
        rows = self.conn.execute(
            f"SELECT {_CHUNK_COLS} FROM chunks WHERE qualname=? ORDER BY start_line", (qualname,)
        ).fetchall()
        m = None if rows else self.mounted(qualname)
        if m is not None:
            return [m.chunk(c) for c in m.store.chunks_named(qualname)]
        return [_chunk(r) for r in rows]

    def term_docs(self, terms: Sequence[str]) -> tuple[int, dict[str, int]]:
        """(number of chunks, documents containing each term) from the FTS vocabulary."""
        n = self._cached(("n_chunks",), lambda: self.conn.execute("SELECT count(*) FROM chunks").fetchone()[0])
        marks = ",".join("?" * len(terms))
        docs = dict(self.conn.execute(f"SELECT term, doc FROM chunks_vocab WHERE term IN ({marks})", list(terms)))
        return n, docs

    def search(self, match: str, limit: int) -> list[tuple[Chunk, float]]:
        """FTS5 BM25 (lower is better in SQLite; returned as a positive score)."""
        try:
            # rank on the FTS table alone, then read the winners' rows: joining first read every
            # matching chunk's text before the sort (half of a warm ask's SQL time on Django)
            ranked = self.conn.execute(
                "SELECT rowid, bm25(chunks_fts, 4.0, 2.0, 1.0) AS s"
                " FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY s LIMIT ?",
                (match, limit),
            ).fetchall()
        except sqlite3.OperationalError:
            return []
        if not ranked:
            return []
        rows = {
            r[0]: r[1:]
            for r in self.conn.execute(
                f"SELECT id, {_CHUNK_COLS} FROM chunks WHERE id IN ({','.join('?' * len(ranked))})",
                [i for i, _ in ranked],
            )
        }
        return [(_chunk(rows[i]), -float(s)) for i, s in ranked if i in rows]

    # ---- symbols -----------------------------------------------------------
    def binding(self, scope: str, name: str) -> Binding | None:
        b = self._cached(("b", scope, name), lambda: self.query_binding(scope, name))
        m = None if b is not None else self.mounted(scope)
        if m is not None:
            found = m.store.binding(scope, name)
            return m.binding(found) if found is not None else None
        return b  # type: ignore[no-any-return]

    def bindings_at(self, rel_path: str, line: int) -> list[Binding]:
        """The names bound by the statement on `line` (`a = b = c` binds two), in source order."""
        m = self.mounted(rel_path) if rel_path.startswith("/") else None
        if m is not None:
            return [m.binding(b) for b in m.store.bindings_at(m.rel(rel_path), line)]
        rows = self.conn.execute(
            f"SELECT {_BINDING_COLS} FROM bindings WHERE rel_path=? AND line=? ORDER BY col", (rel_path, line)
        ).fetchall()
        return [_binding(r) for r in rows]

    def bindings_in(self, scope: str) -> list[Binding]:
        rows = self.conn.execute(
            f"SELECT {_BINDING_COLS} FROM bindings WHERE scope=? ORDER BY line", (scope,)
        ).fetchall()
        m = None if rows else self.mounted(scope)
        if m is not None:
            return [m.binding(b) for b in m.store.bindings_in(scope)]
        return [_binding(r) for r in rows]

    def bindings_named(self, name: str, limit: int = 50) -> list[Binding]:
        rows = self.conn.execute(f"SELECT {_BINDING_COLS} FROM bindings WHERE name=? LIMIT ?", (name, limit)).fetchall()
        found = [_binding(r) for r in rows]
        imports = (BindingKind.IMPORT, BindingKind.MODULE)
        if all(b.kind in imports for b in found) and (self._mounts or self.mount_imports is not None):
            # a name the repository never declares (at most imports): the packages it imports may
            hook, self.mount_imports = self.mount_imports, None
            if hook is not None:
                hook()
            found += [m.binding(b) for m in self._mounts for b in m.store.bindings_named(name, limit)]
            # a name the mounted packages only import (app -> requests -> urllib3): the distributions
            # it is imported from, mounted on demand, two levels at most
            for _ in range(2):
                if self.mount_top is None or not all(b.kind in imports for b in found):
                    break
                have = {t for m in self._mounts for t in m.tops}
                tops = {b.target.split(".")[0] for b in found if b.kind is BindingKind.IMPORT and b.target} - have
                new = [m for t in sorted(tops) if (m := self.mount_top(t)) is not None]
                if not new:
                    break
                found += [m.binding(b) for m in new for b in m.store.bindings_named(name, limit)]
        return found[:limit]

    def imported_tops(self) -> list[str]:
        """Top-level modules the repository imports (its own included)."""
        rows = self.conn.execute(
            "SELECT DISTINCT target FROM bindings WHERE kind IN (?, ?)",
            (BindingKind.IMPORT.value, BindingKind.MODULE.value),
        ).fetchall()
        return sorted({str(r[0]).split(".", 1)[0] for r in rows if r[0]})

    def class_info(self, qualname: str) -> ClassInfo | None:
        return self._cached(("c", qualname), lambda: self.query_class_info(qualname))  # type: ignore[no-any-return]

    def stars(self, module: str) -> list[tuple[str, int]]:
        return self._cached(("s", module), lambda: self.query_stars(module))  # type: ignore[no-any-return]

    # ---- xrefs -------------------------------------------------------------
    def xrefs(
        self, *, rel_path: str | None = None, ref_type: str | None = None, line: int | None = None, limit: int = -1
    ) -> list[XRef]:
        where: list[str] = []
        args: list[str | int] = []
        if rel_path is not None:
            where.append("rel_path=?")
            args.append(rel_path)
        if line is not None:
            where.append("line=?")
            args.append(line)
        if ref_type is not None:
            where.append("ref_type=?")
            args.append(ref_type)
        sql = f"SELECT {_XREF_COLS} FROM xrefs"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY rel_path, line, col LIMIT ?"
        return [_xref(r) for r in self.conn.execute(sql, (*args, limit))]

    def record_resolution(
        self, rel_path: str, line: int, anchor: str, target_path: str, target_line: int, provenance: str
    ) -> None:
        """Feed a loop-time resolution back into the table (one write, short transaction)."""
        with self.transaction() as conn:
            conn.execute(
                "UPDATE xrefs SET target_path=?, target_line=?, provenance=?"
                " WHERE rel_path=? AND line=? AND anchor_text=? AND target_path=''",
                (target_path, target_line, provenance, rel_path, line, anchor),
            )

    def remember_resolution(self, site: XRef) -> None:
        """A loop-time landing for a site the indexer left without a row (an attribute reached by
        inference): fill its row, or add one, so the next query reads it instead of asking again."""
        with self.transaction() as conn:
            cur = conn.execute(
                "UPDATE xrefs SET target_path=?, target_line=?, provenance=?"
                " WHERE rel_path=? AND line=? AND anchor_text=? AND target_path=''",
                (site.target_path, site.target_line, site.provenance, site.rel_path, site.line, site.anchor_text),
            )
            if (
                cur.rowcount == 0
                and conn.execute(
                    "SELECT 1 FROM xrefs WHERE rel_path=? AND line=? AND anchor_text=?",
                    (site.rel_path, site.line, site.anchor_text),
                ).fetchone()
                is None
            ):
                conn.execute(
                    "INSERT INTO xrefs (rel_path, line, col, anchor_text, ref_type, target, scope,"
                    " target_path, target_line, provenance) VALUES (?,?,?,?,?,?,?,?,?,?)",
                    (
                        site.rel_path,
                        site.line,
                        site.col,
                        site.anchor_text,
                        str(site.ref_type),
                        site.target,
                        site.scope,
                        site.target_path,
                        site.target_line,
                        site.provenance,
                    ),
                )

    def cached_resolution(self, rel_path: str, line: int, anchor: str) -> XRef | None:
        m = self.mounted(rel_path) if rel_path.startswith("/") else None
        if m is not None:  # a site in an installed package: the row its index holds (bridged when indexed)
            found = m.store.cached_resolution(m.rel(rel_path), line, anchor)
            if found is not None:
                return replace(found, rel_path=rel_path, target_path=f"{m.root}/{found.target_path}")
        row = self.conn.execute(
            f"SELECT {_XREF_COLS} FROM xrefs WHERE rel_path=? AND line=? AND anchor_text=?"
            " AND target_path != '' LIMIT 1",
            (rel_path, line, anchor),
        ).fetchone()
        return _xref(row) if row else None

    def xrefs_to(self, rel_path: str, line: int) -> list[XRef]:
        """Reference sites resolved to the declaration at `rel_path:line`, in source order."""
        rows = self.conn.execute(
            f"SELECT {_XREF_COLS} FROM xrefs WHERE target_path=? AND target_line=? ORDER BY rel_path, line, col",
            (rel_path, line),
        ).fetchall()
        return [_xref(r) for r in rows]

    def unresolved_xrefs_named(self, name: str, limit: int = 200) -> list[XRef]:
        """Reference sites left unresolved whose last dotted part is `name` (possible hidden users)."""
        rows = self.conn.execute(
            f"SELECT {_XREF_COLS} FROM xrefs WHERE target_path='' AND provenance != 'external'"
            " AND (anchor_text=? OR anchor_text LIKE ?) ORDER BY rel_path, line, col LIMIT ?",
            (name, f"%.{name}", limit),
        ).fetchall()
        return [_xref(r) for r in rows if r[3] == name or r[3].endswith("." + name)]

    def xrefs_importing(self, module: str) -> list[XRef]:
        """Import, re-export and star-import sites whose target is `module` or a name in it (or in a
        submodule: the caller tells them apart), in source order."""
        rows = self.conn.execute(
            f"SELECT {_XREF_COLS} FROM xrefs WHERE ref_type IN ('import', 'reexport', 'star_import')"
            " AND (target=? OR substr(target, 1, ?)=?) ORDER BY rel_path, line, col",
            (module, len(module) + 1, module + "."),
        ).fetchall()
        return [_xref(r) for r in rows]

    def star_importers(self, module: str) -> list[tuple[str, str, int]]:
        """(importing module, rel_path, line) of every `from <module> import *`."""
        return [
            (r[0], r[1], r[2])
            for r in self.conn.execute(
                "SELECT module, rel_path, line FROM stars WHERE target=? ORDER BY rel_path, line", (module,)
            )
        ]

    def index_size(self) -> tuple[int, int, int]:
        """(files, chunks, xrefs) in one statement: what every `codehop index` reports, without the
        scans of `counts()` (resolved xrefs, edges)."""
        files, chunks, xrefs = self.conn.execute(
            "SELECT (SELECT count(*) FROM files), (SELECT count(*) FROM chunks), (SELECT count(*) FROM xrefs)"
        ).fetchone()
        return int(files), int(chunks), int(xrefs)

    def counts(self) -> dict[str, int]:
        c = self.conn
        return {
            "files": c.execute("SELECT count(*) FROM files").fetchone()[0],
            "chunks": c.execute("SELECT count(*) FROM chunks").fetchone()[0],
            "xrefs": c.execute("SELECT count(*) FROM xrefs").fetchone()[0],
            "xrefs_resolved": c.execute("SELECT count(*) FROM xrefs WHERE target_path != ''").fetchone()[0],
            "edges": c.execute("SELECT count(*) FROM edges").fetchone()[0],
        }

    def xref_type_counts(self) -> dict[str, tuple[int, int]]:
        return {
            r[0]: (r[1], r[2])
            for r in self.conn.execute("SELECT ref_type, count(*), sum(target_path != '') FROM xrefs GROUP BY ref_type")
        }

    # ---- counters ----------------------------------------------------------
    def bump(self, key: str, by: int = 1) -> None:
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO counters VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = value + excluded.value",
                (key, by),
            )

    def counters(self) -> dict[str, int]:
        return {r[0]: r[1] for r in self.conn.execute("SELECT key, value FROM counters")}

    # ---- graph edges ----------------------------------------------------------
    def edges(self, rel_path: str | None = None) -> list[tuple[str, str, str, str, int, int]]:
        # a root `__init__.py` has the empty module name, which the graph cannot hold as a node
        sql = "SELECT src, dst, type, rel_path, line, resolved FROM edges WHERE src != '' AND dst != ''"
        if rel_path is None:
            return list(self.conn.execute(sql))
        return list(self.conn.execute(sql + " AND rel_path=?", (rel_path,)))

    def edges_touching(
        self, nodes: Sequence[str], *, out_only: Sequence[str] = ()
    ) -> list[tuple[str, str, str, str, int, int]]:
        """Edges with either end in `nodes` (one hop of a neighbourhood, straight from the index);
        with `out_only`, just the edges of those types leaving `nodes`."""
        out: list[tuple[str, str, str, str, int, int]] = []
        cols = "src, dst, type, rel_path, line, resolved"
        for i in range(0, len(nodes), 400):
            part = list(nodes[i : i + 400])
            marks = ",".join("?" * len(part))
            if out_only:
                types = ",".join("?" * len(out_only))
                out.extend(
                    self.conn.execute(
                        f"SELECT {cols} FROM edges WHERE src IN ({marks}) AND type IN ({types}) AND dst != ''",
                        part + list(out_only),
                    )
                )
                continue
            out.extend(
                self.conn.execute(
                    f"SELECT {cols} FROM edges WHERE src IN ({marks}) AND dst != ''"
                    f" UNION ALL SELECT {cols} FROM edges WHERE dst IN ({marks})"
                    " AND src != ''",  # a root `__init__.py` has the empty module name, not a graph node
                    part + part,
                )
            )
        return out

    def edges_into(self, dst: str, types: Sequence[str]) -> list[tuple[str, str, str, int]]:
        """(src, type, rel_path, line) of resolved edges of `types` into `dst`, in source order."""
        marks = ",".join("?" * len(types))
        return [
            (r[0], r[1], r[2], r[3])
            for r in self.conn.execute(
                f"SELECT src, type, rel_path, line FROM edges WHERE dst=? AND resolved=1 AND type IN ({marks})"
                " AND src != '' ORDER BY rel_path, line",
                (dst, *types),
            )
        ]

    def edges_out_of(self, src: str, types: Sequence[str]) -> list[tuple[str, str, str, int, int]]:
        """(dst, type, rel_path, line, resolved) of edges of `types` leaving `src`, in source order."""
        marks = ",".join("?" * len(types))
        return [
            (r[0], r[1], r[2], r[3], r[4])
            for r in self.conn.execute(
                f"SELECT dst, type, rel_path, line, resolved FROM edges WHERE src=? AND type IN ({marks})"
                " AND dst != '' ORDER BY rel_path, line",
                (src, *types),
            )
        ]

    def edge_generations(self) -> dict[str, int]:
        """rel_path -> the generation that last rewrote its edges (the graph reloads what moved)."""
        return dict(self.conn.execute("SELECT rel_path, edges_gen FROM files"))

    def declarations(self, rel_path: str | None = None) -> list[tuple[str, str, str, str, int, int]]:
        """(scope, name, kind, rel_path, line, end_line) of classes, functions and module-level values."""
        sql = (
            "SELECT scope, name, kind, rel_path, line, end_line FROM bindings"
            " WHERE kind IN ('class', 'function', 'value', 'alias')"
        )
        if rel_path is None:
            return list(self.conn.execute(sql))
        return list(self.conn.execute(sql + " AND rel_path=?", (rel_path,)))

    def declaration_sites(self) -> list[tuple[str, str, str, str, int, int]]:
        """(scope, name, kind, rel_path, line, col) of every class, function and value binding."""
        return list(
            self.conn.execute(
                "SELECT scope, name, kind, rel_path, line, col FROM bindings"
                " WHERE kind IN ('class', 'function', 'value', 'alias') ORDER BY rel_path, line"
            )
        )

    def class_locations(self) -> list[tuple[str, str, int]]:
        """(qualname, rel_path, line) of every class."""
        return list(self.conn.execute("SELECT qualname, rel_path, line FROM classes"))

    def file_modules(self) -> list[tuple[str, str]]:
        return list(self.conn.execute("SELECT rel_path, module FROM files WHERE module != ''"))


MOUNT_SPAN = 10**10  # chunk ids of one mounted index: offset < id < offset + span


@dataclass(frozen=True, slots=True)
class Mount:
    """An installed distribution's index served through a repository's store."""

    root: str  # the distribution's import root (its site dir), absolute
    tops: frozenset[str]  # its top-level modules
    store: SqliteStore
    offset: int  # added to its chunk ids, so they never meet the repository's

    def rel(self, abs_path: str) -> str:
        return abs_path[len(self.root) + 1 :]

    def chunk(self, c: Chunk) -> Chunk:
        return replace(c, rel_path=f"{self.root}/{c.rel_path}", chunk_id=c.chunk_id + self.offset)

    def binding(self, b: Binding) -> Binding:
        return replace(b, rel_path=f"{self.root}/{b.rel_path}")


def write_file_rows(
    conn: sqlite3.Connection,
    files: Sequence[tuple],  # type: ignore[type-arg]
    hashes: dict[str, str],
    stats: dict[str, tuple[int, int]],
) -> None:
    """Insert everything for freshly parsed files (`FileFacts.rows()`; callers delete old rows first)."""
    file_rows: list[tuple[Any, ...]] = []
    chunk_rows: list[tuple[Any, ...]] = []
    fts_rows: list[tuple[Any, ...]] = []
    binding_rows: list[tuple[Any, ...]] = []
    class_rows: list[tuple[Any, ...]] = []
    star_rows: list[tuple[Any, ...]] = []
    xref_rows: list[tuple[Any, ...]] = []
    next_id = (conn.execute("SELECT coalesce(max(id), 0) FROM chunks").fetchone()[0]) + 1
    for rel, module, is_package, all_names, has_error, chunks, bindings, classes, stars, xrefs in files:
        size, mtime = stats[rel]
        file_rows.append(
            (
                rel,
                hashes[rel],
                size,
                mtime,
                module,
                int(is_package),
                json.dumps(all_names) if all_names is not None else None,
                int(has_error),
            )
        )
        path_words = index_words(rel)
        for c in chunks:
            chunk_rows.append((next_id, *c[:9]))
            fts_rows.append((next_id, c[5], c[4].replace(".", " "), f"{path_words} {c[9]}"))
            next_id += 1
        binding_rows.extend(bindings)
        class_rows.extend((q, r, line, json.dumps(bases)) for q, r, line, bases in classes)
        star_rows.extend((module, target, line, rel) for target, line in stars)
        xref_rows.extend(xrefs)
    conn.executemany("INSERT OR REPLACE INTO files VALUES (?,?,?,?,?,?,?,?,0)", file_rows)
    conn.executemany("INSERT INTO chunks VALUES (?,?,?,?,?,?,?,?,?,?)", chunk_rows)
    conn.executemany("INSERT INTO chunks_fts (rowid, name, qualname, words) VALUES (?,?,?,?)", fts_rows)
    conn.executemany("INSERT INTO bindings VALUES (?,?,?,?,?,?,?,?,?)", binding_rows)
    conn.executemany("INSERT INTO classes VALUES (?,?,?,?)", class_rows)
    conn.executemany("INSERT INTO stars VALUES (?,?,?,?)", star_rows)
    conn.executemany(
        "INSERT INTO xrefs (rel_path, line, col, anchor_text, ref_type, target, scope) VALUES (?,?,?,?,?,?,?)",
        xref_rows,
    )


def delete_files(conn: sqlite3.Connection, rel_paths: Iterable[str]) -> None:
    for rel in rel_paths:
        conn.execute("DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE rel_path=?)", (rel,))
        for table in ("chunks", "bindings", "classes", "stars", "xrefs", "edges", "files"):
            conn.execute(f"DELETE FROM {table} WHERE rel_path=?", (rel,))


def bump_generation(conn: sqlite3.Connection) -> None:
    conn.execute("INSERT INTO counters VALUES ('generation', 1) ON CONFLICT(key) DO UPDATE SET value = value + 1")
    conn.execute(
        "INSERT INTO meta VALUES ('updated_at', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (str(time.time()),),
    )


def move_aside(path: Path, reason: str) -> Path:
    """Keep a bad index (and its WAL) next to the new one; never delete silently."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.{reason}-{stamp}")
    for suffix in ("", "-wal", "-shm"):
        src = Path(str(path) + suffix)
        if src.exists():
            os.replace(src, Path(str(aside) + suffix))
    return aside


_SQLITE_MAGIC = b"SQLite format 3\x00"


def damage(path: Path) -> str | None:
    """Why the index file at `path` is damaged, or None when it looks sound: the header and the
    size first (free), then the schema and `PRAGMA quick_check` (reads every page once).
    A database that is only busy (locked by a writer) is not damaged. Reading the header opens
    and closes the file, which drops this process's SQLite POSIX locks on it: call it before the
    process opens the index, or when the index is about to be moved aside anyway."""
    try:
        size = path.stat().st_size
        with open(path, "rb") as fh:
            header = fh.read(100)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot read it ({exc.strerror})"
    if size == 0:
        return None  # SQLite's own empty database: nothing to lose, check_schema decides
    if len(header) < 100 or not header.startswith(_SQLITE_MAGIC):
        return "not an SQLite file (bad header)"
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1) or size % page_size:
        return f"size {size} is not a whole number of {page_size}-byte pages"
    try:
        conn = connect(path)
        try:
            check_schema(conn)
            rows = [r[0] for r in conn.execute("PRAGMA quick_check(5)")]
        finally:
            conn.close()
    except IndexSchemaError as exc:
        return exc.message
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            return None
        return str(exc)
    except sqlite3.DatabaseError as exc:
        return str(exc)
    if rows != ["ok"]:
        detail = "; ".join(line for r in rows for line in str(r).splitlines() if not line.startswith("***"))
        return "quick_check: " + detail[:200]
    return None
