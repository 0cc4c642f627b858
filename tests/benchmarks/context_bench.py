"""`codehop context` (codehop.answer.context.build_context): gold-in-context on the development benchmark,
and latency on Django 5.2 (pip-downloaded) for task-like queries and for one cold CLI run.

Part 1: every item of ../shared/bench/dev.jsonl, one `App` per repository (built before timing),
`app.context(question, budget_tokens=2000, max_loops=1)`, scored with ../shared/bench/run.py's
own `score` (lenient: the gold's first line inside a context span of the same file; strict: every
gold line). As a control, the navigator's own context for the same question (`app.navigator().ask`,
what build_context starts from, before dependencies are added) is scored too, asked after the timed
build_context call; `dropped` counts items whose gold the control had and build_context lost.

Part 2: a copy of Django 5.2, `App(copy)` (cold index), one warm-up build_context, then ~50
task-like queries generated from the index with a fixed seed (add a parameter to a method that
has callers, where is a re-exported name defined, subclass and override an inherited method,
change a module function's return value and fix its callers, how a class uses a base method);
p50/p95. Then one `codehop context QUERY --repo DJANGO --format markdown` subprocess (the index is
on disk, nothing else warm).

Every figure comes from one run of this script.

usage: python tests/benchmarks/context_bench.py [--repos ~/.cache/codehop-bench/repos] [--queries 50]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(__file__))
from django_bench import fetch  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT.parent / "shared" / "bench"
BUDGET = 2000


def load_run_py() -> Any:
    spec = importlib.util.spec_from_file_location("bench_run", BENCH / "run.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[int(q * (len(xs) - 1))] if xs else float("nan")


def share(xs: list[bool]) -> str:
    return f"{100 * sum(xs) / len(xs):.1f}" if xs else "-"


# ---- part 1: development benchmark ----------------------------------------------------------------
def dev_bench(items_path: Path, repos: Path) -> None:
    from codehop.answer.orchestrator import Limits
    from codehop.app import App

    run = load_run_py()
    items = run.load(str(items_path))
    apps: dict[str, App] = {}
    app_s: dict[str, float] = {}
    for it in items:
        if it["repo"] not in apps:
            t = time.perf_counter()
            apps[it["repo"]] = App(repos / it["repo"])
            app_s[it["repo"]] = time.perf_counter() - t
    rows: list[dict[str, Any]] = []
    first_call: dict[str, float] = {}
    errors: list[str] = []
    for it in items:
        app = apps[it["repo"]]
        t = time.perf_counter()
        try:
            ans = app.context(it["question"], budget_tokens=BUDGET, max_loops=1)
        except Exception as exc:  # noqa: BLE001 - a benchmark reports, it does not stop
            errors.append(f"{it['id']}: {type(exc).__name__}: {exc}")
            continue
        ms = (time.perf_counter() - t) * 1000
        first_call.setdefault(it["repo"], ms)
        d = ans.to_dict()
        r = run.score(it, d, BUDGET)
        control = app.navigator().ask(it["question"], Limits(max_loops=1, budget_tokens=BUDGET)).to_dict()
        c = run.score(it, control, BUDGET)
        stats = d.get("stats") or {}
        r.update(
            ms=ms,
            control_lenient=c["lenient"],
            control_strict=c["strict"],
            deps=stats.get("dependencies", 0),
            tokens=stats.get("context_tokens", 0),
            question=it["question"],
        )
        rows.append(r)

    by: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by[r["kind"]].append(r)
    by["ALL"] = rows
    print(
        f"## dev.jsonl: build_context(budget_tokens={BUDGET}, max_loops=1), {len(rows)} items, {len(apps)} repositories"
    )
    print(
        "| kind | n | recall lenient | recall strict | control (ask) lenient / strict | dropped by deps "
        "| false-complete | over budget | deps added (mean) | p50 ms | p95 ms |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for k, rs in by.items():
        ms = [r["ms"] for r in rs]
        completes = [r for r in rs if r["state"] == "complete"]
        dropped = sum(r["control_lenient"] and not r["lenient"] for r in rs)
        print(
            f"| {k} | {len(rs)} | {share([r['lenient'] for r in rs])} | {share([r['strict'] for r in rs])} "
            f"| {share([r['control_lenient'] for r in rs])} / {share([r['control_strict'] for r in rs])} "
            f"| {dropped} | {sum(r['false_complete'] for r in completes)}/{len(completes)} "
            f"| {sum(r['over_budget'] for r in rs)} | {statistics.mean(r['deps'] for r in rs):.1f} "
            f"| {statistics.median(ms):.1f} | {pct(ms, 0.95):.1f} |"
        )
    print("App(repo) (index refresh) s: " + ", ".join(f"{k} {v:.2f}" for k, v in app_s.items()))
    print(
        "first build_context per repo ms (graph load, resolvers start): "
        + ", ".join(f"{k} {v:.0f}" for k, v in first_call.items())
    )
    for r in rows:
        if r["control_lenient"] and not r["lenient"]:
            print(f"  dropped: {r['id']} ({r['kind']}) deps={r['deps']} :: {r['question']}")
    for r in rows:
        if r["false_complete"]:
            print(f"  false-complete: {r['id']} ({r['kind']}) :: {r['question']}")
    slow = sorted(rows, key=lambda r: -r["ms"])[:3]
    print("slowest: " + "; ".join(f"{r['id']} {r['ms']:.0f} ms" for r in slow))
    for e in errors:
        print(f"  ERROR {e}")
    for app in apps.values():
        app.close()


# ---- part 2: Django --------------------------------------------------------------------------------
def django_queries(app: Any, n: int, seed: int) -> list[tuple[str, str, str]]:
    """(query, shape, subject) task-like queries from the Django index, five shapes, n // 5 of each (fixed seed)."""
    conn = app.store.conn
    rng = random.Random(seed)
    per = max(1, n // 5)
    classes = {q for (q,) in conn.execute("SELECT qualname FROM classes")}
    called = conn.execute(
        "SELECT dst, COUNT(*) FROM edges WHERE type='calls' AND resolved=1 GROUP BY dst HAVING COUNT(*) >= 2"
    ).fetchall()
    methods = sorted(
        d for d, _ in called if d.rpartition(".")[0] in classes and not d.rpartition(".")[2].startswith("__")
    )
    module_funcs = sorted(
        f"{s}.{nm}"
        for s, nm in conn.execute(
            "SELECT b.scope, b.name FROM bindings b JOIN files f ON f.module = b.scope"
            " WHERE b.kind='function' AND b.name NOT LIKE '\\_%' ESCAPE '\\'"
        )
    )
    called_set = {d for d, _ in called}
    module_funcs = [f for f in module_funcs if f in called_set]
    reexports = sorted(
        conn.execute(
            "SELECT f.module, x.anchor_text FROM xrefs x"
            " JOIN files f ON f.rel_path = x.rel_path"
            " WHERE x.ref_type='reexport' AND x.target_path != ''"
        ).fetchall()
    )
    out: list[tuple[str, str, str]] = []
    for m in rng.sample(methods, min(per, len(methods))):
        cls, _, meth = m.rpartition(".")
        out.append(
            (f"Add a `timeout` parameter to `{cls.rsplit('.', 1)[1]}.{meth}` and update every caller.", "add-param", m)
        )
    for mod, name in rng.sample(reexports, min(per, len(reexports))):
        out.append((f"Where is `{mod}.{name}` defined, and what does it do?", "reexport", f"{mod}.{name}"))
    tried = 0
    cls_list = sorted(classes)
    rng.shuffle(cls_list)
    subclassing = []
    for qual in cls_list:
        if len(subclassing) >= per or tried > 2000:
            break
        tried += 1
        mro = app.table.mro(qual)
        if len(mro) < 2:
            continue
        own = {b.name for b in app.store.bindings_in(qual)}
        inherited = sorted(
            {
                b.name
                for base in mro[1:]
                for b in app.store.bindings_in(base)
                if b.name not in own and not b.name.startswith("_") and b.kind.value == "function"
            }
        )
        if inherited:
            subclassing.append(
                (
                    f"Write a subclass of `{qual.rsplit('.', 1)[1]}` that overrides "
                    f"`{rng.choice(inherited)}` to log its arguments.",
                    "subclass",
                    qual,
                )
            )
    out.extend(subclassing)
    for f in rng.sample(module_funcs, min(per, len(module_funcs))):
        out.append(
            (
                f"Make `{f.rsplit('.', 1)[1]}` in `{f.rsplit('.', 1)[0]}` return None instead of raising, "
                "and fix the code that calls it.",
                "change-return",
                f,
            )
        )
    for m in rng.sample(methods, min(n - len(out), len(methods))):
        cls, _, meth = m.rpartition(".")
        out.append(
            (
                f"Why does `{cls.rsplit('.', 1)[1]}` call `{meth}`, and what breaks if I change its signature?",
                "why-call",
                m,
            )
        )
    return out[:n]


def django_bench(version: str, n: int, seed: int) -> None:
    from codehop.app import App

    src = fetch(version)
    work = Path(tempfile.mkdtemp(prefix="codehop-ctxbench-"))
    root = work / "django"
    shutil.copytree(src, root)
    env = {k: v for k, v in os.environ.items() if k != "CODEHOP_INDEX_DIR"}
    try:
        t = time.perf_counter()
        app = App(root)
        index_s = time.perf_counter() - t
        queries = django_queries(app, n, seed)
        t = time.perf_counter()
        app.context("How does `QuerySet.filter` build its WHERE clause?", budget_tokens=BUDGET, max_loops=1)
        warmup_ms = (time.perf_counter() - t) * 1000
        times: list[float] = []
        by_shape: dict[str, list[float]] = defaultdict(list)
        states: dict[str, int] = defaultdict(int)
        tokens: list[int] = []
        deps: list[int] = []
        errors: list[str] = []
        callers_seen = callers_total = 0  # caller sites of the subject inside the context (add-param, change-return)
        slow: list[tuple[float, str]] = []
        for q, shape, subject in queries:
            t = time.perf_counter()
            try:
                ans = app.context(q, budget_tokens=BUDGET, max_loops=1)
            except Exception as exc:  # noqa: BLE001
                errors.append(f"{q}: {type(exc).__name__}: {exc}")
                continue
            ms = (time.perf_counter() - t) * 1000
            times.append(ms)
            by_shape[shape].append(ms)
            slow.append((ms, q))
            states[str(ans.state)] += 1
            tokens.append(ans.stats.context_tokens)
            deps.append(ans.stats.sites or 0)
            if shape in ("add-param", "change-return"):
                sites = app.store.conn.execute(
                    "SELECT DISTINCT rel_path, line FROM edges WHERE type='calls' AND resolved=1 AND dst=?", (subject,)
                ).fetchall()
                spans = [(c.chunk.rel_path, c.chunk.start_line, c.chunk.end_line) for c in ans.context]
                callers_total += len(sites)
                callers_seen += sum(any(p == rp and a <= ln <= b for p, a, b in spans) for rp, ln in sites)
        app.close()
        cli_q = queries[0][0]
        t = time.perf_counter()
        cli = subprocess.run(
            ["codehop", "context", cli_q, "--repo", str(root), "--format", "markdown"],
            capture_output=True,
            text=True,
            env=env,
        )
        cli_s = time.perf_counter() - t
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print()
    print(
        f"## Django {version}: build_context(budget_tokens={BUDGET}, max_loops=1), {len(times)} task-like queries"
        f" (seed {seed})"
    )
    print("| figure | value |")
    print("|---|---|")
    print(f"| App(copy) cold index | {index_s:.2f} s |")
    print(f"| first build_context (warm-up, graph load, resolvers start) | {warmup_ms:.0f} ms |")
    print(
        f"| warm build_context | p50 {statistics.median(times):.1f} ms, p95 {pct(times, 0.95):.1f} ms, "
        f"max {max(times):.1f} ms |"
    )
    print(f"| states | {dict(states)} |")
    print(f"| context tokens (mean / max) | {statistics.mean(tokens):.0f} / {max(tokens)} (budget {BUDGET}) |")
    print(
        f"| dependencies added (mean, share of queries with any) | {statistics.mean(deps):.1f}, "
        f"{sum(d > 0 for d in deps) / len(deps):.0%} |"
    )
    print(
        "| p50 / p95 ms per query shape | "
        + "; ".join(f"{k} ({len(v)}) {statistics.median(v):.0f} / {pct(v, 0.95):.0f}" for k, v in by_shape.items())
        + " |"
    )
    print(
        f"| caller sites of the subject inside the context (add-param, change-return queries) "
        f"| {callers_seen}/{callers_total} |"
    )
    out_lines = cli.stdout.count("\n")
    print(
        f"| cold CLI `codehop context Q --repo DJANGO --format markdown` | {cli_s:.2f} s, exit {cli.returncode}, "
        f"{out_lines} lines / {len(cli.stdout)} chars of markdown |"
    )
    print(f"CLI query: {cli_q}")
    if cli.returncode != 0:
        print(f"  CLI stderr: {cli.stderr[-400:]}")
    for ms, q in sorted(slow, reverse=True)[:3]:
        print(f"  slow: {ms:.0f} ms :: {q}")
    for e in errors:
        print(f"  ERROR {e}")
    print("sample queries: " + " | ".join(queries[i][0] for i in range(0, len(queries), max(1, len(queries) // 5))))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--items", default=str(BENCH / "dev.jsonl"))
    ap.add_argument("--repos", default=str(Path.home() / ".cache" / "codehop-bench" / "repos"))
    ap.add_argument("--version", default="5.2")
    ap.add_argument("--queries", type=int, default=50)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--skip-dev", action="store_true")
    ap.add_argument("--skip-django", action="store_true")
    a = ap.parse_args()
    print(f"load at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (1/5/15 min), {os.cpu_count()} cores")
    if not a.skip_dev:
        dev_bench(Path(a.items), Path(a.repos))
    if not a.skip_django:
        django_bench(a.version, a.queries, a.seed)
    print(f"load at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (1/5/15 min)")


if __name__ == "__main__":
    main()
