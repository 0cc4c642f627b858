"""`LocalGraph`: a query's neighbourhood (a few hundred edges) ranked without networkx.

Built once, read once: `related(..., method="bfs")` walks the same adjacency, in the same order,
with the same weights as `DependencyGraph.build(nodes, edges).related(...)`, so the two rank
alike; method "ppr" builds that DependencyGraph and asks it. Keeping networkx (about 0.15 s to
import) off this path is what lets a cold `codehop ask` finish in half a second.
May import: graphs.model, graphs.rank, stdlib (graphs.graph lazily, for "ppr").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from graphs.model import Edge, EdgeType, Neighbour, Node, NodeKind
from graphs.rank import DEFAULT_METHOD, DEFAULT_WEIGHTS, Method, check_weights, step_weight
from graphs.rank import related as rank_related


def _edge_order(edge: Edge) -> tuple[str, str, str, str, int]:
    return (edge.type.value, edge.src, edge.dst, edge.path, edge.line)


class LocalGraph:
    """Nodes (first declaration wins) and edges (endpoints not declared become externals), as
    `DependencyGraph.build` takes them; adjacency kept as networkx keeps a MultiDiGraph's
    (neighbours in first-insertion order, each with its edges in insertion order)."""

    def __init__(
        self,
        nodes: Iterable[Node],
        edges: Iterable[Edge],
        *,
        weights: Mapping[EdgeType, tuple[float, float]] | None = None,
    ) -> None:
        self._node_list = list(nodes)
        self._edge_list = list(edges)
        self._given_weights = weights
        self._weights = check_weights(weights or DEFAULT_WEIGHTS)
        kinds: dict[str, NodeKind] = {}
        for node in self._node_list:
            kinds.setdefault(node.id, node.kind)
        succ: dict[str, dict[str, dict[Edge, None]]] = {}
        pred: dict[str, dict[str, dict[Edge, None]]] = {}
        for edge in self._edge_list:
            kinds.setdefault(edge.src, NodeKind.EXTERNAL)
            kinds.setdefault(edge.dst, NodeKind.EXTERNAL)
            succ.setdefault(edge.src, {}).setdefault(edge.dst, {})[edge] = None
            pred.setdefault(edge.dst, {}).setdefault(edge.src, {})[edge] = None
        self._kinds, self._succ, self._pred = kinds, succ, pred

    def __contains__(self, node_id: object) -> bool:
        return node_id in self._kinds

    def __len__(self) -> int:
        return len(self._kinds)

    def _is_external(self, node_id: str) -> bool:
        return self._kinds[node_id] is NodeKind.EXTERNAL

    def _steps(self, node_id: str) -> dict[str, tuple[float, Edge]]:
        around: dict[str, tuple[float, Edge]] = {}
        if node_id not in self._kinds or self._is_external(node_id):
            return around
        hops = [(e, dst, True) for dst, keyed in self._succ.get(node_id, {}).items() for e in keyed]
        hops += [(e, src, False) for src, keyed in self._pred.get(node_id, {}).items() for e in keyed]
        for edge, other, forward in hops:
            weight = step_weight(self._weights, edge, forward)
            if (
                weight <= 0
                or not edge.resolved
                or edge.src == edge.dst
                or self._is_external(edge.src)
                or self._is_external(edge.dst)
            ):
                continue
            known = around.get(other)
            if known is None or weight > known[0] or (weight == known[0] and _edge_order(edge) < _edge_order(known[1])):
                around[other] = (weight, edge)
        return around

    def related(
        self, seeds: Mapping[str, float], *, limit: int = 20, max_depth: int = 2, method: Method = DEFAULT_METHOD
    ) -> list[Neighbour]:
        """As `DependencyGraph.related`: KeyError for an unknown seed; externals never returned."""
        for seed in seeds:
            if seed not in self._kinds:
                raise KeyError(seed)
        if method == "ppr":
            from graphs.graph import DependencyGraph

            full = DependencyGraph.build(self._node_list, self._edge_list, weights=self._given_weights)
            return full.related(seeds, limit=limit, max_depth=max_depth, method=method)

        def _no_index():  # type: ignore[no-untyped-def]
            raise AssertionError("the bfs ranking needs no PageRank index")

        return rank_related(seeds, self._steps, _no_index, limit=limit, max_depth=max_depth, method=method)
