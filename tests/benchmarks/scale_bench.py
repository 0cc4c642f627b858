"""Scale on one machine: one large tree (about a million lines) indexed at three sizes.

The tree is the benchmark packages (`../shared/bench/setup_repos.sh`) plus Django, SQLAlchemy and
pandas (wheels fetched with pip into the user cache, never into the repository), their top-level
packages laid side by side as one repository. Each size takes the same share of every package's
lines (whole files in one seeded random order), so the mix of code is the same at every size and
each size contains the smaller ones.

For each size, one printed table row:
- `codehop index` as a process (`python -m codehop index ROOT --index-dir D`), full build, wall
  seconds and seconds per 100k lines (linear growth: this figure stays flat);
- a bare single-process tree-sitter parse of the same files, for scale against noise;
- peak memory of the CLI's process tree (the indexer and its parse workers), polled from /proc
  every 20 ms as the sum of PSS (shared pages counted once), and the largest single process's
  peak RSS (wait4 / RUSAGE_CHILDREN); target < 1 GB;
- warm `ask` p50 / p95 over the same questions at every size (drawn from the smallest tree's
  index, so every size can answer them); target: p95 within 2x of the smallest size.

usage: python tests/benchmarks/scale_bench.py [--fractions 0.33,0.67,1] [--questions 60] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "codehop-bench"
BENCH_REPOS = CACHE / "repos"
SCALE = CACHE / "scale"
EXTRA = ("django==5.2.*", "sqlalchemy==2.1.*", "pandas==3.1.*")
ROOT = Path(__file__).resolve().parents[2]
# the shared benchmark beside the checkout (`../shared`), or beside the folder of worktrees
SETUP = next(
    (p / "shared/bench/setup_repos.sh" for p in (ROOT.parent, ROOT.parent.parent) if (p / "shared/bench").is_dir()),
    ROOT.parent / "shared/bench/setup_repos.sh",
)


def fetch_sources() -> list[Path]:
    """Folders whose top-level packages make up the tree: the benchmark repositories, then the
    wheels of EXTRA, unpacked once into the user cache."""
    if not SETUP.exists() and not BENCH_REPOS.exists():
        raise SystemExit(f"no benchmark repositories in {BENCH_REPOS} and no {SETUP} to fetch them")
    if SETUP.exists():
        subprocess.run(["bash", str(SETUP)], check=True, stdout=subprocess.DEVNULL)
    out = sorted(p for p in BENCH_REPOS.iterdir() if (p / ".bench-ok").exists())
    wheels = SCALE / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    for spec in EXTRA:
        name = spec.split("==")[0]
        have = [w for w in wheels.glob("*.whl") if w.name.lower().startswith(name + "-")]
        if not have:
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:", spec]
                + ["-d", str(wheels)],
                check=True,
            )
            have = [w for w in wheels.glob("*.whl") if w.name.lower().startswith(name + "-")]
        whl = sorted(have)[-1]
        dest = SCALE / "src" / whl.name.split("-")[0].lower()
        if not (dest / ".ok").exists():
            shutil.rmtree(dest, ignore_errors=True)
            with zipfile.ZipFile(whl) as z:
                z.extractall(dest)
            (dest / ".ok").touch()
        out.append(dest)
    return out


@dataclass(frozen=True, slots=True)
class SourceFile:
    src: Path
    rel: str  # path inside the assembled tree
    lines: int


def package_files(sources: list[Path]) -> dict[str, list[SourceFile]]:
    """Per top-level package: its Python files in path order (a subpackage's files together)."""
    out: dict[str, list[SourceFile]] = {}
    for folder in sources:
        for top in sorted(folder.iterdir()):
            if top.name.endswith((".dist-info", ".data")) or top.name.startswith("."):
                continue
            if top.name in out:
                raise SystemExit(f"two sources provide top-level {top.name!r}")
            files = [top] if top.suffix == ".py" else sorted(top.rglob("*.py")) if top.is_dir() else []
            rows = []
            for f in files:
                with open(f, "rb") as fh:
                    rows.append(SourceFile(f, str(f.relative_to(folder)), fh.read().count(b"\n")))
            if rows:
                out[top.name] = rows
    return out


def share(packages: dict[str, list[SourceFile]], fraction: float) -> list[SourceFile]:
    """`fraction` of every package's lines, whole files drawn in one seeded random order (the
    same order at every size, so each size holds the smaller ones and the same mix of code:
    pandas' first files by path are its library, its last its tests, which cost differently)."""
    picked: list[SourceFile] = []
    for files in packages.values():
        want = fraction * sum(f.lines for f in files)
        got = 0
        order = list(files)
        random.Random(11).shuffle(order)
        for f in order:
            if got >= want and fraction < 1:
                break
            picked.append(f)
            got += f.lines
    return picked


def lay_out(files: list[SourceFile], root: Path) -> None:
    for f in files:
        dest = root / f.rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(f.src, dest)
        except OSError:
            shutil.copy2(f.src, dest)


_PARSE = """
import sys, time, pathlib
from tree_sitter import Language, Parser
import tree_sitter_python as tsp
files = [p for p in pathlib.Path(sys.argv[1]).rglob('*.py')]
data = [p.read_bytes() for p in files]
parser = Parser(Language(tsp.language()))
t, c = time.perf_counter(), time.process_time()
for d in data:
    parser.parse(d)
print(repr({'seconds': time.perf_counter() - t, 'cpu_s': time.process_time() - c}))
"""

_ASK = """
import sys, time, json, statistics
import codehop
qs = json.loads(open(sys.argv[3]).read())
codehop.ask(qs[0], repo=sys.argv[1], index_dir=sys.argv[2])
times, cpu, states = [], [], {}
for q in qs:
    t, c = time.perf_counter(), time.process_time()
    a = codehop.ask(q, repo=sys.argv[1], index_dir=sys.argv[2])
    times.append(time.perf_counter() - t)
    cpu.append(time.process_time() - c)
    states[str(a.state)] = states.get(str(a.state), 0) + 1
times.sort()
cpu.sort()
peak = int(open('/proc/self/status').read().split('VmHWM:')[1].split()[0]) / 1024
print(repr({'n': len(times), 'p50_ms': 1000 * statistics.median(times),
            'p95_ms': 1000 * times[int(0.95 * (len(times) - 1))], 'cpu_p50_ms': 1000 * statistics.median(cpu),
            'cpu_p95_ms': 1000 * cpu[int(0.95 * (len(cpu) - 1))], 'states': states, 'peak_rss_mb': peak}))
"""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _python(code: str, *args: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=_env())
    if out.returncode != 0:
        raise SystemExit(f"phase failed:\n{out.stderr[-3000:]}")
    return eval(out.stdout.strip().splitlines()[-1])  # our own dict literal


def _tree(pid: int) -> list[int]:
    """`pid` and every live descendant (by each process's parent in /proc/N/stat)."""
    parents: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as fh:
                stat = fh.read()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        parents.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(parents.get(p, []))
    return out


def _pss_mb(pids: list[int]) -> float:
    total = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/smaps_rollup") as fh:
                for line in fh:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
                        break
        except OSError:
            continue
    return total / 1024


def index_cli(root: Path, idx: Path) -> dict:
    """`python -m codehop index` as a process: wall seconds, peak PSS of its process tree (polled),
    the largest single process's peak RSS (wait4 reports the child and its reaped descendants)."""
    shutil.rmtree(idx, ignore_errors=True)
    peak = [0.0]
    done = threading.Event()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "codehop", "index", str(root), "--index-dir", str(idx), "--json"],
            stdout=out,
            stderr=err,
            env=_env(),
        )

        def poll() -> None:
            while not done.is_set():
                peak[0] = max(peak[0], _pss_mb(_tree(proc.pid)))
                done.wait(0.02)

        watcher = threading.Thread(target=poll, daemon=True)
        watcher.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
        done.set()
        watcher.join()
        out.seek(0)
        err.seek(0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"codehop index failed:\n{err.read()[-3000:]}")
        report = json.loads(out.read())
    cpu = usage.ru_utime + usage.ru_stime  # the CLI and its reaped parse workers
    return {
        "seconds": wall,
        "cpu_s": cpu,
        "tree_pss_mb": peak[0],
        "max_rss_mb": usage.ru_maxrss / 1024,
        "report": report,
    }


def questions(index_db: Path, n: int) -> list[str]:
    """Questions of the development benchmark's shapes about symbols the index holds (read with
    plain SQL, so the benchmark does not depend on codehop's internals)."""
    conn = sqlite3.connect(f"file:{index_db}?mode=ro", uri=True)
    rng = random.Random(7)
    reexports = conn.execute(
        "SELECT x.anchor_text, f.module FROM xrefs x JOIN files f ON f.rel_path = x.rel_path"
        " WHERE x.ref_type='reexport' AND x.target_path != '' ORDER BY x.id"
    ).fetchall()
    aliases = conn.execute("SELECT scope, name FROM bindings WHERE kind='alias' ORDER BY rowid").fetchall()
    methods = conn.execute(
        "SELECT qualname FROM chunks WHERE kind='method' AND name NOT LIKE '\\_%' ESCAPE '\\' ORDER BY id"
    ).fetchall()
    conn.close()
    out = [
        f"Where is `{module}.{anchor}` actually defined, and what does it inherit from?"
        for anchor, module in rng.sample(reexports, min(n // 3, len(reexports)))
    ]
    out += [
        f"What is `{s}.{name}`? Show me what it refers to."
        for s, name in rng.sample(aliases, min(n // 6, len(aliases)))
    ]
    rest = max(0, n - len(out))
    out += [f"What does `{'.'.join(q.split('.')[-2:])}` do?" for (q,) in rng.sample(methods, min(rest, len(methods)))]
    return out


def index_many_cli(dirs: list[Path], out: Path, *extra: str, fresh: bool = True) -> dict:
    """`python -m codehop index-many DIRS --out OUT --json ...` as a process: wall seconds, CPU of
    the process and its reaped children (the pool's workers; not a Ray instance's, which are not
    its children), and the per-repository rows. `fresh`: remove OUT first (a full build)."""
    if fresh:
        shutil.rmtree(out, ignore_errors=True)
    args = [sys.executable, "-m", "codehop", "index-many", *map(str, dirs), "--out", str(out), "--json", *extra]
    with tempfile.TemporaryFile("w+") as stdout, tempfile.TemporaryFile("w+") as stderr:
        t = time.perf_counter()
        proc = subprocess.Popen(args, stdout=stdout, stderr=stderr, env=_env())
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
        stdout.seek(0)
        stderr.seek(0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"codehop index-many failed:\n{stderr.read()[-3000:]}")
        return {"wall": wall, "cpu_s": usage.ru_utime + usage.ru_stime, **json.loads(stdout.read())}


def many_table(packages: dict[str, list[SourceFile]], work: Path, backends: list[str], jobs: int) -> None:
    """Each package as its own repository, indexed by `codehop index-many` on each backend."""
    dirs = []
    lines: dict[str, int] = {}
    for name, files in packages.items():
        root = work / "many" / name
        shutil.rmtree(root, ignore_errors=True)
        lay_out(files, root)
        dirs.append(root)
        lines[str(root)] = sum(f.lines for f in files)
    total_lines = sum(lines.values())
    runs = {}
    for backend in backends:
        extra = ["--jobs", str(jobs)] + (["--ray", "local"] if backend == "ray" else [])
        print(f"index-many on {backend} ({jobs} at once) ...", file=sys.stderr)
        runs[backend] = index_many_cli(dirs, work / f"many-index-{backend}", *extra)
    if "local" in runs:  # nothing changed: each task copies its index, walks, parses nothing, swaps
        print("index-many again, nothing changed ...", file=sys.stderr)
        runs["local again"] = index_many_cli(dirs, work / "many-index-local", "--jobs", str(jobs), fresh=False)
        backends = [*backends, "local again"]
    print(
        f"\n`codehop index-many` over {len(dirs)} repositories ({total_lines:,} lines), {jobs} at once; "
        "task seconds are measured inside each task (index_repo plus the atomic move)"
    )
    print(
        "| repository | lines | "
        + " | ".join(f"{b}: task wall / CPU s | {b}: CPU s / 100k lines" for b in backends)
        + " |"
    )
    print("|---|---:|" + "---:|---:|" * len(backends))
    for d in dirs:
        cells = []
        for b in backends:
            row = next(r for r in runs[b]["repositories"] if r["path"] == str(d))
            cells += [
                f"{row['seconds']:.2f} / {row['cpu_seconds']:.2f}",
                f"{row['cpu_seconds'] / lines[str(d)] * 1e5:.2f}",
            ]
        print(f"| {d.name} | {lines[str(d)]:,} | " + " | ".join(cells) + " |")
    for b in backends:
        r = runs[b]
        task_cpu = sum(x["cpu_seconds"] for x in r["repositories"])
        print(
            f"{b}: wall {r['wall']:.1f} s for the command (start-up included), {r['seconds']:.1f} s inside it "
            f"({r['setup_seconds']:.1f} s starting Ray), "
            f"CPU of the command and its reaped children {r['cpu_s']:.1f} s; "
            f"sum of task CPU {task_cpu:.1f} s = {task_cpu / total_lines * 1e5:.2f} s per 100k lines; "
            f"workers seen: {len({x['worker'] for x in r['repositories']})}"
        )


def tiny_table(work: Path, n: int, backends: list[str], jobs: int) -> None:
    """The fixed cost of a task: `n` copies of a five-file fixture repository."""
    dirs = []
    for i in range(n):
        d = work / "tiny" / f"repo{i:04d}"
        if not d.exists():
            shutil.copytree(ROOT / "fixtures_repos" / "reexport_chain", d, ignore=shutil.ignore_patterns(".codehop"))
        dirs.append(d)
    print(f"\n`codehop index-many` over {n} copies of fixtures_repos/reexport_chain (5 files), {jobs} at once")
    print(
        "| backend | command wall | inside | starting Ray | per task ((inside - starting) / n) | median task wall / CPU | "
        "CPU (command + reaped children) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for b in backends:
        extra = ["--jobs", str(jobs)] + (["--ray", "local"] if b == "ray" else [])
        r = index_many_cli(dirs, work / f"tiny-index-{b}", *extra)
        tasks = sorted(x["seconds"] for x in r["repositories"])
        cpu = sorted(x["cpu_seconds"] for x in r["repositories"])
        print(
            f"| {b} | {r['wall']:.1f} s | {r['seconds']:.1f} s | {r['setup_seconds']:.1f} s | "
            f"{(r['seconds'] - r['setup_seconds']) / n * 1000:.0f} ms | "
            f"{tasks[len(tasks) // 2] * 1000:.0f} / {cpu[len(cpu) // 2] * 1000:.0f} ms | {r['cpu_s']:.1f} s |"
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fractions", default="0.33,0.67,1")
    ap.add_argument("--questions", type=int, default=60)
    ap.add_argument("--keep", help="assemble the trees and indexes in this folder and keep them")
    ap.add_argument("--many", default="", help="also `codehop index-many` on these backends: local, ray")
    ap.add_argument("--jobs", type=int, default=2, help="index-many: trees at once")
    ap.add_argument("--tiny", type=int, default=0, help="index-many: also N copies of a five-file fixture")
    ap.add_argument("--no-sizes", action="store_true", help="skip the three-size table")
    a = ap.parse_args()
    if a.no_sizes:
        a.fractions = ""
    fractions = [float(x) for x in a.fractions.split(",") if x]
    packages = package_files(fetch_sources())
    work = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix="codehop-scale-"))
    work.mkdir(parents=True, exist_ok=True)
    load = os.getloadavg()
    rows = []
    qs: list[str] = []
    try:
        for i, frac in enumerate(fractions):
            files = share(packages, frac)
            root = work / f"tree-{i}"
            shutil.rmtree(root, ignore_errors=True)
            lay_out(files, root)
            lines = sum(f.lines for f in files)
            print(f"size {frac:g}: {len(files)} files, {lines:,} lines; indexing ...", file=sys.stderr)
            parse = _python(_PARSE, str(root))
            idx = work / f"index-{i}"
            index = index_cli(root, idx)
            if not qs:
                qs = questions(idx / "index.db", a.questions)
                (work / "questions.json").write_text(json.dumps(qs))
            print(f"size {frac:g}: indexed in {index['seconds']:.1f} s; asking ...", file=sys.stderr)
            ask = _python(_ASK, str(root), str(idx), str(work / "questions.json"))
            db_mb = (idx / "index.db").stat().st_size / 2**20
            rows.append((frac, len(files), lines, parse, index, ask, db_mb))
        if a.many:
            many_table(packages, work, a.many.split(","), a.jobs)
            if a.tiny:
                tiny_table(work, a.tiny, a.many.split(","), a.jobs)
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    if rows:
        print_sizes(packages, rows, load, len(qs))


def print_sizes(packages: dict[str, list[SourceFile]], rows: list, load: tuple[float, ...], nq: int) -> None:
    names = ", ".join(sorted(packages))
    print(
        f"One tree of {len(packages)} top-level packages ({names}); load average before "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, {os.cpu_count()} cores; {nq} questions at every size"
    )
    print(
        "| size | files | lines | bare parse wall / CPU | `codehop index` wall / CPU | s / 100k lines wall / CPU | "
        "CPU x parse CPU | peak PSS tree / largest process | index.db | warm ask p50 / p95 wall (CPU) | "
        "p95 vs smallest wall / CPU | ask RSS |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    base = rows[0][5]
    for frac, nfiles, lines, parse, index, ask, db_mb in rows:
        s, c = index["seconds"], index["cpu_s"]
        print(
            f"| {frac:g} | {nfiles:,} | {lines:,} | {parse['seconds']:.1f} / {parse['cpu_s']:.1f} s | "
            f"{s:.1f} / {c:.1f} s | {s / lines * 1e5:.2f} / {c / lines * 1e5:.2f} | {c / parse['cpu_s']:.1f}x | "
            f"{index['tree_pss_mb']:.0f} / {index['max_rss_mb']:.0f} MB | {db_mb:.0f} MB | "
            f"{ask['p50_ms']:.0f} / {ask['p95_ms']:.0f} ms ({ask['cpu_p50_ms']:.0f} / {ask['cpu_p95_ms']:.0f}) | "
            f"{ask['p95_ms'] / base['p95_ms']:.2f}x / {ask['cpu_p95_ms'] / base['cpu_p95_ms']:.2f}x | "
            f"{ask['peak_rss_mb']:.0f} MB |"
        )
    print(f"ask states per size: {[r[5]['states'] for r in rows]}")
    print("targets: s / 100k lines flat across sizes; peak < 1 GB; warm ask p95 within 2x of the smallest size")


if __name__ == "__main__":
    main()
