"""The hop orchestrator end to end on fixture repositories (offline generator, real index).

Retrieval is narrowed to the single best BM25 hit and the graph is off, so the
context starts with the pointer alone and any declaration must come from the hop.
"""

from __future__ import annotations

import pytest
from shared import CONTRACT_KEYS, ITEM_KEYS

import codehop
from codehop.answer.orchestrator import Limits
from codehop.app import App, Config

POINTERS = [
    # fixture, question, declaration (path, line), ref_type of the hop
    ("reexport_chain", "Where is `shop.Cart` defined?", ("shop/api/cart.py", 4), "reexport"),
    ("inherited_member", "What does `MockTransport.send` do?", ("transport/http.py", 9), "inherited_member"),
    ("inherited_member", "What does `MockTransport.close` do?", ("transport/mock.py", 12), "alias"),
    ("inherited_config", "What is `TIMEOUT` in `config.settings.prod`?", ("config/settings/base.py", 4), "star_import"),
    ("inherited_config", "What is `ProdSettings.retries`?", ("config/appsettings.py", 7), "inherited_config"),
    ("aliases", "What is `codecs_lib.DefaultEncoder`?", ("codecs_lib/encoders.py", 6), "reexport"),
    ("aliases", "How does `Tag.tag` behave?", ("codecs_lib/encoders.py", 29), "alias"),
]


def narrow(repo) -> App:  # type: ignore[no-untyped-def]
    return App(repo, Config(retrieve_k=1, use_graph=False))


def covers(answer, path: str, line: int) -> bool:  # type: ignore[no-untyped-def]
    return any(c.chunk.rel_path == path and c.chunk.start_line <= line <= c.chunk.end_line for c in answer.context)


@pytest.mark.parametrize(
    ("fixture", "question", "decl", "ref_type"), POINTERS, ids=[f"{p[0]}-{p[3]}-{p[2][1]}" for p in POINTERS]
)
def test_each_pointer_kind_completes_after_one_hop(fixture_repo, fixture, question, decl, ref_type):
    app = narrow(fixture_repo(fixture))
    zero = app.navigator().ask(question, Limits(max_loops=0))
    assert zero.state == "give_up_partial" and not covers(zero, *decl)
    assert zero.pending and zero.pending[0].ref_type == ref_type
    one = app.navigator().ask(question, Limits(max_loops=1))
    assert one.state == "complete", one.answer
    assert covers(one, *decl)
    (hop,) = one.hops
    assert hop.resolved[0].ref.ref_type == ref_type
    assert (hop.resolved[0].resolution.target.rel_path, hop.resolved[0].resolution.target.line) == decl
    resolved_items = [c for c in one.context if c.via == "resolved"]
    assert resolved_items and resolved_items[0].hop == 1 and resolved_items[0].provenance == "symbol_table"
    assert f"{decl[0]}:{decl[1]}" in one.answer


def test_subclass_assignment_overrides_base_method(fixture_repo):
    """inherited_member/transport/mock.py:15 `close = _noop` wins over BaseTransport.close (base.py:7)."""
    app = narrow(fixture_repo("inherited_member"))
    res = app.table.resolve("transport.MockTransport.close")
    assert (res.target.rel_path, res.target.line) == ("transport/mock.py", 12)


def test_literal_values_appear_verbatim(fixture_repo):
    app = narrow(fixture_repo("inherited_config"))
    a = app.navigator().ask("What is `ProdSettings.retries`?", Limits(max_loops=1))
    assert "retries = 3" in a.answer


def test_two_link_chain_needs_two_hops(fixture_repo):
    """two_link: ProdConfig.TIMEOUT -> BaseConfig.TIMEOUT (base.py:9) = DEFAULT_TIMEOUT * 2 -> constants.py:3."""
    app = narrow(fixture_repo("two_link"))
    one = app.navigator().ask("What is `ProdConfig.TIMEOUT`?", Limits(max_loops=1))
    assert one.state == "give_up_partial" and one.stopped_by == "max_loops"
    assert [p.ref_target for p in one.pending] == ["settings_pkg.base.DEFAULT_TIMEOUT"]
    assert covers(one, "settings_pkg/base.py", 9) and not covers(one, "settings_pkg/constants.py", 3)
    two = app.navigator().ask("What is `ProdConfig.TIMEOUT`?", Limits(max_loops=2))
    assert two.state == "complete" and len(two.hops) == 2
    assert covers(two, "settings_pkg/constants.py", 3)
    assert "DEFAULT_TIMEOUT = 30" in two.answer


def test_unresolvable_reference_gives_up_honestly(fixture_repo):
    """circular/graphpkg/d.py:8 calls `mystery_function`, defined nowhere."""
    app = narrow(fixture_repo("circular"))
    a = app.navigator().ask("What does `mystery_function` do?", Limits(max_loops=1))
    assert a.state == "give_up_partial" and a.completeness == "partial"


def test_external_target_is_reported_not_fetched(fixture_repo):
    """circular/graphpkg/d.py:3 `from nonexistent_pkg import thing`."""
    app = narrow(fixture_repo("circular"))
    a = app.navigator().ask("What is `thing` in `graphpkg.d`?", Limits(max_loops=1))
    assert a.state == "give_up_partial"
    ext = a.hops[0].resolved[0].resolution
    assert ext.is_external and ext.external.startswith("nonexistent_pkg")
    assert all(c.chunk.rel_path.startswith("graphpkg/") for c in a.context)
    assert "outside the indexed repository" in a.answer


def test_context_stays_within_budget_and_keeps_resolved(fixture_repo):
    app = App(fixture_repo("reexport_chain"), Config(use_graph=False))
    a = app.navigator().ask("Where is `shop.Cart` defined?", Limits(max_loops=1, budget_tokens=120))
    assert a.stats.context_tokens <= 120
    assert covers(a, "shop/api/cart.py", 4)


def test_public_api_contract(fixture_repo):
    repo = fixture_repo("reexport_chain")
    d = codehop.ask("Where is `shop.Cart` defined?", repo=str(repo)).to_dict()
    assert set(d) == CONTRACT_KEYS
    assert d["state"] == "complete" and d["answer_completeness"] == "complete"
    item = d["context"][0]
    assert set(item) == ITEM_KEYS
    assert {"loops", "context_tokens", "retrieve_ms", "resolve_ms", "generate_ms"} <= set(d["stats"])


def test_ask_reindexes_changed_files(fixture_repo):
    repo = fixture_repo("inherited_config")
    first = codehop.ask("What is `ProdSettings.retries`?", repo=str(repo))
    assert "retries = 3" in first.answer
    path = repo / "config/appsettings.py"
    path.write_text(path.read_text().replace("retries = 3", "retries = 7"))
    second = codehop.ask("What is `ProdSettings.retries`?", repo=str(repo))
    assert "retries = 7" in second.answer


def test_the_pointer_stays_when_its_declaration_is_fetched(fixture_repo):
    """The chunk a resolved reference was read in is kept with the declaration fetched for it,
    before any BM25 hit: a larger chunk ranked higher (`Panel.__rich_console__`) would otherwise
    take the budget, and the next reading would lose the subject it had already placed."""
    q = "Padding.__rich_console__ renders its child with console.render_lines(...). Where is render_lines defined?"
    a = codehop.ask(q, repo=str(fixture_repo("pointer_kept")), budget_tokens=850).to_dict()
    assert a["state"] == "complete", a["answer"]
    held = {(c["path"], c["start_line"]) for c in a["context"]}
    assert ("pkg/lines.py", 7) in held and ("pkg/padding.py", 7) in held
    assert a["stats"]["context_tokens"] <= 850
    assert a["hops"][0]["resolved"][0]["chain"][-1]["to"]["path"] == "pkg/lines.py"


def test_words_in_front_of_the_class_noun_describe_the_class(fixture_repo):
    """ "a custom streaming transport": plain words before a word of the class's name describe the
    class and ask nothing of it; a member asked with "of" stays a doubt when it does not exist."""
    repo = str(fixture_repo("inherited_member"))
    q = "I'm writing a custom streaming transport; where's the BaseTransport class I'm supposed to subclass?"
    a = codehop.ask(q, repo=repo).to_dict()
    assert a["state"] == "complete", a["answer"]
    assert a["answer"].startswith("`transport.base.BaseTransport` is declared at transport/base.py:4")
    absent = codehop.ask("Where is the retry budget of the BaseTransport class set?", repo=repo).to_dict()
    assert absent["state"] == "give_up_partial" and "'retry'" in absent["answer"], absent["answer"]


def test_a_member_part_written_out_in_full(tmp_path):
    """`envvar` written out as "environment variable" (the starts of adjacent words), when another
    part of the member's name is written as is; a word written as code (`visit_`) spells nothing."""
    pkg = tmp_path / "params"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "types.py").write_text(
        "class ParamType:\n"
        "    def split_envvar_value(self, rv):\n"
        '        return (rv or "").split()\n'
        "\n"
        "    def visit_for(self, node):\n"
        "        return node\n"
        "\n"
        "\n"
        "class TrackingPath(ParamType):\n"
        "    def __init__(self, exists=False):\n"
        "        self.exists = exists\n"
    )
    q = "How does a `TrackingPath` parameter split an environment variable value into several paths?"
    a = codehop.ask(q, repo=str(tmp_path)).to_dict()
    assert a["state"] == "complete", a["answer"]
    assert a["answer"].startswith("`params.types.TrackingPath.split_envvar_value` is declared at params/types.py:2")
    q = "I need to know which method decides what visit_ function TrackingPath uses for a node. where is it?"
    coded = codehop.ask(q, repo=str(tmp_path))
    assert "visit_for` is declared" not in coded.answer, coded.answer
