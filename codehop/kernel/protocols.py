"""One small Protocol per pluggable stage (stdlib only).

`Resolver` and `Generator` are the ladder's rungs and the answer's writer. `Store`,
`ResolverLadder` (with `Landing` and `Versioned`) are exactly what the one-hop loop
(codehop.answer.orchestrator.Navigator) reads of the index and of the ladder: the concrete
`SqliteStore` and `Ladder` are named only by the door (codehop.app) that builds it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Protocol

from codehop.kernel.records import (
    Binding,
    Chunk,
    ContextItem,
    Generation,
    PendingReference,
    Provenance,
    QueryLog,
    Question,
    Resolution,
    RungFailure,
)


class Resolver(Protocol):
    name: Provenance

    def resolve(self, ref: PendingReference) -> Resolution | None: ...


class Generator(Protocol):
    name: str

    def generate(
        self, question: Question, context: Sequence[ContextItem], resolved: Mapping[str, Resolution]
    ) -> Generation: ...


class Store(Protocol):
    """What the loop reads of the index: one read snapshot per query, the chunks and bindings
    at a line (a resolved declaration's excerpt), and the query's one write after its snapshot."""

    def snapshot(self) -> AbstractContextManager[None]: ...

    def chunks_at(self, rel_path: str, line: int) -> list[Chunk]: ...

    def bindings_at(self, rel_path: str, line: int) -> list[Binding]: ...

    def record_query(self, log: QueryLog) -> bool: ...


class Versioned(Protocol):
    """An in-memory view of the index that follows the index version the thread reads."""

    def check(self) -> None: ...


class Landing(Protocol):
    """The ladder's outcome for one reference: where it landed (None: nowhere) and each rung that failed."""

    @property
    def resolution(self) -> Resolution | None: ...

    @property
    def failures(self) -> tuple[RungFailure, ...]: ...


class ResolverLadder(Protocol):
    """The resolver ladder as the loop uses it: resolve a reference, follow the index version
    (its symbol table), and say what a query's landings leave in the index."""

    @property
    def table(self) -> Versioned: ...

    def resolve(self, ref: PendingReference) -> Landing: ...

    def log(self, landed: Sequence[tuple[PendingReference, Resolution]]) -> QueryLog: ...
