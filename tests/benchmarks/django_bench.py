"""Speed and memory on Django 5.2 (pip-downloaded), side by side with a bare tree-sitter parse.

Every figure comes from one run of this script; ratios are to the bare parse measured in it.
Each phase runs in a fresh subprocess so peak RSS is its own.

The CLI figures run `codehop` as a process the way a user does (`python -m codehop`, bytecode
written as an installed package has it), best of --repeat runs each, with
that process's own peak RSS (wait4).

usage: python tests/benchmarks/django_bench.py [--version 5.2] [--questions 120] [--django DIR] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "codehop-bench" / "django"


def fetch(version: str) -> Path:
    from wheels import unpacked

    return unpacked(f"django=={version}.*", f"django-{version}", CACHE / f"django-{version}", CACHE / "wheels")


PHASES = {
    "parse": """
import sys, time, pathlib
from tree_sitter import Language, Parser
import tree_sitter_python as tsp
root = pathlib.Path(sys.argv[1])
files = [p for p in root.rglob('*.py')]
data = [p.read_bytes() for p in files]
parser = Parser(Language(tsp.language()))
t = time.perf_counter()
c = time.process_time()
for d in data:
    parser.parse(d)
print({'seconds': time.perf_counter() - t, 'cpu_s': time.process_time() - c, 'files': len(files), 'lines': sum(d.count(b'\\n') for d in data)})
""",
    "index": """
import sys, time
from codehop.index.indexer import index_repo
t = time.perf_counter()
store, r = index_repo(sys.argv[1], index_dir=sys.argv[2])
total = time.perf_counter() - t
from codehop.navigation.graph_context import GraphContext
t = time.perf_counter()
g = GraphContext(store)
g.graph()
graph_s = time.perf_counter() - t
print({'seconds': total, 'files': r.files, 'chunks': r.chunks, 'xrefs': r.xrefs, 'graph_load_s': graph_s})
""",
    "reindex": """
import sys, time, pathlib, os
from codehop.index.indexer import index_repo
from codehop.navigation.graph_context import GraphContext
store, rep = index_repo(sys.argv[1], index_dir=sys.argv[2])
g = GraphContext(store); g.graph()
t = time.perf_counter()
store, rep = index_repo(sys.argv[1], index_dir=sys.argv[2])
nochange = time.perf_counter() - t
p = pathlib.Path(sys.argv[1]) / 'django/db/models/sql/query.py'
orig = p.read_bytes()
one, one_cpu, one_walk, graph_mem, parsed = [], [], [], [], 0
try:
    for i in range(3):
        p.write_bytes(orig + b'\\n# edited by the benchmark %d\\n' % i)
        t = time.perf_counter()
        c = time.process_time()
        store, r = index_repo(sys.argv[1], index_dir=sys.argv[2], stamp=rep.stamp)  # as a warm App does
        one.append(time.perf_counter() - t)
        one_cpu.append(time.process_time() - c)
        t = time.perf_counter()
        g.refresh()
        graph_mem.append(time.perf_counter() - t)
        parsed = r.parsed
        p.write_bytes(orig + b'\\n# edited again %d\\n' % i)
        t = time.perf_counter()
        store, r = index_repo(sys.argv[1], index_dir=sys.argv[2])  # cold: walks the tree
        one_walk.append(time.perf_counter() - t)
finally:
    p.write_bytes(orig)
index_repo(sys.argv[1], index_dir=sys.argv[2])
print({'nochange_s': nochange, 'one_file_s': sorted(one)[1], 'one_file_cpu_s': sorted(one_cpu)[1], 'one_file_walk_s': sorted(one_walk)[1],
       'graph_mem_s': sorted(graph_mem)[1], 'parsed': parsed})
""",
    "ask": """
import sys, time, json, statistics
import codehop
qs = json.loads(open(sys.argv[3]).read())
codehop.ask(qs[0], repo=sys.argv[1], index_dir=sys.argv[2])
times = []
cpu = []
states = {}
for q in qs:
    t = time.perf_counter()
    c = time.process_time()
    a = codehop.ask(q, repo=sys.argv[1], index_dir=sys.argv[2])
    times.append(time.perf_counter() - t)
    cpu.append(time.process_time() - c)
    states[str(a.state)] = states.get(str(a.state), 0) + 1
times.sort()
print({'n': len(times), 'p50_ms': 1000 * statistics.median(times), 'cpu_p50_ms': 1000 * statistics.median(cpu), 'p95_ms': 1000 * times[int(0.95 * (len(times) - 1))],
       'states': states})
""",
}


_PEAK = """
import atexit, resource, sys
def _peak():
    own = int(open('/proc/self/status').read().split('VmHWM:')[1].split()[0]) / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    sys.stdout.write(repr({'peak_rss_mb': own, 'peak_child_rss_mb': kids}) + '\\n')
atexit.register(_peak)
"""


def _cli() -> list[str]:
    """`python -m codehop`: the codehop this interpreter imports (PYTHONPATH first), not whatever
    checkout a `codehop` console script beside it was installed from."""
    return [sys.executable, "-m", "codehop"]


def _cli_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode
    return env


def timed_cli(*args: str) -> tuple[float, float, str, float]:
    """One `codehop ...` process, reaped with wait4: (wall seconds, its own peak RSS MB, stdout,
    CPU seconds of it and the parse workers it reaped)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t = time.perf_counter()
        proc = subprocess.Popen([*_cli(), *args], stdout=out, stderr=err, env=_cli_env())
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode != 0:
            raise SystemExit(f"codehop {' '.join(args)} failed:\n{err.read()[-2000:]}")
        return wall, usage.ru_maxrss / 1024, out.read(), usage.ru_utime + usage.ru_stime


def best_cli(repeat: int, *args: str, before: object = None) -> tuple[float, float, str, float]:
    """Best wall time of `repeat` runs (the machine is shared); the peak RSS is the largest seen;
    the least CPU time."""
    runs = []
    for _ in range(repeat):
        if callable(before):
            before()
        runs.append(timed_cli(*args))
    wall = min(r[0] for r in runs)
    return wall, max(r[1] for r in runs), runs[-1][2], min(r[3] for r in runs)


def cli_phases(root: Path, idx: str, repeat: int) -> dict:
    """What a user runs: a full index, a no-change re-index, a one-file change, a cold ask."""
    timed_cli("--help")  # bytecode written once, as an installed package has it
    full = best_cli(
        repeat, "index", str(root), "--index-dir", idx, before=lambda: shutil.rmtree(idx, ignore_errors=True)
    )
    nochange = best_cli(repeat, "index", str(root), "--index-dir", idx)
    p = root / "django/db/models/sql/query.py"
    orig = p.read_bytes()
    n = iter(range(1000))
    try:
        one = best_cli(
            repeat,
            "index",
            str(root),
            "--index-dir",
            idx,
            before=lambda: p.write_bytes(orig + b"\n# cli edit %d\n" % next(n)),
        )
    finally:
        p.write_bytes(orig)
    timed_cli("index", str(root), "--index-dir", idx)
    q = "Where is `django.db.models.Model` defined?"
    ask = best_cli(repeat, "ask", q, "--repo", str(root), "--index-dir", idx, "--json")
    return {
        "full": full[:2],
        "full_cpu": full[3],
        "nochange_cpu": nochange[3],
        "nochange": nochange[:2],
        "one": one[:2],
        "ask": ask[:2],
        "ask_state": json.loads(ask[2])["state"],
    }


def run_phase(name: str, *args: str) -> dict:
    out = subprocess.run([sys.executable, "-c", _PEAK + PHASES[name], *args], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"phase {name} failed:\n{out.stderr}")
    lines = out.stdout.strip().splitlines()
    data = eval(lines[-2])  # our own dict literals
    data.update(eval(lines[-1]))
    return data


def questions(root: Path, index_dir: str, n: int) -> list[str]:
    """Question shapes of the development benchmark, asked of Django symbols picked from the index."""
    from codehop.index.indexer import index_repo
    from codehop.index.symbols import SymbolTable

    store, _ = index_repo(root, index_dir=index_dir)
    table = SymbolTable(store)
    rng = random.Random(7)
    conn = store.conn
    reexports = conn.execute(
        "SELECT x.anchor_text, f.module FROM xrefs x JOIN files f ON f.rel_path = x.rel_path"
        " WHERE x.ref_type='reexport' AND x.target_path != ''"
    ).fetchall()
    aliases = conn.execute("SELECT scope, name FROM bindings WHERE kind='alias'").fetchall()
    classes = conn.execute("SELECT qualname FROM classes").fetchall()
    out: list[str] = []
    for anchor, module in rng.sample(reexports, min(n // 3, len(reexports))):
        out.append(f"Where is `{module}.{anchor}` actually defined, and what does it inherit from?")
    for scope, name in rng.sample(aliases, min(n // 6, len(aliases))):
        out.append(f"What is `{scope}.{name}`? Show me what it refers to.")
    rng.shuffle(classes)
    for (qual,) in classes:
        if len(out) >= n:
            break
        mro = table.mro(qual)
        if len(mro) < 2:
            continue
        own = {b.name for b in store.bindings_in(qual)}
        inherited = [
            b.name
            for base in mro[1:]
            for b in store.bindings_in(base)
            if b.name not in own and not b.name.startswith("__")
        ]
        if inherited:
            out.append(f"What does `{qual.rsplit('.', 1)[1]}.{rng.choice(inherited)}` do?")
    store.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--version", default="5.2")
    ap.add_argument("--questions", type=int, default=120)
    ap.add_argument("--django", help="an unpacked Django tree to use instead of downloading one")
    ap.add_argument("--repeat", type=int, default=3, help="CLI runs per figure; the best is reported")
    a = ap.parse_args()
    src = Path(a.django) if a.django else fetch(a.version)
    work = Path(tempfile.mkdtemp(prefix="codehop-django-"))
    root = work / "django"
    shutil.copytree(src, root, ignore=shutil.ignore_patterns(".codehop", "*.dist-info"))
    idx = str(work / "index")
    load = os.getloadavg()
    try:
        parses = [run_phase("parse", str(root)) for _ in range(a.repeat)]
        parse = min(parses, key=lambda r: r["seconds"])
        cli = cli_phases(root, str(work / "cli-index"), a.repeat)
        index = run_phase("index", str(root), idx)
        reindex = run_phase("reindex", str(root), idx)
        qfile = work / "questions.json"
        qfile.write_text(json.dumps(questions(root, idx, a.questions)))
        ask = run_phase("ask", str(root), idx, str(qfile))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    p = parse["seconds"]
    full, nochange, one, ask_cli = cli["full"], cli["nochange"], cli["one"], cli["ask"]
    print(
        f"Django {a.version}: {parse['files']} files, {parse['lines']} lines; load average before "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, {os.cpu_count()} cores; CLI figures best of {a.repeat}"
    )
    print("| figure | value | ratio / target |")
    print("|---|---:|---|")
    print(f"| bare tree-sitter parse, 1 process (best of {a.repeat}) | {p:.2f} s | 1.00 |")
    print(f"| `codehop index` full, as a process | {full[0]:.2f} s | {full[0] / p:.2f}x parse (target <= 2x) |")
    pc = parse["cpu_s"]
    print(
        f"| CPU seconds: bare parse / `codehop index` full (with its parse workers) | {pc:.2f} s / "
        f"{cli['full_cpu']:.2f} s | {cli['full_cpu'] / pc:.2f}x parse CPU (moves less with load than wall time) |"
    )
    print(f"| CPU seconds: `codehop index` no change | {cli['nochange_cpu'] * 1000:.0f} ms | |")
    print(
        f"| `codehop index` no change, as a process | {nochange[0] * 1000:.0f} ms | "
        f"{nochange[0] / full[0]:.1%} of full (target < 0.3 s and < 5%) |"
    )
    print(f"| `codehop index` after a one-file edit, as a process | {one[0] * 1000:.0f} ms | {one[0] / p:.2f}x parse |")
    print(
        f"| cold `codehop ask` on the indexed tree, as a process | {ask_cli[0]:.2f} s ({cli['ask_state']}) | "
        f"target < 0.5 s |"
    )
    print(
        f"| peak RSS: `codehop index` full / cold `codehop ask` | {full[1]:.0f} MB / {ask_cli[1]:.0f} MB | "
        f"target < 300 / < 150 MB |"
    )
    print(
        f"| full index in process (chunks, xrefs, FTS5, edges), 2 workers | {index['seconds']:.2f} s | "
        f"{index['seconds'] / p:.2f}x parse |"
    )
    print(
        f"| graph load from the index (only `graph` needs it) | {index['graph_load_s']:.2f} s | "
        f"{index['graph_load_s'] / index['seconds']:.1%} of index |"
    )
    print(f"| files / chunks / xrefs | {index['files']} / {index['chunks']} / {index['xrefs']} | |")
    print(
        f"| no-change re-index, in process | {reindex['nochange_s'] * 1000:.0f} ms | "
        f"{reindex['nochange_s'] / index['seconds']:.1%} of full |"
    )
    print(
        f"| one edited file (query.py), warm process (stat stamp, no walk), edges included | "
        f"{reindex['one_file_s'] * 1000:.0f} ms (CPU {reindex['one_file_cpu_s'] * 1000:.0f} ms) | target < 100 ms |"
    )
    print(f"| one edited file, in process, directory walk first | {reindex['one_file_walk_s'] * 1000:.0f} ms | |")
    print(
        f"| in-memory graph refresh after that edit (only if a full graph is loaded) | "
        f"{reindex['graph_mem_s'] * 1000:.0f} ms | |"
    )
    print(
        f"| warm ask, {ask['n']} questions | p50 {ask['p50_ms']:.1f} ms, p95 {ask['p95_ms']:.1f} ms "
        f"(CPU p50 {ask['cpu_p50_ms']:.1f} ms) | "
        f"target p50 < 15, p95 < 100 |"
    )
    print(f"| ask states | {ask['states']} | |")
    print(
        f"| peak RSS in process: index (parent / a parse worker) | {index['peak_rss_mb']:.0f} MB / "
        f"{index['peak_child_rss_mb']:.0f} MB | target < 300 MB |"
    )
    print(f"| peak RSS in process: answering {ask['n']} questions | {ask['peak_rss_mb']:.0f} MB | target < 150 MB |")


if __name__ == "__main__":
    main()
