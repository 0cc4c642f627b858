"""The indexer's SQL, run inside its one write transaction: inserting a parsed file's rows,
deleting a file's, the generation counter, and index-time resolution's reads and writes of the
xref and edge tables, and the symbol rows a bulk build hands on without reading them back
(`symbol_rows_of`). Rows stay tuples here (bulk paths, speed over shape).

May import: records, rows, words, terms, stdlib (sqlite3).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from codehop.index.store.rows import XREF_COLS, SymbolRows, xref_row
from codehop.index.terms import declaration_terms, learn_segmented, segmented
from codehop.kernel.records import XRef
from codehop.kernel.words import index_words


@dataclass(slots=True)
class LoadedRows:
    """What a bulk build inserted into the symbol tables, kept in insertion (rowid) order: the
    symbol table and the structural edges read it instead of reading the rows back."""

    files: list[tuple[Any, ...]] = field(default_factory=list)  # (module, rel_path, all_names JSON, is_package)
    bindings: list[tuple[Any, ...]] = field(default_factory=list)  # as in the bindings table
    classes: list[tuple[Any, ...]] = field(default_factory=list)  # (qualname, rel_path, line, bases JSON)
    stars: list[tuple[Any, ...]] = field(default_factory=list)  # (module, target, line, rel_path)


def symbol_rows_of(loaded: LoadedRows) -> SymbolRows | None:
    """What `SqliteStore.symbol_rows` reads back from a fresh index holding `loaded`, built from the
    rows themselves (a full build holds them already). A table scan returns rows in insertion
    order; a sort that ties (two different rows of one key on one line) is SQLite's to order, so
    then this answers None and the caller reads the rows back."""
    bindings: dict[tuple[str, str], tuple[Any, ...]] = {}
    for r in sorted(loaded.bindings, key=_line_4):
        key = (r[0], r[1])
        prev = bindings.get(key)
        if prev is not None and prev[4] == r[4] and prev != r:
            return None
        bindings[key] = r
    modules: dict[str, str] = {}
    all_names: dict[str, tuple[str, ...] | None] = {}
    by_path = sorted(loaded.files, key=lambda f: f[1], reverse=True)
    for module, rel, all_json, _ in sorted(by_path, key=lambda f: f[3]):
        modules[module] = rel
        all_names[module] = tuple(json.loads(all_json)) if all_json is not None else None
    stars: dict[str, list[tuple[str, int]]] = {}
    last: dict[str, tuple[Any, ...]] = {}
    for module, target, line, rel in sorted(loaded.stars, key=lambda r: r[2]):
        prev = last.get(module)
        if prev is not None and prev[2] == line and prev != (module, target, line, rel):
            return None
        last[module] = (module, target, line, rel)
        stars.setdefault(module, []).append((target, line))
    classes: dict[str, tuple[Any, ...]] = {}
    for r in sorted(loaded.classes, key=lambda r: r[2]):
        prev = classes.get(r[0])
        if prev is not None and prev[2] == r[2] and prev != r:
            return None
        classes[r[0]] = r
    return SymbolRows(binding_rows=bindings, class_rows=classes, modules=modules, all_names=all_names, stars=stars)


def _line_4(r: tuple[Any, ...]) -> Any:
    return r[4]


FTS_STAGE = "temp.chunks_fts_stage"  # a bulk build's FTS rows, tokenised at once at the end (`fill_fts`)
TERMS_STAGE = "temp.terms_fts_stage"  # and its declarations' term rows
_TERM_COLS = "name, path, params, doc, assigns"
# a chunk tuple longer than this is a declaration's first chunk: (..., params, assigns, end_line)
_DECL_CHUNK = 10


def stage_fts(conn: sqlite3.Connection) -> None:
    """A plain (temporary, in memory) table for the FTS rows of a bulk build: appending there costs
    little while the parsers need the cores; `fill_fts` tokenises them all in one statement."""
    conn.execute("PRAGMA temp_store=MEMORY")
    conn.execute(f"CREATE TABLE {FTS_STAGE} (id INTEGER PRIMARY KEY, name TEXT, qualname TEXT, words TEXT)")
    conn.execute(f"CREATE TABLE {TERMS_STAGE} (id INTEGER PRIMARY KEY, {_TERM_COLS})")


def fill_fts(conn: sqlite3.Connection) -> None:
    """Tokenise the staged FTS rows into `chunks_fts`: one statement, so SQLite runs it without the
    GIL (another thread may run Python meanwhile)."""
    conn.execute(f"INSERT INTO chunks_fts (rowid, name, qualname, words) SELECT * FROM {FTS_STAGE} ORDER BY id")
    conn.execute(f"DROP TABLE {FTS_STAGE}")
    conn.execute(f"INSERT INTO terms_fts (rowid, {_TERM_COLS}) SELECT * FROM {TERMS_STAGE} ORDER BY id")
    conn.execute(f"DROP TABLE {TERMS_STAGE}")


def write_file_rows(
    conn: sqlite3.Connection,
    files: Sequence[tuple],  # type: ignore[type-arg]
    hashes: dict[str, str],
    stats: dict[str, tuple[int, int, int, int]],
    *,
    keep: LoadedRows | None = None,
    fts: str = "chunks_fts",
) -> None:
    """Insert everything for freshly parsed files (`FileFacts.rows()`; callers delete old rows first).
    `keep` collects the symbol rows as inserted; `fts` may name the staging table (`FTS_STAGE`)."""
    file_rows: list[tuple[Any, ...]] = []
    chunk_rows: list[tuple[Any, ...]] = []
    fts_rows: list[tuple[Any, ...]] = []
    binding_rows: list[tuple[Any, ...]] = []
    class_rows: list[tuple[Any, ...]] = []
    star_rows: list[tuple[Any, ...]] = []
    xref_rows: list[tuple[Any, ...]] = []
    term_rows: list[tuple[Any, ...]] = []
    term_fts_rows: list[tuple[Any, ...]] = []
    next_id = (conn.execute("SELECT coalesce(max(id), 0) FROM chunks").fetchone()[0]) + 1
    next_term = (conn.execute("SELECT coalesce(max(id), 0) FROM terms").fetchone()[0]) + 1
    for rel, module, is_package, all_names, has_error, chunks, bindings, classes, stars, xrefs in files:
        size, mtime, ctime, inode = stats[rel]
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
                ctime,
                inode,
            )
        )
        path_words = index_words(rel)
        for c in chunks:
            chunk_rows.append((next_id, *c[:9]))
            # the words: the path's, the text, the camelCase parts the worker found (`index_words`)
            words = f"{path_words} {c[8]} {c[9]}" if c[9] else f"{path_words} {c[8]}"
            fts_rows.append((next_id, c[5], c[4].replace(".", " "), words))
            next_id += 1
            if len(c) > _DECL_CHUNK:  # a def's or class's first chunk: its search terms
                cols = declaration_terms(c[4], c[10], c[7], c[11])
                term_rows.append((next_term, c[4], rel, c[1], c[12], c[3], cols[5]))
                term_fts_rows.append((next_term, *cols[:5]))
                next_term += 1
        for b in bindings:  # module constants, class attributes, settings
            if b[2] in ("value", "alias") and b[1] != "__all__":
                qualname = f"{b[0]}.{b[1]}"
                cols = declaration_terms(qualname)
                term_rows.append((next_term, qualname, rel, b[4], b[6], b[2], cols[5]))
                term_fts_rows.append((next_term, *cols[:5]))
                next_term += 1
        binding_rows.extend(bindings)
        class_rows.extend((q, r, line, json.dumps(bases)) for q, r, line, bases in classes)
        star_rows.extend((module, target, line, rel) for target, line in stars)
        xref_rows.extend(xrefs)
    conn.executemany("INSERT OR REPLACE INTO files VALUES (?,?,?,?,?,?,?,?,0,?,?)", file_rows)
    conn.executemany("INSERT INTO chunks VALUES (?,?,?,?,?,?,?,?,?,?)", chunk_rows)
    conn.executemany(f"INSERT INTO {fts} (rowid, name, qualname, words) VALUES (?,?,?,?)", fts_rows)
    conn.executemany("INSERT INTO bindings VALUES (?,?,?,?,?,?,?,?,?)", binding_rows)
    conn.executemany("INSERT INTO terms VALUES (?,?,?,?,?,?,?)", term_rows)
    terms_fts = TERMS_STAGE if fts == FTS_STAGE else "terms_fts"
    conn.executemany(f"INSERT INTO {terms_fts} (rowid, {_TERM_COLS}) VALUES (?,?,?,?,?,?)", term_fts_rows)
    odd = Counter(p for r in term_rows for p in r[6].split())
    conn.executemany(
        "INSERT INTO odd_parts VALUES (?, ?) ON CONFLICT(part) DO UPDATE SET n = n + excluded.n", odd.items()
    )
    conn.executemany("INSERT INTO classes VALUES (?,?,?,?)", class_rows)
    conn.executemany("INSERT INTO stars VALUES (?,?,?,?)", star_rows)
    conn.executemany(
        "INSERT INTO xrefs (rel_path, line, col, anchor_text, ref_type, target, scope) VALUES (?,?,?,?,?,?,?)",
        xref_rows,
    )
    if keep is not None:
        keep.files.extend((r[4], r[0], r[6], r[5]) for r in file_rows)
        keep.bindings.extend(binding_rows)
        keep.classes.extend(class_rows)
        keep.stars.extend(star_rows)


def delete_files(conn: sqlite3.Connection, rel_paths: Iterable[str]) -> None:
    for rel in rel_paths:
        conn.execute("DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE rel_path=?)", (rel,))
        conn.execute("DELETE FROM terms_fts WHERE rowid IN (SELECT id FROM terms WHERE rel_path=?)", (rel,))
        odd = Counter(p for (o,) in conn.execute("SELECT odd FROM terms WHERE rel_path=?", (rel,)) for p in o.split())
        conn.executemany("UPDATE odd_parts SET n = n - ? WHERE part = ?", [(k, p) for p, k in odd.items()])
        for table in ("terms", "chunks", "bindings", "classes", "stars", "xrefs", "edges", "files"):
            conn.execute(f"DELETE FROM {table} WHERE rel_path=?", (rel,))
    conn.execute("DELETE FROM odd_parts WHERE n <= 0")


_SEGMENTED_KEY = "segmented"  # meta: {run: its parts space-joined} (`terms.segmented`)


def keep_segmented(conn: sqlite3.Connection) -> None:
    """Add to the index the runs of letters this process gave the segmenter (`terms.segmented`),
    so a later process deriving terms of this code (a reader, an update) has them without building
    the segmenter's model. A process that indexed other code too adds its runs as well: a split is
    the same whatever code it came from."""
    new = segmented()
    if not new:
        return
    row = conn.execute("SELECT value FROM meta WHERE key=?", (_SEGMENTED_KEY,)).fetchone()
    kept = _segmented_of(row[0]) if row else {}
    added = {run: " ".join(parts) for run, parts in new.items() if run not in kept}
    if added:
        value = json.dumps({**{r: " ".join(p) for r, p in kept.items()}, **added}, separators=(",", ":"))
        conn.execute(
            "INSERT INTO meta VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (_SEGMENTED_KEY, value),
        )


def learn_kept_segmented(conn: sqlite3.Connection) -> None:
    """Hand `terms` the runs an index kept (`keep_segmented`); nothing when it kept none."""
    row = conn.execute("SELECT value FROM meta WHERE key=?", (_SEGMENTED_KEY,)).fetchone()
    if row:
        learn_segmented(_segmented_of(row[0]))


def _segmented_of(value: str) -> dict[str, tuple[str, ...]]:
    try:
        data = json.loads(value)
    except ValueError:
        return {}
    if not isinstance(data, dict):
        return {}
    return {r: tuple(p.split()) for r, p in data.items() if isinstance(p, str) and p.split()}


def bump_generation(conn: sqlite3.Connection) -> None:
    conn.execute("INSERT INTO counters VALUES ('generation', 1) ON CONFLICT(key) DO UPDATE SET value = value + 1")
    conn.execute(
        "INSERT INTO meta VALUES ('updated_at', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (str(time.time()),),
    )


# ---- index-time reads and writes, inside the indexer's transaction (rows stay tuples: bulk) ----
def enable_wal(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA journal_mode=WAL")


def touch_file(conn: sqlite3.Connection, rel_path: str, stamp: tuple[int, int, int, int]) -> None:
    """A file whose content did not change: only its stat (size, mtime, ctime, inode) moved."""
    conn.execute("UPDATE files SET size=?, mtime_ns=?, ctime_ns=?, inode=? WHERE rel_path=?", (*stamp, rel_path))


def file_interface(conn: sqlite3.Connection, rel_path: str) -> tuple[str, frozenset[tuple[str, ...]]]:
    """(module, what it binds): names, kinds and targets of its bindings, its classes' bases
    (as stored: JSON), its star imports."""
    row = conn.execute("SELECT module FROM files WHERE rel_path=?", (rel_path,)).fetchone()
    names = {
        tuple(r) for r in conn.execute("SELECT scope, name, kind, target FROM bindings WHERE rel_path=?", (rel_path,))
    }
    names |= {
        ("class", q, b) for q, b in conn.execute("SELECT qualname, bases FROM classes WHERE rel_path=?", (rel_path,))
    }
    names |= {("star", t) for (t,) in conn.execute("SELECT target FROM stars WHERE rel_path=?", (rel_path,))}
    return (row[0] if row else "", frozenset(names))


def binding_lines(conn: sqlite3.Connection, rel_path: str) -> list[tuple[str, str, int]]:
    """(scope, name, line) of each binding in a file, in line order."""
    return list(conn.execute("SELECT scope, name, line FROM bindings WHERE rel_path=? ORDER BY line", (rel_path,)))


def shift_targets(conn: sqlite3.Connection, rel_path: str, lines: dict[int, int]) -> None:
    """References into `rel_path` follow its declarations from old to new lines (negated first,
    so a line that moves onto another's old line is not moved twice)."""
    conn.executemany(
        "UPDATE xrefs SET target_line=? WHERE target_path=? AND target_line=?",
        [(-new, rel_path, old) for old, new in lines.items()],
    )
    conn.execute("UPDATE xrefs SET target_line=-target_line WHERE target_path=? AND target_line<0", (rel_path,))


_SITE_COLS = "id, rel_path, line, ref_type, target, scope"


def xref_sites(conn: sqlite3.Connection, rel_paths: Sequence[str] | None = None) -> list[tuple[Any, ...]]:
    """(id, rel_path, line, ref_type, target, scope) of every xref row, or of those in `rel_paths`."""
    if rel_paths is None:
        return conn.execute(f"SELECT {_SITE_COLS} FROM xrefs").fetchall()
    return conn.execute(
        f"SELECT {_SITE_COLS} FROM xrefs WHERE rel_path IN ({','.join('?' * len(rel_paths))})", list(rel_paths)
    ).fetchall()


def insert_resolved_xrefs(conn: sqlite3.Connection, rows: Iterable[tuple[Any, ...]]) -> None:
    """`XREF_COLS` rows."""
    conn.executemany(f"INSERT INTO xrefs ({XREF_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?)", rows)


def set_xref_targets(conn: sqlite3.Connection, updates: Iterable[tuple[str, int, str, int]]) -> None:
    """(target_path, target_line, provenance, id) per row."""
    conn.executemany("UPDATE xrefs SET target_path=?, target_line=?, provenance=? WHERE id=?", updates)


def delete_edges(conn: sqlite3.Connection, rel_paths: Sequence[str] | None) -> list[str]:
    """Drop the edges of `rel_paths` (None: every file); returns the paths whose edges are redone."""
    if rel_paths is None:
        conn.execute("DELETE FROM edges")
        return [r[0] for r in conn.execute("SELECT rel_path FROM files")]
    conn.executemany("DELETE FROM edges WHERE rel_path=?", [(p,) for p in rel_paths])
    return list(rel_paths)


def insert_edges(conn: sqlite3.Connection, edges: Iterable[tuple[str, str, str, str, int, int]]) -> None:
    """(src, dst, type, rel_path, line, resolved) per edge."""
    conn.executemany("INSERT INTO edges VALUES (?,?,?,?,?,?)", edges)


def stamp_edges(conn: sqlite3.Connection, rel_paths: Sequence[str]) -> None:
    """The files whose edges were rewritten carry the generation about to be committed."""
    generation = conn.execute("SELECT coalesce(max(value), 0) + 1 FROM counters WHERE key='generation'").fetchone()[0]
    conn.executemany("UPDATE files SET edges_gen=? WHERE rel_path=?", [(generation, p) for p in rel_paths])


def paths_referring_into(conn: sqlite3.Connection, target_paths: Sequence[str]) -> set[str]:
    """Files holding a reference resolved into one of `target_paths`."""
    marks = ",".join("?" * len(target_paths))
    return {
        r[0]
        for r in conn.execute(f"SELECT DISTINCT rel_path FROM xrefs WHERE target_path IN ({marks})", list(target_paths))
    }


def xref_targets(conn: sqlite3.Connection) -> list[tuple[str, str, str]]:
    """(rel_path, ref_type, target) of every xref row."""
    return conn.execute("SELECT rel_path, ref_type, target FROM xrefs").fetchall()


def modules_by_path(conn: sqlite3.Connection) -> dict[str, str]:
    return dict(conn.execute("SELECT rel_path, module FROM files").fetchall())


def declaration_rows(conn: sqlite3.Connection, rel_paths: Sequence[str] | None = None) -> list[tuple[Any, ...]]:
    """(scope, name, kind, line, rel_path) of class, function and value bindings (of `rel_paths`)."""
    sql = "SELECT scope, name, kind, line, rel_path FROM bindings WHERE kind IN ('class', 'function', 'value', 'alias')"
    if rel_paths is None:
        return conn.execute(sql).fetchall()
    return conn.execute(sql + f" AND rel_path IN ({','.join('?' * len(rel_paths))})", list(rel_paths)).fetchall()


def class_qualnames(conn: sqlite3.Connection) -> set[str]:
    return {q for (q,) in conn.execute("SELECT qualname FROM classes")}


def add_to_counter(conn: sqlite3.Connection, key: str, by: int = 1) -> None:
    conn.execute(
        "INSERT INTO counters VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = value + excluded.value", (key, by)
    )


def remember_landing(conn: sqlite3.Connection, site: XRef) -> None:
    """A loop-time landing for a site: fill its row, or add one for a site the indexer left
    without a row (an attribute reached by inference), so the next query reads it."""
    prov = str(site.provenance or "")
    cur = conn.execute(
        "UPDATE xrefs SET target_path=?, target_line=?, provenance=?"
        " WHERE rel_path=? AND line=? AND anchor_text=? AND target_path=''",
        (site.target_path, site.target_line, prov, site.rel_path, site.line, site.anchor_text),
    )
    if cur.rowcount:
        return
    here = conn.execute(
        "SELECT 1 FROM xrefs WHERE rel_path=? AND line=? AND anchor_text=?",
        (site.rel_path, site.line, site.anchor_text),
    ).fetchone()
    if here is None:
        conn.execute(f"INSERT INTO xrefs ({XREF_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?)", xref_row(site))
