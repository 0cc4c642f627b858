"""Excerpts of stored chunks: a declaration's chunk (or its lines out of a big block), and a
chunk fitted to a token budget. Each excerpt keeps its stored chunk's id and says what part it
holds (`Chunk.part`), so `Chunk.key` tells a chunk, its fitted copy and a slice of it apart.

May import: records, protocols, store, tokens, stdlib.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from codehop.index.store.sqlite import SqliteStore
from codehop.kernel.protocols import Store
from codehop.kernel.records import BindingKind, Chunk, ChunkKind, ChunkPart, Location, TermHit
from codehop.kernel.tokens import count_tokens

_BIG_CHUNK_LINES = 40


def declaration_chunk(store: Store, loc: Location) -> Chunk | None:
    """The chunk declaring `loc` (for a value in a big block, just the value's lines)."""
    chunks = store.chunks_at(loc.rel_path, loc.line)
    if not chunks:
        return None
    named = [c for c in chunks if c.qualname == loc.qualname]
    chunk = named[0] if named else chunks[0]
    value = next(
        (b for b in store.bindings_at(loc.rel_path, loc.line) if b.kind in (BindingKind.VALUE, BindingKind.ALIAS)), None
    )
    if value is not None and chunk.end_line - chunk.start_line > _BIG_CHUNK_LINES:
        return slice_chunk(chunk, loc.line, value.end_line, f"{value.scope}.{value.name}")
    return chunk


def slice_chunk(chunk: Chunk, start: int, end: int, qualname: str) -> Chunk:
    """The lines [start, end] of a chunk, as a chunk of their own (comments just above included)."""
    lines = chunk.text.split("\n")
    i = start - chunk.start_line
    while i > 0 and lines[i - 1].strip().startswith("#"):
        i -= 1
    j = min(end - chunk.start_line, len(lines) - 1)
    return replace(
        chunk,
        start_line=chunk.start_line + i,
        end_line=chunk.start_line + j,
        qualname=qualname,
        name=qualname.rpartition(".")[2],
        signature="",
        docstring="",
        text="\n".join(lines[i : j + 1]),
        part=ChunkPart.SLICE,
        part_line=start,
    )


def fit(chunk: Chunk, max_tokens: int) -> Chunk:
    """A chunk cut to its first lines when it alone would not fit; the span says what is kept."""
    if count_tokens(chunk.text) <= max_tokens:
        return chunk
    kept: list[str] = []
    used = 0
    for line in chunk.text.split("\n"):
        if used + len(line) + 1 > max_tokens * 4 - 16:
            break
        kept.append(line)
        used += len(line) + 1
    kept = kept or [chunk.text.split("\n")[0][: max_tokens * 4 - 16]]
    return replace(
        chunk,
        end_line=chunk.start_line + len(kept) - 1,
        text="\n".join(kept),
        # a fitted slice (or site) stays that part: the key of what it was cut from
        part=ChunkPart.FITTED if chunk.part is ChunkPart.WHOLE else chunk.part,
    )


def grounded_chunks(store: SqliteStore, hits: Sequence[TermHit], *, members_of: int = 4) -> list[Chunk]:
    """The chunks declaring what the question's words ground (a value: its own lines), then the
    methods of the first `members_of` classes among them: a class described in words is read
    through its members."""
    out: list[Chunk] = []
    seen: set[object] = set()
    classes: list[Chunk] = []
    for h in hits:
        chunk = declaration_chunk(store, Location(rel_path=h.rel_path, line=h.line, qualname=h.qualname))
        if chunk is not None and chunk.key not in seen:
            seen.add(chunk.key)
            out.append(chunk)
            if chunk.kind is ChunkKind.CLASS and len(classes) < members_of:
                classes.append(chunk)
    for cls in classes:
        for c in store.chunks_of_file(cls.rel_path):
            if c.qualname.startswith(cls.qualname + ".") and c.key not in seen:
                seen.add(c.key)
                out.append(c)
    return out
