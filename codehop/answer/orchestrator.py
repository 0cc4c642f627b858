"""The one-hop orchestrator (DESIGN.md's loop); engines arrive as arguments.

retrieve -> generate -> while references_unresolved and loops < max_loops:
resolve each pending reference (ladder), fetch its declaration, repack,
regenerate. Terminal states: complete, give_up_partial (with the bound that
stopped it). May import: records, protocols, retrieval, resolve, store, stdlib.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from codehop.answer.retrieval import count_tokens, pack
from codehop.index.store import SqliteStore
from codehop.kernel.protocols import Generator
from codehop.kernel.records import (
    Answer,
    BindingKind,
    Chunk,
    Completeness,
    ContextItem,
    Generation,
    Hop,
    Location,
    PendingReference,
    Resolution,
    ResolvedRef,
    State,
    Via,
)
from codehop.resolve.ladder import Ladder

Retrieve = Callable[[str], list[ContextItem]]
_BIG_CHUNK_LINES = 40
# Every front-end asks through Navigator.ask: a longer question is cut here, and the answer says so.
MAX_QUESTION_CHARS = 4000


@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    max_loops: int = 1
    budget_tokens: int = 2000
    max_fetches: int = 8  # declarations fetched per query, across hops
    time_budget_s: float = 30.0


# answers a navigation question ("what calls X") from the index, or None for any other question
Navigate = Callable[[str, int], "Answer | None"]


class Navigator:
    def __init__(
        self,
        store: SqliteStore,
        retrieve: Retrieve,
        generator: Generator,
        ladder: Ladder,
        navigate: Navigate | None = None,
    ) -> None:
        self.store = store
        self.retrieve = retrieve
        self.generator = generator
        self.ladder = ladder
        self.navigate = navigate

    def ask(self, question: str, limits: Limits = Limits()) -> Answer:
        asked = len(question)
        if asked > MAX_QUESTION_CHARS:
            question = question[:MAX_QUESTION_CHARS]
        # one read transaction for the whole query: an index update committed meanwhile cannot mix in
        feedback: list[tuple[PendingReference, Resolution]] = []
        with self.store.snapshot():
            self.ladder.table.check()  # the in-memory symbol table follows the same index version
            answer = self._ask(question, limits, feedback)
        for ref, res in feedback:  # loop-time landings fill xref rows, after the snapshot ended
            self.ladder.feed_back(ref, res)
        if asked > MAX_QUESTION_CHARS:
            note = f"\n\n(codehop: the question was cut to its first {MAX_QUESTION_CHARS:,} of {asked:,} characters.)"
            answer = replace(answer, answer=answer.answer + note)
        return answer

    def _ask(self, question: str, limits: Limits, feedback: list[tuple[PendingReference, Resolution]]) -> Answer:
        t_start = time.perf_counter()
        if self.navigate is not None:
            nav = self.navigate(question, limits.budget_tokens)
            if nav is not None:
                return replace(nav, stats={**nav.stats, "total_ms": round((time.perf_counter() - t_start) * 1000, 2)})
        stats = {"retrieve_ms": 0.0, "resolve_ms": 0.0, "generate_ms": 0.0}
        t0 = time.perf_counter()
        ranked = self.retrieve(question)
        stats["retrieve_ms"] += (time.perf_counter() - t0) * 1000
        context = pack(ranked, limits.budget_tokens)
        resolved: dict[str, Resolution] = {}
        gen = self._generate(question, context, resolved, stats)
        hops: list[Hop] = []
        required: list[ContextItem] = []
        fetches = 0
        loops = 0
        stopped_by = ""
        while gen.completeness is Completeness.REFERENCES_UNRESOLVED:
            if time.perf_counter() - t_start > limits.time_budget_s:
                stopped_by = "time_budget"
                break
            if loops >= limits.max_loops:
                stopped_by = "max_loops"
                break
            loops += 1
            t0 = time.perf_counter()
            done: list[ResolvedRef] = []
            open_refs: list[PendingReference] = []
            fetched: list[ContextItem] = []
            failures: list[tuple[str, str, str]] = []
            for ref in gen.pending:
                if time.perf_counter() - t_start > limits.time_budget_s:  # a slow ladder must not overrun it
                    open_refs.append(ref)
                    stopped_by = "time_budget"
                    continue
                if fetches >= limits.max_fetches:
                    open_refs.append(ref)
                    stopped_by = "max_fetches"
                    continue
                result = self.ladder.resolve(ref)
                failures.extend((ref.ref_target, rung, why) for rung, why in result.failures)
                res = result.resolution
                if res is None:
                    open_refs.append(ref)
                    continue
                done.append(ResolvedRef(ref=ref, resolution=res))
                feedback.append((ref, res))
                resolved[ref.ref_target] = res
                if res.is_external:
                    continue
                fetches += 1
                fetched.extend(self.fetch(res, loops, limits.budget_tokens))
            stats["resolve_ms"] += (time.perf_counter() - t0) * 1000
            hops.append(Hop(loop=loops, resolved=tuple(done), unresolved=tuple(open_refs), failures=tuple(failures)))
            have = {c.chunk.chunk_id for c in context}
            new = [f for f in fetched if f.chunk.chunk_id not in have]
            required = _dedup(required + fetched)
            if not new:
                stopped_by = stopped_by or "no_progress"
                gen = self._generate(question, context, resolved, stats)
                break
            context = pack(ranked, limits.budget_tokens, required=required)
            gen = self._generate(question, context, resolved, stats)
        state = State.COMPLETE if gen.completeness is Completeness.COMPLETE else State.GIVE_UP_PARTIAL
        if state is State.COMPLETE:
            stopped_by = ""
        elif not stopped_by:
            stopped_by = "partial" if gen.completeness is Completeness.PARTIAL else "max_loops"
        stats["loops"] = loops
        stats["context_tokens"] = sum(c.tokens for c in context)
        stats["total_ms"] = (time.perf_counter() - t_start) * 1000
        for k in ("retrieve_ms", "resolve_ms", "generate_ms", "total_ms"):
            stats[k] = round(stats[k], 2)
        try:
            self.store.bump("queries")
        except Exception:  # counting is best effort under a concurrent writer
            pass
        return Answer(
            question=question,
            answer=gen.answer,
            completeness=gen.completeness,
            state=state,
            pending=gen.pending if state is not State.COMPLETE else (),
            context=tuple(context),
            hops=tuple(hops),
            stats=stats,
            stopped_by=stopped_by,
        )

    def _generate(
        self, question: str, context: Sequence[ContextItem], resolved: dict[str, Resolution], stats: dict[str, float]
    ) -> Generation:
        t0 = time.perf_counter()
        gen = self.generator.generate(question, context, resolved)
        stats["generate_ms"] += (time.perf_counter() - t0) * 1000
        return gen

    def fetch(self, res: Resolution, hop: int, budget_tokens: int) -> list[ContextItem]:
        """The declaration's chunk (or just its lines, for a value in a big block), fitted to budget."""
        chunk = declaration_chunk(self.store, res.target)
        if chunk is None:
            return []
        kept = fit(chunk, max(64, budget_tokens // 2))
        return [
            ContextItem(
                chunk=kept,
                hop=hop,
                via=Via.RESOLVED,
                provenance=str(res.provenance),
                tokens=count_tokens(kept.text),
                truncated=kept is not chunk,
            )
        ]


def declaration_chunk(store: SqliteStore, loc: Location) -> Chunk | None:
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
    text = "\n".join(lines[i : j + 1])
    return Chunk(
        rel_path=chunk.rel_path,
        start_line=chunk.start_line + i,
        end_line=chunk.start_line + j,
        kind=chunk.kind,
        qualname=qualname,
        name=qualname.rpartition(".")[2],
        signature="",
        docstring="",
        text=text,
        identifiers=chunk.identifiers,
        chunk_id=-(chunk.chunk_id * 100_000 + start),
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
    return Chunk(
        rel_path=chunk.rel_path,
        start_line=chunk.start_line,
        end_line=chunk.start_line + len(kept) - 1,
        kind=chunk.kind,
        qualname=chunk.qualname,
        name=chunk.name,
        signature=chunk.signature,
        docstring=chunk.docstring,
        text="\n".join(kept),
        identifiers=chunk.identifiers,
        chunk_id=chunk.chunk_id if chunk.chunk_id < 0 else -chunk.chunk_id,
    )


def _dedup(items: list[ContextItem]) -> list[ContextItem]:
    seen: set[int] = set()
    out = []
    for it in items:
        if it.chunk.chunk_id not in seen:
            seen.add(it.chunk.chunk_id)
            out.append(it)
    return out
