"""Workspace symbol search: every declaration of the index, found by a fuzzy name, ranked.

Ranking tiers, best first: the exact name, a prefix of the name (each with the case as typed
before any case), a subsequence of the name (`gtobj` finds `get_object`); a dotted query matches the
end of the qualified name (`Shape.area`, `core.area`). Inside a tier: library code before tests,
shorter names, then fewer dots in the qualname. The table is loaded once per index version;
a query is a dict lookup, a bisect and one regular-expression scan over all names joined in one
string (the C engine does the loop), so it stays in milliseconds on Django-size indexes.
May import: records, store, paths (is_test_path), stdlib.
"""

from __future__ import annotations

import bisect
import re
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from codehop.kernel.paths import is_test_path
from codehop.kernel.records import BindingKind

if TYPE_CHECKING:
    from codehop.index.store.sqlite import SqliteStore

MAX_RESULTS = 200


@dataclass(frozen=True, slots=True, kw_only=True)
class SymbolHit:
    name: str
    qualname: str
    kind: str  # "class", "function", "method", "value", "alias", "module"
    rel_path: str
    line: int  # 1-based
    name_col: int  # code-point column of the name on its line
    container: str  # the scope that holds it


class _Table:
    def __init__(self, hits: list[SymbolHit]) -> None:
        self.hits = hits
        self.by_name: dict[str, list[int]] = {}
        self.by_lower: dict[str, list[int]] = {}
        for i, h in enumerate(hits):
            self.by_name.setdefault(h.name, []).append(i)
            self.by_lower.setdefault(h.name.lower(), []).append(i)
        self.sorted_lower = sorted((h.name.lower(), i) for i, h in enumerate(hits))
        self.keys = [k for k, _i in self.sorted_lower]
        self.joined_names = "\n".join(h.name.lower() for h in hits) + "\n"
        self.joined_quals = "\n".join(h.qualname.lower() for h in hits) + "\n"
        self.starts = []
        pos = 0
        for h in hits:
            self.starts.append(pos)
            pos += len(h.name) + 1
        self.qual_starts = []
        pos = 0
        for h in hits:
            self.qual_starts.append(pos)
            pos += len(h.qualname) + 1
        # inside a tier: library code before tests, shorter names, shallower qualnames
        self.key = [(int(is_test_path(h.rel_path)), len(h.name), h.qualname.count("."), len(h.qualname)) for h in hits]


def _subsequence(text: str) -> re.Pattern[str]:
    """`abc` -> a[^\nb]*b[^\nc]*c[^\n]*: each gap stops at the next wanted character, so a scan
    is linear (no backtracking), and the match is the leftmost one on its line."""
    chars = [re.escape(c) for c in text]
    body = chars[0] + "".join(f"[^\n{c}]*{c}" for c in chars[1:])
    return re.compile(body + "[^\n]*")


class SymbolSearch:
    """Fuzzy search over one index's declarations (thread-safe; reloads when the index changes)."""

    def __init__(self, store: SqliteStore) -> None:
        self.store = store
        self._table: tuple[int, _Table] | None = None
        self._lock = threading.Lock()

    def table(self) -> _Table:
        version = self.store.data_version()
        with self._lock:
            if self._table is None or self._table[0] != version:
                self._table = (version, _Table(self._load()))
            return self._table[1]

    def _load(self) -> list[SymbolHit]:
        classes = self.store.class_names()
        hits = []
        for d in self.store.declaration_sites():
            scope, name, rel_path, line, col = d.scope, d.name, d.rel_path, d.line, d.col
            k = "method" if d.kind is BindingKind.FUNCTION and scope in classes else str(d.kind)
            offset = {"function": 4, "method": 4, "class": 6}.get(k, 0)  # `def ` / `class `
            hits.append(
                SymbolHit(
                    name=name,
                    qualname=f"{scope}.{name}",
                    kind=k,
                    rel_path=rel_path,
                    line=line,
                    name_col=col + offset,
                    container=scope,
                )
            )
        for rel_path, module in self.store.file_modules():
            short = module.rpartition(".")[2]
            hits.append(
                SymbolHit(
                    name=short,
                    qualname=module,
                    kind="module",
                    rel_path=rel_path,
                    line=1,
                    name_col=0,
                    container=module.rpartition(".")[0],
                )
            )
        return hits

    def search(self, query: str, limit: int = MAX_RESULTS) -> list[SymbolHit]:
        query = query.strip()[:200]
        if not query:
            return []
        t = self.table()
        if "." in query.strip("."):
            return self._dotted(t, query, limit)
        ranked: list[tuple[tuple[int, ...], int]] = []
        seen: set[int] = set()

        def add(tier: int, idx: int) -> None:
            if idx not in seen:
                seen.add(idx)
                ranked.append(((tier, *t.key[idx]), idx))

        for i in t.by_name.get(query, ()):
            add(0, i)
        low = query.lower()
        for i in t.by_lower.get(low, ()):
            add(1, i)
        lo = bisect.bisect_left(t.keys, low)
        hi = bisect.bisect_left(t.keys, low + "\U0010ffff")
        for _key, i in t.sorted_lower[lo:hi]:
            add(2 if t.hits[i].name.startswith(query) else 3, i)  # the case as typed first
        if len(ranked) < limit:
            for m in _subsequence(low).finditer(t.joined_names):
                idx = bisect.bisect_right(t.starts, m.start()) - 1
                add(4, idx)
                if len(seen) > limit * 3:
                    break
        ranked.sort()
        return [t.hits[i] for _r, i in ranked[:limit]]

    def _dotted(self, t: _Table, query: str, limit: int) -> list[SymbolHit]:
        """`Shape.area`: the last part searched as a name, its scope matched by the rest: the exact
        name first, then the scope ending with the rest, holding it as dotted parts, or as a
        subsequence."""
        head, _, last = query.strip(".").rpartition(".")
        head = head.lower()
        tail = re.compile(r"(?:^|\.)" + re.escape(head) + "$")
        inner = re.compile(r"(?:^|\.)" + re.escape(head) + r"(?:\.|$)")
        loose = _subsequence(head)
        ranked: list[tuple[tuple[int, ...], SymbolHit]] = []
        for rank, h in enumerate(self.search(last, limit * 5)):
            scope = h.qualname.rpartition(".")[0].lower()
            named = 0 if h.name == last else 1 if h.name.lower() == last.lower() else 2
            if tail.search(scope):
                ranked.append(((named, 0, rank), h))
            elif inner.search(scope):  # `models.Model` -> django.db.models.base.Model
                ranked.append(((named, 1, rank), h))
            elif loose.search(scope):
                ranked.append(((named, 2, rank), h))
        ranked.sort(key=lambda r: r[0])
        return [h for _r, h in ranked[:limit]]
