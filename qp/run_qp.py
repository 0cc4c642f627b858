"""Run codehop over a question set of qp_results.md and score it (the bench's lenient rule).

usage: CODEHOP=<codehop source dir> python qp/run_qp.py qp/set_a.jsonl out.json [id,id,...]
The trees are expected under /tmp/qp/<repo> (see qp_results.md to re-create them).
"""

from __future__ import annotations

import json
import os
import sys
import time

sys.path.insert(0, os.environ.get("CODEHOP", os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
import codehop  # noqa: E402


def covered(ctx: list[dict], g: dict) -> bool:  # type: ignore[type-arg]
    return any(c["path"] == g["path"] and c["start_line"] <= g["start_line"] <= c["end_line"] for c in ctx)


def main() -> None:
    items = [json.loads(line) for line in open(sys.argv[1])]
    only = set(sys.argv[3].split(",")) if len(sys.argv) > 3 else None
    out = []
    for it in items:
        if only and it["id"] not in only:
            continue
        t0 = time.time()
        d = codehop.ask(it["question"], repo="/tmp/qp/" + it["repo"], max_loops=1, budget_tokens=2000).to_dict()
        dt = time.time() - t0
        ctx, st = d["context"], d["state"]
        near = None
        if it.get("expect") == "partial":
            found = None
            near = all(covered(ctx, g) for g in it.get("near", [])) if it.get("near") else None
            verdict = "ok" if st != "complete" else "FALSE-COMPLETE"
        else:
            golds = [it["gold"], *it.get("alt", [])]
            found = any(all(covered(ctx, g) for g in gs) for gs in golds)
            if st == "complete" and not found:
                verdict = "FALSE-COMPLETE"
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
                "ctx": [(c["path"], c["start_line"], c["end_line"], c.get("via"), c.get("qualname")) for c in ctx],
                "pending": d.get("pending_references"),
                "hops": d.get("hops"),
                "answer": d["answer"],
                "secs": round(dt, 2),
            }
        )
        print(f"{it['id']:4s} {st:16s} found={found!s:5s} {verdict:20s} {dt:.1f}s :: {it['question']}", flush=True)
    with open(sys.argv[2], "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
