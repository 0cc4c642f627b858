"""Are two indexes the same, row for row? For speed work that must not change an answer.

Compares every table (FTS5 words through its vocabulary table, not its shadow pages), each as a
multiset of rows with ids left out where they only number rows in insertion order, and the
counters and meta rows that say when something was built.

usage: python tests/benchmarks/index_parity.py A/index.db B/index.db
"""

from __future__ import annotations

import sqlite3
import sys
from collections import Counter

# columns that number rows in insertion order or stamp time/generation, not content
_SKIP = {"id", "rowid", "generation", "edges_gen", "indexed_at", "chunk_id"}
_SKIP_TABLES = {"meta", "counters", "sqlite_stat1", "sqlite_stat4"}


def _tables(conn: sqlite3.Connection) -> list[str]:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name").fetchall()
    return [n for (n,) in rows if not n.startswith("chunks_fts_") and n not in _SKIP_TABLES]


def dump(path: str) -> dict[str, Counter[tuple[object, ...]]]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    out: dict[str, Counter[tuple[object, ...]]] = {}
    for table in _tables(conn):
        if table == "chunks_fts":
            continue  # its words are compared through the vocabulary below
        cols = [r[1] for r in conn.execute(f"PRAGMA table_info({table})") if r[1] not in _SKIP]
        if table == "chunks_vocab":
            cols = [c for c in cols if c in ("term", "cnt", "doc")] or cols
        out[table] = Counter(conn.execute(f"SELECT {', '.join(cols)} FROM {table}"))
    # FTS rows by content, joined to the chunk they index (ids differ between builds)
    try:
        out["chunks_fts(words)"] = Counter(
            conn.execute("SELECT c.rel_path, c.start_line, f.* FROM chunks_fts f JOIN chunks c ON c.id = f.rowid")
        )
    except sqlite3.OperationalError as exc:
        out["chunks_fts(words)"] = Counter([(f"unreadable: {exc}",)])
    conn.close()
    return out


def main() -> int:
    a, b = dump(sys.argv[1]), dump(sys.argv[2])
    bad = 0
    for table in sorted(set(a) | set(b)):
        ra, rb = a.get(table, Counter()), b.get(table, Counter())
        if ra == rb:
            print(f"same  {table}: {sum(ra.values())} rows")
            continue
        bad += 1
        only_a, only_b = ra - rb, rb - ra
        print(
            f"DIFF  {table}: {sum(ra.values())} vs {sum(rb.values())} rows; "
            f"{sum(only_a.values())} only in A, {sum(only_b.values())} only in B"
        )
        for row in list(only_a)[:3]:
            print(f"   A: {row!r}"[:300])
        for row in list(only_b)[:3]:
            print(f"   B: {row!r}"[:300])
    print("IDENTICAL" if not bad else f"{bad} table(s) differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
