"""The resolver ladder: symbol table, Jedi, a language server, prose, (model); first answer wins.

Each resolver is one small class behind `Resolver`; the ladder tries them in
order, records which failed and why, follows a landing that is itself a
pointer (an import or an alias) to the declaration within a step bound, and
enforces the trust boundary: a target outside the indexed root is reported
as external, never fetched. Engines arrive as constructor arguments.
May import: records, protocols, symbols, store, errors, stdlib.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from codehop.errors import CodehopError
from codehop.protocols import Resolver
from codehop.records import Binding, BindingKind, Location, PendingReference, Provenance, Resolution, Step
from codehop.store import SqliteStore
from codehop.symbols import SymbolTable

_PROSE = re.compile(r"(?:see|See|cf\.|refer to|uses?|calls?|defined in)\s+[`:]*(?:\w+:`)?`?~?([A-Za-z_][\w.]*)`?")


class SymbolTableResolver:
    name = Provenance.SYMBOL_TABLE

    def __init__(self, table: SymbolTable) -> None:
        self.table = table

    def resolve(self, ref: PendingReference) -> Resolution | None:
        res = self.table.resolve(ref.ref_target)
        if res is not None:
            return res
        module = self.table.store.module_of(ref.origin_path)
        if module and ref.anchor_text.replace(".", "").isidentifier():
            return self.table.resolve(f"{module}.{ref.anchor_text}")
        return None


class RegexResolver:
    """In-prose references in docstrings and comments: "see `Foo.bar`"."""

    name = Provenance.REGEX

    def __init__(self, table: SymbolTable, root: str) -> None:
        self.table = table
        self.root = root

    def resolve(self, ref: PendingReference) -> Resolution | None:
        from pathlib import Path

        from codehop.walk import confine

        try:
            path = confine(Path(self.root), ref.origin_path)
            line = path.read_text(encoding="utf-8", errors="replace").splitlines()[ref.origin_line - 1]
        except (OSError, IndexError, ValueError, CodehopError):  # unreadable, or outside the repository
            return None
        module = self.table.store.module_of(ref.origin_path) or ""
        parts = module.split(".") if module else []
        # as written, then relative to the module and to each package above it
        scopes = [".".join(parts[:i]) for i in range(len(parts), 0, -1)]
        for name in _PROSE.findall(line):
            for dotted in [name, *(f"{s}.{name}" for s in scopes)]:
                res = self.table.resolve(dotted)
                if res is not None and not res.is_external:
                    return Resolution(target=res.target, provenance=self.name, steps=res.steps)
        return None


@dataclass(slots=True)
class LadderResult:
    resolution: Resolution | None
    failures: list[tuple[str, str]] = field(default_factory=list)  # (resolver, reason)
    timings_ms: dict[str, float] = field(default_factory=dict)


class Ladder:
    def __init__(self, resolvers: Sequence[Resolver], table: SymbolTable, *, max_steps: int = 8,
                 record: bool = True) -> None:
        self.resolvers = list(resolvers)
        self.table = table
        self.store: SqliteStore = table.store
        self.max_steps = max_steps
        self.record = record

    def resolve(self, ref: PendingReference, via: str | None = None) -> LadderResult:
        out = LadderResult(resolution=None)
        for r in self.resolvers:
            if via is not None and str(r.name) != via:
                continue
            t0 = time.perf_counter()
            try:
                res = r.resolve(ref)
            except Exception as exc:  # a resolver's failure is a rung skipped, never the query's end
                out.failures.append((str(r.name), f"{type(exc).__name__}: {exc}"))
                res = None
            out.timings_ms[str(r.name)] = (time.perf_counter() - t0) * 1000
            if res is None:
                continue
            res = self.follow(res)
            out.resolution = res
            break
        if out.resolution is not None and self.record and not out.resolution.is_external:
            self.feed_back(ref, out.resolution)
        return out

    def follow(self, res: Resolution) -> Resolution:
        """A landing on an import or alias line is followed to the declaration (bounded)."""
        steps = list(res.steps)
        for _ in range(self.max_steps):
            if res.is_external or not res.target.rel_path:
                break
            b = self._binding_at(res.target)
            if b is None or b.kind not in (BindingKind.IMPORT, BindingKind.ALIAS):
                break
            nxt = self.table.resolve(f"{b.scope}.{b.name}")
            if nxt is None or nxt.target == res.target:
                break
            steps.append(Step(from_loc=res.target, to_loc=nxt.target, resolver=Provenance.SYMBOL_TABLE,
                              note="alias" if b.kind is BindingKind.ALIAS else "import"))
            steps.extend(nxt.steps)
            res = Resolution(target=nxt.target, provenance=res.provenance, steps=tuple(steps),
                             external=nxt.external)
        return res

    def _binding_at(self, loc: Location) -> Binding | None:
        """The binding in force for the name declared at `loc` (the last one wins, as at run time)."""
        here = self.store.bindings_at(loc.rel_path, loc.line)
        return self.store.binding(here[0].scope, here[0].name) if here else None

    def feed_back(self, ref: PendingReference, res: Resolution) -> None:
        """A loop-time resolution fills the xref row, so it is not resolved again."""
        if res.provenance is Provenance.SYMBOL_TABLE:
            self.store.bump("hops_from_table")
            return
        self.store.bump("hops_from_resolver")
        try:
            self.store.record_resolution(ref.origin_path, ref.origin_line, ref.anchor_text,
                                         res.target.rel_path, res.target.line, str(res.provenance))
        except Exception:  # a busy index must not fail the answer
            pass
