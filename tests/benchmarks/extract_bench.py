"""CPU of the parse workers' job, per file, beside a bare tree-sitter parse of the same files.

In one process, for every .py under each tree: the bare `parser.parse` CPU, `parse_rows` CPU (what
a pool worker runs per file), `rest` = the difference, and two parts: `index_words` over the chunk
texts parse_rows produced and the sites query (a tree-sitter query cursor over every node of the
tree, `query`), both inside rest, and pickling the rows back to the parent (not inside it).
Best of --repeat runs per figure. The kept-tree cache of the incremental parse is cleared before
every file (a full index parses each file once). `pool` (with --pool) is the CPU of the indexer's
own job (`_parse_one`) run by two forked workers, as a full index runs it, reaped children only.

usage: python tests/benchmarks/extract_bench.py TREE [TREE ...] [--repeat 3] [--pool]
"""

from __future__ import annotations

import argparse
import pickle
import time
from pathlib import Path
from typing import Any


def _best(repeat: int, fn: Any) -> float:
    best = float("inf")
    for _ in range(repeat):
        c = time.process_time()
        fn()
        best = min(best, time.process_time() - c)
    return best


def bench(root: Path, repeat: int) -> dict[str, Any]:
    from codehop.index import chunking
    from codehop.kernel.words import index_words

    files = sorted(p for p in root.rglob("*.py") if p.is_file())
    jobs = [(p.relative_to(root).as_posix(), p.read_bytes()) for p in files]
    parser = chunking._parser()

    def parse() -> None:
        for _, data in jobs:
            parser.parse(data)

    rows: list[Any] = []

    def rows_all() -> None:
        rows.clear()
        for rel, data in jobs:
            chunking._TREES.clear()
            rows.append(chunking.parse_rows(rel, data))

    texts: list[str] = []

    def words() -> None:
        for t in texts:
            index_words(t)

    trees = [parser.parse(data) for _, data in jobs]

    def query() -> None:
        from tree_sitter import QueryCursor

        for tree in trees:
            QueryCursor(chunking._SITES).captures(tree.root_node)

    def dumps() -> None:
        for r in rows:
            pickle.dumps(r, protocol=pickle.HIGHEST_PROTOCOL)

    out: dict[str, Any] = {"files": len(jobs), "lines": sum(d.count(b"\n") for _, d in jobs)}
    out["parse"] = _best(repeat, parse)
    out["parse_rows"] = _best(repeat, rows_all)
    texts.extend(c[8] for r in rows for c in r[5])
    out["index_words"] = _best(repeat, words)
    out["query"] = _best(repeat, query)
    out["pickle"] = _best(repeat, dumps)
    out["pickle_mb"] = sum(len(pickle.dumps(r, protocol=pickle.HIGHEST_PROTOCOL)) for r in rows) / 1e6
    out["rest"] = out["parse_rows"] - out["parse"]
    return out


def pool_cpu(root: Path, repeat: int) -> float:
    """CPU seconds of two forked workers running the indexer's per-file job over the tree."""
    import multiprocessing
    import resource
    from concurrent.futures import ProcessPoolExecutor

    from codehop.index.indexer import _parse_one

    jobs = sorted(
        ((p.relative_to(root).as_posix(), p.read_bytes()) for p in root.rglob("*.py") if p.is_file()),
        key=lambda j: -len(j[1]),
    )
    best = float("inf")
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        with ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("fork")) as pool:
            for _ in pool.map(_parse_one, jobs, chunksize=8):
                pass
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("trees", nargs="+", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pool", action="store_true", help="also the CPU of two forked workers (the indexer's pool)")
    args = ap.parse_args()
    cols = ("files", "lines", "parse", "parse_rows", "rest", "query", "index_words", "pickle", "pickle_mb")
    cols += ("pool",) if args.pool else ()
    print(f"CPU seconds, best of {args.repeat} (rest = parse_rows - parse; query, index_words inside it, pickle not)")
    print(f"{'tree':<28}" + "".join(f"{c:>12}" for c in cols) + f"{'rows/parse':>12}")
    for tree in args.trees:
        r = bench(tree, args.repeat)
        if args.pool:
            r["pool"] = pool_cpu(tree, args.repeat)
        cells = "".join(f"{r[c]:>12}" if isinstance(r[c], int) else f"{r[c]:>12.3f}" for c in cols)
        print(f"{tree.name:<28}{cells}{r['parse_rows'] / r['parse']:>12.2f}")


if __name__ == "__main__":
    main()
