"""Retrieval: BM25 over chunks (SQLite FTS5), hidden dependencies from the graph,
packing into a token budget. May import: records, store, chunking (identifier
splitting), stdlib; the graph arrives as a `Neighbours` callable.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence

from codehop.index.store import SqliteStore
from codehop.kernel.records import Chunk, ContextItem, Via
from codehop.kernel.words import split_identifiers

STOP = frozenset(
    """a an and are as at be by can do does did for from how i if in into is it its me my of on or so
    that the their them then there these this to was what when where which who why will with you your
    show tell give has have had any some actually really much many i'm im""".split()
)
_PRUNE_FROM_CHUNKS = 2000
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

# (seed qualnames with weights) -> [(qualname, score, why)]
Neighbours = Callable[[dict[str, float], int], list[tuple[str, float, str]]]


def count_tokens(text: str) -> int:
    """The one token count used everywhere (about four characters a token)."""
    return max(1, math.ceil(len(text) / 4))


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
) -> list[ContextItem]:
    """BM25 hits in rank order; after each of the top hits, its best graph neighbours.

    A neighbour is worth its place when the question names it exactly: a
    member declared in a base class, a re-exported function, what an alias
    points at -- code that BM25 ranks below the pointer that mentions it.
    """
    hits = bm25(store, text, k)
    items = [
        ContextItem(chunk=c, hop=0, via=Via.BM25, provenance="bm25", score=s, tokens=count_tokens(c.text))
        for c, s in hits
    ]
    if graph is None or not hits:
        return items
    terms = set(query_terms(text))
    seen = {c.key for c, _ in hits[:seeds_n]}
    out: list[ContextItem] = []
    for rank, item in enumerate(items):
        out.append(item)
        if rank >= seeds_n:
            continue
        picked: list[tuple[float, ContextItem]] = []
        for qual, score, why in graph({item.chunk.qualname: 1.0}, graph_k):
            name = qual.rpartition(".")[2].lower()
            named = name in terms
            if not named:
                continue
            for c in store.chunks_named(qual)[:1]:
                if c.key in seen:
                    continue
                picked.append(
                    (
                        (2.0 if named else 1.0) * score,
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
    out: list[ContextItem] = []
    seen: set[object] = set()
    used = 0
    for item in list(required) + list(items):
        c = item.chunk
        keys = (c.key, (c.rel_path, c.start_line))  # a fitted copy starts where its chunk does
        if any(k in seen for k in keys):
            continue
        if used + item.tokens > budget_tokens:
            continue
        seen.update(keys)
        out.append(item)
        used += item.tokens
    return out
