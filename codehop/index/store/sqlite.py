"""`SqliteStore`: one index file read through per-thread connections, one read snapshot per
query, rows handed out as records (`Chunk`, `Binding`, `XRef`, `Edge`, `Declaration`, ...),
installed packages' indexes mounted into it, and the query's one write (`record_query`) after
its snapshot. Why it is over 500 lines: `SqliteStore` is one object whose reads share its
state, the per-thread connection and snapshot, the memo keyed by index version, and the mounts
(any read that takes a path, a chunk id or a dotted name may be served by an installed
package's index); spread over mixins, each file would hold part of one object.

Elsewhere in the store: the indexer's SQL (`write.py`), rows to records (`rows.py`), SQLite's
errors to codehop's (`failures.py`: every public method here translates).

May import: records, errors, failures, rows, schema, write, stdlib (sqlite3).
"""

from __future__ import annotations

import json
import math
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypeVar, cast

from codehop.index.store.failures import translated, translating
from codehop.index.store.rows import (
    BINDING_COLS,
    CHUNK_COLS,
    CHUNK_HEAD_COLS,
    CLASS_COLS,
    DECLARATION_COLS,
    EDGE_COLS,
    XREF_COLS,
    Row,
    SymbolRows,
    binding_record,
    chunk_head_record,
    chunk_record,
    class_record,
    declaration_record,
    edge_record,
    xref_record,
)
from codehop.index.store.schema import check_schema, connect, file_states, index_size
from codehop.index.store.write import learn_kept_segmented, remember_landing
from codehop.kernel.records import (
    Binding,
    BindingKind,
    Chunk,
    ChunkHead,
    ClassInfo,
    Declaration,
    Edge,
    Location,
    QueryLog,
    RefType,
    StarImport,
    TermHit,
    XRef,
)


class WriteInSnapshotError(RuntimeError):
    """A write asked for inside a read snapshot: a query reads, and writes once after (a bug)."""


T = TypeVar("T")


@translating(skip=frozenset({"snapshot", "transaction"}))
class SqliteStore:
    """Reads and writes one index file. Thread-safe: one connection per thread. Every public
    method raises codehop's errors, never SQLite's (`failures.translating`)."""

    def __init__(self, path: Path, *, read_only: bool | None = None) -> None:
        self.path = path
        # None: read-only when the file or its folder is not writable (root writes regardless)
        self.read_only = read_only
        self._local = threading.local()
        self._memo: dict[tuple[str, ...], object] = {}
        self._memo_version = -1
        self._mounts: list[Mount] = []
        # called with a name the repository never binds when it is looked up by name: mounts the
        # installed distributions the repository imports that declare it (set by the package layer)
        self.mount_named: Callable[[str], None] | None = None
        # the mount serving an installed top-level module, indexing it first (set by the package layer)
        self.mount_top: Callable[[str], Mount | None] | None = None

    # ---- connections -------------------------------------------------------
    @property
    def conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = connect(self.path, read_only=self.read_only)
            check_schema(conn)
            learn_kept_segmented(conn)  # the terms of this code derive without the segmenter's model
            self._local.conn = conn
        return conn

    def adopt(self, conn: sqlite3.Connection) -> sqlite3.Connection:
        """Serve this thread from `conn` (a bulk build's own connection); returns it."""
        self._local.conn = conn
        return conn

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """One read transaction: every read inside sees the same commit, whatever writers do meanwhile."""
        with translated(self.path):
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

    def in_snapshot(self) -> bool:
        """Is this thread inside a read snapshot of this store?"""
        return getattr(self._local, "snapshot_version", None) is not None

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (the indexer's); SQLite's errors inside become codehop's."""
        with translated(self.path), self._transaction() as conn:
            yield conn

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        if self.in_snapshot():
            raise WriteInSnapshotError(f"a write inside a read snapshot of {self.path}")
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException:
            # SQLite may have rolled back already (a full disk: SQLITE_FULL ends the transaction);
            # a ROLLBACK then would raise "no transaction is active" and hide why
            if conn.in_transaction:
                try:
                    conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            raise

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

    def _cached(self, key: tuple[str, ...], compute: Callable[[], T]) -> T:
        version = self.data_version()
        if version != self._memo_version:
            self._memo.clear()
            self._memo_version = version
        # keyed by version too: threads reading different snapshots never see each other's values
        full = (str(version), *key)
        if full not in self._memo:
            self._memo[full] = compute()
        return cast(T, self._memo[full])

    # ---- files -------------------------------------------------------------
    def file_states(self) -> dict[str, tuple[str, int, int, int, int]]:
        return file_states(self.conn)

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
            f"SELECT {BINDING_COLS} FROM bindings WHERE scope=? AND name=? ORDER BY line DESC LIMIT 1", (scope, name)
        ).fetchone()
        return binding_record(row) if row else None

    def query_class_info(self, qualname: str) -> ClassInfo | None:
        row = self.conn.execute(
            f"SELECT {CLASS_COLS} FROM classes WHERE qualname=? ORDER BY line DESC LIMIT 1",
            (qualname,),
        ).fetchone()
        return class_record(row) if row is not None else None

    def query_stars(self, module: str) -> list[tuple[str, int]]:
        return [
            (r[0], r[1])
            for r in self.conn.execute("SELECT target, line FROM stars WHERE module=? ORDER BY line", (module,))
        ]

    def module_path(self, module: str) -> str | None:
        return self._cached(("module", module), lambda: self.query_module_path(module))

    def module_of(self, rel_path: str) -> str | None:
        m = self.mounted(rel_path) if rel_path.startswith("/") else None
        if m is not None:
            return m.store.module_of(m.rel(rel_path))
        row = self.conn.execute("SELECT module FROM files WHERE rel_path=?", (rel_path,)).fetchone()
        return row[0] if row else None

    def all_names(self, module: str) -> tuple[str, ...] | None:
        return self._cached(("all", module), lambda: self.query_all_names(module))

    def modules(self) -> list[str]:
        # memoised per index version: a question reads all of them once or twice (Django: ~1 ms each)
        return list(
            self._cached(
                ("modules",), lambda: tuple(r[0] for r in self.conn.execute("SELECT module FROM files ORDER BY module"))
            )
        )

    def symbol_rows(self) -> SymbolRows:
        """Every binding, module, star import and class of the index in one pass, for an
        in-memory symbol table (rows become records on first lookup)."""
        c = self.conn
        bindings: dict[tuple[str, str], Row] = {}
        # ascending line order: the last binding in source order wins, as at run time
        for r in c.execute(f"SELECT {BINDING_COLS} FROM bindings ORDER BY line"):
            bindings[(r[0], r[1])] = r
        modules: dict[str, str] = {}
        all_names: dict[str, tuple[str, ...] | None] = {}
        for module, rel, all_json in c.execute(
            "SELECT module, rel_path, all_names FROM files ORDER BY is_package, rel_path DESC"
        ):
            modules[module] = rel  # packages sort last, so `pkg/__init__.py` wins over `pkg.py`
            all_names[module] = tuple(json.loads(all_json)) if all_json is not None else None
        stars: dict[str, list[tuple[str, int]]] = {}
        for module, target, line in c.execute("SELECT module, target, line FROM stars ORDER BY line"):
            stars.setdefault(module, []).append((target, line))
        classes = {r[0]: r for r in c.execute(f"SELECT {CLASS_COLS} FROM classes ORDER BY line")}
        return SymbolRows(binding_rows=bindings, class_rows=classes, modules=modules, all_names=all_names, stars=stars)

    # ---- mounted package indexes -------------------------------------------
    def mount(self, mount: Mount) -> None:
        """Serve an installed distribution's index through this store: its chunks and bindings
        come back with absolute paths (under `mount.root`) and chunk ids above `mount.offset`."""
        self._mounts = [m for m in self._mounts if m.root != mount.root or m.tops != mount.tops] + [mount]

    def unmount_all(self) -> None:
        self._mounts = []
        self.mount_named = None
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
        row = self.conn.execute(f"SELECT {CHUNK_COLS} FROM chunks WHERE id=?", (chunk_id,)).fetchone()
        return chunk_record(row) if row else None

    def chunks_at(self, rel_path: str, line: int) -> list[Chunk]:
        """Chunks of `rel_path` whose span contains `line`, smallest first."""
        m = self.mounted(rel_path) if rel_path.startswith("/") else None
        if m is not None:
            return [m.chunk(c) for c in m.store.chunks_at(m.rel(rel_path), line)]
        rows = self.conn.execute(
            f"SELECT {CHUNK_COLS} FROM chunks WHERE rel_path=? AND start_line<=? AND end_line>=?"
            " ORDER BY end_line - start_line",
            (rel_path, line, line),
        ).fetchall()
        return [chunk_record(r) for r in rows]

    def chunks_of_file(self, rel_path: str) -> list[Chunk]:
        m = self.mounted(rel_path) if rel_path.startswith("/") else None
        if m is not None:
            return [m.chunk(c) for c in m.store.chunks_of_file(m.rel(rel_path))]
        rows = self.conn.execute(
            f"SELECT {CHUNK_COLS} FROM chunks WHERE rel_path=? ORDER BY start_line", (rel_path,)
        ).fetchall()
        return [chunk_record(r) for r in rows]

    def chunks_named(self, qualname: str) -> list[Chunk]:
        rows = self.conn.execute(
            f"SELECT {CHUNK_COLS} FROM chunks WHERE qualname=? ORDER BY start_line", (qualname,)
        ).fetchall()
        m = None if rows else self.mounted(qualname)
        if m is not None:
            return [m.chunk(c) for c in m.store.chunks_named(qualname)]
        return [chunk_record(r) for r in rows]

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
                f"SELECT id, {CHUNK_COLS} FROM chunks WHERE id IN ({','.join('?' * len(ranked))})",
                [i for i, _ in ranked],
            )
        }
        return [(chunk_record(rows[i]), -float(s)) for i, s in ranked if i in rows]

    # ---- derived search terms (codehop.index.terms) ---------------------------
    def term_hits(self, terms: Sequence[str], *, limit: int = 50) -> list[TermHit]:
        """Declarations whose derived terms hold any of `terms` (stems, as `text_terms` gives),
        best first: BM25 over the term columns, the name weighted highest. An OR query costs what
        its terms match (BM25 reads every matching row): the terms are taken rarest first while the
        rows they match stay within `MATCH_BUDGET` (the rarest always), at most `MAX_TERMS`; a
        common term left out (`the`, `model` in Django) weighs little in BM25 anyway. A term no
        declaration holds is tried as a compound of two (`whitespac` -> white, spac*)."""
        asked = list(dict.fromkeys(t for t in terms if t.isalnum()))
        if not asked:
            return []
        conn = self.conn
        marks = ",".join("?" * len(asked))
        docs = dict(conn.execute(f"SELECT term, doc FROM terms_vocab WHERE term IN ({marks})", asked).fetchall())
        query: list[str] = []
        matched = 0
        for t in sorted(docs, key=docs.__getitem__):  # rarest first
            if query and (matched + docs[t] > MATCH_BUDGET or len(query) >= MAX_TERMS):
                break
            query.append(f'"{t}"')
            matched += docs[t]
        for t in asked:
            if t not in docs and len(query) < MAX_TERMS:
                query += self._compound(t)
        if not query:
            return []
        try:
            ranked = conn.execute(
                f"SELECT rowid, bm25(terms_fts, {_TERM_WEIGHTS}) AS s FROM terms_fts WHERE terms_fts MATCH ?"
                " ORDER BY s LIMIT ?",
                (" OR ".join(query), limit),
            ).fetchall()
        except sqlite3.OperationalError:
            return []
        if not ranked:
            return []
        marks = ",".join("?" * len(ranked))
        ids = [i for i, _ in ranked]
        rows = {
            r[0]: r[1:] for r in self.conn.execute(f"SELECT {_TERM_ROW_COLS} FROM terms WHERE id IN ({marks})", ids)
        }
        columns = {
            r[0]: r[1:]
            for r in self.conn.execute(
                f"SELECT rowid, name, path, params, doc, assigns FROM terms_fts WHERE rowid IN ({marks})", ids
            )
        }
        wanted = set(asked)
        hits = []
        for i, s in ranked:
            if i not in rows:
                continue
            qualname, rel_path, line, end_line, kind = rows[i]
            cols = columns.get(i, ("",))
            name_terms = tuple(cols[0].split())
            held = {t for col in cols for t in col.split()}
            hits.append(
                TermHit(
                    qualname=qualname,
                    rel_path=rel_path,
                    line=line,
                    end_line=end_line,
                    kind=kind,
                    score=-float(s),
                    name_terms=name_terms,
                    matched=tuple(t for t in name_terms if t in wanted),
                    explained=tuple(t for t in asked if t in held),
                    params=tuple(t for t in asked if t in set(cols[2].split())) if len(cols) > 2 else (),
                )
            )
        return hits

    def _compound(self, term: str) -> list[str]:
        """FTS terms for a word written as one that declarations split (`whitespac` -> white,
        spac*; `stripnl` -> strip, nl): the longest head some declaration holds whose rest has two
        letters or more, the rest too when a held term is it or (three letters or more) starts
        with it; a head alone has four letters or more; [] when there is none."""
        heads = [term[:i] for i in range(len(term) - 2, 2, -1)]
        if not heads:
            return []
        held = {
            r[0]
            for r in self.conn.execute(
                f"SELECT term FROM terms_vocab WHERE term IN ({','.join('?' * len(heads))})", heads
            )
        }
        for head in heads:
            if head not in held:
                continue
            rest = term[len(head) :]
            upper = rest + "\uffff" if len(rest) >= 3 else rest + "\x00"  # a prefix, or the term itself
            if self.conn.execute(
                "SELECT 1 FROM terms_vocab WHERE term >= ? AND term < ? LIMIT 1", (rest, upper)
            ).fetchone():
                return [f'"{head}"', f'"{rest}"*' if len(rest) >= 3 else f'"{rest}"']
            if len(head) >= 4:
                return [f'"{head}"']
        return []

    def member_terms(self, owner: str, rel_path: str, start: int, end: int) -> list[TermHit]:
        """The declarations directly in class `owner` (declared at `rel_path:start-end`), each with
        its name terms and every derived term it holds (`explained`): what narrows a class the
        words described to the member they ask of."""
        rows = self.conn.execute(
            f"SELECT {_TERM_ROW_COLS} FROM terms WHERE rel_path=? AND line>? AND line<=?", (rel_path, start, end)
        ).fetchall()
        return self._held_terms([r for r in rows if r[1].rpartition(".")[0] == owner][:MAX_MEMBERS])

    def terms_named(self, qualnames: Sequence[str]) -> list[TermHit]:
        """The declarations `qualnames` name (classes, functions, values of this repository), each
        with its name terms and every derived term it holds, as `member_terms` gives them."""
        rows = []
        for qualname in qualnames[:MAX_MEMBERS]:
            scope, _, name = qualname.rpartition(".")
            for rel_path, line in self.conn.execute(
                "SELECT rel_path, line FROM bindings WHERE scope=? AND name=? LIMIT 2", (scope, name)
            ):
                rows += self.conn.execute(
                    f"SELECT {_TERM_ROW_COLS} FROM terms WHERE rel_path=? AND line=? AND qualname=?",
                    (rel_path, line, qualname),
                ).fetchall()
        return self._held_terms(rows)

    def _held_terms(self, rows: list[tuple[int, str, str, int, int, str]]) -> list[TermHit]:
        if not rows:
            return []
        marks = ",".join("?" * len(rows))
        columns = {
            r[0]: r[1:]
            for r in self.conn.execute(
                f"SELECT rowid, name, path, params, doc, assigns FROM terms_fts WHERE rowid IN ({marks})",
                [r[0] for r in rows],
            )
        }
        out = []
        for i, qualname, rel, line, end_line, kind in rows:
            cols = columns.get(i, ("",))
            names = tuple(cols[0].split())
            held = tuple(dict.fromkeys(t for col in cols for t in col.split()))
            out.append(
                TermHit(
                    qualname=qualname,
                    rel_path=rel,
                    line=line,
                    end_line=end_line,
                    kind=kind,
                    score=0.0,
                    name_terms=names,
                    matched=(),
                    explained=held,
                )
            )
        return out

    def declaration_terms(self, rel_path: str, line: int) -> frozenset[str]:
        """Every derived term of the declarations starting at `rel_path:line` (name, path,
        parameters, docstring, assigned names): what they explain of a question."""
        rows = self.conn.execute(
            "SELECT name, path, params, doc, assigns FROM terms_fts WHERE rowid IN"
            " (SELECT id FROM terms WHERE rel_path=? AND line=?)",
            (rel_path, line),
        ).fetchall()
        return frozenset(t for r in rows for col in r for t in col.split())

    def term_rarity(self, terms: Sequence[str]) -> dict[str, float]:
        """How much each stem tells here: log(declarations / declarations whose terms hold it);
        a stem no declaration has tells nothing (0)."""
        n = self._cached(("n_terms",), lambda: self.conn.execute("SELECT count(*) FROM terms").fetchone()[0])
        asked = list(dict.fromkeys(terms))[:64]
        marks = ",".join("?" * len(asked))
        docs = dict(self.conn.execute(f"SELECT term, doc FROM terms_vocab WHERE term IN ({marks})", asked))
        return {t: math.log(1 + n / docs[t]) if docs.get(t) else 0.0 for t in asked}

    def term_variants(self, term: str) -> list[str]:
        """Stems of this index that are forms of the same word: one a prefix of the other, the
        shorter of four letters or more, at most three letters apart (`expiri` ~ `expir`, `evalu` ~
        `eval`, `registr` ~ `regist`): Snowball stems a noun and its verb apart."""
        if not 4 <= len(term) <= 40:
            return []
        shorter = [term[:i] for i in range(max(4, len(term) - 3), len(term))]
        marks = ",".join("?" * len(shorter))
        out = [r[0] for r in self.conn.execute(f"SELECT term FROM terms_vocab WHERE term IN ({marks})", shorter)]
        out += [
            r[0]
            for r in self.conn.execute(
                "SELECT term FROM terms_vocab WHERE term > ? AND term < ? AND length(term) <= ? LIMIT 8",
                (term, term + "\uffff", len(term) + 3),
            )
        ]
        return out

    def name_part_vocabulary(self) -> frozenset[str]:
        """Every distinct identifier part (of a declaration's name, parameters, assigned names)
        that is not a dictionary word, unstemmed (`nl`, `msg`, `cfg`, `delim`): what a question
        word may be abbreviated to here (`codehop.index.terms.abbreviates`)."""
        return self._cached(
            ("odd_parts",), lambda: frozenset(r[0] for r in self.conn.execute("SELECT part FROM odd_parts"))
        )

    # ---- symbols -----------------------------------------------------------
    def binding(self, scope: str, name: str) -> Binding | None:
        b = self._cached(("b", scope, name), lambda: self.query_binding(scope, name))
        m = None if b is not None else self.mounted(scope)
        if m is not None:
            found = m.store.binding(scope, name)
            return m.binding(found) if found is not None else None
        return b

    def bindings_at(self, rel_path: str, line: int) -> list[Binding]:
        """The names bound by the statement on `line` (`a = b = c` binds two), in source order."""
        m = self.mounted(rel_path) if rel_path.startswith("/") else None
        if m is not None:
            return [m.binding(b) for b in m.store.bindings_at(m.rel(rel_path), line)]
        rows = self.conn.execute(
            f"SELECT {BINDING_COLS} FROM bindings WHERE rel_path=? AND line=? ORDER BY col", (rel_path, line)
        ).fetchall()
        return [binding_record(r) for r in rows]

    def bindings_in(self, scope: str) -> list[Binding]:
        rows = self.conn.execute(
            f"SELECT {BINDING_COLS} FROM bindings WHERE scope=? ORDER BY line", (scope,)
        ).fetchall()
        m = None if rows else self.mounted(scope)
        if m is not None:
            return [m.binding(b) for b in m.store.bindings_in(scope)]
        return [binding_record(r) for r in rows]

    def bindings_named(self, name: str, limit: int = 50) -> list[Binding]:
        rows = self.conn.execute(f"SELECT {BINDING_COLS} FROM bindings WHERE name=? LIMIT ?", (name, limit)).fetchall()
        found = [binding_record(r) for r in rows]
        imports = (BindingKind.IMPORT, BindingKind.MODULE)
        if all(b.kind in imports for b in found) and (self._mounts or self.mount_named is not None):
            # a name the repository never declares (at most imports): the packages it imports may
            if self.mount_named is not None:
                self.mount_named(name)
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
        return self._cached(("c", qualname), lambda: self.query_class_info(qualname))

    def stars(self, module: str) -> list[tuple[str, int]]:
        return self._cached(("s", module), lambda: self.query_stars(module))

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
        sql = f"SELECT {XREF_COLS} FROM xrefs"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY rel_path, line, col LIMIT ?"
        return [xref_record(r) for r in self.conn.execute(sql, (*args, limit))]

    def cached_resolution(self, rel_path: str, line: int, anchor: str) -> XRef | None:
        m = self.mounted(rel_path) if rel_path.startswith("/") else None
        if m is not None:  # a site in an installed package: the row its index holds (bridged when indexed)
            found = m.store.cached_resolution(m.rel(rel_path), line, anchor)
            if found is not None:
                return replace(found, rel_path=rel_path, target_path=f"{m.root}/{found.target_path}")
        row = self.conn.execute(
            f"SELECT {XREF_COLS} FROM xrefs WHERE rel_path=? AND line=? AND anchor_text=?"
            " AND target_path != '' LIMIT 1",
            (rel_path, line, anchor),
        ).fetchone()
        return xref_record(row) if row else None

    def xrefs_to(self, rel_path: str, line: int) -> list[XRef]:
        """Reference sites resolved to the declaration at `rel_path:line`, in source order."""
        rows = self.conn.execute(
            f"SELECT {XREF_COLS} FROM xrefs WHERE target_path=? AND target_line=? ORDER BY rel_path, line, col",
            (rel_path, line),
        ).fetchall()
        return [xref_record(r) for r in rows]

    def unresolved_xrefs_named(self, name: str, limit: int = 200) -> list[XRef]:
        """Reference sites left unresolved whose last dotted part is `name` (possible hidden users)."""
        rows = self.conn.execute(
            f"SELECT {XREF_COLS} FROM xrefs WHERE target_path='' AND provenance != 'external'"
            " AND (anchor_text=? OR anchor_text LIKE ?) ORDER BY rel_path, line, col LIMIT ?",
            (name, f"%.{name}", limit),
        ).fetchall()
        return [xref_record(r) for r in rows if r[3] == name or r[3].endswith("." + name)]

    def xrefs_importing(self, module: str) -> list[XRef]:
        """Import, re-export and star-import sites whose target is `module` or a name in it (or in a
        submodule: the caller tells them apart), in source order."""
        rows = self.conn.execute(
            f"SELECT {XREF_COLS} FROM xrefs WHERE ref_type IN ('import', 'reexport', 'star_import')"
            " AND (target=? OR substr(target, 1, ?)=?) ORDER BY rel_path, line, col",
            (module, len(module) + 1, module + "."),
        ).fetchall()
        return [xref_record(r) for r in rows]

    def star_importers(self, module: str) -> list[StarImport]:
        """Every `from <module> import *`, in source order."""
        return [
            StarImport(module=r[0], target=module, rel_path=r[1], line=r[2])
            for r in self.conn.execute(
                "SELECT module, rel_path, line FROM stars WHERE target=? ORDER BY rel_path, line", (module,)
            )
        ]

    def index_size(self) -> tuple[int, int, int]:
        return index_size(self.conn)

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

    # ---- reads for the answer layer (task reading, manifests, the repository map) ----------
    def declarations_named(self, name: str, limit: int = 60) -> list[Declaration]:
        """Classes, functions and values named `name`, anywhere."""
        rows = self.conn.execute(
            f"SELECT {DECLARATION_COLS} FROM bindings WHERE name=? AND kind IN ('class', 'function', 'value', 'alias')"
            " LIMIT ?",
            (name, limit),
        ).fetchall()
        return [declaration_record(r) for r in rows]

    def classes_named(self, name: str, limit: int = 5) -> list[str]:
        """Qualified names of the classes named `name`."""
        rows = self.conn.execute(
            "SELECT scope, name FROM bindings WHERE name=? AND kind='class' LIMIT ?", (name, limit)
        ).fetchall()
        return [f"{r[0]}.{r[1]}" for r in rows]

    def modules_matching(self, dotted: str) -> list[Location]:
        """Modules named `dotted` or ending in `.dotted` (qualname: the module; line 1)."""
        rows = self.conn.execute(
            "SELECT rel_path, module FROM files WHERE module=? OR module LIKE ?", (dotted, f"%.{dotted}")
        ).fetchall()
        return [Location(rel_path=r[0], line=1, qualname=r[1]) for r in rows]

    def first_declaration(self, scope: str, name: str) -> Location | None:
        """The first class, function or value binding of `scope.name` in source order."""
        row = self.conn.execute(
            "SELECT rel_path, line FROM bindings WHERE scope=? AND name=? AND kind IN ('class', 'function', 'value')"
            " ORDER BY line LIMIT 1",
            (scope, name),
        ).fetchone()
        return Location(rel_path=row[0], line=row[1], qualname=f"{scope}.{name}") if row else None

    def classes_declaring(self, name: str) -> int:
        """How many classes declare a member named `name`."""
        return int(
            self.conn.execute(
                "SELECT count(DISTINCT b.scope) FROM bindings b JOIN classes c ON c.qualname = b.scope WHERE b.name=?",
                (name,),
            ).fetchone()[0]
        )

    def reexport_sites(self, target_path: str, target_line: int, limit: int = 3) -> list[Location]:
        """Re-exports of the declaration at `target_path:target_line` (a re-export or star-import
        row, or an import in a package `__init__.py`)."""
        return [
            Location(rel_path=r[0], line=r[1])
            for r in self.conn.execute(
                "SELECT rel_path, line FROM xrefs WHERE target_path=? AND target_line=? AND"
                " (ref_type IN ('reexport', 'star_import') OR (ref_type='import' AND rel_path LIKE '%__init__.py'))"
                " LIMIT ?",
                (target_path, target_line, limit),
            )
        ]

    def star_import_sites(self, module: str, limit: int = 3) -> list[Location]:
        """`from <module> import *` sites."""
        return [
            Location(rel_path=r[0], line=r[1])
            for r in self.conn.execute(
                "SELECT rel_path, line FROM xrefs WHERE ref_type='star_import' AND target=? LIMIT ?", (module, limit)
            )
        ]

    def imports_in(self, rel_path: str) -> list[Location]:
        """What a file imports (plain and star imports), in line order: where each target is
        declared (empty path when the index left it unresolved), qualname the dotted target."""
        return [
            Location(rel_path=r[0], line=r[1], qualname=r[2])
            for r in self.conn.execute(
                "SELECT target_path, target_line, target FROM xrefs WHERE rel_path=? AND ref_type IN"
                " ('import', 'star_import') AND target_path != ? ORDER BY line",
                (rel_path, rel_path),
            )
        ]

    def module_import_sites(self, rel_path: str, module: str) -> list[tuple[Location, RefType]]:
        """Import, re-export and star-import sites elsewhere of the module at `rel_path` or of
        anything in it, in source order."""
        rows = self.conn.execute(
            "SELECT rel_path, line, ref_type FROM xrefs WHERE ref_type IN ('import', 'reexport', 'star_import')"
            " AND (target_path=? OR target=? OR target LIKE ?) AND rel_path != ? ORDER BY rel_path, line",
            (rel_path, module, module + ".%", rel_path),
        ).fetchall()
        return [(Location(rel_path=r[0], line=r[1]), RefType(r[2])) for r in rows]

    def first_imports_of(self, module: str) -> list[Location]:
        """Per importing file, its first import of `module` or of anything in it."""
        return [
            Location(rel_path=r[0], line=r[1])
            for r in self.conn.execute(
                "SELECT rel_path, min(line) FROM xrefs WHERE ref_type IN ('import', 'star_import') AND"
                " (target=? OR target LIKE ?) GROUP BY rel_path",
                (module, module + ".%"),
            )
        ]

    def chunks_like(self, pattern: str, limit: int, *, modules_only: bool = False, not_in: str = "") -> list[Chunk]:
        """Chunks whose text matches the SQL LIKE `pattern` (whole modules only, outside the file
        `not_in`, when asked), in index order."""
        if modules_only:
            rows = self.conn.execute(
                f"SELECT {CHUNK_COLS} FROM chunks WHERE kind='module' AND text LIKE ? AND rel_path != ? LIMIT ?",
                (pattern, not_in, limit),
            )
        else:
            rows = self.conn.execute(f"SELECT {CHUNK_COLS} FROM chunks WHERE text LIKE ? LIMIT ?", (pattern, limit))
        return [chunk_record(r) for r in rows]

    def resolved_edges(self) -> list[Edge]:
        """Every resolved edge between two graph nodes."""
        return [
            edge_record(r)
            for r in self.conn.execute(f"SELECT {EDGE_COLS} FROM edges WHERE resolved=1 AND src != '' AND dst != ''")
        ]

    def declaration_heads(self) -> list[ChunkHead]:
        """Every class, function and method chunk without its text, in index order."""
        return [
            chunk_head_record(r)
            for r in self.conn.execute(f"SELECT {CHUNK_HEAD_COLS} FROM chunks WHERE kind != 'module'")
        ]

    def qualnames_under(self, path: str) -> list[str]:
        """Qualified names of the chunks in the file `path` or in the folder `path/`."""
        rows = self.conn.execute(
            "SELECT qualname FROM chunks WHERE rel_path=? OR rel_path LIKE ?", (path, path.rstrip("/") + "/%")
        ).fetchall()
        return [r[0] for r in rows]

    def qualnames_named(self, name: str, limit: int = 20) -> list[str]:
        rows = self.conn.execute("SELECT qualname FROM chunks WHERE name=? LIMIT ?", (name, limit)).fetchall()
        return [r[0] for r in rows]

    # ---- the one writer of a query ---------------------------------------------
    def record_query(self, log: QueryLog) -> bool:
        """Write what a query leaves behind (counters, loop-time landings) in one short
        transaction, after its read snapshot ended. False when the index cannot take it now
        (read-only, or busy under a concurrent writer): counting is best effort."""
        try:
            with self._transaction() as conn:
                conn.executemany(
                    "INSERT INTO counters VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = value + excluded.value",
                    log.counters,
                )
                for site in log.landings:
                    remember_landing(conn, site)
        except sqlite3.OperationalError:  # read-only, locked, busy
            return False
        return True

    def counters(self) -> dict[str, int]:
        return {r[0]: r[1] for r in self.conn.execute("SELECT key, value FROM counters")}

    # ---- graph edges ----------------------------------------------------------
    def edges(self, rel_path: str | None = None) -> list[Edge]:
        # a root `__init__.py` has the empty module name, which the graph cannot hold as a node
        sql = f"SELECT {EDGE_COLS} FROM edges WHERE src != '' AND dst != ''"
        if rel_path is None:
            return [edge_record(r) for r in self.conn.execute(sql)]
        return [edge_record(r) for r in self.conn.execute(sql + " AND rel_path=?", (rel_path,))]

    def edges_touching(self, nodes: Sequence[str], *, out_only: Sequence[str] = ()) -> list[Edge]:
        """Edges with either end in `nodes` (one hop of a neighbourhood, straight from the index);
        with `out_only`, just the edges of those types leaving `nodes`."""
        out: list[Edge] = []
        cols = EDGE_COLS
        for i in range(0, len(nodes), 400):
            part = list(nodes[i : i + 400])
            marks = ",".join("?" * len(part))
            if out_only:
                types = ",".join("?" * len(out_only))
                out.extend(
                    edge_record(r)
                    for r in self.conn.execute(
                        f"SELECT {cols} FROM edges WHERE src IN ({marks}) AND type IN ({types}) AND dst != ''",
                        part + list(out_only),
                    )
                )
                continue
            out.extend(
                edge_record(r)
                for r in self.conn.execute(
                    f"SELECT {cols} FROM edges WHERE src IN ({marks}) AND dst != ''"
                    f" UNION ALL SELECT {cols} FROM edges WHERE dst IN ({marks})"
                    " AND src != ''",  # a root `__init__.py` has the empty module name, not a graph node
                    part + part,
                )
            )
        return out

    def edges_into(self, dst: str, types: Sequence[str]) -> list[Edge]:
        """Resolved edges of `types` into `dst`, in source order."""
        marks = ",".join("?" * len(types))
        return [
            edge_record(r)
            for r in self.conn.execute(
                f"SELECT {EDGE_COLS} FROM edges WHERE dst=? AND resolved=1 AND type IN ({marks})"
                " AND src != '' ORDER BY rel_path, line",
                (dst, *types),
            )
        ]

    def edges_out_of(self, src: str, types: Sequence[str]) -> list[Edge]:
        """Edges of `types` leaving `src`, in source order."""
        marks = ",".join("?" * len(types))
        return [
            edge_record(r)
            for r in self.conn.execute(
                f"SELECT {EDGE_COLS} FROM edges WHERE src=? AND type IN ({marks})"
                " AND dst != '' ORDER BY rel_path, line",
                (src, *types),
            )
        ]

    def edge_generations(self) -> dict[str, int]:
        """rel_path -> the generation that last rewrote its edges (the graph reloads what moved)."""
        return dict(self.conn.execute("SELECT rel_path, edges_gen FROM files"))

    def declarations(self, rel_path: str | None = None) -> list[Declaration]:
        """Classes, functions and module- or class-level values (of one file, or all)."""
        sql = f"SELECT {DECLARATION_COLS} FROM bindings WHERE kind IN ('class', 'function', 'value', 'alias')"
        rows = self.conn.execute(sql) if rel_path is None else self.conn.execute(sql + " AND rel_path=?", (rel_path,))
        return [declaration_record(r) for r in rows]

    def declaration_sites(self) -> list[Declaration]:
        """Every class, function and value binding, in source order."""
        return [
            declaration_record(r)
            for r in self.conn.execute(
                f"SELECT {DECLARATION_COLS} FROM bindings"
                " WHERE kind IN ('class', 'function', 'value', 'alias') ORDER BY rel_path, line"
            )
        ]

    def class_names(self) -> set[str]:
        """The qualified name of every class."""
        return {r[0] for r in self.conn.execute("SELECT qualname FROM classes")}

    def file_modules(self) -> list[tuple[str, str]]:
        return list(self.conn.execute("SELECT rel_path, module FROM files WHERE module != ''"))


MAX_TERMS = 16  # terms in one `term_hits` OR query
# rows the terms of one `term_hits` query may match (by the FTS vocabulary's counts), rarest
# terms first: BM25 reads every matching row (Django, 16k rows: `the` alone matches 2,204,
# `model` 4,255; measured in docs/vocabulary.md)
MATCH_BUDGET = 1000
_TERM_WEIGHTS = "8.0, 2.0, 3.0, 1.5, 1.0"  # bm25 weights of name, path, params, doc, assigns
_TERM_ROW_COLS = "id, qualname, rel_path, line, end_line, kind"
MAX_MEMBERS = 200  # members of one class read to narrow a class to a member


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
