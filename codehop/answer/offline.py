"""OfflineGenerator: the default generator, structural and extractive; no network, no key.

Its answer is built only from the indexed code: where the declaration lives,
its signature or value, its docstring's first line, and the chain that led
there. May import: records, structure, pointers, symbols, stdlib.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from codehop.index.symbols import SymbolTable
from codehop.kernel.records import (
    BindingKind,
    Chunk,
    ChunkKind,
    Completeness,
    ContextItem,
    Generation,
    Intent,
    PendingReference,
    Question,
    Resolution,
    shown_path,
)
from codehop.reading.pointers import contains
from codehop.reading.structure import Finding, Reader, covered


class OfflineGenerator:
    name = "offline"

    def __init__(self, table: SymbolTable) -> None:
        self.reader = Reader(table)

    def generate(
        self, question: Question, context: Sequence[ContextItem], resolved: Mapping[str, Resolution]
    ) -> Generation:
        findings = self.reader.read(question, context, resolved)
        answered = [f for f in findings if not f.doubt]
        doubts = [f.doubt for f in findings if f.doubt]
        if not answered:
            text = "\n".join(doubts) if doubts else _fallback(context)
            return Generation(answer=text, completeness=Completeness.PARTIAL)
        pending: list[PendingReference] = []
        for f in answered:
            pending.extend(p for p in f.pending if p not in pending)
        lines = [describe(f, context) for f in answered] + doubts
        if pending:
            completeness = Completeness.REFERENCES_UNRESOLVED
        elif question.intent is Intent.WHY and covered(findings):
            # a reason is not a declaration: the extract shows the code that bears on it, no more
            completeness = Completeness.PARTIAL
            lines.append(
                "The question asks why; this answer shows the code that bears on it and does not state a reason."
            )
        elif covered(findings):
            completeness = Completeness.COMPLETE
        else:
            completeness = Completeness.PARTIAL
        return Generation(answer="\n\n".join(lines), completeness=completeness, pending=tuple(pending))


def _first_line(doc: str) -> str:
    for line in doc.strip().splitlines():
        if line.strip():
            return line.strip()
    return ""


def describe(f: Finding, context: Sequence[ContextItem]) -> str:
    name = f.subject.dotted
    res = f.resolution
    if res is None:
        if f.pending:
            sites = ", ".join(f"`{p.anchor_text}` at {shown_path(p.origin_path)}:{p.origin_line}" for p in f.pending)
            return (
                f"`{f.subject.mentions[0] if f.subject.mentions else name}` is not declared where the symbol "
                f"table can see it; it is used at {sites}, which a resolver must follow."
            )
        return f"`{name}`: no declaration found in the indexed code."
    if res.is_external:
        return f"`{name}` comes from `{res.external}`, outside the indexed repository (not fetched)."
    t = res.target
    where = f"{shown_path(t.rel_path)}:{t.line}"
    if f.declared_in is None:
        first = f.pending[0] if f.pending else None
        via = f" (via {first.ref_type} at {shown_path(first.origin_path)}:{first.origin_line})" if first else ""
        return (
            f"`{name}` is declared at {where} as `{t.qualname}`{via}, but that declaration is "
            f"not in the retrieved context yet."
        )
    chunk = f.declared_in.chunk
    b = f.binding
    out = [
        f"`{name}` is declared at {where}" + (f" as `{t.qualname}`" if t.qualname and t.qualname != name else "") + "."
    ]
    if f.subject.assigned:
        at, text = f.subject.assigned
        out.append(f"Assigned at {shown_path(t.rel_path)}:{at} in `{t.qualname}`: `{text}`")
        return "\n".join(out)
    p = f.subject.parameter
    if p is not None:
        via = ""
        if f.subject.forwarded:
            via = (
                " (passed on through "
                + ", ".join(
                    f"`**` to `{callee}` at {shown_path(path)}:{line}" for callee, path, line in f.subject.forwarded
                )
                + ")"
            )
        default = f"defaults to `{p.default}`" if p.default else "has no default (it must be passed)"
        out.append(f"Parameter `{p.name}` of `{t.qualname}`{via} {default}.")
        if f.fallback:
            at, expr = f.fallback
            left = p.default if p.default and p.default != "None" else "None"
            out.append(f"Left at `{left}`, it becomes `{' '.join(expr.split())}` ({shown_path(t.rel_path)}:{at}).")
        if chunk.signature:
            out.append(f"Signature: `{chunk.signature}`")
        if res.steps:
            out.append("Chain: " + res.chain_text())
        return "\n".join(out)
    if b is not None and b.kind is BindingKind.VALUE and not b.value:
        line = _line_of(chunk, t.line)
        out.append(f"Annotated only: `{line or b.name}` (no value here)")
    elif b is not None and b.kind in (BindingKind.VALUE, BindingKind.ALIAS):
        out.append(f"Value: `{b.name} = {b.value}`")
        for loc in f.needs:
            dep = contains(context, loc)
            dep_line = _line_of(dep.chunk, loc.line) if dep is not None else ""
            if dep_line:
                out.append(f"where {dep_line}")
    elif chunk.qualname == t.qualname and chunk.signature:
        out.append(f"Signature: `{chunk.signature}`")
        doc = _first_line(chunk.docstring)
        if doc:
            out.append(f"Docstring: {doc}")
    elif chunk.kind is ChunkKind.MODULE and chunk.qualname == t.qualname:
        doc = _first_line(chunk.docstring)
        out.append(f"Module {shown_path(t.rel_path)}" + (f"; docstring: {doc}" if doc else "") + ".")
    else:
        line = _line_of(chunk, t.line)
        if line:
            out.append(f"Code: `{line}`")
    for alt, alt_res in f.alternatives:
        where = (
            f" -> {shown_path(alt_res.target.rel_path)}:{alt_res.target.line} (`{alt_res.target.qualname}`)"
            if alt_res is not None
            else ""
        )
        out.append(
            f"Also bound at {shown_path(alt.rel_path)}:{alt.line} ({alt.kind}{f' of `{alt.target}`' if alt.target else ''})"
            f"{where}: which binding holds depends on how the module runs (a conditional import or "
            f"a fallback), so this answer is partial."
        )
    for ref in f.pending:
        out.append(
            f"Still needed: `{ref.ref_target}` ({ref.ref_type} at {shown_path(ref.origin_path)}:{ref.origin_line})."
        )
    if res.steps:
        out.append("Chain: " + res.chain_text())
    return "\n".join(out)


def _line_of(chunk: Chunk, line: int) -> str:
    lines = chunk.text.splitlines()
    i = line - chunk.start_line
    return lines[i].strip() if 0 <= i < len(lines) else ""


def _fallback(context: Sequence[ContextItem]) -> str:
    if not context:
        return "No indexed code matches the question."
    c = context[0].chunk
    head = f"No symbol of the question was found in the symbol table. The closest code is `{c.qualname}` at {shown_path(c.rel_path)}:{c.start_line}"
    if c.signature:
        head += f": `{c.signature}`"
    return head + "."
