"""The repository map: the most central declarations as signatures, grouped by file, fitted to a budget.

For an agent starting cold (Aider's repo map, from our graph): PageRank over
the index's resolved edges (rank flows from a user to what it uses:
calls, instantiation, inheritance, overrides, re-exports), personalized to a
`focus` (a path or a symbol) when one is given. The map lists declarations in
rank order until the budget is spent; each file is printed once, its
declarations in source order, a method under its class's header line. Every
token printed is counted, the header included.

May import: store, symbols, records, retrieval (the token count), graphs (rank), errors, stdlib.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from codehop.kernel.errors import UsageError
from codehop.kernel.tokens import count_tokens

if TYPE_CHECKING:
    from codehop.index.store.sqlite import SqliteStore
    from codehop.index.symbols import SymbolTable


@dataclass(frozen=True, slots=True, kw_only=True)
class Entry:
    qualname: str
    rel_path: str
    line: int
    kind: str  # class | function | method
    signature: str
    rank: float
    depth: int  # 0 top level, 1 a member of a class


@dataclass(frozen=True, slots=True, kw_only=True)
class RepoMap:
    entries: tuple[Entry, ...]  # what was printed, in print order
    text: str
    tokens: int
    budget_tokens: int
    focus: str
    left_out: int  # ranked declarations that did not fit

    def to_dict(self) -> dict[str, Any]:
        return {
            "focus": self.focus,
            "budget_tokens": self.budget_tokens,
            "tokens": self.tokens,
            "left_out": self.left_out,
            "text": self.text,
            "entries": [
                {
                    "path": e.rel_path,
                    "line": e.line,
                    "qualname": e.qualname,
                    "kind": e.kind,
                    "signature": e.signature,
                    "rank": round(e.rank, 8),
                }
                for e in self.entries
            ],
        }


def build_map(store: SqliteStore, table: SymbolTable, *, budget_tokens: int = 1000, focus: str = "") -> RepoMap:
    from graphs.rank import central

    # (src, dst, type): the type strings are the EdgeType values (a StrEnum)
    edges = [(e.src, e.dst, e.type) for e in store.resolved_edges()]
    seeds = _focus_seeds(store, table, focus) if focus else None
    if focus and not seeds:
        raise UsageError(f"--focus names nothing in the index: {focus!r} (a repository path or a dotted symbol)")
    rank = central(edges, seeds)
    decls = {
        h.qualname: (h.rel_path, h.start_line, str(h.kind), _signature(str(h.kind), h.qualname, h.signature))
        for h in store.declaration_heads()
    }
    # a class is as central as its members together: a call to `Model.save` says `Model` matters
    score = dict(rank)
    for q, r in rank.items():
        owner = q.rpartition(".")[0]
        if owner in decls and decls[owner][2] == "class" and q in decls:
            score[owner] = score.get(owner, 0.0) + r
    ranked = sorted((q for q in score if q in decls and not _private(q)), key=lambda q: (-score[q], q))
    rank = score
    header = f"# repository map ({'focus: ' + focus if focus else 'most central declarations'})"
    used = count_tokens(header)
    chosen: dict[str, Entry] = {}
    files: set[str] = set()
    left_out = 0
    for q in ranked:
        path, line, kind, sig = decls[q]
        owner = q.rpartition(".")[0]
        cost = count_tokens("    " + _one_line(sig or q))
        extra: list[Entry] = []
        if kind == "method" and owner in decls and owner not in chosen:
            op, ol, ok, osig = decls[owner]
            extra.append(
                Entry(
                    qualname=owner,
                    rel_path=op,
                    line=ol,
                    kind=ok,
                    signature=_one_line(osig or owner),
                    rank=rank.get(owner, 0.0),
                    depth=0,
                )
            )
            cost += count_tokens(_one_line(osig or owner))
        if path not in files:
            cost += count_tokens(f"\n{path}:")
        if used + cost > budget_tokens:
            left_out += 1
            continue
        used += cost
        files.add(path)
        for e in extra:
            chosen[e.qualname] = e
        chosen[q] = Entry(
            qualname=q,
            rel_path=path,
            line=line,
            kind=kind,
            signature=_one_line(sig or q),
            rank=rank[q],
            depth=1 if kind == "method" else 0,
        )
    entries, text = _render(header, list(chosen.values()))
    return RepoMap(
        entries=tuple(entries),
        text=text,
        tokens=count_tokens(text),
        budget_tokens=budget_tokens,
        focus=focus,
        left_out=left_out,
    )


def _render(header: str, chosen: list[Entry]) -> tuple[list[Entry], str]:
    best: dict[str, float] = {}
    for e in chosen:
        best[e.rel_path] = max(best.get(e.rel_path, 0.0), e.rank)
    lines = [header]
    ordered: list[Entry] = []
    for path in sorted(best, key=lambda p: (-best[p], p)):
        lines.append(f"\n{path}:")
        for e in sorted((e for e in chosen if e.rel_path == path), key=lambda e: e.line):
            lines.append(("    " if e.depth else "") + e.signature)
            ordered.append(e)
    return ordered, "\n".join(lines) + "\n"


def _focus_seeds(store: SqliteStore, table: SymbolTable, focus: str) -> dict[str, float]:
    path = focus.strip().lstrip("./")
    under = store.qualnames_under(path)
    if under:
        return dict.fromkeys(under, 1.0)
    res = table.resolve(focus) if all(p.isidentifier() for p in focus.split(".")) else None
    if res is not None and not res.is_external:
        return {res.target.qualname: 1.0}
    return dict.fromkeys(store.qualnames_named(focus), 1.0)


def _private(qualname: str) -> bool:
    """A name nobody outside is meant to use (`_helper`, `Class._m`); dunders stay (`__init__`)."""
    name = qualname.rpartition(".")[2]
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _one_line(sig: str) -> str:
    return " ".join(sig.split())


def _signature(kind: str, qualname: str, sig: str) -> str:
    """The declaration's header on one line, without a trailing comment."""
    sig = _one_line(sig)
    if "#" in sig and sig.count("'") % 2 == 0 and sig.count('"') % 2 == 0:
        sig = sig[: sig.index("#")].rstrip()
    if sig:
        return sig
    name = qualname.rpartition(".")[2]
    return f"class {name}" if kind == "class" else f"def {name}(...)"
