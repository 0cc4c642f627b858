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

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from codehop.index.store import SqliteStore
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
    rel_path: str
    line: int
    col: int  # 0-based column of the member's name
    called: bool  # followed by `(`


@dataclass(frozen=True, slots=True)
class Inferred:
    uses: tuple[Candidate, ...]  # landed on the declaration
    unknown: tuple[Candidate, ...]  # inference gave no answer
    unchecked: tuple[Candidate, ...]  # past the bound (sites or time)
    namesakes: int  # landed on another declaration of the same name


def candidates(store: SqliteStore, tokens: Tokens, name: str) -> list[Candidate]:
    """Every `.name` attribute access in the indexed files whose chunks mention the name."""
    parts = [p for p in name.lower().split("_") if p]
    if not parts:
        return []
    phrase = '"' + " ".join(parts) + '"'
    files = sorted({c.rel_path for c, _ in store.search(phrase, MAX_CHUNKS)})
    out: list[Candidate] = []
    for rel_path in files:
        toks = tokens(rel_path)
        for i, (line, col, text, kind) in enumerate(toks):
            if kind != 1 or text != name or i == 0 or toks[i - 1][2] != "." or toks[i - 1][3] != 0:
                continue
            called = i + 1 < len(toks) and toks[i + 1][2] == "(" and toks[i + 1][3] == 0
            out.append(Candidate(rel_path=rel_path, line=line, col=col, called=called))
    return out


def infer_uses(
    target: Location,
    found: Sequence[Candidate],
    infer: Infer,
    *,
    known: set[tuple[str, int]],
    max_sites: int = MAX_SITES,
    deadline_s: float = DEADLINE_S,
) -> Inferred:
    """Ask where each candidate lands, skipping the sites the index already placed (`known`)."""
    uses: list[Candidate] = []
    unknown: list[Candidate] = []
    unchecked: list[Candidate] = []
    namesakes = 0
    name = target.qualname.rpartition(".")[2]
    start = time.monotonic()
    asked = 0
    for cand in found:
        if (cand.rel_path, cand.line) in known:
            continue
        if asked >= max_sites or time.monotonic() - start > deadline_s:
            unchecked.append(cand)
            continue
        asked += 1
        ref = PendingReference(
            anchor_text=name,
            ref_type=RefType.OTHER,
            ref_target=f"?{name}",  # unknown: only the site may answer (a probe of the target would land on it)
            origin_path=cand.rel_path,
            origin_line=cand.line,
            origin_col=cand.col,
        )
        try:
            res = infer(ref)
        except Exception:  # a rung's failure is a doubt about this site, never the question's end
            res = None
        if res is None:
            unknown.append(cand)
        elif not res.is_external and (
            res.target.qualname == target.qualname
            or (res.target.rel_path, res.target.line) == (target.rel_path, target.line)
        ):
            uses.append(cand)
        else:
            namesakes += 1
    return Inferred(uses=tuple(uses), unknown=tuple(unknown), unchecked=tuple(unchecked), namesakes=namesakes)


def attribute_calls(toks: Sequence[tuple[int, int, str, int]], first: int, last: int) -> list[tuple[int, int, str]]:
    """(line, col, name) of each `.name(` call in lines first..last of a file's tokens."""
    out: list[tuple[int, int, str]] = []
    for i in range(1, len(toks) - 1):
        line, col, text, kind = toks[i]
        if not first <= line <= last or kind != 1:
            continue
        if toks[i - 1][2] == "." and toks[i - 1][3] == 0 and toks[i + 1][2] == "(" and toks[i + 1][3] == 0:
            out.append((line, col, text))
    return out


def land(
    rel_path: str, sites: Sequence[tuple[int, int, str]], infer: Infer, *, max_sites: int = MAX_SITES
) -> list[tuple[int, int, str, Resolution | None]]:
    """Where the inference rung says each call site's name lands (None: no answer), bounded."""
    out: list[tuple[int, int, str, Resolution | None]] = []
    start = time.monotonic()
    for line, col, name in sites[:max_sites]:
        if time.monotonic() - start > DEADLINE_S:
            break
        ref = PendingReference(
            anchor_text=name,
            ref_type=RefType.CALL,
            ref_target=f"?{name}",
            origin_path=rel_path,
            origin_line=line,
            origin_col=col,
        )
        try:
            res = infer(ref)
        except Exception:  # a rung's failure leaves the call untraced, never the question's end
            res = None
        out.append((line, col, name, res))
    return out
