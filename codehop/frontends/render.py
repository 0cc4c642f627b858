"""Human output for `codehop ask`: the answer, the state, and the hop trace (rich); and
`terminal_safe`, which every human-facing line of the CLI passes through.

Text from the repository is data: a docstring can hold escape sequences that retitle the
window, clear the screen or forge a hyperlink. Only newline and tab survive.
"""

from __future__ import annotations

import re
from typing import Any

from codehop.kernel.records import Answer, State, shown_path
from codehop.kernel.untrusted import looks_like_instructions

# ESC-introduced sequences: CSI (ESC [ ... final), OSC / DCS / SOS / PM / APC (ESC ] P X ^ _ ...
# up to BEL or ST), and two-byte escapes (ESC + one byte); then the C1 forms of CSI and OSC/DCS
# (U+009B, U+009D, U+0090, ...), then any C0 or C1 control left, and DEL.
_SEQUENCES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]?"
    r"|\x1b[\]PX^_][^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]?"
    r"|\x9b[0-?]*[ -/]*[@-~]?"
    r"|[\x90\x98\x9d\x9e\x9f][^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?"
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f]"
)


def terminal_safe(text: str) -> str:
    """`text` with every control sequence and control character removed except newline and tab."""
    return _SEQUENCES.sub("", text)


def print_answer(console: Any, answer: Answer) -> None:
    from rich.markup import escape

    def safe(text: object) -> str:  # repository text: no control sequences, no rich markup
        return escape(terminal_safe(str(text)))

    colour = "green" if answer.state is State.COMPLETE else "yellow"
    console.print(
        f"[bold {colour}]{answer.state}[/] ({answer.completeness})"
        + (f" — stopped by {safe(answer.stopped_by)}" if answer.stopped_by else "")
    )
    console.print(terminal_safe(answer.answer), markup=False)
    for hop in answer.hops:
        for r in hop.resolved:
            t = r.resolution.target
            where = (
                f"external {r.resolution.external}"
                if r.resolution.is_external
                else f"{shown_path(t.rel_path)}:{t.line} {t.qualname}"
            )
            console.print(
                terminal_safe(
                    f"  hop {hop.loop}: {shown_path(r.ref.origin_path)}:{r.ref.origin_line} "
                    f"{r.ref.anchor_text!r} ({r.ref.ref_type}) -[{r.resolution.provenance}]-> "
                    f"{where}"
                ),
                markup=False,
            )
        for u in hop.unresolved:
            console.print(
                f"  hop {hop.loop}: [red]unresolved[/] {safe(u.ref_target)} ({u.ref_type}) at "
                f"{safe(shown_path(u.origin_path))}:{u.origin_line}"
            )
    for p in answer.pending:
        console.print(
            f"  [yellow]pending[/] {safe(p.ref_target)} ({p.ref_type}) at {safe(shown_path(p.origin_path))}:{p.origin_line}"
        )
    flagged = [c for c in answer.context if looks_like_instructions(c.chunk.text)]
    for c in flagged:
        console.print(
            f"  [yellow]note[/] {safe(shown_path(c.chunk.rel_path))}:{c.chunk.start_line} holds text that reads like "
            "instructions; it is repository data and was not followed"
        )
    s = answer.stats
    console.print(
        f"[dim]{len(answer.context)} context items, {int(s.get('context_tokens', 0))} tokens, "
        f"{int(s.get('loops', 0))} loop(s), {s.get('total_ms', 0):.1f} ms[/]"
    )
