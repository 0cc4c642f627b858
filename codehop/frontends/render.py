"""What the front-ends print: `codehop ask`'s answer, state and hop trace (rich); a context as
a markdown prompt section (`render_markdown`, for the CLI, MCP and the LSP's clients); and
`terminal_safe` (from `plain`), which every human-facing line of the CLI passes through.

Text from the repository is data: a docstring can hold escape sequences that retitle the
window, clear the screen or forge a hyperlink. Only newline and tab survive.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codehop.frontends.plain import terminal_safe
from codehop.kernel.records import Answer, State, shown_path

__all__ = ["print_answer", "render_markdown", "terminal_safe"]


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
            console.print(
                terminal_safe(
                    f"  hop {hop.loop}: {shown_path(r.ref.origin_path)}:{r.ref.origin_line} "
                    f"{r.ref.anchor_text!r} ({r.ref.ref_type}) -[{r.resolution.provenance}]-> "
                    f"{r.resolution.where()}"
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
    flagged = [c for c in answer.context if c.untrusted_text]
    for c in flagged:
        console.print(
            f"  [yellow]note[/] {safe(shown_path(c.chunk.rel_path))}:{c.chunk.start_line} holds text that reads like "
            "instructions; it is repository data and was not followed"
        )
    s = answer.stats
    console.print(
        f"[dim]{len(answer.context)} context items, {s.context_tokens} tokens, "
        f"{s.loops} loop(s), {s.total_ms or 0:.1f} ms[/]"
    )


# ---- the context as a prompt section ------------------------------------------------
def render_markdown(answer: Any) -> str:
    """A prompt section: a header with state and completeness, each code item as a fenced block,
    the blast-radius manifest one line a site, and what was left out by name.

    `answer`: a TaskContext or an Answer (anything with `to_dict()`), or that dict (the JSON
    contract), which renders the same, from each item's `text`.
    """
    data = dict(answer) if isinstance(answer, Mapping) else answer.to_dict()
    items = data.get("context", [])
    tokens = data.get("stats", {}).get("context_tokens", "?")
    lines = [
        f"## codehop context — state: {data.get('state', '?')}, "
        f"completeness: {data.get('answer_completeness', '?')} ({len(items)} items, {tokens} tokens)",
        "",
        f"Query: {data.get('question', '')}",
    ]
    if data.get("answer"):
        lines += ["", data["answer"]]
    pending = data.get("pending_references", [])
    if pending:
        lines += ["", "Unresolved references (not in this context):"]
        lines += [
            f"- `{p['anchor_text']}` ({p['ref_type']} -> {p['ref_target']}) at "
            f"{p['origin']['path']}:{p['origin']['line']}"
            for p in pending
        ]
    for item in items:
        if item.get("relation"):
            continue
        cut = ", truncated" if item.get("truncated") else ""
        lines += [
            "",
            f"### {_pin(item)}{item['path']}:{item['start_line']}-{item['end_line']} — {item['qualname']} "
            f"({item['via']}, {item['provenance']}, hop {item['hop']}{cut})",
        ]
        text = item.get("text")
        if text is not None:
            fence = _fence(text)
            lines += [f"{fence}python", text.rstrip("\n"), fence]
    sites = [i for i in items if i.get("relation")]
    manifest = data.get("manifest")
    if sites:
        state = ""
        if manifest:
            state = (
                " (complete)"
                if manifest.get("complete")
                else f" ({manifest.get('left_out_sites', 0)} more sites left out)"
            )
        block = "\n".join(str(i.get("provenance", "")).removeprefix("site: ") for i in sites)
        fence = _fence(block)
        lines += [
            "",
            f"Sites the change may have to touch{state}, `path:line  source  [relation subject]`:",
            fence,
            block,
            fence,
        ]
    left = data.get("left_out")
    if left and left.get("items"):
        entries = left.get("entries") or [{"name": n} for n in left["names"]]
        lines += ["", f"Left out: {left['items']} items, {left['tokens']:,} tokens:"]
        lines += [
            f"- {x['name']}" + (f" ({x['tokens']} tokens; {x['reason']})" if x.get("reason") else "")
            for x in entries[:40]
        ]
        lines += [f"- ... {len(entries) - 40} more"] if len(entries) > 40 else []
    return "\n".join(lines) + "\n"


def _fence(text: str) -> str:
    """A backtick fence longer than any run of backticks in the text, so it cannot be closed early."""
    longest = run = 0
    for ch in text:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    return "`" * max(3, longest + 1)


def _pin(item: Mapping[str, Any]) -> str:
    """An installed package's item is headed by its pin (`requests==2.34.2 requests/sessions.py:...`)."""
    return f"{item['package']} " if item.get("source") == "environment" and item.get("package") else ""
