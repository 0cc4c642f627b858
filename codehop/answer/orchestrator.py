"""The one-hop orchestrator (DESIGN.md's loop); engines arrive as arguments.

retrieve -> generate -> while references_unresolved and loops < max_loops:
resolve each pending reference (ladder), fetch its declaration, repack,
regenerate. Terminal states: complete, give_up_partial (with the bound that
stopped it). May import: records, protocols, retrieval, resolve, store, stdlib.

A query reads inside one snapshot and never writes there: what it leaves behind (counters,
loop-time landings) is written once, after the snapshot, by `SqliteStore.record_query`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from codehop.answer.retrieval import pack
from codehop.kernel.protocols import Generator, ResolverLadder, Store
from codehop.kernel.records import (
    Answer,
    Completeness,
    ContextItem,
    Generation,
    Hop,
    PendingReference,
    Question,
    Resolution,
    ResolvedRef,
    RungFailure,
    State,
    Stats,
    StepNote,
    StopReason,
    Timings,
    Via,
)
from codehop.kernel.tokens import count_tokens
from codehop.navigation.excerpt import declaration_chunk, fit
from codehop.reading.intent import read_question

Retrieve = Callable[[Question], list[ContextItem]]
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
        store: Store,
        retrieve: Retrieve,
        generator: Generator,
        ladder: ResolverLadder,
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
        landed: list[tuple[PendingReference, Resolution]] = []
        with self.store.snapshot():
            self.ladder.table.check()  # the in-memory symbol table follows the same index version
            answer = self._ask(question, limits, landed)
        # the query's one write, after its snapshot ended: its counters and loop-time landings
        log = self.ladder.log(landed)
        self.store.record_query(replace(log, counters=(("queries", 1), *log.counters)))
        if asked > MAX_QUESTION_CHARS:
            note = f"\n\n(codehop: the question was cut to its first {MAX_QUESTION_CHARS:,} of {asked:,} characters.)"
            answer = replace(answer, answer=answer.answer + note)
        return answer

    def _ask(self, question: str, limits: Limits, landed: list[tuple[PendingReference, Resolution]]) -> Answer:
        t_start = time.perf_counter()
        if self.navigate is not None:
            nav = self.navigate(question, limits.budget_tokens)
            if nav is not None:
                total_ms = round((time.perf_counter() - t_start) * 1000, 2)
                return replace(nav, stats=replace(nav.stats, total_ms=total_ms))
        clock = _Clock()
        t0 = time.perf_counter()
        asked = read_question(question)  # read once: retrieval and every generation share it
        ranked = self.retrieve(asked)
        clock.retrieve_ms += (time.perf_counter() - t0) * 1000
        context = pack(ranked, limits.budget_tokens)
        resolved: dict[str, Resolution] = {}
        gen = self._generate(asked, context, resolved, clock)
        hops: list[Hop] = []
        required: list[ContextItem] = []
        fetches = 0
        loops = 0
        stopped_by = StopReason.NONE
        while gen.completeness is Completeness.REFERENCES_UNRESOLVED:
            if time.perf_counter() - t_start > limits.time_budget_s:
                stopped_by = StopReason.TIME_BUDGET
                break
            if loops >= limits.max_loops:
                stopped_by = StopReason.MAX_LOOPS
                break
            loops += 1
            t0 = time.perf_counter()
            done: list[ResolvedRef] = []
            open_refs: list[PendingReference] = []
            fetched: list[ContextItem] = []
            pointers: list[ContextItem] = []  # where each landed reference was read: the chain's first end
            failures: list[RungFailure] = []
            for ref in gen.pending:
                if time.perf_counter() - t_start > limits.time_budget_s:  # a slow ladder must not overrun it
                    open_refs.append(ref)
                    stopped_by = StopReason.TIME_BUDGET
                    continue
                if fetches >= limits.max_fetches:
                    open_refs.append(ref)
                    stopped_by = StopReason.MAX_FETCHES
                    continue
                result = self.ladder.resolve(ref)
                failures.extend(replace(f, ref_target=ref.ref_target) for f in result.failures)
                res = result.resolution
                if res is None:
                    open_refs.append(ref)
                    continue
                done.append(ResolvedRef(ref=ref, resolution=res))
                landed.append((ref, res))
                resolved[ref.ref_target] = res
                if res.is_external:
                    continue
                fetches += 1
                fetched.extend(self.fetch(res, loops, limits.budget_tokens))
                pointers.extend(_holding(context, ref))
            clock.resolve_ms += (time.perf_counter() - t0) * 1000
            hops.append(Hop(loop=loops, resolved=tuple(done), unresolved=tuple(open_refs), failures=tuple(failures)))
            have = {c.chunk.key for c in context}
            new = [f for f in fetched if f.chunk.key not in have]
            # the declarations fetched, then the chunks their references were read in (the answer
            # cites both ends of each chain; a pointer packed out by a fetched declaration would
            # leave the next reading without the code it named)
            required = _dedup(required + fetched + pointers)
            if not new:
                stopped_by = stopped_by or StopReason.NO_PROGRESS
                gen = self._generate(asked, context, resolved, clock)
                break
            context = pack(ranked, limits.budget_tokens, required=required)
            gen = self._generate(asked, context, resolved, clock)
        state = State.COMPLETE if gen.completeness is Completeness.COMPLETE else State.GIVE_UP_PARTIAL
        if state is State.COMPLETE:
            stopped_by = StopReason.NONE
        elif not stopped_by:
            stopped_by = StopReason.PARTIAL if gen.completeness is Completeness.PARTIAL else StopReason.MAX_LOOPS
        stats = Stats(
            loops=loops,
            context_tokens=sum(c.tokens for c in context),
            total_ms=round((time.perf_counter() - t_start) * 1000, 2),
            timings=Timings(
                retrieve_ms=round(clock.retrieve_ms, 2),
                resolve_ms=round(clock.resolve_ms, 2),
                generate_ms=round(clock.generate_ms, 2),
            ),
        )
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
        self, question: Question, context: Sequence[ContextItem], resolved: dict[str, Resolution], clock: _Clock
    ) -> Generation:
        t0 = time.perf_counter()
        gen = self.generator.generate(question, context, resolved)
        clock.generate_ms += (time.perf_counter() - t0) * 1000
        return gen

    def fetch(self, res: Resolution, hop: int, budget_tokens: int) -> list[ContextItem]:
        """The declaration's chunk (or just its lines, for a value in a big block), fitted to budget."""
        chunk = declaration_chunk(self.store, res.target)
        if chunk is None:
            return []
        out = [(chunk, max(64, budget_tokens // 2))]
        # the assignments the chain went through (`state_cls = BlockState` in a base class): the
        # answer to "what is X.attr" is where it is assigned as much as what it names
        for step in res.steps:
            if step.note is StepNote.ALIAS and not step.from_loc.rel_path.startswith("/"):
                assigned = declaration_chunk(self.store, step.from_loc)
                if assigned is not None and assigned.key != chunk.key:
                    out.append((assigned, max(32, budget_tokens // 8)))
        items = []
        for whole, cap in out:
            kept = fit(whole, cap)
            items.append(
                ContextItem(
                    chunk=kept,
                    hop=hop,
                    via=Via.RESOLVED,
                    provenance=str(res.provenance),
                    tokens=count_tokens(kept.text),
                    truncated=kept is not whole,
                )
            )
        return items


@dataclass(slots=True)
class _Clock:
    """Milliseconds per stage while one query runs (the answer carries them as `Timings`)."""

    retrieve_ms: float = 0.0
    resolve_ms: float = 0.0
    generate_ms: float = 0.0


def _holding(context: Sequence[ContextItem], ref: PendingReference) -> list[ContextItem]:
    """The context item whose span holds the reference's site (the innermost when nested)."""
    spans = [
        c
        for c in context
        if c.chunk.rel_path == ref.origin_path and c.chunk.start_line <= ref.origin_line <= c.chunk.end_line
    ]
    return sorted(spans, key=lambda c: c.chunk.end_line - c.chunk.start_line)[:1]


def _dedup(items: list[ContextItem]) -> list[ContextItem]:
    seen: set[tuple[int, str, str, int]] = set()
    out = []
    for it in items:
        if it.chunk.key not in seen:
            seen.add(it.chunk.key)
            out.append(it)
    return out
