"""The `llm` rung of the resolver ladder (only with the Anthropic generator), against the real
`anthropic` SDK and the Messages-API server on 127.0.0.1 (tests/messages_server.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from messages_server import MessagesServer, error_reply, tool_reply
from shared import copy_fixture

from codehop.answer.anthropic_generator import AnthropicResolver, build_client
from codehop.app import App, Config
from codehop.kernel.records import PendingReference, Provenance, RefType
from codehop.resolve.ladder import Ladder, SymbolTableResolver

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures_repos"
# `cart` is a local variable in app.py:8: the symbol table cannot place `cart.add`
LOCAL = PendingReference(
    anchor_text="cart.add",
    ref_type=RefType.CALL,
    ref_target="cart.add",
    origin_path="app.py",
    origin_line=8,
    origin_col=4,
)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    repo = tmp_path / "shop"
    copy_fixture(FIXTURES / "reexport_chain", repo, symlinks=False)
    a = App(repo, Config(use_graph=False))
    yield a
    a.close()


@pytest.fixture
def resolver(app: App) -> Iterator[tuple[AnthropicResolver, MessagesServer]]:
    with MessagesServer() as server:
        client = build_client(api_key="sk-ant-test-not-a-key", base_url=server.base_url, timeout_s=5.0, max_retries=0)
        yield AnthropicResolver(app.table, str(app.root), client=client, model="claude-test"), server
        client.close()


def test_model_name_is_resolved_again_and_marked_llm(app, resolver):
    rung, server = resolver
    server.script(tool_reply({"qualname": "shop.api.cart.Cart.add"}, name="name_declaration"))
    ladder = Ladder([SymbolTableResolver(app.table), rung], app.table)
    result = ladder.resolve(LOCAL)
    res = result.resolution
    assert res is not None and res.provenance is Provenance.LLM
    assert (res.target.rel_path, res.target.line) == ("shop/api/cart.py", 12)
    body = server.requests[-1].body
    assert "cart.add" in body["messages"][0]["content"] and "<code>" in body["messages"][0]["content"]


@pytest.mark.parametrize(
    "answer",
    ["/etc/passwd", "os.system", "shop.api.cart.NoSuchThing", "x; rm -rf /"],
    ids=["a-path", "external", "missing", "not-a-name"],
)
def test_model_cannot_point_outside_the_index(app, resolver, answer):
    rung, server = resolver
    server.script(tool_reply({"qualname": answer}, name="name_declaration"))
    assert rung.resolve(LOCAL) is None


def test_model_failure_is_a_skipped_rung(app, resolver):
    rung, server = resolver
    server.script(error_reply(500, "api_error", "boom"))
    result = Ladder([rung], app.table).resolve(LOCAL)
    assert result.resolution is None and result.failures[0].resolver == "llm"
