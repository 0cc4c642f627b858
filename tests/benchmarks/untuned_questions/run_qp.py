"""Run codehop over a question set of this folder (see README.md) and score it (the bench's
lenient rule). The trees (pinned wheels, unzipped) are fetched with pip on first use into
~/.cache/codehop-bench/untuned/<name>-<version>.

usage: [CODEHOP=<codehop source dir>] python tests/benchmarks/untuned_questions/run_qp.py \
           tests/benchmarks/untuned_questions/set_a.jsonl out.json [id,id,...]
Run it from outside the repository root (e.g. /tmp), or set CODEHOP to the checkout to measure.

Verdicts (README.md): ok, FALSE-COMPLETE (complete, gold not in the context), wrong-complete (complete,
gold in the context, but the answer does not name every gold's file and the last part of its qualname:
the bench's `located`; a gold set with a gold without a qualname is not checked), miss(partial), unjustified-partial.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, os.environ.get("CODEHOP", str(Path(__file__).resolve().parents[3])))
import codehop  # noqa: E402

TREES = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "codehop-bench" / "untuned"


def tree(name_version: str) -> Path:
    """The unzipped wheel `name-version` (dist-info removed), downloaded with pip the first time."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from wheels import unpacked

    name, _, version = name_version.rpartition("-")
    return unpacked(f"{name}=={version}", f"{name}-{version}-", TREES / name_version, TREES / "wheels")


def covered(ctx: list[dict], g: dict) -> bool:  # type: ignore[type-arg]
    return any(c["path"] == g["path"] and c["start_line"] <= g["start_line"] <= c["end_line"] for c in ctx)


def names(answer: str, g: dict) -> bool:  # type: ignore[type-arg]
    """The answer names the gold's file and the last part of its qualname (the bench's `located`)."""
    last = g["qualname"].rsplit(".", 1)[-1]
    word = rf"(?<![A-Za-z0-9_]){re.escape(last)}(?![A-Za-z0-9_])"
    return g["path"] in answer and re.search(word, answer) is not None


def located(answer: str, golds: list[list[dict]]) -> bool | None:  # type: ignore[type-arg]
    """Whether the answer names every declaration of one gold set; None when a gold has no qualname."""
    if not all(g.get("qualname") for gs in golds for g in gs):
        return None
    return any(all(names(answer, g) for g in gs) for gs in golds)


def main() -> None:
    items = [json.loads(line) for line in open(sys.argv[1])]
    only = set(sys.argv[3].split(",")) if len(sys.argv) > 3 else None
    out = []
    for it in items:
        if only and it["id"] not in only:
            continue
        t0 = time.time()
        d = codehop.ask(it["question"], repo=str(tree(it["repo"])), max_loops=1, budget_tokens=2000).to_dict()
        dt = time.time() - t0
        ctx, st = d["context"], d["state"]
        near = loc = None
        if it.get("expect") == "partial":
            found = None
            near = all(covered(ctx, g) for g in it.get("near", [])) if it.get("near") else None
            verdict = "ok" if st != "complete" else "FALSE-COMPLETE"
        else:
            golds = [it["gold"], *it.get("alt", [])]
            found = any(all(covered(ctx, g) for g in gs) for gs in golds)
            loc = located(d["answer"], golds)
            if st == "complete" and not found:
                verdict = "FALSE-COMPLETE"
            elif st == "complete" and loc is False:
                verdict = "wrong-complete"
            elif not found:
                verdict = "miss(partial)"
            elif st != "complete" and not it.get("ok_partial"):
                verdict = "unjustified-partial"
            else:
                verdict = "ok"
        out.append(
            {
                "id": it["id"],
                "state": st,
                "found": found,
                "verdict": verdict,
                "near": near,
                "located": loc,
                "ctx": [(c["path"], c["start_line"], c["end_line"], c.get("via"), c.get("qualname")) for c in ctx],
                "pending": d.get("pending_references"),
                "hops": d.get("hops"),
                "answer": d["answer"],
                "secs": round(dt, 2),
            }
        )
        print(
            f"{it['id']:4s} {st:16s} found={found!s:5s} located={loc!s:5s} {verdict:20s} {dt:.1f}s :: {it['question']}",
            flush=True,
        )
    with open(sys.argv[2], "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
