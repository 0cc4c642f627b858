"""The dependency graph built from a real index of fixture repositories: exact edges."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from codehop.frontends.cli import main
from codehop.index.indexer import index_repo
from codehop.navigation.graph_context import GraphContext


def edges_of(repo) -> set[tuple[str, str, str]]:  # type: ignore[no-untyped-def]
    store, _ = index_repo(repo)
    g = GraphContext(store).graph()
    return {(e.src, e.dst, str(e.type)) for e in g.edges()}


def test_reexports(fixture_repo):
    """reexport_chain: shop/__init__.py:6 and shop/api/__init__.py:3-4."""
    edges = edges_of(fixture_repo("reexport_chain"))
    assert ("shop", "shop.api.cart.Cart", "reexports") in edges
    assert ("shop.api", "shop.api.cart.Cart", "reexports") in edges
    assert ("shop.api", "shop.api.flow", "reexports") in edges  # the star import
    assert ("app.main", "shop.api.cart.Cart", "instantiates") in edges


def test_inheritance_across_files_and_overrides(fixture_repo):
    """inherited_member: HTTPTransport(BaseTransport) overrides send; MockTransport's `close = _noop`."""
    edges = edges_of(fixture_repo("inherited_member"))
    assert ("transport.http.HTTPTransport", "transport.base.BaseTransport", "inherits") in edges
    assert ("transport.mock.MockTransport", "transport.http.HTTPTransport", "inherits") in edges
    assert ("transport.http.HTTPTransport.send", "transport.base.BaseTransport.send", "overrides") in edges
    assert ("transport.mock.MockTransport.close", "transport.base.BaseTransport.close", "overrides") in edges
    assert not any(t == "overrides" and s.endswith("MockTransport.send") for s, _, t in edges)


def test_calls_through_an_alias_and_circular_imports(fixture_repo):
    """circular: a <-> b import each other; c.run calls ping through `ping as p`."""
    edges = edges_of(fixture_repo("circular"))
    assert {("graphpkg.a", "graphpkg.b", "imports"), ("graphpkg.b", "graphpkg.a", "imports")} <= edges
    assert ("graphpkg.c.run", "graphpkg.a.ping", "calls") in edges
    assert ("graphpkg.a.ping", "graphpkg.b.pong", "calls") in edges


def test_unresolvable_names_invent_nothing(fixture_repo):
    """circular/graphpkg/d.py: `mystery_function()` is defined nowhere; `thing` comes from a missing package."""
    edges = edges_of(fixture_repo("circular"))
    from_d = {e for e in edges if e[0].startswith("graphpkg.d")}
    assert ("graphpkg.d", "?nonexistent_pkg.thing", "imports") in from_d
    assert not any("mystery_function" in dst and not dst.startswith("?") for _, dst, _ in from_d)
    assert all(dst.startswith(("?", "graphpkg.d")) for _, dst, _ in from_d)


def test_one_file_update_touches_only_its_edges(fixture_repo):
    repo = fixture_repo("inherited_member")
    store, _ = index_repo(repo)
    gc = GraphContext(store)
    before = {(e.src, e.dst, str(e.type)) for e in gc.graph().edges()}
    http = repo / "transport/http.py"
    http.write_text(http.read_text().replace("class HTTPTransport(BaseTransport):", "class HTTPTransport:"))
    store, _ = index_repo(repo)
    reloaded = gc.refresh()
    after = {(e.src, e.dst, str(e.type)) for e in gc.graph().edges()}
    assert ("transport.http.HTTPTransport", "transport.base.BaseTransport", "inherits") in before - after
    assert ("transport.http.HTTPTransport.send", "transport.base.BaseTransport.send", "overrides") not in after
    assert "transport/http.py" in reloaded and "transport/base.py" not in reloaded


def test_hidden_dependencies_with_justification(fixture_repo):
    store, _ = index_repo(fixture_repo("inherited_member"))
    out = GraphContext(store).neighbours({"transport.mock.MockTransport": 1.0}, 10)
    ids = [n for n, _, _ in out]
    assert "transport.http.HTTPTransport" in ids
    why = dict((n, w) for n, _, w in out)["transport.http.HTTPTransport"]
    assert "inherits" in why


def test_named_neighbours_are_the_named_share_of_the_ranking(fixture_repo):
    store, _ = index_repo(fixture_repo("inherited_member"))
    seeds = {"transport.mock.MockTransport": 1.0}
    every = GraphContext(store).neighbours(seeds, 10)
    named = frozenset({"httptransport", "send"})
    kept = GraphContext(store).neighbours(seeds, 10, named)
    assert kept == [n for n in every if n[0].rpartition(".")[2].lower() in named]
    assert kept and len(kept) < len(every)
    # a neighbourhood with no declaration of that name is not ranked at all
    assert GraphContext(store).neighbours(seeds, 10, frozenset({"nowhere"})) == []


@pytest.mark.parametrize("args", [["--json"], ["--depth", "2", "--json"]], ids=["depth1", "depth2"])
def test_cli_graph(fixture_repo, args):
    repo = str(fixture_repo("inherited_member"))
    r = CliRunner().invoke(main, ["graph", "transport.MockTransport", "--repo", repo, *args])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["symbol"] == "transport.mock.MockTransport"
    assert any(e["type"] == "inherits" and e["direction"] == "out" for e in data["edges"])


def test_cli_graph_stats_and_dot(fixture_repo, tmp_path):
    repo = str(fixture_repo("inherited_member"))
    stats = json.loads(CliRunner().invoke(main, ["graph", "--stats", "--repo", repo, "--json"]).output)
    assert stats["inherits"] == 2 and stats["overrides"] == 2
    dot = tmp_path / "g.dot"
    r = CliRunner().invoke(main, ["graph", "transport.mock.MockTransport", "--repo", repo, "--dot", str(dot)])
    assert r.exit_code == 0
    text = dot.read_text()
    assert text.lstrip().startswith(("digraph", "strict digraph")) and "inherits" in text
    missing = CliRunner().invoke(main, ["graph", "no.such.Thing", "--repo", repo])
    assert missing.exit_code == 2
