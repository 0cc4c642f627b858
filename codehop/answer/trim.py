"""Trimming a body too big for its share: its head plus the lines the task is about.

A chunk larger than the tokens it may take is never dropped for its size: it is
sent as its first lines (the signature, the docstring's start) and then the
lines that match what the task names (the assignment of the setting, the
member named), each kept span in file order with a marker line between spans
that says which lines were not sent. The item's provenance states the ranges
sent, so an agent knows what it has not seen.

May import: records, retrieval (token counting), words, stdlib.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from codehop.kernel.records import Chunk, ChunkPart
from codehop.kernel.tokens import count_tokens
from codehop.kernel.words import word_parts

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
HEAD_SHARE = 0.3  # of a trimmed item's tokens, for its first lines
_MIN_TOKENS = 24
_AFTER_NAMED = 2  # lines kept after a line that names a subject


@dataclass(frozen=True, slots=True, kw_only=True)
class Focus:
    """What the task is about, for choosing lines: names it marks as code (matched whole) and
    its plain search terms (matched as identifier parts)."""

    names: frozenset[str]
    terms: frozenset[str]


@dataclass(frozen=True, slots=True, kw_only=True)
class Trimmed:
    chunk: Chunk  # start_line..end_line span the lines sent; text holds them with gap markers
    spans: tuple[tuple[int, int], ...]  # the line ranges sent, in file order

    def stated(self, of: Chunk) -> str:
        """`trimmed: sent lines 1-12, 340, 512-514 of 1-5688`."""
        sent = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in self.spans)
        return f"trimmed: sent lines {sent} of {of.start_line}-{of.end_line}"


def line_score(line: str, focus: Focus) -> int:
    """How much a line is about the task: a named identifier counts 4, each task term once."""
    idents = _IDENT.findall(line)
    if not idents:
        return 0
    score = sum(4 for i in idents if i in focus.names)
    parts: set[str] = set()
    for i in idents:
        parts.update(word_parts(i))
    return score + len(parts & focus.terms)


def trim(chunk: Chunk, max_tokens: int, focus: Focus) -> Trimmed | None:
    """`chunk` cut to about `max_tokens`: its head and its best-matching lines. None when it fits."""
    if count_tokens(chunk.text) <= max_tokens:
        return None
    lines = chunk.text.split("\n")
    chars = max(_MIN_TOKENS, max_tokens) * 4 - 8
    keep: set[int] = set()
    used = 0
    head_chars = int(chars * HEAD_SHARE)
    for i, line in enumerate(lines):
        if used + len(line) + 1 > head_chars and keep:
            break
        keep.add(i)
        used += min(len(line), chars) + 1
    ranked = sorted(
        ((line_score(line, focus), i) for i, line in enumerate(lines) if i not in keep), key=lambda p: (-p[0], p[1])
    )
    for score, i in ranked:
        if score <= 0:
            break
        # a line that names what the task names brings the lines after it (a field's docstring)
        for j in range(i, min(len(lines), i + (1 + _AFTER_NAMED if score >= 4 else 1))):
            if j in keep:
                continue
            cost = len(lines[j]) + 1 + (0 if j - 1 in keep else 40)  # a gap marker, unless it joins a span
            if used + cost > chars:
                break
            keep.add(j)
            used += cost
    if len(keep) == len(lines):
        return None
    spans = _spans(sorted(keep))
    text: list[str] = []
    prev_end = -1
    for a, b in spans:
        if prev_end >= 0:
            indent = lines[a][: len(lines[a]) - len(lines[a].lstrip())]
            text.append(f"{indent}# ... lines {chunk.start_line + prev_end + 1}-{chunk.start_line + a - 1} not sent")
        text.extend(lines[a : b + 1])
        prev_end = b
    last = spans[-1][1]
    cut = replace(
        chunk,
        end_line=chunk.start_line + last,
        text="\n".join(text)[: max(chars, 64)],
        part=ChunkPart.FITTED if chunk.part is ChunkPart.WHOLE else chunk.part,
    )
    return Trimmed(chunk=cut, spans=tuple((chunk.start_line + a, chunk.start_line + b) for a, b in spans))


def _spans(idx: list[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for i in idx:
        if out and i == out[-1][1] + 1:
            out[-1] = (out[-1][0], i)
        else:
            out.append((i, i))
    return out
