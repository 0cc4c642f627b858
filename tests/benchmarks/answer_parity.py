"""Are two code trees' answers the same? For house changes that must not change an answer.

`dump` runs the code on the import path (point PYTHONPATH at the tree to test) over the
benchmark's development sets and writes one JSON file:

  ask      every item of dev.jsonl, dev_natural.jsonl and dev_inferred.jsonl through the door's
           `ask` (max_loops 1, budget 2000, as ../shared/bench/run.py asks): the Answer JSON
  context  every task of tasks_dev.jsonl through `context` at 4000 tokens (what `codehop context
           --format json` prints, as ../shared/bench/tasks.py reads it)
  map      `map` (1000 tokens) of each repository those sets use

Timings (keys ending in `_ms`, `seconds`) are left out; everything else is kept (state, answer
text, context spans and their text, pending references, hops). Indexes are built fresh under
--index-root (never in the shared repositories' own `.codehop/`). `compare` prints every
difference between two dumps, item by item, and exits 1 when there is any.

usage:
  PYTHONPATH=TREE nice -n 10 python tests/benchmarks/answer_parity.py dump OUT.json \
      [--bench ../shared/bench] [--repos ~/.cache/codehop-bench/repos] [--index-root DIR] [--limit N]
  python tests/benchmarks/answer_parity.py compare A.json B.json
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ASK_SETS = ("dev.jsonl", "dev_natural.jsonl", "dev_inferred.jsonl")
TASKS = "tasks_dev.jsonl"
CONTEXT_BUDGET = 4000
ASK_BUDGET = 2000
MAP_BUDGET = 1000
_TIMING = ("_ms", "seconds")


def _load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _untimed(value: Any) -> Any:
    """The JSON without its clocks (they differ on every run)."""
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if not k.endswith(_TIMING)}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value


def dump(out: Path, bench: Path, repos: Path, index_root: Path, limit: int | None) -> None:
    import codehop
    from codehop.app import App, Config

    print(f"codehop from {Path(codehop.__file__).parent}", file=sys.stderr)
    apps: dict[str, App] = {}

    def app(repo: str) -> App:
        if repo not in apps:
            apps[repo] = App(repos / repo, Config(index_dir=str(index_root / repo)))
        return apps[repo]

    result: dict[str, dict[str, Any]] = {"ask": {}, "context": {}, "map": {}}
    t0 = time.perf_counter()
    for name in ASK_SETS:
        for item in _load(bench / name)[:limit]:
            answer = app(item["repo"]).ask(item["question"], max_loops=1, budget_tokens=ASK_BUDGET)
            result["ask"][f"{name}:{item['id']}"] = _untimed(answer.to_dict())
        print(f"{name}: done ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    for task in _load(bench / TASKS)[:limit]:
        ctx = app(task["repo"]).context(task["task"], budget_tokens=CONTEXT_BUDGET)
        result["context"][f"{TASKS}:{task['id']}"] = _untimed(ctx.to_dict())
    print(f"{TASKS}: done ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    for repo in sorted(apps):
        result["map"][repo] = _untimed(apps[repo].map(budget_tokens=MAP_BUDGET).to_dict())
    for a in apps.values():
        a.close()
    out.write_text(json.dumps(result, indent=1, sort_keys=True), encoding="utf-8")
    counts = ", ".join(f"{len(v)} {k}" for k, v in result.items())
    print(f"wrote {out}: {counts} ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)


def _paths(a: Any, b: Any, where: str = "") -> list[str]:
    """The JSON paths where `a` and `b` differ (the innermost that do)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[str] = []
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{where}.{k} ({'only in B' if k not in a else 'only in A'})")
            elif a[k] != b[k]:
                out += _paths(a[k], b[k], f"{where}.{k}")
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [p for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y for p in _paths(x, y, f"{where}[{i}]")]
    return [where or "."]


def _shown(value: Any) -> list[str]:
    text = value if isinstance(value, str) else json.dumps(value, indent=1, sort_keys=True)
    return text.splitlines()


def compare(a_path: Path, b_path: Path, *, max_lines: int = 40) -> int:
    a, b = (json.loads(p.read_text(encoding="utf-8")) for p in (a_path, b_path))
    differences = 0
    for section in ("ask", "context", "map"):
        sa, sb = a.get(section, {}), b.get(section, {})
        for key in sorted(set(sa) | set(sb)):
            if key not in sa or key not in sb:
                differences += 1
                print(f"{section} {key}: only in {'B' if key not in sa else 'A'}")
                continue
            if sa[key] == sb[key]:
                continue
            differences += 1
            print(f"{section} {key}: differs at")
            for path in _paths(sa[key], sb[key]):
                print(f"  {path}")
            for field in ("state", "answer"):
                x, y = sa[key].get(field), sb[key].get(field)
                if x != y:
                    diff = list(difflib.unified_diff(_shown(x), _shown(y), "A", "B", lineterm="", n=1))
                    print("\n".join("    " + ln for ln in diff[:max_lines]))
        same = len(set(sa) & set(sb))
        print(f"{section}: {len(sa)} in A, {len(sb)} in B, {same} in both")
    print("identical" if differences == 0 else f"{differences} items differ")
    return 1 if differences else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump")
    d.add_argument("out", type=Path)
    d.add_argument("--bench", type=Path, default=Path(__file__).resolve().parents[2].parent / "shared" / "bench")
    d.add_argument("--repos", type=Path, default=Path.home() / ".cache" / "codehop-bench" / "repos")
    d.add_argument("--index-root", type=Path, help="indexes go to DIR/<repo> (default: a temporary folder)")
    d.add_argument("--limit", type=int, help="the first N items of each set (a quick check)")
    c = sub.add_parser("compare")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    args = ap.parse_args()
    if args.command == "compare":
        raise SystemExit(compare(args.a, args.b))
    if args.index_root is not None:
        dump(args.out, args.bench, args.repos, args.index_root, args.limit)
        return
    with tempfile.TemporaryDirectory(prefix="codehop-parity-") as tmp:
        dump(args.out, args.bench, args.repos, Path(tmp), args.limit)


if __name__ == "__main__":
    main()
