"""The door's context and dependents (codehop.answer.context), render_markdown on real indexes of fixtures_repos/."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from shared import CONTRACT_KEYS, ITEM_KEYS

from codehop.answer.orchestrator import Limits
from codehop.app import App, Config
from codehop.frontends.render import render_markdown
from codehop.kernel.errors import UsageError
from codehop.kernel.records import Answer, Chunk, ChunkKind, Completeness, ContextItem, State, Via

CONTEXT_KEYS = CONTRACT_KEYS | {"manifest", "left_out"}


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
    answer = app.context("Where is `Cart` defined?")
    data = answer.to_dict()
    assert set(data) == CONTEXT_KEYS
    assert all(set(item) - {"relation"} == ITEM_KEYS for item in data["context"])
    assert data["state"] == "complete" and data["answer_completeness"] == "complete"
    assert any(c["path"] == "shop/api/cart.py" and c["start_line"] == 4 for c in data["context"])
    # the same loop as ask: same answer, same state
    asked = app.navigator().ask("Where is `Cart` defined?", Limits())
    assert (answer.answer.answer, answer.answer.state) == (asked.answer, asked.state)


def test_build_context_adds_what_the_focus_code_depends_on(app_for_fixture):
    """injection: `handle` (notes/handler.py:14) makes a Processor: notes/core.py:4 joins the context."""
    app = app_for_fixture("injection")
    answer = app.context("What does `handle` call?")
    assert answer.context[0].chunk.qualname == "notes.handler.handle"
    dep = next(c for c in answer.context if c.chunk.rel_path == "notes/core.py")
    assert (dep.chunk.start_line, dep.via) == (4, Via.GRAPH)
    assert "notes.handler.handle -instantiates-> notes.core.Processor" in dep.provenance
    assert answer.answer.stats.context_tokens == sum(c.tokens for c in answer.context)


@pytest.mark.parametrize("budget", [80, 150, 2000], ids=["tiny", "small", "default"])
def test_build_context_stays_within_the_budget(app_for_fixture, budget):
    """reexport_chain: whatever is added, the context fits budget_tokens."""
    app = app_for_fixture("reexport_chain")
    answer = app.context("How does checkout use the Cart?", budget_tokens=budget)
    assert sum(c.tokens for c in answer.context) <= budget


def test_render_markdown_has_headers_and_fenced_code(app_for_fixture):
    """injection: a `### path:start-end — qualname (via, provenance, hop)` header and a fence per item."""
    app = app_for_fixture("injection")
    answer = app.context("What does `handle` call?")
    md = render_markdown(answer)
    first = md.splitlines()[0]
    assert first.startswith("## codehop context — state: complete, completeness: complete")
    bodies = [item for item in answer.context if not item.relation]
    for item in bodies:
        c = item.chunk
        assert (
            f"### {c.rel_path}:{c.start_line}-{c.end_line} — {c.qualname} "
            f"({item.via}, {item.provenance}, hop {item.hop})"
        ) in md
        assert f"```python\n{c.text.rstrip()}\n```" in md
    assert md.count("```python") == len(bodies)
    # hostile text stays inside code fences, never in the prose around them
    assert all("IGNORE ALL PREVIOUS" not in line for line in _outside_fences(md))


def test_render_markdown_from_the_json_dict_is_the_same_as_from_the_context(app_for_fixture):
    """reexport_chain: the JSON carries each item's text, so it renders the same prompt section."""
    app = app_for_fixture("reexport_chain")
    ctx = app.context("Where is `Cart` defined?")
    md = render_markdown(ctx.to_dict())
    assert "### shop/api/cart.py:4-7 — shop.api.cart.Cart (bm25, bm25, hop 0)" in md
    assert md == render_markdown(ctx)
    assert "```python\nclass Cart" in md


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
    found = {(d["path"], d["line"], d["ref_type"]) for d in app.dependents(symbol).to_dict()["dependents"]}
    assert found == {
        ("shop/api/__init__.py", 3, "reexport"),
        ("shop/__init__.py", 6, "reexport"),
        ("app.py", 3, "import"),
        ("app.py", 7, "call"),
    }
    first = app.dependents(symbol).to_dict()["dependents"][0]
    assert set(first) == {"path", "line", "ref_type", "anchor_text", "scope", "relation", "col", "code", "is_test"}


def test_dependents_include_subclasses_and_overrides(app_for_fixture):
    """inherited_member: HTTPTransport (transport/http.py:6) subclasses BaseTransport, overrides send (:9)."""
    app = app_for_fixture("inherited_member")
    base = app.dependents("transport.base.BaseTransport").to_dict()["dependents"]
    assert ("transport/http.py", 6, "base_class") in {(d["path"], d["line"], d["ref_type"]) for d in base}
    send = app.dependents("transport.base.BaseTransport.send").to_dict()["dependents"]
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
        app.dependents(symbol).to_dict()["dependents"]


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
    answer = app.context("Change the signature of `BaseTransport.close` and update every caller")
    spans = {(c.chunk.rel_path, c.chunk.start_line) for c in answer.context}
    assert ("transport/base.py", 7) in spans
    caller = next(c for c in answer.context if c.chunk.qualname == "transport.base.BaseTransport.__exit__")
    assert caller.via == "graph" and "-calls-> transport.base.BaseTransport.close" in caller.provenance


# ---- the blast radius, the code that travels, the honest budget ---------------------------
RETRIES_TASK = "Add a retries parameter to fetch_record and update every caller."


def test_the_manifest_names_every_call_site_through_aliases_and_reexports(app_for_fixture):
    """blast_radius: fetch_record (store/fetch.py:5) is called at app/main.py:5, app/batch.py:5 (imported
    `as get`) and tests/test_fetch.py:5, and re-exported at store/__init__.py:1; all are named, complete."""
    app = app_for_fixture("blast_radius")
    ctx = app.context(RETRIES_TASK, budget_tokens=2000)
    data = ctx.to_dict()
    sites = {(c["path"], c["start_line"]): c for c in data["context"] if c.get("relation")}
    seen = {(c["path"], ln) for c in data["context"] for ln in range(c["start_line"], c["end_line"] + 1)}
    for site in [("app/main.py", 5), ("app/batch.py", 5), ("tests/test_fetch.py", 5), ("store/__init__.py", 1)]:
        assert site in seen, site
    assert sites[("app/batch.py", 5)]["relation"] == "calls"
    assert sites[("app/batch.py", 5)]["text"] == "return [get(k) for k in keys]"
    assert data["manifest"]["subjects"] == ["store.fetch.fetch_record"]
    assert data["manifest"]["complete"] is True and data["manifest"]["left_out_sites"] == 0


def test_every_item_carries_the_exact_lines_sent(app_for_fixture):
    """blast_radius: each body's text is its file's lines start..end; a site's text is its stripped line."""
    app = app_for_fixture("blast_radius")
    data = app.context(RETRIES_TASK, budget_tokens=2000).to_dict()
    for item in data["context"]:
        lines = (app.root / item["path"]).read_text().split("\n")[item["start_line"] - 1 : item["end_line"]]
        if item.get("relation"):
            assert item["text"] == lines[0].strip() and item["start_line"] == item["end_line"]
        else:
            assert item["text"] == "\n".join(lines) and item["truncated"] is False


def test_a_small_budget_is_honest_about_what_it_left_out(app_for_fixture):
    """blast_radius at 120 tokens: the context fits, the manifest says it is cut, and what did not
    fit is named with its token count."""
    app = app_for_fixture("blast_radius")
    ctx = app.context(RETRIES_TASK, budget_tokens=120)
    data = ctx.to_dict()
    assert data["stats"]["context_tokens"] == sum(c.tokens for c in ctx.context) <= 120
    assert data["left_out"]["items"] == len(data["left_out"]["names"]) > 0
    assert data["left_out"]["tokens"] > 0
    assert data["manifest"]["complete"] is False
    assert data["manifest"]["left_out_sites"] == data["manifest"]["sites"] - data["manifest"]["sites_sent"] > 0
    md = render_markdown(ctx)
    assert f"Left out: {data['left_out']['items']} items" in md


def test_a_cut_body_is_marked_truncated(fixture_repo):
    """blast_radius plus a generated store/long.py (`def long_task` at line 1, 200 lines): at 300 tokens
    it arrives cut, marked truncated, its span and text the lines that were kept."""
    repo = fixture_repo("blast_radius")
    body = "\n".join(f"    step_{i} = {i}  # one step of a long task" for i in range(200))
    (repo / "store" / "long.py").write_text(f"def long_task():\n{body}\n    return 0\n")
    app = App(repo)
    try:
        ctx = app.context("Change what `long_task` returns", budget_tokens=300)
        cut = [c for c in ctx.context if c.chunk.qualname == "store.long.long_task"]
        assert cut and cut[0].truncated and cut[0].chunk.end_line < 202
        lines = (repo / "store" / "long.py").read_text().split("\n")
        assert cut[0].chunk.text == "\n".join(lines[: cut[0].chunk.end_line])
        assert cut[0].to_dict()["truncated"] is True
        assert sum(c.tokens for c in ctx.context) <= 300
    finally:
        app.close()


def test_a_string_key_brings_the_registry_that_holds_it(app_for_fixture):
    """blast_radius: render (store/render.py:5) looks up "record.key"; store/styles.py:2 declares it."""
    app = app_for_fixture("blast_radius")
    data = app.context("Give `render` a separate style for empty values", budget_tokens=2000).to_dict()
    sites = [c for c in data["context"] if c.get("relation", "").startswith("names")]
    assert ("store/styles.py", 2) in {(c["path"], c["start_line"]) for c in sites}


@pytest.mark.parametrize(
    ("task", "subjects"),
    [
        ("Rename `fetch_record` in store/fetch.py", ["store.fetch.fetch_record", "store.fetch"]),
        ("Record.describe() should include the type name", ["store.models.Record.describe"]),
        ("Add a field to the Record class", ["store.models.Record"]),
        ("Add a retries field", []),
    ],
    ids=["backticks-and-path", "dotted-call", "class-word", "nothing-named"],
)
def test_reading_a_task_finds_the_declarations_it_names(app_for_fixture, task, subjects):
    """blast_radius: names are kept only when the index declares them; an owner class named with its
    member is not a subject of its own; a sentence-initial capital word is prose."""
    from codehop.answer.task import read_task
    from codehop.navigation.manifest import _without_owners

    app = app_for_fixture("blast_radius")
    reading = read_task(app.store, task)
    assert [s.qualname for s in _without_owners(reading.subjects)] == subjects
