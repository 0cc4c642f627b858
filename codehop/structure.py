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

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from codehop.question import Subject, SubjectFinder
from codehop.records import (
    Binding,
    BindingKind,
    ContextItem,
    Location,
    PendingReference,
    RefType,
    Resolution,
    Step,
)
from codehop.symbols import SymbolTable

_NAME = re.compile(r"(?<![\w.'\"])([A-Za-z_]\w*)(?![\w'\"(])")
_LITERAL_WORDS = frozenset({"None", "True", "False", "self", "cls", "not", "and", "or", "in", "is",
                            "if", "else", "lambda", "for"})
MAX_SUBJECTS = 3


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    subject: Subject
    resolution: Resolution | None
    binding: Binding | None  # the declaration's binding, when the table knows it
    declared_in: ContextItem | None  # the context item holding the declaration
    pending: tuple[PendingReference, ...]
    needs: tuple[Location, ...] = ()  # values the answer depends on, found in context


def contains(items: Sequence[ContextItem], loc: Location) -> ContextItem | None:
    best: ContextItem | None = None
    for it in items:
        c = it.chunk
        if c.rel_path == loc.rel_path and c.start_line <= loc.line <= c.end_line:
            if best is None or (c.end_line - c.start_line) < (best.chunk.end_line - best.chunk.start_line):
                best = it
    return best


class Reader:
    def __init__(self, table: SymbolTable) -> None:
        self.table = table
        self.store = table.store
        self.finder = SubjectFinder(table)

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
                () if tried or not res.steps else (self.pointer(subject, res, None, context),))
            return Finding(subject=subject, resolution=res, binding=None, declared_in=None,
                           pending=pending)
        binding = self.table.binding_of(res.target.qualname) if res.target.qualname else None
        holder = contains(context, res.target)
        if holder is None:
            ref = self.pointer(subject, res, binding, context)
            return Finding(subject=subject, resolution=res, binding=binding, declared_in=None,
                           pending=(ref,))
        pending, needs = self.value_dependencies(binding, context, resolved)
        return Finding(subject=subject, resolution=res, binding=binding, declared_in=holder,
                       pending=pending, needs=needs)

    def pointer(self, subject: Subject, res: Resolution, binding: Binding | None,
                context: Sequence[ContextItem]) -> PendingReference:
        """The first link of the chain that the context shows (else the first link)."""
        steps = res.steps
        step: Step | None = next((s for s in steps if contains(context, s.from_loc)), None)
        if step is None and steps:
            step = steps[0]
        if step is None:
            owner = subject.dotted.rpartition(".")[0]
            path = self.store.module_path(owner) or res.target.rel_path
            return PendingReference(anchor_text=subject.dotted.rpartition(".")[2],
                                    ref_type=RefType.OTHER, ref_target=subject.dotted,
                                    origin_path=path, origin_line=1)
        ref_type = {
            "alias": RefType.ALIAS,
            "star_import": RefType.STAR_IMPORT,
            "mro": RefType.INHERITED_MEMBER,
        }.get(step.note, RefType.IMPORT)
        if step.note == "mro" and binding is not None and binding.kind in (BindingKind.VALUE,
                                                                             BindingKind.ALIAS):
            ref_type = RefType.INHERITED_CONFIG
        anchor, col = step.from_loc.qualname.rpartition(".")[2], 0
        for x in self.store.xrefs(rel_path=step.from_loc.rel_path, line=step.from_loc.line):
            if step.note == "star_import" and x.ref_type is RefType.STAR_IMPORT:
                anchor, col = x.anchor_text, x.col
                break
            if x.anchor_text.split(".")[-1] == anchor or x.anchor_text == anchor:
                col = x.col
                if x.ref_type is RefType.REEXPORT and ref_type is RefType.IMPORT:
                    ref_type = RefType.REEXPORT
                break
        if step.note == "mro":
            anchor = step.from_loc.qualname.rpartition(".")[2]
        return PendingReference(anchor_text=anchor, ref_type=ref_type, ref_target=subject.dotted,
                                origin_path=step.from_loc.rel_path, origin_line=step.from_loc.line,
                                origin_col=col)

    def value_dependencies(self, binding: Binding | None, context: Sequence[ContextItem],
                           resolved: Mapping[str, Resolution],
                           ) -> tuple[tuple[PendingReference, ...], tuple[Location, ...]]:
        """Module-level values that a computed value (`T = BASE * 2`) is made of."""
        if binding is None or binding.kind is not BindingKind.VALUE or not binding.value:
            return (), ()
        module = self.store.module_of(binding.rel_path)
        if not module:
            return (), ()
        pending: list[PendingReference] = []
        needs: list[Location] = []
        for name in dict.fromkeys(_NAME.findall(binding.value)):
            if name in _LITERAL_WORDS:
                continue
            dotted = f"{module}.{name}"
            res = resolved.get(dotted) or self.table.resolve(dotted)
            if res is None or res.is_external:
                continue
            dep = self.table.binding_of(res.target.qualname)
            if dep is None or dep.kind is not BindingKind.VALUE:
                continue
            if contains(context, res.target) is not None:
                needs.append(res.target)
                continue
            local = self.store.binding(module, name)
            ref_type = RefType.IMPORT if local is not None and local.kind is BindingKind.IMPORT else RefType.OTHER
            pending.append(PendingReference(anchor_text=name, ref_type=ref_type, ref_target=dotted,
                                            origin_path=binding.rel_path, origin_line=binding.line,
                                            origin_col=binding.value.find(name)))
        return tuple(pending), tuple(needs)
