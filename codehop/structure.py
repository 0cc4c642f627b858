"""Structural reading of a context: does it declare what the question asks, or only point at it?

Shared by both generators, so the hop never depends on a model noticing a
pointer. For each subject of the question: if a context chunk holds its
declaration the subject is answered; otherwise the first link of its chain
that the context shows (an import, a re-export, a star import, an alias, a
subclass) becomes a pending reference of that link's type. A declaration
whose value is computed from other module-level values needs those too.
May import: records, symbols, question, store, stdlib.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from codehop.pointers import PointerFinder, contains
from codehop.question import Subject, SubjectFinder
from codehop.records import (
    Binding,
    ContextItem,
    Location,
    PendingReference,
    Resolution,
)
from codehop.symbols import SymbolTable

MAX_SUBJECTS = 3


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    subject: Subject
    resolution: Resolution | None
    binding: Binding | None  # the declaration's binding, when the table knows it
    declared_in: ContextItem | None  # the context item holding the declaration
    pending: tuple[PendingReference, ...]
    needs: tuple[Location, ...] = ()  # values the answer depends on, found in context


class Reader:
    def __init__(self, table: SymbolTable) -> None:
        self.table = table
        self.store = table.store
        self.finder = SubjectFinder(table)
        self.pointers = PointerFinder(table)

    def read(self, question: str, context: Sequence[ContextItem],
             resolved: Mapping[str, Resolution]) -> list[Finding]:
        subjects = self.finder.find(question)[:MAX_SUBJECTS]
        findings: list[Finding] = []
        targets: set[Location] = set()
        for i, s in enumerate(subjects):
            f = self.finding(s, context, resolved)
            target = f.resolution.target if f.resolution is not None else None
            if target in targets or (i > 0 and f.declared_in is None):
                continue  # secondary subjects only add what the context already answers
            if target is not None:
                targets.add(target)
            findings.append(f)
        return findings

    def finding(self, subject: Subject, context: Sequence[ContextItem],
                resolved: Mapping[str, Resolution]) -> Finding:
        tried = subject.dotted in resolved
        res = resolved.get(subject.dotted) or self.table.resolve(subject.dotted)
        if res is None:
            return Finding(subject=subject, resolution=None, binding=None, declared_in=None, pending=())
        if res.is_external:
            # name the pointer once so the hop records it as external; never fetched
            pending: tuple[PendingReference, ...] = (
                () if tried or not res.steps else (self.pointers.pointer(subject, res, None, context),))
            return Finding(subject=subject, resolution=res, binding=None, declared_in=None,
                           pending=pending)
        binding = self.table.binding_of(res.target.qualname) if res.target.qualname else None
        holder = contains(context, res.target)
        if holder is None:
            ref = self.pointers.pointer(subject, res, binding, context)
            return Finding(subject=subject, resolution=res, binding=binding, declared_in=None,
                           pending=(ref,))
        pending, needs = self.pointers.value_dependencies(binding, context, resolved)
        return Finding(subject=subject, resolution=res, binding=binding, declared_in=holder,
                       pending=pending, needs=needs)
