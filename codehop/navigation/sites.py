"""What the navigation engine returns about dependents: the relation of a site to a declaration
(`Relation`, read from a reference's type by `RELATION_OF`), one site (`Site`), the sites found
for one declaration with how complete they are (`Dependents`).

May import: records, stdlib.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from codehop.kernel.records import Location, RefType, XRef

DEFAULT_LIMIT = 500


class Relation(StrEnum):
    """How a site depends on the declaration."""

    CALLS = "calls"  # a call (or instantiation) of the declaration
    IMPORTS = "imports"
    REEXPORTS = "reexports"  # `from .m import X` in a package, `as` renames, star imports it passes
    ALIASES = "aliases"  # `Y = X`
    INHERITS = "inherits"  # a subclass (its class line)
    OVERRIDES = "overrides"  # a method replacing the declaration in a subclass
    USES_INHERITED = "uses_inherited"  # the member used on a subclass: `Sub.m`, `Sub().m()`
    READS = "reads"  # any other use of the name: an attribute read, a callback, an argument
    DECORATES = "decorates"
    ANNOTATES = "annotates"
    CALLEE = "callee"  # (callees) a declaration the subject calls


# how a site depends on the declaration, by the kind of reference read there
RELATION_OF = {
    RefType.IMPORT: Relation.IMPORTS,
    RefType.REEXPORT: Relation.REEXPORTS,
    RefType.STAR_IMPORT: Relation.REEXPORTS,
    RefType.ALIAS: Relation.ALIASES,
    RefType.BASE_CLASS: Relation.INHERITS,
    RefType.CALL: Relation.CALLS,
    RefType.DECORATOR: Relation.DECORATES,
    RefType.TYPE_ANNOTATION: Relation.ANNOTATES,
}


def name_col(x: XRef) -> int:
    """Column of the last dotted part of a site's anchor (`enc.dumps` -> `dumps`): where the name is."""
    if "." in x.anchor_text and "(" not in x.anchor_text and " " not in x.anchor_text:
        return x.col + x.anchor_text.rfind(".") + 1
    return x.col


@dataclass(frozen=True, slots=True, kw_only=True)
class Site:
    """One place that depends on the declaration (1-based line, 0-based column)."""

    rel_path: str
    line: int
    col: int
    code: str  # the source line, stripped
    relation: Relation
    anchor_text: str  # the text at the site that names the declaration
    scope: str  # qualname of the enclosing declaration
    via: str = ""  # the declaration the site names, when not the target itself (a subclass, an override)
    is_test: bool = False

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.rel_path,
            "line": self.line,
            "col": self.col,
            "code": self.code,
            "relation": str(self.relation),
            "anchor_text": self.anchor_text,
            "scope": self.scope,
            "via": self.via,
            "is_test": self.is_test,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Dependents:
    """The sites found for one declaration, and how complete the list is."""

    target: Location
    sites: tuple[Site, ...]
    walked: tuple[Relation, ...]  # the relations this walk looked for
    cut: bool = False  # the limit stopped the walk
    notes: tuple[str, ...] = ()  # why users may be missing (dynamic dispatch, unresolved sites)

    def of(self, *relations: Relation) -> tuple[Site, ...]:
        return tuple(s for s in self.sites if s.relation in relations)

    @property
    def complete(self) -> bool:
        return not self.cut and not self.notes


ALL_RELATIONS = tuple(r for r in Relation if r is not Relation.CALLEE)


# the one map of a walk: a site per (path, line, column, relation)
Found = dict[tuple[str, int, int, Relation], Site]
