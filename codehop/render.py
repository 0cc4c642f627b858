"""Human output for `codehop ask`: the answer, the state, and the hop trace (rich)."""

from __future__ import annotations

from typing import Any

from codehop.records import Answer, State


def print_answer(console: Any, answer: Answer) -> None:
    colour = "green" if answer.state is State.COMPLETE else "yellow"
    console.print(f"[bold {colour}]{answer.state}[/] ({answer.completeness})"
                  + (f" — stopped by {answer.stopped_by}" if answer.stopped_by else ""))
    console.print(answer.answer, markup=False)
    for hop in answer.hops:
        for r in hop.resolved:
            t = r.resolution.target
            where = f"external {r.resolution.external}" if r.resolution.is_external else f"{t.rel_path}:{t.line} {t.qualname}"
            console.print(f"  hop {hop.loop}: {r.ref.origin_path}:{r.ref.origin_line} {r.ref.anchor_text!r} "
                          f"({r.ref.ref_type}) -[{r.resolution.provenance}]-> {where}", markup=False)
        for u in hop.unresolved:
            console.print(f"  hop {hop.loop}: [red]unresolved[/] {u.ref_target} ({u.ref_type}) at "
                          f"{u.origin_path}:{u.origin_line}")
    for p in answer.pending:
        console.print(f"  [yellow]pending[/] {p.ref_target} ({p.ref_type}) at {p.origin_path}:{p.origin_line}")
    s = answer.stats
    console.print(f"[dim]{len(answer.context)} context items, {int(s.get('context_tokens', 0))} tokens, "
                  f"{int(s.get('loops', 0))} loop(s), {s.get('total_ms', 0):.1f} ms[/]")
