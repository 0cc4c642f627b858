"""Pointer sites: where in the context a subject's chain starts, as pending references.

Given a subject the reader could not find declared in the context, the first
link of its chain that the context shows (an import, a re-export, a star
import, an alias, a base class) becomes a pending reference with its origin
site (path, 1-based line, 0-based column), so that position-based rungs
(Jedi, a language server) can answer what the symbol table cannot. A value
computed from other module-level values (`T = BASE * 2`) needs those too.
May import: records, symbols, question, store, stdlib.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from codehop.question import Subject
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


def contains(items: Sequence[ContextItem], loc: Location) -> ContextItem | None:
    best: ContextItem | None = None
    for it in items:
        c = it.chunk
        if c.rel_path == loc.rel_path and c.start_line <= loc.line <= c.end_line:
            if best is None or (c.end_line - c.start_line) < (best.chunk.end_line - best.chunk.start_line):
                best = it
    return best



class PointerFinder:
    def __init__(self, table: SymbolTable) -> None:
        self.table = table
        self.store = table.store

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
