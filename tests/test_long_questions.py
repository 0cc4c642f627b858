"""A 100 KB question on every front-end: CLI, MCP (the SDK's stdio client), LSP (pytest-lsp), Python API.

Every front-end asks through `Navigator.ask`, which cuts a question to
`MAX_QUESTION_CHARS` and says so in the answer; reading is linear past the cap
too (test_question.py). Fixture `plain_questions`: the question starts with
"what does set do on a Crate" (`Box.set`, shelf/box.py:10).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import pytest_lsp
from click.testing import CliRunner
from lsprotocol import types
from pytest_lsp import LanguageClient
from test_lsp_server import SERVER, copy_fixture, initialize
from test_mcp_server import call, mcp_session, ok

from codehop.answer.orchestrator import MAX_QUESTION_CHARS
from codehop.frontends.cli import main

QUESTION = "what does set do on a Crate " + "and then some more words " * 4200
BOUND_S = 1.0  # measured ~0.02-0.05 s per ask once indexed; generous for a loaded 2-core machine
NOTE = f"first {MAX_QUESTION_CHARS:,} of {len(QUESTION):,} characters"


def test_question_is_over_100kb() -> None:
    assert len(QUESTION) > 100_000


def test_cli(fixture_repo) -> None:  # type: ignore[no-untyped-def]
    repo = fixture_repo("plain_questions")
    assert CliRunner().invoke(main, ["ask", "warm up Crate", "--repo", str(repo)]).exit_code == 0
    times = []
    for _ in range(2):  # the better of two: a timing on a shared machine, not a flake detector
        t0 = time.perf_counter()
        result = CliRunner().invoke(main, ["ask", QUESTION, "--repo", str(repo)])
        times.append(time.perf_counter() - t0)
    assert min(times) < BOUND_S
    assert result.exit_code == 0 and NOTE in result.output


@pytest.mark.slow
@pytest.mark.asyncio
async def test_mcp(fixture_repo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    repo = fixture_repo("plain_questions")
    async with mcp_session(repo, tmp_path / "mcp.log") as session:
        ok(await call(session, "ask", question="warm up Crate"))
        times = []
        for _ in range(2):  # the better of two
            t0 = time.perf_counter()
            answer = ok(await call(session, "ask", question=QUESTION))
            times.append(time.perf_counter() - t0)
        assert min(times) < BOUND_S
    assert NOTE in answer["answer"]


@pytest.fixture(scope="module")
def plain_root(tmp_path_factory) -> Path:  # type: ignore[no-untyped-def]
    return copy_fixture("plain_questions", tmp_path_factory.mktemp("long"))


@pytest_lsp.fixture(config=SERVER, scope="module")
async def plain(lsp_client: LanguageClient, plain_root: Path):  # type: ignore[no-untyped-def]
    await initialize(lsp_client, plain_root)
    yield
    await lsp_client.shutdown_session()


@pytest.mark.slow
@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.timeout(60)
async def test_lsp(plain: LanguageClient) -> None:
    ask = types.ExecuteCommandParams(command="codehop.ask", arguments=["warm up Crate", 1])
    await plain.workspace_execute_command_async(ask)
    times = []
    for _ in range(2):  # the better of two
        t0 = time.perf_counter()
        answer = await plain.workspace_execute_command_async(
            types.ExecuteCommandParams(command="codehop.ask", arguments=[QUESTION, 1])
        )
        times.append(time.perf_counter() - t0)
    assert min(times) < BOUND_S
    assert NOTE in answer["answer"]
