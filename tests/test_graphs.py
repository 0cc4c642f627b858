"""Tests of the `graphs` package (no codehop imports: it must stand alone).

`GRAPHS_BENCH=1 python -m pytest tests/test_graphs.py -k bench -s` prints the
speed measurements quoted in `graphs/rank.py`.
"""

from __future__ import annotations

import os
import random
import re
import statistics
import subprocess
import time
from collections.abc import Callable, Iterable
from typing import Any

import networkx as nx
import pytest

import graphs.rank
import graphs.render
from graphs import (
    DEFAULT_WEIGHTS,
    DependencyGraph,
    Edge,
    EdgeType,
    Method,
    Neighbour,
    Node,
    NodeKind,
    dot_program,
    render_svg,
)

T = EdgeType
K = NodeKind
FileFacts = dict[str, tuple[list[Node], list[Edge]]]


def node(node_id: str, kind: str, path: str, start: int = 1, end: int = 1) -> Node:
    return Node(id=node_id, kind=NodeKind(kind), path=path, start_line=start, end_line=end)


def edge(src: str, dst: str, etype: EdgeType, path: str, line: int = 1) -> Edge:
    return Edge(src=src, dst=dst, type=etype, path=path, line=line, resolved=not dst.startswith("?"))


def project() -> FileFacts:
    """A small hand-made project, one entry per file.

    app.models: Base.save; User(Base) overrides save, has greet; helper().
    app.views:  index() calls User.greet, instantiates User, calls ?requests.get.
    app.util:   log(), called from Base.save and index.
    app.far:    far() reachable from Base only through four hops.
    """
    m, v, u, f = "app/models.py", "app/views.py", "app/util.py", "app/far.py"
    return {
        m: (
            [
                node("app.models", "module", m, 1, 40),
                node("app.models.Base", "class", m, 3, 10),
                node("app.models.Base.save", "method", m, 4, 10),
                node("app.models.User", "class", m, 12, 30),
                node("app.models.User.save", "method", m, 13, 20),
                node("app.models.User.greet", "method", m, 21, 30),
                node("app.models.helper", "function", m, 32, 40),
            ],
            [
                edge("app.models", "app.models.Base", T.CONTAINS, m, 3),
                edge("app.models", "app.models.User", T.CONTAINS, m, 12),
                edge("app.models", "app.models.helper", T.CONTAINS, m, 32),
                edge("app.models.Base", "app.models.Base.save", T.CONTAINS, m, 4),
                edge("app.models.User", "app.models.User.save", T.CONTAINS, m, 13),
                edge("app.models.User", "app.models.User.greet", T.CONTAINS, m, 21),
                edge("app.models.User", "app.models.Base", T.INHERITS, m, 12),
                edge("app.models.User.save", "app.models.Base.save", T.OVERRIDES, m, 13),
                edge("app.models", "app.util", T.IMPORTS, m, 1),
                edge("app.models.Base.save", "app.util.log", T.CALLS, m, 6),
            ],
        ),
        v: (
            [node("app.views", "module", v, 1, 20), node("app.views.index", "function", v, 3, 20)],
            [
                edge("app.views", "app.views.index", T.CONTAINS, v, 3),
                edge("app.views", "app.models", T.IMPORTS, v, 1),
                edge("app.views.index", "app.models.User.greet", T.CALLS, v, 5),
                edge("app.views.index", "app.models.User", T.INSTANTIATES, v, 4),
                edge("app.views.index", "app.util.log", T.CALLS, v, 6),
                edge("app.views.index", "?requests.get", T.CALLS, v, 7),
            ],
        ),
        u: (
            [node("app.util", "module", u, 1, 5), node("app.util.log", "function", u, 1, 5)],
            [edge("app.util", "app.util.log", T.CONTAINS, u, 1)],
        ),
        f: (
            [node("app.far", "module", f, 1, 5), node("app.far.far", "function", f, 1, 5)],
            [
                edge("app.far", "app.far.far", T.CONTAINS, f, 1),
                edge("app.far.far", "app.views.index", T.CALLS, f, 3),
            ],
        ),
    }


def build(facts: FileFacts) -> DependencyGraph:
    return DependencyGraph.build(
        [n for ns, _ in facts.values() for n in ns], [e for _, es in facts.values() for e in es]
    )


def snapshot(graph: DependencyGraph) -> tuple[set[Node], set[Edge]]:
    return set(graph.nodes()), set(graph.edges())


def check_chain(result: Neighbour, seeds: Iterable[str]) -> None:
    """The path must be a contiguous walk from a seed to the result, and the
    direction label must match how its edges were walked."""
    assert result.path, result
    first = result.path[0]
    here = first.src if first.src in seeds else first.dst
    assert here in seeds
    walked = set()
    for hop in result.path:
        assert here in (hop.src, hop.dst)
        walked.add(hop.src == here)
        here = hop.dst if hop.src == here else hop.src
    assert here == result.id
    expected = "mixed" if len(walked) == 2 else ("out" if walked == {True} else "in")
    assert result.direction == expected


# ------------------------------------------------------------------ records


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"dst": "?x", "resolved": True}, "disagrees"),
        ({"dst": "b", "resolved": False}, "disagrees"),
        ({"src": "?a"}, "cannot be unresolved"),
        ({"type": "eats"}, "eats"),
    ],
    ids=["unresolved-marked-resolved", "resolved-marked-unresolved", "unresolved-source", "unknown-type"],
)
def test_edge_rejects_inconsistent_records(kwargs: dict[str, Any], message: str) -> None:
    fields: dict[str, Any] = {"src": "a", "dst": "b", "type": "calls", "path": "a.py", "line": 1}
    with pytest.raises(ValueError, match=message):
        Edge(**{**fields, **kwargs})


def test_records_coerce_plain_strings() -> None:
    # Plain strings, as a caller parsing JSON would pass them.
    node_fields: dict[str, Any] = {"id": "m", "kind": "module", "path": "m.py"}
    edge_fields: dict[str, Any] = {"src": "a", "dst": "b", "type": "calls", "path": "a.py", "line": 1}
    assert Node(**node_fields).kind is K.MODULE
    assert Edge(**edge_fields).type is T.CALLS
    with pytest.raises(ValueError):
        Node(id="?x", kind=K.FUNCTION)


# ------------------------------------------------------------ build & files


def test_build_has_exactly_the_given_edges() -> None:
    facts = project()
    graph = build(facts)
    assert set(graph.edges()) == {e for _, es in facts.values() for e in es}
    declared = {n for ns, _ in facts.values() for n in ns}
    assert set(graph.nodes()) == declared | {Node(id="?requests.get", kind=K.EXTERNAL)}
    assert graph.is_implicit("?requests.get") and not graph.is_implicit("app.views")
    assert graph.out_edges("app.models.User") == [
        edge("app.models.User", "app.models.User.save", T.CONTAINS, "app/models.py", 13),
        edge("app.models.User", "app.models.User.greet", T.CONTAINS, "app/models.py", 21),
        edge("app.models.User", "app.models.Base", T.INHERITS, "app/models.py", 12),
    ]
    assert set(graph.in_edges("app.util.log")) == {
        edge("app.util", "app.util.log", T.CONTAINS, "app/util.py", 1),
        edge("app.models.Base.save", "app.util.log", T.CALLS, "app/models.py", 6),
        edge("app.views.index", "app.util.log", T.CALLS, "app/views.py", 6),
    }
    assert graph.edges(src="app.views.index", type=T.CALLS, dst="?requests.get") == [
        edge("app.views.index", "?requests.get", T.CALLS, "app/views.py", 7)
    ]
    assert graph.edges(src="nope") == []
    assert graph.files() == sorted(facts)
    view = graph.as_networkx()
    assert view.number_of_edges() == len(graph.edges())
    with pytest.raises(nx.NetworkXError):
        view.add_node("x")
    assert graph.node("app.models.User") == node("app.models.User", "class", "app/models.py", 12, 30)


def test_duplicate_edge_is_idempotent() -> None:
    e = edge("a", "b", T.CALLS, "a.py", 3)
    assert DependencyGraph.build([], [e, e]).edges() == [e]


@pytest.mark.parametrize("removed", ["app/views.py", "app/util.py", "app/far.py"], ids=["views", "util", "far"])
def test_remove_file_leaves_exactly_the_rest(removed: str) -> None:
    facts = project()
    graph = build(facts)
    before = snapshot(graph)
    graph.remove_file(removed)

    kept_edges = {e for path, (_, es) in facts.items() if path != removed for e in es}
    declared = {n for path, (ns, _) in facts.items() if path != removed for n in ns}
    declared_ids = {n.id for n in declared}
    # Endpoints nobody declares any more survive only as external placeholders.
    placeholders = {
        Node(id=end, kind=K.EXTERNAL) for e in kept_edges for end in (e.src, e.dst) if end not in declared_ids
    }
    assert snapshot(graph) == (declared | placeholders, kept_edges)

    graph.add_file(removed, *facts[removed])
    assert snapshot(graph) == before


def test_remove_file_demotes_referenced_nodes_and_collects_orphans() -> None:
    graph = build(project())
    graph.remove_file("app/models.py")
    # app.views still calls User.greet: the id stays, as an external.
    assert graph.node("app.models.User.greet") == Node(id="app.models.User.greet", kind=K.EXTERNAL)
    assert graph.is_implicit("app.models.User.greet")
    assert "app.models.helper" not in graph  # nobody else pointed at it
    graph.remove_file("app/views.py")
    assert "app.models.User.greet" not in graph
    assert "?requests.get" not in graph


def test_add_file_replaces_previous_content() -> None:
    facts = project()
    graph = build(facts)
    nodes, _ = facts["app/util.py"]
    graph.add_file("app/util.py", nodes, [edge("app.util.log", "app.util", T.REFERENCES, "app/util.py", 2)])
    assert graph.edges(type=T.REFERENCES) == [edge("app.util.log", "app.util", T.REFERENCES, "app/util.py", 2)]
    assert graph.edges(src="app.util", type=T.CONTAINS) == []


@pytest.mark.parametrize(
    ("nodes", "edges", "message"),
    [
        ([node("x", "function", "other.py")], [], "has path"),
        ([], [edge("x", "y", T.CALLS, "other.py")], "is sited in"),
        ([node("app.views.index", "function", "app/util.py")], [], "already declared"),
    ],
    ids=["node-path", "edge-path", "id-owned-by-other-file"],
)
def test_add_file_rejects_before_mutating(nodes: list[Node], edges: list[Edge], message: str) -> None:
    graph = build(project())
    before = snapshot(graph)
    with pytest.raises(ValueError, match=message):
        graph.add_file("app/util.py", nodes, edges)
    assert snapshot(graph) == before


def test_stats_counts() -> None:
    stats = build(project()).stats()
    assert stats == {
        "nodes": 14,
        "edges": 19,
        "unresolved_edges": 1,
        "module": 4,
        "class": 2,
        "function": 4,
        "method": 3,
        "binding": 0,
        "external": 1,
        "contains": 9,
        "imports": 2,
        "reexports": 0,
        "inherits": 1,
        "calls": 5,
        "instantiates": 1,
        "references": 0,
        "decorates": 0,
        "overrides": 1,
    }


# ------------------------------------------------------------ neighbourhood


@pytest.mark.parametrize(
    ("directions", "expected"),
    [
        (
            ("out",),
            {
                ("app.views.index", "app.models.User.greet", "out"),
                ("app.views.index", "app.models.User", "out"),
                ("app.views.index", "app.util.log", "out"),
                ("app.views.index", "?requests.get", "out"),
            },
        ),
        (("in",), {("app.views", "app.views.index", "in"), ("app.far.far", "app.views.index", "in")}),
    ],
    ids=["out", "in"],
)
def test_neighbourhood_depth_one(directions: tuple[str, ...], expected: set[tuple[str, str, str]]) -> None:
    hops = build(project()).neighbourhood("app.views.index", 1, directions)
    assert {(e.src, e.dst, label) for e, label in hops} == expected


def test_neighbourhood_depth_two_walks_both_ways_once() -> None:
    hops = build(project()).neighbourhood("app.util.log", 2)
    assert len(hops) == len({e for e, _ in hops})
    assert (edge("app.far.far", "app.views.index", T.CALLS, "app/far.py", 3), "in") in hops
    with pytest.raises(ValueError):
        build(project()).neighbourhood("app.util.log", 1, ("sideways",))


# ------------------------------------------------------------------ ranking

METHODS = pytest.mark.parametrize("method", ["ppr", "bfs"], ids=["ppr", "bfs"])


@METHODS
@pytest.mark.parametrize(
    ("seed", "near", "far"),
    [
        ("app.models.Base", "app.models.User", "app.far.far"),  # subclass
        ("app.models.User.greet", "app.views.index", "app.far.far"),  # caller
        ("app.models.Base.save", "app.models.User.save", "app.views"),  # override
    ],
    ids=["subclass", "caller", "overrider"],
)
def test_related_ranks_direct_dependants_above_far_nodes(method: Method, seed: str, near: str, far: str) -> None:
    results = build(project()).related({seed: 1.0}, max_depth=4, method=method)
    order = [r.id for r in results]
    assert near in order and far in order
    assert order.index(near) < order.index(far)
    assert seed not in order
    assert results[order.index(near)].direction == "in"
    for result in results:
        check_chain(result, {seed})


@METHODS
def test_related_justifies_with_paths_and_skips_externals(method: Method) -> None:
    graph = build(project())
    results = graph.related({"app.views.index": 1.0, "app.util.log": 0.5}, method=method)
    assert results
    assert all(not r.id.startswith("?") for r in results)
    assert all(graph.node(r.id).kind is not K.EXTERNAL for r in results)
    assert all(len(r.path) <= 2 for r in results)
    for result in results:
        check_chain(result, {"app.views.index", "app.util.log"})
    scores = [r.score for r in results]
    assert scores == sorted(scores, reverse=True)
    by_id = {r.id: r for r in results}
    assert by_id["app.models.User.greet"].path == (
        edge("app.views.index", "app.models.User.greet", T.CALLS, "app/views.py", 5),
    )
    assert by_id["app.models.User.greet"].direction == "out"


@METHODS
def test_related_survives_import_cycles(method: Method) -> None:
    graph = DependencyGraph.build(
        [node("a", "module", "a.py"), node("b", "module", "b.py"), node("c", "module", "c.py")],
        [
            edge("a", "b", T.IMPORTS, "a.py"),
            edge("b", "a", T.IMPORTS, "b.py"),
            edge("b", "c", T.IMPORTS, "b.py"),
        ],
    )
    results = graph.related({"a": 1.0}, max_depth=10, method=method)
    assert [r.id for r in results] == ["b", "c"]
    assert len(results[0].path) == 1


@METHODS
def test_related_edge_cases(method: Method) -> None:
    graph = build(project())
    # A seed whose only edges are unresolved, or weight zero, relates nothing.
    lonely = DependencyGraph.build([node("f", "function", "f.py")], [edge("f", "?g", T.CALLS, "f.py")])
    assert lonely.related({"f": 1.0}, method=method) == []
    assert graph.related({"app.util.log": 0.0}, method=method) == []
    assert graph.related({"app.util.log": 1.0}, limit=0, method=method) == []
    assert len(graph.related({"app.util.log": 1.0}, limit=2, method=method)) == 2
    with pytest.raises(KeyError):
        graph.related({"no.such": 1.0})
    with pytest.raises(ValueError):
        graph.related({"app.util.log": -1.0})
    with pytest.raises(ValueError):
        graph.related({"app.util.log": 1.0}, max_depth=0)


@pytest.mark.parametrize(
    ("seed", "top"),
    [("hub", "hub.base"), ("leaf3", "hub")],
    ids=["seed-at-centre", "seed-at-leaf"],
)
def test_ppr_and_bfs_agree_on_star_top(seed: str, top: str) -> None:
    leaves = [f"leaf{i}" for i in range(6)]
    graph = DependencyGraph.build(
        [node(n, "class", "s.py") for n in ["hub", "hub.base", *leaves]],
        [edge("hub", "hub.base", T.INHERITS, "s.py")] + [edge(leaf, "hub", T.REFERENCES, "s.py") for leaf in leaves],
    )
    assert graph.related({seed: 1.0}, method="ppr")[0].id == top
    assert graph.related({seed: 1.0}, method="bfs")[0].id == top


def test_rank_cache_follows_updates() -> None:
    facts = project()
    graph = build(facts)
    assert "app.far.far" not in {r.id for r in graph.related({"app.util.log": 1.0}, max_depth=1)}
    version = graph.version
    nodes, edges = facts["app/far.py"]
    graph.add_file("app/far.py", nodes, [*edges, edge("app.far.far", "app.util.log", T.CALLS, "app/far.py", 4)])
    assert graph.version != version
    assert "app.far.far" in {r.id for r in graph.related({"app.util.log": 1.0}, max_depth=1)}
    graph.remove_file("app/far.py")
    assert "app.far.far" not in {r.id for r in graph.related({"app.util.log": 1.0}, max_depth=1)}


def test_ppr_matches_networkx_pagerank() -> None:
    """Our cached power iteration against networkx on the same weighted
    graph (parallel edges collapsed to their heaviest weight)."""
    facts = synthetic(modules=40, rng=random.Random(3))
    graph = build(facts)
    walk: nx.DiGraph[str] = nx.DiGraph()
    for e in graph.edges():
        if not e.resolved or e.src == e.dst:
            continue
        forward, backward = DEFAULT_WEIGHTS[e.type]
        for a, b, w in ((e.src, e.dst, forward), (e.dst, e.src, backward)):
            if w > walk.get_edge_data(a, b, {"weight": 0.0})["weight"]:
                walk.add_edge(a, b, weight=w)
    seeds = {"pkg0.mod1.Class0.method0": 1.0, "pkg0.mod2.func0": 1.0}
    expected = nx.pagerank(walk, alpha=graphs.rank.ALPHA, personalization=seeds, tol=1e-12, max_iter=1000)
    for result in graph.related(seeds, limit=30, method="ppr"):
        assert result.score == pytest.approx(expected[result.id], rel=1e-3, abs=1e-9)


# ------------------------------------------------------------------- render

EDGE_LINE = re.compile(r'^  "(?P<src>[^"]+)" -> "(?P<dst>[^"]+)" \[label="(?P<label>\w+)"(?P<rest>.*)\];$')
NODE_LINE = re.compile(r'^  "(?P<id>[^"]+)" \[label="(?P<label>[^"]+)", shape="(?P<shape>\w+)"(?P<rest>.*)\];$')


def test_to_dot_is_a_labelled_digraph() -> None:
    graph = build(project())
    text = graph.to_dot("app.views.index")
    lines = text.splitlines()
    assert lines[0] == "digraph neighbourhood {" and lines[-1] == "}"
    edges = {(m["src"], m["dst"], m["label"], "dashed" in m["rest"]) for line in lines if (m := EDGE_LINE.match(line))}
    assert edges == {(e.src, e.dst, e.type.value, not e.resolved) for e, _ in graph.neighbourhood("app.views.index")}
    nodes = {m["id"]: m for line in lines if (m := NODE_LINE.match(line))}
    assert set(nodes) == {end for src, dst, _, _ in edges for end in (src, dst)}
    assert nodes["app.views.index"]["label"] == "app.views.index\\nfunction"
    assert "bold" in nodes["app.views.index"]["rest"]
    assert "dashed" in nodes["?requests.get"]["rest"]
    assert nodes["app.views"]["shape"] == "tab"
    assert len(lines) == 5 + len(nodes) + len(edges)


def test_to_dot_escapes_quotes() -> None:
    graph = DependencyGraph.build([node('a"b\\c', "binding", "a.py")], [edge('a"b\\c', "?x", T.REFERENCES, "a.py")])
    assert '"a\\"b\\\\c" -> "?x"' in graph.to_dot('a"b\\c')


def test_render_svg_without_dot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("graphs.render.dot_program", lambda: None)
    assert render_svg("digraph { a -> b }") is None


@pytest.mark.skipif(dot_program() is None, reason="Graphviz dot not installed")
def test_render_svg_with_dot() -> None:
    svg = render_svg(build(project()).to_dot("app.models.User", depth=2))
    assert svg is not None and b"<svg" in svg
    with pytest.raises(subprocess.CalledProcessError):
        render_svg("digraph { a -> }")


# ---------------------------------------------------------------- synthetic


def synthetic(modules: int, rng: random.Random) -> FileFacts:
    """A random but structured project: packages of modules holding classes
    holding methods, plus functions; imports and calls mostly stay inside a
    package, some inheritance with overrides, unresolved library calls, and
    two Django-like hubs (`pkg0.mod0.Class0` subclassed like `Model`,
    `pkg0.mod0.func0` called like `gettext`). 900 modules give ~40k nodes /
    ~150k edges, Django's order of size."""
    per_package = 15
    facts: FileFacts = {}
    layout: list[tuple[str, list[str], list[str], list[str]]] = []  # module, classes, callables, functions
    for m in range(modules):
        mod = f"pkg{m // per_package}.mod{m % per_package}"
        classes = [f"{mod}.Class{c}" for c in range(rng.randint(2, 8))]
        methods = [f"{cls}.method{i}" for cls in classes for i in range(rng.randint(3, 11))]
        functions = [f"{mod}.func{i}" for i in range(rng.randint(1, 5))]
        layout.append((mod, classes, methods + functions, functions))
    members = {
        cls: [c for c in callables if c.startswith(cls + ".")] for _, classes, callables, _ in layout for cls in classes
    }
    hub_class, hub_function = layout[0][1][0], layout[0][3][0]
    for m, (mod, classes, callables, functions) in enumerate(layout):
        path = mod.replace(".", "/") + ".py"
        line = iter(range(1, 1_000_000))
        nodes = [node(mod, "module", path, 1, 5000)]
        edges: list[Edge] = []

        def near(rng: random.Random = rng, m: int = m) -> tuple[str, list[str], list[str], list[str]]:
            # 70% of dependencies stay within the package.
            if rng.random() < 0.7:
                base = m - m % per_package
                return layout[min(modules - 1, base + rng.randrange(per_package))]
            return layout[rng.randrange(modules)]

        for cls in classes:
            nodes.append(node(cls, "class", path, next(line), 100))
            edges.append(edge(mod, cls, T.CONTAINS, path, 1))
            if rng.random() < 0.8:
                base = hub_class if rng.random() < 0.05 else rng.choice(near()[1])
                if base != cls:
                    edges.append(edge(cls, base, T.INHERITS, path, 1))
                    for meth, parent in zip(members[cls][:2], members[base], strict=False):
                        edges.append(edge(meth, parent, T.OVERRIDES, path, 2))
        for fn in callables:
            owner, _, _ = fn.rpartition(".")
            kind = "function" if fn in functions else "method"
            nodes.append(node(fn, kind, path, next(line), 10))
            edges.append(edge(owner, fn, T.CONTAINS, path, 1))
            for _ in range(rng.choice((1, 2, 2, 3, 3))):
                edges.append(edge(fn, rng.choice(near()[2]), T.CALLS, path, next(line)))
            if rng.random() < 0.05 and fn != hub_function:
                edges.append(edge(fn, hub_function, T.CALLS, path, next(line)))
            if rng.random() < 0.2:
                edges.append(edge(fn, rng.choice(near()[1]), T.INSTANTIATES, path, next(line)))
            if rng.random() < 0.1:
                edges.append(edge(fn, rng.choice(near()[1]), T.REFERENCES, path, next(line)))
            if rng.random() < 0.03:
                edges.append(edge(rng.choice(near()[3]), fn, T.DECORATES, path, next(line)))
            if rng.random() < 0.3:
                edges.append(edge(fn, f"?lib{rng.randrange(500)}.call", T.CALLS, path, next(line)))
        for _ in range(rng.randint(4, 12)):
            edges.append(edge(mod, near()[0], T.IMPORTS, path, 1))
        facts[path] = (nodes, edges)
    return facts


def test_synthetic_graph_queries_are_consistent() -> None:
    graph = build(synthetic(modules=60, rng=random.Random(1)))
    seeds = {"pkg1.mod3.Class0.method1": 1.0}
    ppr = graph.related(seeds, limit=50, method="ppr")
    bfs = graph.related(seeds, limit=50, method="bfs")
    assert ppr and bfs
    for result in [*ppr, *bfs]:
        check_chain(result, seeds)
    # Same reachable set, so the union of both top lists is plausible context.
    assert {r.id for r in ppr} & {r.id for r in bfs}


@pytest.mark.skipif(not os.environ.get("GRAPHS_BENCH"), reason="benchmark: set GRAPHS_BENCH=1")
def test_bench_django_size() -> None:
    rng = random.Random(7)
    facts = synthetic(modules=900, rng=rng)
    nodes = [n for ns, _ in facts.values() for n in ns]
    edges = [e for _, es in facts.values() for e in es]

    def timed(fn: Callable[[], object], repeat: int) -> float:
        samples = []
        for _ in range(repeat):
            start = time.perf_counter()
            fn()
            samples.append(time.perf_counter() - start)
        return statistics.median(samples) * 1000

    start = time.perf_counter()
    graph = DependencyGraph.build(nodes, edges)
    build_ms = (time.perf_counter() - start) * 1000
    callables = [n.id for n in nodes if n.kind in (K.METHOD, K.FUNCTION)]
    queries = [{c: 1.0 for c in rng.sample(callables, rng.randint(1, 3))} for _ in range(50)]
    start = time.perf_counter()
    graph.related(queries[0], method="bfs")
    cold_bfs_ms = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    graph.related(queries[0], method="ppr")
    cold_ppr_ms = (time.perf_counter() - start) * 1000
    qi = iter(queries * 10)
    ppr_ms = timed(lambda: graph.related(next(qi), method="ppr"), 50)
    qi = iter(queries * 10)
    bfs_ms = timed(lambda: graph.related(next(qi), method="bfs"), 50)
    hub_bfs_ms = timed(lambda: graph.related({"pkg0.mod0.Class0": 1.0}, method="bfs"), 5)
    hub_ppr_ms = timed(lambda: graph.related({"pkg0.mod0.Class0": 1.0}, method="ppr"), 5)
    index = graph._rank_index()
    power_ms = timed(lambda: index.pagerank(queries[0]), 20)

    def rebuild_index() -> None:
        graph._rank_cache = None
        graph._rank_index()

    index_ms = timed(rebuild_index, 3)

    walk: nx.DiGraph[str] = nx.DiGraph()
    for e in edges:
        if e.resolved and e.src != e.dst:
            forward, backward = DEFAULT_WEIGHTS[e.type]
            walk.add_edge(e.src, e.dst, weight=forward)
            walk.add_edge(e.dst, e.src, weight=backward)
    nx_ms = timed(lambda: nx.pagerank(walk, alpha=graphs.rank.ALPHA, personalization=queries[0]), 3)

    path, (file_nodes, file_edges) = next(iter(facts.items()))

    def update() -> None:
        graph.remove_file(path)
        graph.add_file(path, file_nodes, file_edges)

    update_ms = timed(update, 20)
    stats = graph.stats()
    print(
        f"\nnodes={stats['nodes']} edges={stats['edges']} build={build_ms:.0f}ms "
        f"rank-index={index_ms:.0f}ms first-bfs={cold_bfs_ms:.1f}ms first-ppr={cold_ppr_ms:.0f}ms "
        f"ppr={ppr_ms:.1f}ms (power iteration {power_ms:.1f}ms) bfs={bfs_ms:.1f}ms "
        f"hub-seed bfs={hub_bfs_ms:.1f}ms ppr={hub_ppr_ms:.1f}ms "
        f"networkx.pagerank={nx_ms:.0f}ms one-file-update={update_ms:.2f}ms"
    )
