"""Resolver ladder on every pointer site of the development benchmark.

For each item: the pending reference is the item's subject, originating at its
pointer site. Each resolver is asked alone; the ladder is asked too. Reports
resolved-to-gold per resolver, disagreements, and latency (cold = first call
per repository, warm = the rest).

usage: python tests/benchmarks/resolvers_bench.py [--items ../shared/bench/dev.jsonl]
       [--repos ~/.cache/codehop-bench/repos] [--resolvers symbol_table,jedi,lsp:basedpyright,lsp:jedi]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections import defaultdict

from codehop.app import App, Config
from codehop.kernel.records import PendingReference, RefType


def pctl(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * (len(xs) - 1)))] if xs else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--items", default=os.path.join(os.path.dirname(__file__), "../../../shared/bench/dev.jsonl"))
    ap.add_argument("--repos", default=os.path.expanduser("~/.cache/codehop-bench/repos"))
    ap.add_argument("--resolvers", default="symbol_table,jedi,lsp:basedpyright,lsp:jedi")
    a = ap.parse_args()
    items = [json.loads(x) for x in open(a.items) if x.strip()]
    names = a.resolvers.split(",")
    hits: dict[str, list[bool]] = defaultdict(list)
    cold: dict[str, list[float]] = defaultdict(list)
    warm: dict[str, list[float]] = defaultdict(list)
    failures: dict[str, int] = defaultdict(int)
    disagreements = []
    by_repo: dict[str, list[dict]] = defaultdict(list)
    for it in items:
        by_repo[it["repo"]].append(it)
    for repo, its in by_repo.items():
        apps = {}
        for n in names:
            kind, _, server = n.partition(":")
            cfg = Config(language_server=server or "basedpyright", resolver_timeout_s=15.0)
            apps[n] = (App(os.path.join(a.repos, repo), cfg), kind)
        for i, it in enumerate(its):
            p = it["pointer"]
            ref = PendingReference(
                anchor_text=p["text"].strip(),
                ref_type=RefType.OTHER,
                ref_target=it["subject"],
                origin_path=p["path"],
                origin_line=p["line"],
            )
            gold = it["gold"][0]
            got = {}
            for n in names + ["ladder"]:
                if n == "ladder":
                    app = apps[names[0]][0]
                    ladder = app.ladder(("symbol_table", "jedi", "lsp", "regex"))
                    t0 = time.perf_counter()
                    res = ladder.resolve(ref).resolution
                else:
                    app, kind = apps[n]
                    t0 = time.perf_counter()
                    try:
                        res = app.resolver(kind).resolve(ref)  # alone: no ladder, no chain-following
                    except Exception:
                        res = None
                        failures[n] += 1
                ms = (time.perf_counter() - t0) * 1000
                (cold if i == 0 else warm)[n].append(ms)
                ok = bool(
                    res
                    and not res.is_external
                    and res.target.rel_path == gold["path"]
                    and gold["start_line"] <= res.target.line <= gold["end_line"]
                )
                hits[n].append(ok)
                got[n] = ok
            if len({got[n] for n in names}) > 1:
                disagreements.append((it["id"], {n: got[n] for n in names}))
        for app, _ in apps.values():
            app.close()
    print(f"{len(items)} pointer sites")
    print("| resolver | resolved to gold | cold ms (median of repos) | warm p50 ms | warm p95 ms |")
    print("|---|---:|---:|---:|---:|")
    for n in names + ["ladder"]:
        h = hits[n]
        print(
            f"| {n} | {sum(h)}/{len(h)} ({100 * sum(h) / len(h):.1f}%) | {statistics.median(cold[n]):.1f} "
            f"| {pctl(warm[n], 0.5):.1f} | {pctl(warm[n], 0.95):.1f} |"
        )
    print(f"disagreements between single resolvers: {len(disagreements)}")
    for d in disagreements:
        print("  ", d)


if __name__ == "__main__":
    main()
