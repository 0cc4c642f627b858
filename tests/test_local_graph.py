"""LocalGraph (a query's neighbourhood without networkx) ranks exactly as DependencyGraph does,
on the real index of a real package (codehop's own source, copied)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from codehop.index.indexer import index_repo
from codehop.navigation.graph_context import GraphContext
from graphs.graph import DependencyGraph

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def context(tmp_path_factory):  # type: ignore[no-untyped-def]
    repo = tmp_path_factory.mktemp("self") / "repo"
    for pkg in ("codehop", "graphs"):
        shutil.copytree(ROOT / pkg, repo / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    store, _ = index_repo(repo, index_dir=str(repo.parent / "index"))
    yield GraphContext(store)
    store.close()


def test_local_graph_ranks_as_the_networkx_graph(context):  # type: ignore[no-untyped-def]
    ids = [f"{d.scope}.{d.name}" for d in context.store.declarations(None)]
    rng = random.Random(5)
    compared = 0
    for _ in range(120):
        seeds = rng.sample(ids, rng.randint(1, 4))
        local = context.local_graph(seeds)
        full = DependencyGraph.build(local._node_list, local._edge_list)
        present = {s: rng.choice([0.5, 1.0, 2.0]) for s in seeds if s in local}
        assert present == {s: w for s, w in present.items() if s in full}
        if not present:
            continue
        for method in ("bfs", "ppr"):
            got = local.related(present, limit=10, method=method)
            assert got == full.related(present, limit=10, method=method)
            compared += bool(got)
    assert compared > 50  # the comparison saw real neighbourhoods, not empty lists


def test_unknown_seed_is_a_key_error(context):  # type: ignore[no-untyped-def]
    local = context.local_graph(["codehop.app.App"])
    with pytest.raises(KeyError):
        local.related({"no.such.node": 1.0})
