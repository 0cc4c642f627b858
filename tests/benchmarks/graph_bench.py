"""Gold-in-context recall with max_loops=0 (retrieval only): BM25 alone vs BM25 + graph, per kind.

usage: python tests/benchmarks/graph_bench.py [--budget 2000]
"""

from __future__ import annotations

import argparse
import json
import os
from collections import defaultdict

from codehop.answer.orchestrator import Limits
from codehop.app import App, Config


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--items", default=os.path.join(os.path.dirname(__file__), "../../../shared/bench/dev.jsonl"))
    ap.add_argument("--repos", default=os.path.expanduser("~/.cache/codehop-bench/repos"))
    ap.add_argument("--budget", type=int, default=2000)
    a = ap.parse_args()
    items = [json.loads(x) for x in open(a.items) if x.strip()]
    table: dict[str, dict[str, list[bool]]] = {"bm25": defaultdict(list), "bm25+graph": defaultdict(list)}
    apps: dict[tuple[str, bool], App] = {}
    for it in items:
        for name, graph in (("bm25", False), ("bm25+graph", True)):
            key = (it["repo"], graph)
            if key not in apps:
                apps[key] = App(os.path.join(a.repos, it["repo"]), Config(use_graph=graph))
            ans = apps[key].navigator().ask(it["question"], Limits(max_loops=0, budget_tokens=a.budget))
            ok = all(
                any(
                    c.chunk.rel_path == g["path"] and c.chunk.start_line <= g["start_line"] <= c.chunk.end_line
                    for c in ans.context
                )
                for g in it["gold"]
            )
            table[name][it["kind"]].append(ok)
            table[name]["ALL"].append(ok)
    kinds = sorted(k for k in table["bm25"] if k != "ALL") + ["ALL"]
    print(f"gold-in-context recall at {a.budget} tokens, max_loops=0 (lenient)")
    print("| kind | n | codehop BM25 | codehop BM25 + graph |")
    print("|---|---:|---:|---:|")
    for k in kinds:
        b, g = table["bm25"][k], table["bm25+graph"][k]
        print(f"| {k} | {len(b)} | {100 * sum(b) / len(b):.1f} | {100 * sum(g) / len(g):.1f} |")


if __name__ == "__main__":
    main()
