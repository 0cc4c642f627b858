"""The ladder resolves each reference once (issue 12): a resolution the reader computed is handed
over, rungs run in order and the first landing inside the repository wins, every rung tried is
recorded with why it failed, and the language server starts only when a question needs it."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from codehop.answer.orchestrator import Limits
from codehop.app import App, Config
from codehop.kernel.records import Location, PendingReference, Provenance, RefType, Resolution
from codehop.resolve.jedi_resolver import JediResolver
from codehop.resolve.ladder import Ladder, SymbolTableResolver
from codehop.resolve.lsp_resolver import LspResolver

FAKE = Path(__file__).parent / "fake_lsp_servers" / "fake_server.py"
# wire/client.py:31 `response = self._transport.handle_request(url)`: only inference lands it
SITE = PendingReference(
    anchor_text="self._transport.handle_request",
    ref_type=RefType.TYPE_ANNOTATION,
    ref_target="wire.client.Client._transport.handle_request",
    origin_path="wire/client.py",
    origin_line=31,
    origin_col=35,
)


def test_reader_resolution_is_handed_over(fixture_repo):  # type: ignore[no-untyped-def]
    app = App(fixture_repo("inferred"), Config(resolvers=("symbol_table",)))
    # a server that cannot start: asking it would be recorded as a failure
    lsp = LspResolver(str(app.root), app.table, command=("/nonexistent/langserver",), timeout_s=2)
    ladder = Ladder([SymbolTableResolver(app.table), lsp], app.table)
    given = Resolution(
        target=Location(rel_path="wire/models.py", line=13, qualname="wire.models.Headers.get_list"),
        provenance=Provenance.SYMBOL_TABLE,
    )
    ref = PendingReference(
        anchor_text="get_list",
        ref_type=RefType.OTHER,
        ref_target="nowhere.get_list",
        origin_path="wire/client.py",
        origin_line=42,
        origin_col=38,
        resolution=given,
    )
    out = ladder.resolve(ref)
    assert out.resolution is not None and out.resolution.target == given.target
    assert out.tried == ("symbol_table",) and out.failures == ()
    assert lsp.client.pid is None  # never asked, never started
    lsp.close()
    app.close()


@pytest.mark.slow
def test_first_landing_wins_and_failures_are_recorded(fixture_repo):  # type: ignore[no-untyped-def]
    app = App(fixture_repo("inferred"), Config(resolvers=("symbol_table",)))
    missing = LspResolver(str(app.root), app.table, command=("/nonexistent/langserver",), timeout_s=2)
    jedi = JediResolver(str(app.root), app.table, timeout_s=10)
    ladder = Ladder([SymbolTableResolver(app.table), missing, jedi], app.table)
    t0 = time.perf_counter()
    out = ladder.resolve(SITE)
    assert time.perf_counter() - t0 < 30
    assert out.resolution is not None and out.resolution.provenance is Provenance.JEDI
    assert (out.resolution.target.rel_path, out.resolution.target.line) == ("wire/transport.py", 2)
    assert out.tried == ("symbol_table", "lsp", "jedi")
    reasons = {f.resolver: f.reason for f in out.failures}
    assert reasons["symbol_table"] == "no answer" and "langserver" in reasons["lsp"]
    missing.close()
    jedi.close()
    app.close()


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["hang_on_definition", "crash_on_definition"])
def test_hanging_or_crashing_server_fails_over_within_its_timeout(fixture_repo, mode):  # type: ignore[no-untyped-def]
    app = App(fixture_repo("inferred"), Config(resolvers=("symbol_table",)))
    lsp = LspResolver(str(app.root), app.table, command=(sys.executable, str(FAKE), mode), timeout_s=1.0)
    lsp.client._first_timeout_s = 3.0  # the test's own bound for the first request
    jedi = JediResolver(str(app.root), app.table, timeout_s=10)
    ladder = Ladder([SymbolTableResolver(app.table), lsp, jedi], app.table)
    t0 = time.perf_counter()
    out = ladder.resolve(SITE)
    elapsed = time.perf_counter() - t0
    assert out.resolution is not None and out.resolution.provenance is Provenance.JEDI
    assert [f.resolver for f in out.failures] == ["symbol_table", "lsp"]
    assert elapsed < 3.0 + 25  # the server's deadline, then Jedi (cold)
    lsp.close()
    jedi.close()
    app.close()


@pytest.mark.slow
def test_a_question_the_table_serves_does_not_start_the_server(fixture_repo, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.delenv("CODEHOP_RESOLVERS", raising=False)
    app = App(fixture_repo("reexport_chain"))
    assert app.config.resolvers == ("symbol_table", "jedi", "lsp", "regex")
    answer = app.navigator().ask("Where is `Cart` defined?", Limits())
    assert str(answer.state) == "complete"
    lsp = app.resolver("lsp")
    assert isinstance(lsp, LspResolver) and lsp.client.pid is None
    app.close()


@pytest.mark.slow
def test_one_server_per_repository_reused_and_closed(fixture_repo):  # type: ignore[no-untyped-def]
    app = App(fixture_repo("inferred"), Config(resolvers=("symbol_table", "lsp"), resolver_timeout_s=10))
    first = app.ladder().resolve(SITE)
    lsp = app.resolver("lsp")
    assert isinstance(lsp, LspResolver)
    pid = lsp.client.pid
    assert first.resolution is not None and first.resolution.provenance is Provenance.LSP and pid is not None
    second = app.ladder().resolve(
        PendingReference(
            anchor_text="self.cookies.extract_cookies",
            ref_type=RefType.TYPE_ANNOTATION,
            ref_target="extract_cookies",
            origin_path="wire/client.py",
            origin_line=32,
            origin_col=21,
        )
    )
    assert second.resolution is not None and (second.resolution.target.rel_path, second.resolution.target.line) == (
        "wire/models.py",
        18,
    )
    assert lsp.client.pid == pid  # the same process answered
    app.close()
    assert not lsp.client.alive


@pytest.mark.slow
def test_a_landing_is_remembered_for_a_site_without_a_row(fixture_repo):  # type: ignore[no-untyped-def]
    """wire/client.py:31 has no xref row for `self._transport.handle_request` (an attribute the
    indexer cannot type); Jedi's landing adds one, and the next ladder reads it without asking."""
    app = App(fixture_repo("inferred"), Config(resolvers=("symbol_table",)))
    assert app.store.cached_resolution("wire/client.py", 31, SITE.anchor_text) is None
    jedi = JediResolver(str(app.root), app.table, timeout_s=10)
    out = Ladder([SymbolTableResolver(app.table), jedi], app.table).resolve(SITE)
    assert out.resolution is not None
    Ladder([jedi], app.table).feed_back(SITE, out.resolution)
    row = app.store.cached_resolution("wire/client.py", 31, SITE.anchor_text)
    assert row is not None and (row.target_path, row.target_line, row.provenance) == ("wire/transport.py", 2, "jedi")
    missing = LspResolver(str(app.root), app.table, command=("/nonexistent/langserver",), timeout_s=2)
    again = Ladder([SymbolTableResolver(app.table), missing], app.table).resolve(SITE)
    assert again.cached and again.tried == ("symbol_table",) and again.resolution is not None
    assert again.resolution.provenance is Provenance.JEDI and again.resolution.target.line == 2
    assert missing.client.pid is None
    jedi.close()
    app.close()
