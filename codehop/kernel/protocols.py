"""One small Protocol per pluggable stage (stdlib only)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from codehop.kernel.records import ContextItem, Generation, PendingReference, Provenance, Question, Resolution


class Resolver(Protocol):
    name: Provenance

    def resolve(self, ref: PendingReference) -> Resolution | None: ...


class Generator(Protocol):
    name: str

    def generate(
        self, question: Question, context: Sequence[ContextItem], resolved: Mapping[str, Resolution]
    ) -> Generation: ...
