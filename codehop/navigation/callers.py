"""Uses through objects of unknown type, inferred at each site ("what calls `Retry.is_retry`?" when
the only call is `retries.is_retry(...)` on a parameter).

The index places `obj.member` only when it knows `obj`'s class. For a member of a class, every
attribute access spelt `.member` in the repository is a candidate (found through the full-text
index, then read from the file's tokens: never a comment or a string), and an inference rung of the
resolver ladder (Jedi, asked at the site as an editor would) says where each one lands. A site that
lands on the declaration is a use; one that lands elsewhere is a namesake; one where inference
gives no answer stays a doubt, named, and so does every candidate past the bound.

May import: kernel, index (store), stdlib.
"""

from __future__ import annotations

import bisect
import keyword
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from codehop.index.store.sqlite import SqliteStore
from codehop.kernel.records import Location, PendingReference, RefType, Resolution

MAX_SITES = 40  # candidate sites asked per question
DEADLINE_S = 20.0  # and at most this long, all of them together
MAX_CHUNKS = 400  # chunks read from the full-text index for candidates

# asks an inference rung where the name at a site lands (None: no answer)
Infer = Callable[[PendingReference], Resolution | None]
# the (line, col, text, kind) tokens of a file, kind 1 for a name and 0 for an operator
Tokens = Callable[[str], Sequence[tuple[int, int, str, int]]]


@dataclass(frozen=True, slots=True)
class Candidate:
    """An attribute access `.name` in a file: where the inference rung is asked."""

    rel_path: str
    line: int
    col: int  # 0-based column of the name
    name: str
    called: bool  # followed by `(`


@dataclass(frozen=True, slots=True)
class Inferred:
    uses: tuple[Candidate, ...]  # landed on the declaration
    unknown: tuple[Candidate, ...]  # inference gave no answer
    unchecked: tuple[Candidate, ...]  # past the bound (sites or time)


def _span(toks: Sequence[tuple[int, int, str, int]], first: int, last: int) -> range:
    """The indices of the tokens on lines first..last (tokens come in source order)."""
    return range(bisect.bisect_left(toks, (first,)), bisect.bisect_left(toks, (last + 1,)))


def _attributes(
    rel_path: str,
    toks: Sequence[tuple[int, int, str, int]],
    keep: Callable[[int, str], bool],
    span: range | None = None,
) -> list[Candidate]:
    """Each `.name` of the file's tokens (a name right after a `.` operator) that `keep(line, name)`
    takes, among the tokens of `span` (all of them by default)."""
    out: list[Candidate] = []
    for i in span if span is not None else range(len(toks)):
        if i < 1:
            continue
        line, col, text, kind = toks[i]
        if kind != 1 or toks[i - 1][2] != "." or toks[i - 1][3] != 0 or not keep(line, text):
            continue
        called = i + 1 < len(toks) and toks[i + 1][2] == "(" and toks[i + 1][3] == 0
        out.append(Candidate(rel_path=rel_path, line=line, col=col, name=text, called=called))
    return out


def candidates(store: SqliteStore, tokens: Tokens, name: str) -> list[Candidate]:
    """Every `.name` attribute access in the indexed files whose chunks mention the name."""
    parts = [p for p in name.lower().split("_") if p]
    if not parts:
        return []
    phrase = '"' + " ".join(parts) + '"'
    files = sorted({c.rel_path for c, _ in store.search(phrase, MAX_CHUNKS)})
    return [c for rel_path in files for c in _attributes(rel_path, tokens(rel_path), lambda _l, text: text == name)]


def attribute_calls(rel_path: str, toks: Sequence[tuple[int, int, str, int]], first: int, last: int) -> list[Candidate]:
    """Each `.name(` call in lines first..last of a file's tokens."""
    span = _span(toks, first, last)
    return [c for c in _attributes(rel_path, toks, lambda line, _t: first <= line <= last, span) if c.called]


def call_sites(rel_path: str, toks: Sequence[tuple[int, int, str, int]], first: int, last: int) -> list[Candidate]:
    """Each call in lines first..last of a file's tokens, at the name called: `f(`, `x.m(`,
    `super().m(`, `a[k].m(`, `f().m(` (never a `def`/`class` name, a keyword or a call of a call)."""
    out: list[Candidate] = []
    for i in _span(toks, first, last):
        if i + 1 >= len(toks):
            break
        line, col, text, kind = toks[i]
        if not first <= line <= last or kind != 1 or toks[i + 1][2] != "(" or toks[i + 1][3] != 0:
            continue
        before = toks[i - 1][2] if i else ""
        if before in ("def", "class") or keyword.iskeyword(text):
            continue
        out.append(Candidate(rel_path=rel_path, line=line, col=col, name=text, called=True))
    return out


def attribute_reads(rel_path: str, toks: Sequence[tuple[int, int, str, int]], first: int, last: int) -> list[Candidate]:
    """Each `.name` in lines first..last that is not called (a property's getter runs there)."""
    span = _span(toks, first, last)
    return [c for c in _attributes(rel_path, toks, lambda line, _t: first <= line <= last, span) if not c.called]


def land(
    sites: Sequence[Candidate], infer: Infer, *, max_sites: int = MAX_SITES, deadline_s: float = DEADLINE_S
) -> list[tuple[Candidate, Resolution | None]]:
    """Where the inference rung says each site's name lands (None: no answer), for the sites asked
    within the bound (the first `max_sites`, and no new one after `deadline_s`)."""
    out: list[tuple[Candidate, Resolution | None]] = []
    start = time.monotonic()
    for site in sites[:max_sites]:
        if time.monotonic() - start > deadline_s:
            break
        ref = PendingReference(
            anchor_text=site.name,
            ref_type=RefType.CALL if site.called else RefType.OTHER,
            # unknown: only the site may answer (a probe of a named target would land on it)
            ref_target=f"?{site.name}",
            origin_path=site.rel_path,
            origin_line=site.line,
            origin_col=site.col,
        )
        try:
            res = infer(ref)
        except Exception:  # a rung's failure is a doubt about this site, never the question's end
            res = None
        out.append((site, res))
    return out


def infer_uses(target: Location, found: Sequence[Candidate], infer: Infer, *, known: set[tuple[str, int]]) -> Inferred:
    """Ask where each candidate lands, skipping the sites the index already placed (`known`): a
    landing on the target is a use, elsewhere a namesake (dropped), no answer a doubt."""
    asked = [c for c in found if (c.rel_path, c.line) not in known]
    landed = land(asked, infer)
    uses = [
        c
        for c, res in landed
        if res is not None
        and not res.is_external
        and (
            res.target.qualname == target.qualname
            or (res.target.rel_path, res.target.line) == (target.rel_path, target.line)
        )
    ]
    return Inferred(
        uses=tuple(uses),
        unknown=tuple(c for c, res in landed if res is None),
        unchecked=tuple(asked[len(landed) :]),
    )
