"""codehop.context: build_context, render_markdown and dependents on real indexes of fixtures_repos/."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from shared import CONTRACT_KEYS

from codehop.app import App, Config
from codehop.context import build_context, dependents, render_markdown, with_dependencies
from codehop.errors import UsageError
from codehop.orchestrator import Limits
from codehop.records import Answer, Chunk, ChunkKind, Completeness, ContextItem, State, Via

ITEM_KEYS = {"path", "start_line", "end_line", "qualname", "kind", "hop", "via", "provenance"}


@pytest.fixture
def app_for_fixture(fixture_repo: Callable[[str], Path]) -> Iterator[Callable[[str], App]]:
    apps: list[App] = []

    def make(name: str) -> App:
        apps.append(App(fixture_repo(name)))
        return apps[-1]

    yield make
    for app in apps:
        app.close()


def test_build_context_is_the_answer_json_contract(app_for_fixture):
    """reexport_chain: "Where is `Cart` defined?" -> complete, the class at shop/api/cart.py:4 in context."""
    app = app_for_fixture("reexport_chain")
    answer = build_context(app, "Where is `Cart` defined?")
    data = answer.to_dict()
    assert set(data) == CONTRACT_KEYS
    assert all(set(item) == ITEM_KEYS for item in data["context"])
    assert data["state"] == "complete" and data["answer_completeness"] == "complete"
    assert any(c["path"] == "shop/api/cart.py" and c["start_line"] == 4 for c in data["context"])
    # the same loop as ask: same answer, same state
    asked = app.navigator().ask("Where is `Cart` defined?", Limits())
    assert (answer.answer, answer.state) == (asked.answer, asked.state)


def test_build_context_adds_what_the_focus_code_depends_on(app_for_fixture):
    """injection: `handle` (notes/handler.py:14) makes a Processor: notes/core.py:4 joins the context."""
    app = app_for_fixture("injection")
    answer = build_context(app, "What does `handle` call?")
    assert answer.context[0].chunk.qualname == "notes.handler.handle"
    dep = next(c for c in answer.context if c.chunk.rel_path == "notes/core.py")
    assert (dep.chunk.start_line, dep.via) == (4, Via.GRAPH)
    assert "notes.handler.handle -instantiates-> notes.core.Processor" in dep.provenance
    assert answer.stats["context_tokens"] == sum(c.tokens for c in answer.context)


def test_dependencies_follow_the_item_they_come_from(app_for_fixture):
    """injection: from `handle` alone (notes/handler.py:14-20), its edge to notes/core.py:4 adds Processor."""
    app = app_for_fixture("injection")
    handle = app.store.chunks_named("notes.handler.handle")[0]
    item = ContextItem(chunk=handle, hop=0, via=Via.BM25, provenance="bm25", tokens=60)
    out = with_dependencies(app, [item], budget_tokens=2000)
    assert [(c.chunk.rel_path, c.chunk.start_line) for c in out] == [("notes/handler.py", 14), ("notes/core.py", 4)]
    assert out[1].provenance == "graph: notes.handler.handle -instantiates-> notes.core.Processor"
    assert with_dependencies(app, [item], budget_tokens=60) == [item]  # no room: the focus stays, alone


@pytest.mark.parametrize("budget", [80, 150, 2000], ids=["tiny", "small", "default"])
def test_build_context_stays_within_the_budget(app_for_fixture, budget):
    """reexport_chain: whatever is added, the context fits budget_tokens."""
    app = app_for_fixture("reexport_chain")
    answer = build_context(app, "How does checkout use the Cart?", budget_tokens=budget)
    assert sum(c.tokens for c in answer.context) <= budget


def test_render_markdown_has_headers_and_fenced_code(app_for_fixture):
    """injection: a `### path:start-end — qualname (via, provenance, hop)` header and a fence per item."""
    app = app_for_fixture("injection")
    answer = build_context(app, "What does `handle` call?")
    md = render_markdown(answer)
    first = md.splitlines()[0]
    assert first.startswith("## codehop context — state: complete, completeness: complete")
    for item in answer.context:
        c = item.chunk
        assert (
            f"### {c.rel_path}:{c.start_line}-{c.end_line} — {c.qualname} "
            f"({item.via}, {item.provenance}, hop {item.hop})"
        ) in md
        assert f"```python\n{c.text.rstrip()}\n```" in md
    assert md.count("```python") == len(answer.context)
    # hostile text stays inside code fences, never in the prose around them
    assert all("IGNORE ALL PREVIOUS" not in line for line in _outside_fences(md))


def test_render_markdown_from_the_json_dict_gives_headers_only(app_for_fixture):
    """reexport_chain: the dict carries no chunk text, so no fences (render from the Answer for code)."""
    app = app_for_fixture("reexport_chain")
    data = build_context(app, "Where is `Cart` defined?").to_dict()
    md = render_markdown(data)
    assert "### shop/api/cart.py:4-7 — shop.api.cart.Cart (bm25, bm25, hop 0)" in md
    assert "```" not in md


def test_render_markdown_fence_outlasts_backticks_in_the_code():
    """A chunk holding ``` cannot close the block early: the fence grows."""
    text = 'DOC = """\n```python\nprint(1)\n```\n"""'
    chunk = Chunk(
        rel_path="m.py",
        start_line=1,
        end_line=5,
        kind=ChunkKind.MODULE,
        qualname="m",
        name="m",
        signature="",
        docstring="",
        text=text,
        identifiers="doc",
    )
    answer = Answer(
        question="q",
        answer="",
        completeness=Completeness.PARTIAL,
        state=State.GIVE_UP_PARTIAL,
        pending=(),
        context=(ContextItem(chunk=chunk, hop=0, via=Via.BM25, provenance="bm25"),),
        hops=(),
    )
    md = render_markdown(answer)
    assert f"````python\n{text}\n````" in md
    assert "state: give_up_partial, completeness: partial" in md


@pytest.mark.parametrize("symbol", ["shop.api.cart.Cart", "shop.Cart"], ids=["declaration", "reexported"])
def test_dependents_of_a_reexported_class(app_for_fixture, symbol):
    """reexport_chain: Cart (shop/api/cart.py:4) is re-exported at shop/api/__init__.py:3 and
    shop/__init__.py:6, imported at app.py:3 and called at app.py:7."""
    app = app_for_fixture("reexport_chain")
    found = {(d["path"], d["line"], d["ref_type"]) for d in dependents(app, symbol)}
    assert found == {
        ("shop/api/__init__.py", 3, "reexport"),
        ("shop/__init__.py", 6, "reexport"),
        ("app.py", 3, "import"),
        ("app.py", 7, "call"),
    }
    first = dependents(app, symbol)[0]
    assert set(first) == {"path", "line", "ref_type", "anchor_text", "scope", "relation", "col", "code", "is_test"}


def test_dependents_include_subclasses_and_overrides(app_for_fixture):
    """inherited_member: HTTPTransport (transport/http.py:6) subclasses BaseTransport, overrides send (:9)."""
    app = app_for_fixture("inherited_member")
    base = dependents(app, "transport.base.BaseTransport")
    assert ("transport/http.py", 6, "base_class") in {(d["path"], d["line"], d["ref_type"]) for d in base}
    send = dependents(app, "transport.base.BaseTransport.send")
    assert [(d["path"], d["line"], d["relation"]) for d in send] == [("transport/http.py", 9, "overrides")]


@pytest.mark.parametrize(
    ("fixture", "symbol", "message"),
    [
        ("reexport_chain", "shop.api.cart.Nope", "symbol not found in the index: shop.api.cart.Nope"),
        ("reexport_chain", "os.path", "symbol not found in the index: os.path"),
        # circular/graphpkg/d.py:3 imports `thing` from a package the repository does not hold
        ("circular", "graphpkg.d.thing", "resolves outside the repository"),
        ("reexport_chain", "app.py:3", "not a dotted symbol"),
    ],
    ids=["missing", "not-imported", "external", "not-dotted"],
)
def test_dependents_of_an_unknown_symbol_is_a_usage_error(app_for_fixture, fixture, symbol, message):
    """A symbol that does not name a declaration in the repository is the caller's error."""
    app = app_for_fixture(fixture)
    with pytest.raises(UsageError, match=message.replace(".", r"\.")):
        dependents(app, symbol)


def _outside_fences(md: str) -> list[str]:
    out, fence = [], ""
    for line in md.splitlines():
        if fence:
            if line == fence:
                fence = ""
        elif line.startswith("```"):
            fence = line[: len(line) - len(line.lstrip("`"))]
        else:
            out.append(line)
    return out


def test_task_context_brings_the_callers_of_its_subject(fixture_repo):
    """inherited_member: BaseTransport.__exit__ (transport/base.py:14) calls self.close (:7); a task
    about changing `close` gets its caller even when retrieval alone returns only `close`."""
    app = App(fixture_repo("inherited_member"), Config(retrieve_k=1, use_graph=False))
    answer = build_context(app, "Change the signature of `BaseTransport.close` and update every caller")
    spans = {(c.chunk.rel_path, c.chunk.start_line) for c in answer.context}
    assert ("transport/base.py", 7) in spans
    caller = next(c for c in answer.context if c.chunk.qualname == "transport.base.BaseTransport.__exit__")
    assert caller.via == "graph" and "-calls-> transport.base.BaseTransport.close" in caller.provenance
