"""`DependencyGraph`: the typed, file-partitioned dependency graph.

Owns: storage (a `networkx.MultiDiGraph` keyed by `Edge` records), per-file
ownership so one file can be replaced in O(its nodes + its edges), queries
(`edges`, `neighbourhood`, `stats`), the version counter that invalidates the
cached ranking matrix, and thin entry points into `graphs.rank` and
`graphs.render`.
May import: networkx, the standard library and the sibling `graphs` modules.

Ownership rules, chosen so that `remove_file(p); add_file(p, ...)` restores
exactly the graph that was there before:
- a node belongs to the file in its `path`; an edge belongs to the file of
  its site `path` (not to the files of its endpoints);
- an endpoint that no file declares (an unresolved `?x`, a library name, or a
  node of a file that was removed while other files still point at it) exists
  as an *implicit* `external` placeholder; it is upgraded when a file
  declares the id and garbage-collected once no edge touches it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping

import networkx as nx

from graphs.model import Edge, EdgeType, Neighbour, Node, NodeKind
from graphs.rank import DEFAULT_METHOD, DEFAULT_WEIGHTS, Method, RankIndex, check_weights, step_weight
from graphs.rank import related as rank_related
from graphs.render import neighbourhood_dot

_HOP_DIRECTIONS = ("out", "in")


def _edge_order(edge: Edge) -> tuple[str, str, str, str, int]:
    # Deterministic display order: networkx adjacency order depends on
    # insertion history, which differs between a build and an incremental
    # update of the same facts.
    return (edge.type.value, edge.src, edge.dst, edge.path, edge.line)


def _walkable(edge: Edge, is_external: Callable[[str], bool]) -> bool:
    # Externals (unresolved `?x` and undeclared libraries) are left out of
    # ranking: they carry no code to show and, as shared hubs, would connect
    # unrelated parts of the project. Self-loops relate nothing.
    return edge.resolved and edge.src != edge.dst and not is_external(edge.src) and not is_external(edge.dst)


class DependencyGraph:
    """Nodes are string ids, edges are `Edge` records (also the multigraph
    key, so re-adding the same fact is idempotent)."""

    __slots__ = ("_g", "_file_nodes", "_file_edges", "_implicit", "_version", "_weights", "_rank_cache")

    def __init__(self, *, weights: Mapping[EdgeType, tuple[float, float]] | None = None) -> None:
        self._g: nx.MultiDiGraph[str] = nx.MultiDiGraph()
        self._file_nodes: dict[str, set[str]] = {}
        self._file_edges: dict[str, set[Edge]] = {}
        self._implicit: set[str] = set()
        self._version = 0
        self._weights = check_weights(weights or DEFAULT_WEIGHTS)
        self._rank_cache: tuple[int, RankIndex] | None = None

    # ------------------------------------------------------------ building

    @classmethod
    def build(
        cls,
        nodes: Iterable[Node],
        edges: Iterable[Edge],
        *,
        weights: Mapping[EdgeType, tuple[float, float]] | None = None,
    ) -> DependencyGraph:
        """Bulk constructor. Nodes with `path=None` are declared externals
        owned by no file (they survive every `remove_file`)."""
        graph = cls(weights=weights)
        for node in nodes:
            graph._check_declarable(node)
            graph._add_node(node)
        for edge in edges:
            graph._add_edge(edge)
        graph._version += 1
        return graph

    def add_file(self, path: str, nodes: Iterable[Node], edges: Iterable[Edge]) -> None:
        """Replace everything `path` declares: its nodes (`node.path == path`)
        and the edges sited in it (`edge.path == path`). Validates before
        mutating, so a rejected call leaves the graph untouched."""
        node_list = list(nodes)
        edge_list = list(edges)
        for node in node_list:
            if node.path != path:
                raise ValueError(f"node {node.id!r} has path {node.path!r}, not {path!r}")
            self._check_declarable(node)
        for edge in edge_list:
            if edge.path != path:
                raise ValueError(f"edge {edge.src!r}->{edge.dst!r} is sited in {edge.path!r}, not {path!r}")
        self.remove_file(path)
        for node in node_list:
            self._add_node(node)
        for edge in edge_list:
            self._add_edge(edge)
        self._version += 1

    def remove_file(self, path: str) -> None:
        """Drop the nodes declared in `path` and the edges sited in it. A
        removed node that other files' edges still point at is demoted to an
        implicit external placeholder rather than taking those edges along."""
        edges = self._file_edges.pop(path, set())
        owned = self._file_nodes.pop(path, set())
        if not edges and not owned:
            return
        touched: set[str] = set()
        for edge in edges:
            self._g.remove_edge(edge.src, edge.dst, key=edge)
            touched.add(edge.src)
            touched.add(edge.dst)
        for node_id in owned:
            if self._g.degree(node_id):
                self._add_placeholder(node_id)
            else:
                self._g.remove_node(node_id)
        for node_id in touched - owned:
            if node_id in self._implicit and not self._g.degree(node_id):
                self._g.remove_node(node_id)
                self._implicit.discard(node_id)
        self._version += 1

    def _check_declarable(self, node: Node) -> None:
        if node.id not in self._g or node.id in self._implicit:
            return
        owner = self._g.nodes[node.id]["path"]
        # Re-declaring inside the same file (e.g. `if X: def f` / `else: def
        # f`) keeps the first declaration; the same id from two files is a
        # caller bug we refuse to paper over.
        if owner != node.path:
            raise ValueError(f"node {node.id!r} already declared by {owner!r}, not {node.path!r}")

    def _set_attrs(self, node: Node) -> None:
        self._g.add_node(node.id, kind=node.kind, path=node.path, start_line=node.start_line, end_line=node.end_line)

    def _add_node(self, node: Node) -> None:
        if node.id in self._g and node.id not in self._implicit:
            return  # duplicate in the same file: first one wins
        self._implicit.discard(node.id)
        self._set_attrs(node)
        if node.path is not None:
            self._file_nodes.setdefault(node.path, set()).add(node.id)

    def _add_edge(self, edge: Edge) -> None:
        # Callers bump the version once per batch (this runs 150k times in a
        # Django-size build, where every statement shows).
        if edge.src not in self._g:
            self._add_placeholder(edge.src)
        if edge.dst not in self._g:
            self._add_placeholder(edge.dst)
        self._g.add_edge(
            edge.src,
            edge.dst,
            key=edge,
            type=edge.type,
            path=edge.path,
            line=edge.line,
            resolved=edge.resolved,
        )
        self._file_edges.setdefault(edge.path, set()).add(edge)

    def _add_placeholder(self, node_id: str) -> None:
        self._set_attrs(Node(id=node_id, kind=NodeKind.EXTERNAL))
        self._implicit.add(node_id)

    # ------------------------------------------------------------- queries

    @property
    def version(self) -> int:
        """Bumped by every mutation of this graph (keys the rank cache)."""
        return self._version

    def __len__(self) -> int:
        return int(self._g.number_of_nodes())

    def __contains__(self, node_id: object) -> bool:
        return node_id in self._g

    def node(self, node_id: str) -> Node:
        attrs = self._g.nodes[node_id]
        return Node(
            id=node_id,
            kind=attrs["kind"],
            path=attrs["path"],
            start_line=attrs["start_line"],
            end_line=attrs["end_line"],
        )

    def nodes(self) -> list[Node]:
        return [self.node(node_id) for node_id in self._g.nodes]

    def files(self) -> list[str]:
        return sorted(self._file_nodes.keys() | self._file_edges.keys())

    def is_implicit(self, node_id: str) -> bool:
        """True for placeholders no file or `build` declared."""
        return node_id in self._implicit

    def as_networkx(self) -> nx.MultiDiGraph[str]:
        """Read-only view for ad-hoc networkx algorithms (edge key = `Edge`)."""
        view: nx.MultiDiGraph[str] = nx.freeze(self._g.copy(as_view=True))
        return view

    def out_edges(self, node_id: str) -> list[Edge]:
        if node_id not in self._g:
            raise KeyError(node_id)
        return [key for _, _, key in self._g.out_edges(node_id, keys=True)]

    def in_edges(self, node_id: str) -> list[Edge]:
        if node_id not in self._g:
            raise KeyError(node_id)
        return [key for _, _, key in self._g.in_edges(node_id, keys=True)]

    def edges(self, src: str | None = None, dst: str | None = None, type: EdgeType | None = None) -> list[Edge]:
        """All edges matching every given filter; unknown ids match nothing."""
        candidates: Iterable[Edge]
        if src is not None:
            candidates = self.out_edges(src) if src in self._g else []
        elif dst is not None:
            candidates = self.in_edges(dst) if dst in self._g else []
        else:
            candidates = (key for _, _, key in self._g.edges(keys=True))
        return [e for e in candidates if (dst is None or e.dst == dst) and (type is None or e.type == type)]

    def stats(self) -> dict[str, int]:
        """Totals plus one count per node kind and per edge type (every kind
        and type present, zero or not; their names are disjoint by design)."""
        kinds = Counter(kind for _, kind in self._kinds())
        types = Counter(edge.type for edge in self._iter_edges())
        out = {
            "nodes": len(self),
            "edges": int(self._g.number_of_edges()),
            "unresolved_edges": sum(1 for e in self._iter_edges() if not e.resolved),
        }
        out.update({kind.value: kinds[kind] for kind in NodeKind})
        out.update({etype.value: types[etype] for etype in EdgeType})
        return out

    def _iter_edges(self) -> Iterator[Edge]:
        return (key for _, _, key in self._g.edges(keys=True))

    def _kinds(self) -> Iterator[tuple[str, NodeKind]]:
        return ((node_id, attrs["kind"]) for node_id, attrs in self._g.nodes(data=True))

    def neighbourhood(
        self, node_id: str, depth: int = 1, directions: Iterable[str] = _HOP_DIRECTIONS
    ) -> list[tuple[Edge, str]]:
        """Edges within `depth` hops of `node_id`, each once, labelled with
        the direction it was walked ("out": from its src, "in": from its
        dst). Externals are not expanded past: they are shared hubs
        (`?os.path.join`) that would pull in unrelated code."""
        wanted = tuple(directions)
        if not set(wanted) <= set(_HOP_DIRECTIONS):
            raise ValueError(f"directions must be drawn from {_HOP_DIRECTIONS}, got {wanted}")
        if node_id not in self._g:
            raise KeyError(node_id)
        seen: set[Edge] = set()
        result: list[tuple[Edge, str]] = []
        visited = {node_id}
        frontier = [node_id]
        for _ in range(depth):
            following: list[str] = []
            for current in frontier:
                if current != node_id and self._g.nodes[current]["kind"] is NodeKind.EXTERNAL:
                    continue
                hops: list[tuple[Edge, str, str]] = []
                if "out" in wanted:
                    hops += [(e, "out", e.dst) for e in sorted(self.out_edges(current), key=_edge_order)]
                if "in" in wanted:
                    hops += [(e, "in", e.src) for e in sorted(self.in_edges(current), key=_edge_order)]
                for edge, label, other in hops:
                    if edge in seen:
                        continue
                    seen.add(edge)
                    result.append((edge, label))
                    if other not in visited:
                        visited.add(other)
                        following.append(other)
            frontier = following
        return result

    # ------------------------------------------------------- rank / render

    def _is_external(self, node_id: str) -> bool:
        return bool(self._g.nodes[node_id]["kind"] is NodeKind.EXTERNAL)

    def _steps(self, node_id: str) -> dict[str, tuple[float, Edge]]:
        """Walk options from `node_id` for `graphs.rank.best_paths`, straight off
        the live graph: the BFS needs no cached index, so a query right
        after `add_file` costs only the edges around the seeds."""
        around: dict[str, tuple[float, Edge]] = {}
        if node_id not in self._g or self._is_external(node_id):
            return around
        hops = [(e, e.dst, True) for _, _, e in self._g.out_edges(node_id, keys=True)]
        hops += [(e, e.src, False) for _, _, e in self._g.in_edges(node_id, keys=True)]
        for edge, other, forward in hops:
            weight = step_weight(self._weights, edge, forward)
            if weight <= 0 or not _walkable(edge, self._is_external):
                continue
            known = around.get(other)
            # Parallel edges collapse to the heaviest; equal weights go to
            # the first in display order so the justification is stable.
            if known is None or weight > known[0] or (weight == known[0] and _edge_order(edge) < _edge_order(known[1])):
                around[other] = (weight, edge)
        return around

    def _rank_index(self) -> RankIndex:
        cached = self._rank_cache
        if cached is not None and cached[0] == self._version:
            return cached[1]
        external = {node_id for node_id, kind in self._kinds() if kind is NodeKind.EXTERNAL}
        walkable = (e for e in self._iter_edges() if _walkable(e, external.__contains__))
        index = RankIndex(walkable, self._weights)
        self._rank_cache = (self._version, index)
        return index

    def related(
        self,
        seeds: Mapping[str, float],
        *,
        limit: int = 20,
        max_depth: int = 2,
        method: Method = DEFAULT_METHOD,
    ) -> list[Neighbour]:
        """Hidden dependencies of `seeds` (id -> weight >= 0), best first; see
        `graphs.rank` for the scoring. Seeds are never returned; nor are
        externals. Raises KeyError for a seed id the graph does not know."""
        for seed in seeds:
            if seed not in self._g:
                raise KeyError(seed)
        return rank_related(seeds, self._steps, self._rank_index, limit=limit, max_depth=max_depth, method=method)

    def to_dot(self, center_id: str, depth: int = 1) -> str:
        """Graphviz DOT of `neighbourhood(center_id, depth)`."""
        hops = self.neighbourhood(center_id, depth)
        ids = {center_id} | {e.src for e, _ in hops} | {e.dst for e, _ in hops}
        return neighbourhood_dot(center_id, {i: self.node(i) for i in ids}, [e for e, _ in hops])
