"""What the index costs, two source trees side by side on Django 5.2 (pip-downloaded, as
`django_bench.py` fetches it): full index wall and CPU seconds (parent and parse workers), the
index file's size, one edited file re-indexed (warm stamp and cold walk), warm `ask` p50/p90.

Each code tree runs in its own subprocesses with PYTHONPATH set to it; the trees alternate
(`--rounds`), so both see the same load. The questions are django_bench's, generated once by the
first tree given.

usage: nice -n 10 python tests/benchmarks/cost_bench.py --code before=/work/wt/before30 --code after=.
    [--rounds 2] [--questions 120] [--django DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from django_bench import PHASES, fetch  # noqa: E402

INDEX = """
import sys, time, resource, pathlib
from codehop.index.indexer import index_repo
t = time.perf_counter(); c = time.process_time()
store, r = index_repo(sys.argv[1], index_dir=sys.argv[2])
wall = time.perf_counter() - t; cpu = time.process_time() - c
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
store.close()
size = (pathlib.Path(sys.argv[2]) / 'index.db').stat().st_size
print({'seconds': wall, 'cpu_s': cpu + kids.ru_utime + kids.ru_stime, 'parent_cpu_s': cpu, 'db_mb': size / 2**20})
"""

ASK = """
import sys, time, json, statistics
import codehop
qs = json.loads(open(sys.argv[3]).read())
codehop.ask(qs[0], repo=sys.argv[1], index_dir=sys.argv[2])
times, cpu = [], []
for q in qs:
    t = time.perf_counter(); c = time.process_time()
    codehop.ask(q, repo=sys.argv[1], index_dir=sys.argv[2])
    times.append(time.perf_counter() - t); cpu.append(time.process_time() - c)
times.sort(); cpu.sort()
q = lambda xs, f: 1000 * xs[int(f * (len(xs) - 1))]
print({'p50_ms': 1000 * statistics.median(times), 'p90_ms': q(times, 0.9), 'cpu_p50_ms': 1000 * statistics.median(cpu),
       'cpu_p90_ms': q(cpu, 0.9)})
"""


def run(code: str, script: str, *args: str) -> dict:  # type: ignore[type-arg]
    env = dict(os.environ, PYTHONPATH=code)
    out = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise SystemExit(f"{code} failed:\n{out.stderr[-3000:]}")
    return eval(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]  # our own dict literal


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--code", action="append", required=True, help="NAME=DIR, a codehop source tree")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--questions", type=int, default=120)
    ap.add_argument("--django", help="an unpacked Django tree instead of the downloaded one")
    a = ap.parse_args()
    codes = [tuple(c.split("=", 1)) for c in a.code]
    src = Path(a.django) if a.django else fetch("5.2")
    work = Path(tempfile.mkdtemp(prefix="codehop-cost-"))
    root = work / "django"
    shutil.copytree(src, root, ignore=shutil.ignore_patterns(".codehop", "*.dist-info"))
    rows: dict[str, list[dict]] = {name: [] for name, _ in codes}  # type: ignore[type-arg]
    try:
        name0, code0 = codes[0]
        qfile = work / "questions.json"
        gen = (
            "import sys, json; sys.path.insert(0, sys.argv[3]); from django_bench import questions;"
            "print(json.dumps(questions(__import__('pathlib').Path(sys.argv[1]), sys.argv[2], int(sys.argv[4]))))"
        )
        env = dict(os.environ, PYTHONPATH=code0)
        qs = subprocess.run(
            [sys.executable, "-c", gen, str(root), str(work / "qidx"), str(Path(__file__).parent), str(a.questions)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        ).stdout
        qfile.write_text(qs.strip().splitlines()[-1])
        for _ in range(a.rounds):
            for name, code in codes:
                idx = work / f"idx-{name}"
                shutil.rmtree(idx, ignore_errors=True)
                r = run(code, INDEX, str(root), str(idx))
                r.update(run(code, PHASES["reindex"], str(root), str(idx)))
                r.update(run(code, ASK, str(root), str(idx), str(qfile)))
                rows[name].append(r)
                print(name, {k: round(v, 4) if isinstance(v, float) else v for k, v in r.items()}, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"load average {os.getloadavg()}")
    print(
        "| tree | full index s (CPU s) | db MB | one file warm ms (CPU) | one file walk ms | ask p50 / p90 ms (CPU p50) |"
    )
    print("|---|---|---|---|---|---|")
    for name, rs in rows.items():
        med = {k: statistics.median(r[k] for r in rs) for k in rs[0] if isinstance(rs[0][k], float)}
        print(
            f"| {name} | {med['seconds']:.2f} ({med['cpu_s']:.2f}) | {med['db_mb']:.1f} | "
            f"{1000 * med['one_file_s']:.0f} ({1000 * med['one_file_cpu_s']:.0f}) | {1000 * med['one_file_walk_s']:.0f} | "
            f"{med['p50_ms']:.1f} / {med['p90_ms']:.1f} ({med['cpu_p50_ms']:.1f}) |"
        )


if __name__ == "__main__":
    main()
