"""BM25 alone over the same question set: is the gold in the context that plain BM25 packs into the budget?
The baseline of the bench (`../shared/bench/baseline_bm25.py`: tree-sitter chunks, Okapi BM25), scored with
run_qp.py's lenient rule (every gold's first line inside a chunk of the same file, any gold set).

usage: python tests/benchmarks/untuned_questions/bm25_qp.py tests/benchmarks/untuned_questions/set_j.jsonl \
           [--bench ../shared/bench (beside the checkout: the default)] [--budget 2000]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_qp import tree  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("items")
    ap.add_argument("--bench", default=str(Path(__file__).resolve().parents[3].parent / "shared" / "bench"))
    ap.add_argument("--budget", type=int, default=2000)
    args = ap.parse_args()
    sys.path.insert(0, args.bench)
    import baseline_bm25 as b

    indexes: dict[str, Any] = {}
    hits = total = 0
    for line in open(args.items):
        it = json.loads(line)
        if it.get("expect") == "partial":
            continue
        if it["repo"] not in indexes:
            chunks = b.chunk_repo(str(tree(it["repo"])))
            indexes[it["repo"]] = (chunks, b.BM25([b.analyze(f"{c.path} {c.name}\n{c.text}") for c in chunks]))
        chunks, index = indexes[it["repo"]]
        spans, used = [], 0
        for i in index.rank(b.analyze(it["question"])):
            if used + chunks[i].ntok > args.budget:
                break
            used += chunks[i].ntok
            spans += [(chunks[i].path, a, z) for a, z in chunks[i].ranges]
        golds = [it["gold"], *it.get("alt", [])]
        found = any(
            all(any(p == g["path"] and a <= g["start_line"] <= z for p, a, z in spans) for g in gs) for gs in golds
        )
        hits += found
        total += 1
        print(f"{it['id']:4s} found={found!s:5s} {used:5d} tok :: {it['question']}")
    print(f"BM25 alone @{args.budget}: gold in context {hits}/{total} = {100 * hits / total:.1f}%")


if __name__ == "__main__":
    main()
