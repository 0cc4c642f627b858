"""Retrieval: BM25 over chunks (SQLite FTS5), hidden dependencies from the graph,
packing into a token budget. May import: records, store, words (identifier
splitting), question_words (the stop words), stdlib; the graph arrives as a `Neighbours` callable.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from codehop.index.store.sqlite import SqliteStore
from codehop.kernel.records import Chunk, ContextItem, Via
from codehop.kernel.tokens import count_tokens
from codehop.kernel.words import split_identifiers
from codehop.reading.question_words import STOP

_PRUNE_FROM_CHUNKS = 2000
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

# (seed qualnames with weights, how many, only those whose last name is one of these) -> [(qualname, score, why)]
Neighbours = Callable[[dict[str, float], int, frozenset[str] | None], list[tuple[str, float, str]]]


def query_terms(text: str) -> list[str]:
    terms: list[str] = []
    for word in split_identifiers(" ".join(_WORD.findall(text))).split():
        if word not in STOP and len(word) > 1 and word not in terms:
            terms.append(word)
    return terms


def bm25(store: SqliteStore, text: str, k: int = 30) -> list[tuple[Chunk, float]]:
    terms = query_terms(text)
    if not terms:
        return []
    n, docs = store.term_docs(terms)
    # in a large index, a term in most chunks (the package's own name, in every path) carries
    # no BM25 weight but makes the OR query visit every row: leave it out
    common = {t for t in terms if docs.get(t, 0) > n // 2} if n > _PRUNE_FROM_CHUNKS else set()
    if len(common) < len(terms):
        terms = [t for t in terms if t not in common]
    match = " OR ".join(f'"{t}"' for t in terms[:32])
    return store.search(match, k)


def retrieve(
    store: SqliteStore,
    text: str,
    *,
    k: int = 30,
    graph: Neighbours | None = None,
    graph_k: int = 200,
    seeds_n: int = 5,
    per_seed: int = 1,
    grounded: Sequence[Chunk] = (),
) -> list[ContextItem]:
    """BM25 hits in rank order; after each of the top hits, its best graph neighbours.

    A neighbour is worth its place when the question names it exactly: a
    member declared in a base class, a re-exported function, what an alias
    points at -- code that BM25 ranks below the pointer that mentions it.

    `grounded`: the declarations the question's words describe (reading.grounding), best
    first; they lead, each followed by the BM25 hit of its rank.
    """
    hits = bm25(store, text, k)
    items = [
        ContextItem(chunk=c, hop=0, via=Via.BM25, provenance="bm25", score=s, tokens=count_tokens(c.text))
        for c, s in hits
    ]
    if grounded:
        items = _with_grounded(items, grounded)
        hits = [(it.chunk, it.score) for it in items]
    if graph is None or not hits:
        return items
    terms = frozenset(query_terms(text))
    seen = {c.key for c, _ in hits[:seeds_n]}
    out: list[ContextItem] = []
    for rank, item in enumerate(items):
        out.append(item)
        if rank >= seeds_n:
            continue
        picked: list[tuple[float, ContextItem]] = []
        for qual, score, why in graph({item.chunk.qualname: 1.0}, graph_k, terms):  # only what the question names
            for c in store.chunks_named(qual)[:1]:
                if c.key in seen:
                    continue
                picked.append(
                    (
                        score,
                        ContextItem(
                            chunk=c, hop=0, via=Via.GRAPH, provenance=why, score=score, tokens=count_tokens(c.text)
                        ),
                    )
                )
        picked.sort(key=lambda p: -p[0])
        for _, g in picked[:per_seed]:
            seen.add(g.chunk.key)
            out.append(g)
    ids = {c.chunk.key for c in out}
    return out + [i for i in items if i.chunk.key not in ids]


def pack(items: Iterable[ContextItem], budget_tokens: int, required: Sequence[ContextItem] = ()) -> list[ContextItem]:
    """Required items first (never pruned unless alone over budget), then the rest greedily."""
    return pack_plan(((it, budget_tokens) for it in (*required, *items)), budget_tokens)[0]


def _chunk_keys(item: ContextItem) -> set[object]:
    c = item.chunk
    return {c.key, (c.rel_path, c.start_line)}  # a fitted copy starts where its chunk does


def pack_plan(
    plan: Iterable[tuple[ContextItem, int]],
    budget_tokens: int,
    *,
    keys: Callable[[ContextItem], set[object]] = _chunk_keys,
    skip: Callable[[list[ContextItem], ContextItem], bool] | None = None,
) -> tuple[list[ContextItem], list[ContextItem]]:
    """The one packer: each (item, cap) in order is kept when it is new (none of its `keys` kept
    already, and not `skip`ped given what is kept) and the tokens used stay within both the
    budget and its cap. Returns (kept, the new items that did not fit)."""
    kept: list[ContextItem] = []
    over: list[ContextItem] = []
    have: set[object] = set()
    used = 0
    for item, cap in plan:
        k = keys(item)
        if k & have or (skip is not None and skip(kept, item)):
            continue
        if used + item.tokens <= min(cap, budget_tokens):
            kept.append(item)
            have |= k
            used += item.tokens
        else:
            over.append(item)
    return kept, over


def _with_grounded(items: list[ContextItem], grounded: Sequence[Chunk]) -> list[ContextItem]:
    """The grounded declarations and the BM25 hits, alternating (a chunk once)."""
    lead = [
        ContextItem(chunk=c, hop=0, via=Via.BM25, provenance="terms", score=0.0, tokens=count_tokens(c.text))
        for c in grounded
    ]
    out: list[ContextItem] = []
    seen: set[object] = set()
    for i in range(max(len(lead), len(items))):
        for it in (lead[i] if i < len(lead) else None, items[i] if i < len(items) else None):
            if it is not None and it.chunk.key not in seen:
                seen.add(it.chunk.key)
                out.append(it)
    return out
