"""The resolver ladder with real resolvers: the symbol table, Jedi in process, and real
language servers (basedpyright, jedi-language-server) over stdio, plus faulty servers."""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from codehop.app import App, Config
from codehop.frontends.cli import main
from codehop.kernel.records import PendingReference, Provenance, RefType
from codehop.resolve.ladder import Ladder, SymbolTableResolver
from codehop.resolve.lsp_resolver import LspResolver

FAKE = Path(__file__).parent / "fake_lsp_servers" / "fake_server.py"

CASES = [
    # fixture, dotted target, origin (path, line), declaration (path, line)
    ("reexport_chain", "shop.Cart", ("app.py", 3), ("shop/api/cart.py", 4)),
    ("inherited_member", "transport.MockTransport.send", ("client.py", 12), ("transport/http.py", 9)),
    ("inherited_member", "transport.mock.MockTransport.__enter__", ("client.py", 11), ("transport/base.py", 11)),
    ("aliases", "codecs_lib.DefaultEncoder", ("main.py", 8), ("codecs_lib/encoders.py", 6)),
]
IDS = [f"{c[0]}:{c[1]}" for c in CASES]


def ref_for(target: str, origin: tuple[str, int]) -> PendingReference:
    return PendingReference(
        anchor_text=target.rsplit(".", 1)[-1],
        ref_type=RefType.OTHER,
        ref_target=target,
        origin_path=origin[0],
        origin_line=origin[1],
    )


@pytest.mark.parametrize(("fixture", "target", "origin", "decl"), CASES, ids=IDS)
def test_symbol_table(fixture_repo, fixture, target, origin, decl):
    app = App(fixture_repo(fixture))
    res = SymbolTableResolver(app.table).resolve(ref_for(target, origin))
    assert (res.target.rel_path, res.target.line) == decl
    assert res.provenance is Provenance.SYMBOL_TABLE


@pytest.mark.parametrize(("fixture", "target", "origin", "decl"), CASES, ids=IDS)
def test_jedi(fixture_repo, fixture, target, origin, decl):
    app = App(fixture_repo(fixture))
    res = app.resolver("jedi").resolve(ref_for(target, origin))
    assert (res.target.rel_path, res.target.line) == decl
    assert res.provenance is Provenance.JEDI
    app.close()


@pytest.mark.slow
@pytest.mark.parametrize("server", ["basedpyright", "jedi"])
def test_language_servers(fixture_repo, server):
    """reexport_chain app.py:3 `Cart` through two re-exports, by a real server over stdio."""
    app = App(fixture_repo("reexport_chain"), Config(language_server=server, resolver_timeout_s=30))
    resolver = app.resolver("lsp")
    res = resolver.resolve(ref_for("shop.Cart", ("app.py", 3)))
    assert (res.target.rel_path, res.target.line) == ("shop/api/cart.py", 4)
    assert res.provenance is Provenance.LSP
    app.close()
    assert not resolver.client.alive


def test_chain_steps_are_kept(fixture_repo):
    """reexport_chain: shop/__init__.py:6 -> shop/api/__init__.py:3 -> shop/api/cart.py:4."""
    app = App(fixture_repo("reexport_chain"))
    res = app.ladder().resolve(ref_for("shop.Cart", ("app.py", 3))).resolution
    hops = [(s.from_loc.rel_path, s.from_loc.line, s.to_loc.rel_path, s.to_loc.line) for s in res.steps]
    assert hops == [
        ("shop/__init__.py", 6, "shop/api/__init__.py", 3),
        ("shop/api/__init__.py", 3, "shop/api/cart.py", 4),
    ]


def test_landing_on_a_pointer_is_followed(fixture_repo):
    """A resolver that stops at `Encoder = JSONEncoder` (encoders.py:19) is followed to :6."""
    app = App(fixture_repo("aliases"))

    class StopsAtAlias:
        name = Provenance.REGEX

        def resolve(self, ref):  # type: ignore[no-untyped-def]
            from codehop.kernel.records import Location, Resolution

            return Resolution(target=Location(rel_path="codecs_lib/encoders.py", line=19), provenance=self.name)

    res = Ladder([StopsAtAlias()], app.table).resolve(ref_for("codecs_lib.encoders.Encoder", ("main.py", 8))).resolution
    assert (res.target.rel_path, res.target.line) == ("codecs_lib/encoders.py", 6)
    assert res.steps[-1].note == "alias"


def test_a_module_is_not_the_name_its_first_line_imports(fixture_repo):
    """plain_questions/shelf/__init__.py:1 is `from .box import Box, Crate`: the package `shelf`
    resolves to its own module (line 1 stands for the file), not followed on to `Box`."""
    app = App(fixture_repo("plain_questions"))
    ref = ref_for("shelf", ("shelf/__init__.py", 1))
    for ladder in (app.ladder(), Ladder([SymbolTableResolver(app.table)], app.table)):
        res = ladder.resolve(ref).resolution
        assert (res.target.rel_path, res.target.line, res.target.qualname) == ("shelf/__init__.py", 1, "shelf")
        assert res.steps == ()


def test_external_target_not_fetched(fixture_repo):
    """circular/graphpkg/d.py:3 imports from a package that is not in the repository."""
    app = App(fixture_repo("circular"))
    res = app.ladder().resolve(ref_for("graphpkg.d.thing", ("graphpkg/d.py", 3))).resolution
    assert res.is_external and res.external.startswith("nonexistent_pkg")


@pytest.mark.slow
@pytest.mark.parametrize(
    "mode", ["exit_at_start", "crash_on_definition", "hang_on_definition", "garbage_body", "error_response"]
)
def test_faulty_server_falls_through(fixture_repo, mode):
    """The ladder skips a failing language server (recording why) and the symbol table answers."""
    app = App(fixture_repo("reexport_chain"))
    lsp = LspResolver(str(app.root), app.table, command=(sys.executable, str(FAKE), mode), timeout_s=2.0)
    ladder = Ladder([lsp, SymbolTableResolver(app.table)], app.table)
    ref = PendingReference(
        anchor_text="Cart",
        ref_type=RefType.IMPORT,
        ref_target="app.Cart",
        origin_path="app.py",
        origin_line=3,
        origin_col=18,
    )
    t0 = time.perf_counter()
    result = ladder.resolve(ref)
    elapsed = time.perf_counter() - t0
    assert (result.resolution.target.rel_path, result.resolution.target.line) == ("shop/api/cart.py", 4)
    assert result.resolution.provenance is Provenance.SYMBOL_TABLE
    if mode != "error_response" or result.failures:
        assert [f.resolver for f in result.failures] == ["lsp"]
    assert elapsed < 35
    lsp.close()


@pytest.mark.slow
def test_server_killed_mid_request(fixture_repo):
    """A real basedpyright is killed while it answers; the ladder falls through in bounded time."""
    app = App(fixture_repo("reexport_chain"), Config(resolver_timeout_s=20))
    lsp = LspResolver(
        str(app.root), app.table, command=(sys.executable, str(FAKE), "hang_on_definition"), timeout_s=20.0
    )
    lsp.client.start()
    pid = lsp.client.pid
    threading.Timer(0.5, lambda: os.kill(pid, signal.SIGKILL)).start()
    ladder = Ladder([lsp, SymbolTableResolver(app.table)], app.table)
    t0 = time.perf_counter()
    result = ladder.resolve(
        PendingReference(
            anchor_text="Cart",
            ref_type=RefType.IMPORT,
            ref_target="app.Cart",
            origin_path="app.py",
            origin_line=3,
            origin_col=18,
        )
    )
    elapsed = time.perf_counter() - t0
    assert result.resolution is not None and result.resolution.provenance is Provenance.SYMBOL_TABLE
    assert result.failures and result.failures[0].resolver == "lsp"
    assert elapsed < 5, "a dead server must fail its request at once, not after the 20 s timeout"
    lsp.close()


def test_loop_time_resolution_feeds_the_xref_table(fixture_repo):
    """inherited_member/client.py:12 `transport.send(...)` (an attribute of a local) is left empty
    at index time; Jedi resolves it at loop time, the row keeps the answer (written once the
    query's snapshot has ended), and the next ladder reads the row instead of asking Jedi."""
    app = App(fixture_repo("inherited_member"))
    line = 12
    text = (app.root / "client.py").read_text().splitlines()[line - 1]
    col = text.index("send")
    ref = PendingReference(
        anchor_text="transport.send",
        ref_type=RefType.CALL,
        ref_target="transport.send",
        origin_path="client.py",
        origin_line=line,
        origin_col=col,
    )
    app.store.conn.execute(
        "INSERT INTO xrefs (rel_path, line, col, anchor_text, ref_type, target, scope)"
        " VALUES ('client.py', ?, ?, 'transport.send', 'call', 'transport.send', 'client.main')",
        (line, col),
    )
    ladder = app.ladder(("jedi",))
    res = ladder.resolve(ref).resolution
    assert (res.target.rel_path, res.target.line) == ("transport/http.py", 9)
    assert app.store.cached_resolution("client.py", line, "transport.send") is None  # nothing written yet
    ladder.feed_back(ref, res)
    cached = app.store.cached_resolution("client.py", line, "transport.send")
    assert cached is not None and cached.provenance == "jedi" and cached.target_line == 9
    assert app.store.counters().get("hops_from_resolver") == 1
    again = ladder.resolve(ref)
    assert again.cached and again.tried == () and again.resolution is not None
    assert (again.resolution.target.rel_path, again.resolution.target.line) == ("transport/http.py", 9)
    assert again.resolution.provenance is Provenance.JEDI
    app.close()


def test_cli_resolve(fixture_repo):
    repo = fixture_repo("reexport_chain")
    result = CliRunner().invoke(main, ["resolve", "app.py:3", "--repo", str(repo), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    cart = next(r for r in data if r["reference"]["anchor_text"] == "Cart")
    assert cart["resolution"]["target"]["path"] == "shop/api/cart.py"
    assert [s["to"]["line"] for s in cart["resolution"]["chain"]] == [3, 4]
    bad = CliRunner().invoke(main, ["resolve", "../../etc/passwd:1", "--repo", str(repo)])
    assert bad.exit_code == 2 and "outside the repository" in bad.output


@pytest.mark.slow
def test_answer_reports_which_resolver_failed(fixture_repo):
    """reexport_chain: a language server that exits at start is named in the hop, and the symbol
    table still answers."""
    from codehop.answer.orchestrator import Limits

    fake = (sys.executable, str(FAKE), "exit_at_start")
    app = App(
        fixture_repo("reexport_chain"),
        Config(
            retrieve_k=1,
            use_graph=False,
            resolvers=("lsp", "symbol_table"),
            language_server_command=fake,
            resolver_timeout_s=5,
        ),
    )
    answer = app.navigator().ask("Where is `shop.Cart` defined?", Limits(max_loops=1))
    assert answer.state == "complete"
    hop = answer.to_dict()["hops"][0]
    assert hop["resolved"][0]["provenance"] == "symbol_table"
    assert hop["failures"][0]["resolver"] == "lsp" and "exit" in hop["failures"][0]["reason"]
    assert hop["failures"][0]["ref_target"] == "shop.Cart"
    app.close()


def test_regex_rung_reads_prose_references(fixture_repo):
    """A comment's "see `Cart.add`" resolves through the symbol table from the comment's module."""
    from codehop.resolve.ladder import RegexResolver

    repo = fixture_repo("reexport_chain")
    (repo / "shop/notes.py").write_text(
        '"""Notes."""\n\n# Quantities are capped: see `api.cart.Cart.add`.\nLIMIT = 1\n'
    )
    app = App(repo)
    rung = RegexResolver(app.table, str(app.root))
    ref = PendingReference(
        anchor_text="Cart.add",
        ref_type=RefType.OTHER,
        ref_target="Cart.add",
        origin_path="shop/notes.py",
        origin_line=3,
    )
    res = rung.resolve(ref)
    assert res is not None and res.provenance is Provenance.REGEX
    assert (res.target.rel_path, res.target.line) == ("shop/api/cart.py", 12)
    outside = PendingReference(
        anchor_text="x", ref_type=RefType.OTHER, ref_target="x", origin_path="../../etc/passwd", origin_line=1
    )
    assert rung.resolve(outside) is None
