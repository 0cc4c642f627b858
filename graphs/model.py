"""Records and closed sets of the dependency graph: node kinds, edge types,
`Node`, `Edge`, `Neighbour`.

Owns: the vocabulary every other `graphs` module speaks and the invariants a
single record can check on its own (unresolved edges point at `?`-prefixed
ids, kinds and types belong to their closed sets).
May import: the standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

#: Prefix of a node id that a caller could not resolve; such ids are kept
#: verbatim (e.g. ``?requests.get``) and never matched against real nodes.
UNRESOLVED_PREFIX = "?"

#: How a neighbour relates to the seed that justifies it: "out" = the seed
#: (transitively) uses it, "in" = it (transitively) uses the seed, "mixed" =
#: the justifying path changes direction (siblings, co-callers).
Direction = Literal["out", "in", "mixed"]


class NodeKind(StrEnum):
    MODULE = "module"
    CLASS = "class"
    FUNCTION = "function"
    METHOD = "method"
    BINDING = "binding"
    EXTERNAL = "external"


class EdgeType(StrEnum):
    CONTAINS = "contains"
    IMPORTS = "imports"
    REEXPORTS = "reexports"
    INHERITS = "inherits"
    CALLS = "calls"
    INSTANTIATES = "instantiates"
    REFERENCES = "references"
    DECORATES = "decorates"
    OVERRIDES = "overrides"


def is_unresolved(node_id: str) -> bool:
    return node_id.startswith(UNRESOLVED_PREFIX)


@dataclass(frozen=True, slots=True, kw_only=True)
class Node:
    """A declaration. `path` is None for nodes that live in no scanned file
    (externals); lines are 1-based and inclusive."""

    id: str
    kind: NodeKind
    path: str | None = None
    start_line: int | None = None
    end_line: int | None = None

    def __post_init__(self) -> None:
        # Callers hand in plain strings; coercing here turns a typo into an
        # error at the boundary instead of a silently unknown kind later.
        object.__setattr__(self, "kind", NodeKind(self.kind))
        if not self.id:
            raise ValueError("node id must be non-empty")
        if is_unresolved(self.id) and self.kind is not NodeKind.EXTERNAL:
            raise ValueError(f"unresolved node {self.id!r} must be external")


@dataclass(frozen=True, slots=True, kw_only=True)
class Edge:
    """A typed dependency `src -> dst` observed at `path:line` (the site).

    `resolved` must agree with the `?` prefix of `dst`: the graph never
    guesses, so a mismatch is the caller's bug and is rejected here.
    """

    src: str
    dst: str
    type: EdgeType
    path: str
    line: int
    resolved: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "type", EdgeType(self.type))
        if not self.src or not self.dst:
            raise ValueError("edge endpoints must be non-empty")
        if is_unresolved(self.src):
            raise ValueError(f"edge source {self.src!r} cannot be unresolved")
        if self.resolved == is_unresolved(self.dst):
            raise ValueError(
                f"edge to {self.dst!r}: resolved={self.resolved} disagrees "
                f"with the {UNRESOLVED_PREFIX!r} prefix convention"
            )


@dataclass(frozen=True, slots=True, kw_only=True)
class Neighbour:
    """A ranked related node. `path` is the edge chain from a seed to `id`
    in walk order (each edge keeps its own src/dst, so the hop direction is
    visible per edge); `direction` summarises it. `score` orders results of
    one query only: path strength in (0, 1] for "bfs", PageRank probability
    mass for "ppr"."""

    id: str
    score: float
    path: tuple[Edge, ...]
    direction: Direction
