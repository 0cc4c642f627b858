"""The dependency graph of an index, loaded from SQLite into graphs/ and kept current.

Nodes are the index's declarations (modules, classes, functions, methods,
module/class-level bindings); edges are the rows the indexer derived from the
cross-reference table. A refresh reloads only the files whose edges changed.
May import: store, graphs, stdlib.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from codehop.index.store.sqlite import SqliteStore
from codehop.index.symbols import SymbolTable
from codehop.kernel.records import BindingKind, source_fields
from codehop.kernel.records import Edge as IndexEdge
from graphs import Edge, EdgeType, Node, NodeKind, picture_dot, render_svg
from graphs.local import LocalGraph

if TYPE_CHECKING:  # networkx (~0.15 s) loads only for the whole graph (`codehop graph`), not for ask
    from graphs import DependencyGraph

_SECOND_HOP = ("contains", "inherits", "reexports")
_THROUGH = frozenset({"inherits", "reexports", "imports", "references", "overrides"})
# a blast radius follows what the seeds call as well: a callee's own callees and the values it reads
_CALLEES = ("calls", "instantiates", "references")
_KIND = {
    BindingKind.CLASS: NodeKind.CLASS,
    BindingKind.FUNCTION: NodeKind.FUNCTION,
    BindingKind.VALUE: NodeKind.BINDING,
    BindingKind.ALIAS: NodeKind.BINDING,
}


def _graph_edge(e: IndexEdge) -> Edge:
    return Edge(src=e.src, dst=e.dst, type=EdgeType(e.type), path=e.rel_path, line=e.line, resolved=e.resolved)


class GraphContext:
    def __init__(self, store: SqliteStore, table: SymbolTable | None = None) -> None:
        self.store = store
        self.table = table or SymbolTable(store)
        self._graph: DependencyGraph | None = None
        self._loaded: dict[str, int] = {}
        self._lock = threading.Lock()
        # seeds recur across questions (a module's imports, a popular base class)
        self._cache: dict[tuple[object, ...], list[tuple[str, float, str]]] = {}

    # ---- loading -----------------------------------------------------------
    def _nodes(self, rel_path: str | None, classes: set[str]) -> list[Node]:
        nodes = [
            Node(id=module, kind=NodeKind.MODULE, path=path, start_line=1, end_line=1)
            for path, module in self.store.file_modules()
            if rel_path is None or path == rel_path
        ]
        for d in self.store.declarations(rel_path):
            k = _KIND[d.kind]
            if k is NodeKind.FUNCTION and d.scope in classes:
                k = NodeKind.METHOD
            nodes.append(
                Node(id=f"{d.scope}.{d.name}", kind=k, path=d.rel_path, start_line=d.line, end_line=d.end_line)
            )
        return nodes

    def _edges(self, rel_path: str | None) -> list[Edge]:
        return [_graph_edge(e) for e in self.store.edges(rel_path)]

    def _classes(self) -> set[str]:
        return self.store.class_names()

    def graph(self) -> DependencyGraph:
        with self._lock:
            if self._graph is None:
                from graphs import DependencyGraph

                self._loaded = self.store.edge_generations()
                self._graph = DependencyGraph.build(self._nodes(None, self._classes()), self._edges(None))
            return self._graph

    def refresh(self) -> list[str]:
        """Reload the files whose edges the indexer rewrote; returns their paths."""
        graph = self.graph()
        with self._lock:
            now = self.store.edge_generations()
            moved = [p for p, g in now.items() if self._loaded.get(p) != g]
            gone = [p for p in self._loaded if p not in now]
            classes = self._classes() if moved else set()
            for path in gone:
                graph.remove_file(path)
            for path in moved:
                graph.add_file(path, self._nodes(path, classes), self._edges(path))
            self._loaded = now
            return sorted(moved + gone)

    # ---- queries -----------------------------------------------------------
    def local_graph(
        self,
        seeds: list[str],
        depth: int = 2,
        max_edges: int = 6000,
        named: frozenset[str] | None = None,
        *,
        callees: bool = False,
    ) -> LocalGraph:
        """The seeds' neighbourhood read straight from the index (no whole-graph load): what a
        query needs is a few hundred edges, and a cold `codehop ask` must not build 40k nodes.

        Past the first hop only what the seeds point *through* is expanded (a base class, a
        re-export or import target, an alias): a popular class's thousand callers and
        subclasses stay one hop away, where they are ranked, and are not walked. With `callees`,
        what the seeds call is walked too: its own callees and the values it reads are the second
        step out (`url_for` -> `url_path_for` -> `CONVERTOR_TYPES`)."""
        table = self.table
        table.check()
        edges: dict[tuple[str, str, str, str, int], IndexEdge] = {}
        frontier, seen = list(seeds), set(seeds)
        for level in range(depth):
            # past the first hop, only what a pointer leads to: members, bases, re-exports
            second = _SECOND_HOP + _CALLEES if callees else _SECOND_HOP
            found = self.store.edges_touching(frontier, out_only=second if level else ())
            nxt: list[str] = []
            current = set(frontier)
            for row in found:
                edges[(row.src, row.dst, row.type, row.rel_path, row.line)] = row
                src, dst, etype = row.src, row.dst, row.type
                for end in (src, dst):
                    if end in seen or end.startswith("?"):
                        continue
                    seen.add(end)
                    through = end == dst and src in current and (etype in _THROUGH or (callees and etype in _CALLEES))
                    if level == 0 and through:
                        nxt.append(end)
            if len(edges) > max_edges:
                break
            frontier = nxt
        if named is not None and not any(n.rpartition(".")[2].lower() in named for n in seen.difference(seeds)):
            return LocalGraph([], [])  # nothing here the caller would keep: no nodes to build, nothing to rank
        nodes = []
        for node_id in seen:
            if table.src.module_path(node_id) is not None:
                nodes.append(Node(id=node_id, kind=NodeKind.MODULE))
                continue
            scope, _, name = node_id.rpartition(".")
            b = table.src.binding(scope, name)
            if b is None:
                continue
            k = _KIND.get(b.kind)
            if k is None:
                continue
            if k is NodeKind.FUNCTION and table.src.class_info(scope) is not None:
                k = NodeKind.METHOD
            nodes.append(Node(id=node_id, kind=k))
        return LocalGraph(nodes, [_graph_edge(e) for e in edges.values()])

    def neighbours(
        self, seeds: dict[str, float], k: int, named: frozenset[str] | None = None
    ) -> list[tuple[str, float, str]]:
        """Hidden dependencies of the seeds, each with the edge path that justifies it: the best
        `k` of them, and of those only the ones whose last name (lower case) is in `named` when
        it is given. A neighbourhood where no declaration has such a name is not ranked."""
        version = self.store.data_version()
        key = (version, tuple(sorted(seeds.items())), k, named)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        graph = self.local_graph(list(seeds), named=named)
        present = {s: w for s, w in seeds.items() if s in graph}
        if not present:
            return []
        out = []
        for n in graph.related(present, limit=k):
            if named is not None and n.id.rpartition(".")[2].lower() not in named:
                continue
            why = "; ".join(f"{e.src} -{e.type}-> {e.dst}" for e in n.path)
            out.append((n.id, n.score, f"graph: {why}"))
        if len(self._cache) > 4096:
            self._cache.clear()
        self._cache[key] = out
        return out

    def node_for(self, symbol: str, table: Any) -> str | None:
        graph = self.graph()
        if symbol in graph:
            return symbol
        res = table.resolve(symbol)
        if res is not None and not res.is_external and res.target.qualname in graph:
            return str(res.target.qualname)
        return None

    def candidates(self, typed: str, limit: int = 12) -> list[str]:
        """Qualnames a user may have meant by a short or partial name: the declarations whose last
        parts are `typed` (`Session`, `sessions.Session`), else whose name contains it (any case);
        classes and modules first, then shorter names."""
        text = typed.strip().strip(".")
        if not text:
            return []
        declared = [n for n in self.graph().nodes() if n.kind is not NodeKind.EXTERNAL]
        exact = [n for n in declared if n.id == text or n.id.endswith("." + text)]
        if not exact:
            low = text.lower()
            exact = [n for n in declared if low in n.id.rsplit(".", 1)[-1].lower()]
        rank = {NodeKind.CLASS: 0, NodeKind.MODULE: 1, NodeKind.FUNCTION: 2, NodeKind.METHOD: 3, NodeKind.BINDING: 4}
        exact.sort(key=lambda n: (rank.get(n.kind, 5), n.id.count("."), n.id))
        return [n.id for n in exact[:limit]]

    def node_at(self, rel_path: str, line: int) -> str | None:
        """The innermost declaration of the graph whose span holds `rel_path:line`."""
        best: Node | None = None
        for n in self.graph().nodes():
            if (
                n.path == rel_path
                and n.start_line is not None
                and n.end_line is not None
                and n.start_line <= line <= n.end_line
            ):
                if best is None or (n.end_line - n.start_line) < ((best.end_line or 0) - (best.start_line or 0)):
                    best = n
        if best is None:
            return self.store.module_of(rel_path)
        return best.id

    def picture(
        self,
        node: str,
        depth: int,
        *,
        highlight_nodes: tuple[str, ...] = (),
        highlight_edges: tuple[tuple[str, str], ...] = (),
        extra_edges: tuple[tuple[str, str, str], ...] = (),
        max_nodes: int = 24,
    ) -> str:
        """DOT of the neighbourhood as a picture (graphs.picture_dot): every class drawn lists all
        its members; the chain's nodes are drawn even when the walk did not reach them."""
        graph = self.graph()
        edges = [e for e, _ in graph.neighbourhood(node, depth)]
        wanted = [n for n in (*highlight_nodes, *(x for s, d, _ in extra_edges for x in (s, d))) if n in graph]
        for extra in wanted:  # a member of the chain comes with its class
            edges += [e for e in graph.in_edges(extra) if e.type is EdgeType.CONTAINS]
        pairs = set(highlight_edges)
        edges += [e for a, _ in pairs if a in graph for e in graph.out_edges(a) if (a, e.dst) in pairs]
        if node in graph:
            edges += [e for e in graph.in_edges(node) if e.type is EdgeType.CONTAINS]
        edges = list(dict.fromkeys(edges))
        ids = {node, *wanted} | {e.src for e in edges} | {e.dst for e in edges}
        seen = set(edges)
        for cls in [i for i in ids if graph.node(i).kind is NodeKind.CLASS]:
            members = [e for e in graph.out_edges(cls) if e.type is EdgeType.CONTAINS and e not in seen]
            seen.update(members)
            edges += members
            ids |= {e.dst for e in members}
            # a member's override is part of its class's picture (it lands on the base class's row)
            for m in [e.dst for e in graph.out_edges(cls) if e.type is EdgeType.CONTAINS]:
                for e in graph.out_edges(m):
                    if e.type is EdgeType.OVERRIDES and e not in seen:
                        owner = [c for c in graph.in_edges(e.dst) if c.type is EdgeType.CONTAINS]
                        seen.update([e, *owner])
                        edges += [e, *owner]
                        ids |= {e.dst} | {c.src for c in owner}
        return picture_dot(
            node,
            {i: graph.node(i) for i in ids},
            edges,
            highlight_nodes=highlight_nodes,
            highlight_edges=highlight_edges,
            extra_edges=extra_edges,
            max_nodes=max_nodes,
        )

    def neighbourhood(self, node: str, depth: int, *, expand_packages: bool = False) -> list[dict[str, Any]]:
        """`node`'s edges within `depth`. An end the repository does not declare that the symbol
        table places in an installed package becomes that package's node, a leaf (`package`,
        `leaf`); with `expand_packages`, its own edges in the package's index follow, marked."""
        rows = []
        expand: dict[str, Any] = {}
        for edge, direction in self.graph().neighbourhood(node, depth):
            other = edge.dst if direction == "out" else edge.src
            row: dict[str, Any] = {
                "direction": direction,
                "type": str(edge.type),
                "src": edge.src,
                "dst": edge.dst,
                "other": other,
                "path": edge.path,
                "line": edge.line,
                "resolved": edge.resolved,
            }
            placed = self._package_node(other, edge.src if direction == "out" else edge.dst)
            if placed is not None:
                qualname, mount, where = placed
                row.update(other=qualname, package=where["package"], package_path=where["path"], leaf=True)
                expand.setdefault(qualname, mount)
            rows.append(row)
        if expand_packages:
            for qualname, mount in expand.items():
                inner = GraphContext(mount.store)
                for r in inner.neighbourhood(qualname, depth):
                    pin = source_fields(f"{mount.root}/{r['path']}").get("package", "")
                    rows.append({**r, "from_package": qualname, "package": pin})
        return rows

    def _package_node(self, end: str, near: str) -> tuple[str, Any, dict[str, Any]] | None:
        """(qualname, mount, source fields) of an unresolved end (`?requests.Session`) that lies in an
        installed package; the indexer may have qualified a name it could not place by the module
        that uses it (`?app.client.requests.Session`), so that prefix is also tried without."""
        if not end.startswith("?"):
            return None
        name = end[1:]
        parts = near.split(".")
        scopes = [".".join(parts[:i]) for i in range(len(parts), 0, -1)]
        tries = [name] + [name[len(p) + 1 :] for p in scopes if name.startswith(p + ".")]
        for dotted in tries:
            res = self.table.resolve(dotted)
            if res is None or res.is_external or not res.target.rel_path.startswith("/"):
                continue
            mount = self.store.mounted(res.target.rel_path)
            if mount is not None:
                return res.target.qualname, mount, source_fields(res.target.rel_path)
        return None

    def stats(self) -> dict[str, int]:
        return self.graph().stats()

    def dot(self, node: str, depth: int) -> str:
        return self.graph().to_dot(node, depth)

    @staticmethod
    def svg(dot: str) -> bytes | None:
        return render_svg(dot)
