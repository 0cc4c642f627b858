"""Speed and memory on Django 5.2 (pip-downloaded), side by side with a bare tree-sitter parse.

Every figure comes from one run of this script; ratios are to the bare parse measured in it.
Each phase runs in a fresh subprocess so peak RSS is its own.

usage: python tests/benchmarks/django_bench.py [--version 5.2] [--questions 120]
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
import zipfile
from pathlib import Path

CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "codehop-bench" / "django"


def fetch(version: str) -> Path:
    dest = CACHE / f"django-{version}"
    if (dest / ".ok").exists():
        return dest
    wheels = CACHE / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                    f"django=={version}.*", "-d", str(wheels)], check=True)
    whl = sorted(wheels.glob(f"[Dd]jango-{version}*.whl"))[-1]
    shutil.rmtree(dest, ignore_errors=True)
    with zipfile.ZipFile(whl) as z:
        z.extractall(dest)
    for extra in dest.glob("*.dist-info"):
        shutil.rmtree(extra)
    (dest / ".ok").touch()
    return dest


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
for d in data:
    parser.parse(d)
print({'seconds': time.perf_counter() - t, 'files': len(files), 'lines': sum(d.count(b'\\n') for d in data)})
""",
    "index": """
import sys, time
from codehop.indexer import index_repo
t = time.perf_counter()
store, r = index_repo(sys.argv[1], index_dir=sys.argv[2])
total = time.perf_counter() - t
from codehop.graph_context import GraphContext
t = time.perf_counter()
g = GraphContext(store)
g.graph()
graph_s = time.perf_counter() - t
print({'seconds': total, 'files': r.files, 'chunks': r.chunks, 'xrefs': r.xrefs, 'graph_load_s': graph_s})
""",
    "reindex": """
import sys, time, pathlib, os
from codehop.indexer import index_repo
from codehop.graph_context import GraphContext
store, rep = index_repo(sys.argv[1], index_dir=sys.argv[2])
g = GraphContext(store); g.graph()
t = time.perf_counter()
store, rep = index_repo(sys.argv[1], index_dir=sys.argv[2])
nochange = time.perf_counter() - t
p = pathlib.Path(sys.argv[1]) / 'django/db/models/sql/query.py'
orig = p.read_bytes()
one, one_walk, graph_mem, parsed = [], [], [], 0
try:
    for i in range(3):
        p.write_bytes(orig + b'\\n# edited by the benchmark %d\\n' % i)
        t = time.perf_counter()
        store, r = index_repo(sys.argv[1], index_dir=sys.argv[2], stamp=rep.stamp)  # as a warm App does
        one.append(time.perf_counter() - t)
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
print({'nochange_s': nochange, 'one_file_s': sorted(one)[1], 'one_file_walk_s': sorted(one_walk)[1],
       'graph_mem_s': sorted(graph_mem)[1], 'parsed': parsed})
""",
    "ask": """
import sys, time, json, statistics
import codehop
qs = json.loads(open(sys.argv[3]).read())
codehop.ask(qs[0], repo=sys.argv[1], index_dir=sys.argv[2])
times = []
states = {}
for q in qs:
    t = time.perf_counter()
    a = codehop.ask(q, repo=sys.argv[1], index_dir=sys.argv[2])
    times.append(time.perf_counter() - t)
    states[str(a.state)] = states.get(str(a.state), 0) + 1
times.sort()
print({'n': len(times), 'p50_ms': 1000 * statistics.median(times), 'p95_ms': 1000 * times[int(0.95 * (len(times) - 1))],
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
    from codehop.indexer import index_repo
    from codehop.symbols import SymbolTable

    store, _ = index_repo(root, index_dir=index_dir)
    table = SymbolTable(store)
    rng = random.Random(7)
    conn = store.conn
    reexports = conn.execute("SELECT x.anchor_text, f.module FROM xrefs x JOIN files f ON f.rel_path = x.rel_path"
                             " WHERE x.ref_type='reexport' AND x.target_path != ''").fetchall()
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
        inherited = [b.name for base in mro[1:] for b in store.bindings_in(base)
                     if b.name not in own and not b.name.startswith("__")]
        if inherited:
            out.append(f"What does `{qual.rsplit('.', 1)[1]}.{rng.choice(inherited)}` do?")
    store.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--version", default="5.2")
    ap.add_argument("--questions", type=int, default=120)
    a = ap.parse_args()
    src = fetch(a.version)
    work = Path(tempfile.mkdtemp(prefix="codehop-django-"))
    root = work / "django"
    shutil.copytree(src, root)
    idx = str(work / "index")
    try:
        parse = run_phase("parse", str(root))
        index = run_phase("index", str(root), idx)
        reindex = run_phase("reindex", str(root), idx)
        qfile = work / "questions.json"
        qfile.write_text(json.dumps(questions(root, idx, a.questions)))
        ask = run_phase("ask", str(root), idx, str(qfile))
        t = time.perf_counter()
        cli = subprocess.run(["codehop", "ask", "Where is `django.db.models.Model` defined?", "--repo", str(root),
                              "--index-dir", idx, "--json"], capture_output=True, text=True)
        cold_cli = time.perf_counter() - t
        cold_state = json.loads(cli.stdout)["state"] if cli.returncode == 0 else f"error {cli.stderr[-200:]}"
    finally:
        shutil.rmtree(work, ignore_errors=True)
    p = parse["seconds"]
    print(f"Django {a.version}: {parse['files']} files, {parse['lines']} lines")
    print("| figure | value | ratio / target |")
    print("|---|---:|---|")
    print(f"| bare tree-sitter parse, 1 process | {p:.2f} s | 1.00 |")
    print(f"| full index (chunks, xrefs, FTS5, edges), 2 workers | {index['seconds']:.2f} s | {index['seconds'] / p:.2f}x parse (target <= 2x) |")
    print(f"| graph load from the index | {index['graph_load_s']:.2f} s | {index['graph_load_s'] / index['seconds']:.1%} of index |")
    print(f"| files / chunks / xrefs | {index['files']} / {index['chunks']} / {index['xrefs']} | |")
    print(f"| no-change re-index | {reindex['nochange_s'] * 1000:.0f} ms | {reindex['nochange_s'] / index['seconds']:.1%} of full (target < 5%) |")
    print(f"| one edited file (query.py), warm (stat stamp, no walk), incl. graph edges | {reindex['one_file_s'] * 1000:.0f} ms | target < 100 ms |")
    print(f"| one edited file, cold (directory walk first) | {reindex['one_file_walk_s'] * 1000:.0f} ms | |")
    print(f"| in-memory graph refresh after that edit (only if a full graph is loaded) | {reindex['graph_mem_s'] * 1000:.0f} ms | |")
    print(f"| warm ask, {ask['n']} questions | p50 {ask['p50_ms']:.1f} ms, p95 {ask['p95_ms']:.1f} ms | target p50 < 30, p95 < 150 |")
    print(f"| ask states | {ask['states']} | |")
    print(f"| cold `codehop ask` CLI | {cold_cli:.2f} s ({cold_state}) | target < 1.5 s |")
    print(f"| peak RSS: index (parent / a parse worker) | {index['peak_rss_mb']:.0f} MB / {index['peak_child_rss_mb']:.0f} MB | target < 500 MB |")
    print(f"| peak RSS: answering | {ask['peak_rss_mb']:.0f} MB | target < 500 MB |")


if __name__ == "__main__":
    main()
