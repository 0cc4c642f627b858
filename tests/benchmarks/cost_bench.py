"""What the index costs, two source trees side by side on Django 5.2 (pip-downloaded, as
`django_bench.py` fetches it): full index wall and CPU seconds (parent and parse workers), the
index file's size (index.db as built), one edited file re-indexed (warm stamp and cold walk, in
the process that built the index; and in a new process, as `codehop index` or a CLI `ask` does),
the first `ask` of a new process, warm `ask` p50/p90.

Each code tree runs in its own subprocesses with PYTHONPATH set to it; the trees alternate
(`--rounds`), so both see the same load. They run in a temporary folder: `python -c` puts its
working folder first on sys.path, before PYTHONPATH (run from a checkout, that checkout's codehop
would be imported). The questions are django_bench's, generated once by the
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
from django_bench import fetch  # noqa: E402

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

# django_bench's reindex phase without the in-memory graph (its module moved since 13c60fd)
REINDEX = """
import sys, time, pathlib
from codehop.index.indexer import index_repo
store, rep = index_repo(sys.argv[1], index_dir=sys.argv[2])
p = pathlib.Path(sys.argv[1]) / 'django/db/models/sql/query.py'
orig = p.read_bytes()
one, one_cpu, one_walk = [], [], []
try:
    for i in range(3):
        p.write_bytes(orig + b'\\n# edited by the benchmark %d\\n' % i)
        t = time.perf_counter(); c = time.process_time()
        store, r = index_repo(sys.argv[1], index_dir=sys.argv[2], stamp=rep.stamp)  # as a warm App does
        one.append(time.perf_counter() - t); one_cpu.append(time.process_time() - c)
        p.write_bytes(orig + b'\\n# edited again %d\\n' % i)
        t = time.perf_counter()
        store, r = index_repo(sys.argv[1], index_dir=sys.argv[2])  # cold: walks the tree
        one_walk.append(time.perf_counter() - t)
finally:
    p.write_bytes(orig)
index_repo(sys.argv[1], index_dir=sys.argv[2])
print({'one_file_s': sorted(one)[1], 'one_file_cpu_s': sorted(one_cpu)[1], 'one_file_walk_s': sorted(one_walk)[1]})
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


FRESH = """
import sys, time, pathlib, json
t = time.perf_counter(); c = time.process_time()
if sys.argv[3] == 'index':
    from codehop.index.indexer import index_repo
    index_repo(sys.argv[1], index_dir=sys.argv[2])
else:
    import codehop
    codehop.ask(json.loads(open(sys.argv[3]).read())[0], repo=sys.argv[1], index_dir=sys.argv[2])
print({'s': time.perf_counter() - t, 'cpu_s': time.process_time() - c})
"""


def fresh_one_file(code: str, root: Path, idx: Path, qfile: Path) -> dict:  # type: ignore[type-arg]
    """A new process after a one-file edit (`codehop index` or a CLI `ask` does this), median of 3;
    then a first `ask` in a new process on the unchanged tree."""
    p = root / "django/db/models/sql/query.py"
    orig = p.read_bytes()
    one = []
    try:
        for i in range(3):
            p.write_bytes(orig + b"\n# fresh edit %d\n" % i)
            one.append(run(code, FRESH, str(root), str(idx), "index"))
    finally:
        p.write_bytes(orig)
    run(code, FRESH, str(root), str(idx), "index")
    first = [run(code, FRESH, str(root), str(idx), str(qfile)) for _ in range(3)]
    return {
        "fresh_one_s": statistics.median(r["s"] for r in one),
        "fresh_one_cpu_s": statistics.median(r["cpu_s"] for r in one),
        "first_ask_s": statistics.median(r["s"] for r in first),
        "first_ask_cpu_s": statistics.median(r["cpu_s"] for r in first),
    }


def run(code: str, script: str, *args: str) -> dict:  # type: ignore[type-arg]
    env = dict(os.environ, PYTHONPATH=code)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode: new processes compile nothing
    cwd = tempfile.gettempdir()  # not a checkout: `-c` puts the working folder before PYTHONPATH
    out = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, env=env, cwd=cwd)
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
    codes = [(n, str(Path(c).resolve())) for n, c in (c.split("=", 1) for c in a.code)]
    for name, code in codes:  # the tree each name measures is the one imported
        where = run(code, "import codehop; print({'file': codehop.__file__})")["file"]
        if not where.startswith(code + os.sep):
            raise SystemExit(f"{name}: codehop imported from {where}, not from {code}")
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
            cwd=tempfile.gettempdir(),
            check=True,
        ).stdout
        qfile.write_text(qs.strip().splitlines()[-1])
        for i in range(a.rounds):
            for name, code in codes[i % len(codes) :] + codes[: i % len(codes)]:  # each tree first in turn
                idx = work / f"idx-{name}"
                shutil.rmtree(idx, ignore_errors=True)
                r = run(code, INDEX, str(root), str(idx))
                r.update(run(code, REINDEX, str(root), str(idx)))
                r.update(run(code, ASK, str(root), str(idx), str(qfile)))
                r.update(fresh_one_file(code, root, idx, qfile))
                rows[name].append(r)
                print(name, {k: round(v, 4) if isinstance(v, float) else v for k, v in r.items()}, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"load average {os.getloadavg()}")
    print(
        "| tree | full index s (CPU s) | index.db MB | one file, warm ms (CPU) | one file, walk ms "
        "| one file, new process ms (CPU) | first ask, new process ms (CPU) | warm ask p50 / p90 ms (CPU p50) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, rs in rows.items():
        med = {k: statistics.median(r[k] for r in rs) for k in rs[0] if isinstance(rs[0][k], float)}
        print(
            f"| {name} | {med['seconds']:.2f} ({med['cpu_s']:.2f}) | {med['db_mb']:.1f} | "
            f"{1000 * med['one_file_s']:.0f} ({1000 * med['one_file_cpu_s']:.0f}) | {1000 * med['one_file_walk_s']:.0f} | "
            f"{1000 * med['fresh_one_s']:.0f} ({1000 * med['fresh_one_cpu_s']:.0f}) | "
            f"{1000 * med['first_ask_s']:.0f} ({1000 * med['first_ask_cpu_s']:.0f}) | "
            f"{med['p50_ms']:.1f} / {med['p90_ms']:.1f} ({med['cpu_p50_ms']:.1f}) |"
        )


if __name__ == "__main__":
    main()
