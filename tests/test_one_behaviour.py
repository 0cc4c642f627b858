"""One behaviour for one input on every front-end (issue 29 item 9), on fixtures_repos/reexport_chain
(`app.py:3` is `from shop import Cart, checkout`; `Cart` is declared at `shop/api/cart.py:4`).

The CLI as a real `python -m codehop` process, the MCP server as a real stdio server driven by the
SDK's client: a position past the end is the same refusal on both (MCP said "internal error:
OverflowError"), a short name works wherever a symbol does (`resolve Cart`, MCP `dependents`),
unknown xrefs filters are exit 2 naming the valid values, a capped list says "first N of M", and a
bad tool argument is answered in codehop's words, not pydantic's `...Arguments` text.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_lsp_shutdown import frame, read_message
from test_mcp_server import call, error_text, mcp_session, ok

PROJECT = Path(__file__).resolve().parent.parent
HUGE_LINE = "app.py:99999999999999999999999"
HUGE_COL = "app.py:1:999999999999999999999"

pytestmark = pytest.mark.timeout(240)


def cli(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    return subprocess.run(
        [sys.executable, "-m", "codehop", *args], cwd=repo, env=env, capture_output=True, text=True, timeout=120
    )


@pytest.mark.slow
def test_cli_inputs(fixture_repo: Callable[[str], Path]) -> None:
    repo = fixture_repo("reexport_chain")
    for site, message in ((HUGE_LINE, "is outside app.py"), (HUGE_COL, "past the end of app.py:1")):
        out = cli(repo, "resolve", site)
        assert out.returncode == 2 and message in out.stderr, (site, out.stderr)
    for symbol in ("Cart", "cart.Cart", "shop.Cart"):
        out = cli(repo, "resolve", symbol)
        assert out.returncode == 0, (symbol, out.stderr)
        assert "shop/api/cart.py:4" in out.stdout, (symbol, out.stdout)
    via = cli(repo, "resolve", "Cart", "--via", "jedi")
    assert via.returncode == 2 and "--via" in via.stderr, via.stderr
    bogus = cli(repo, "xrefs", "--type", "bogus")
    assert bogus.returncode == 2 and "bogus" in bogus.stderr and "reexport" in bogus.stderr, bogus.stderr
    nope = cli(repo, "xrefs", "--file", "nope.py")
    assert nope.returncode == 2 and "nope.py" in nope.stderr, nope.stderr
    capped = cli(repo, "xrefs", "--limit", "3")
    assert capped.returncode == 0 and len(capped.stdout.splitlines()) == 3
    assert "the first 3 of " in capped.stderr, capped.stderr
    whole = cli(repo, "xrefs", "--file", "app.py")
    assert whole.returncode == 0 and whole.stdout and "first" not in whole.stderr


@pytest.mark.slow
@pytest.mark.asyncio
async def test_mcp_inputs(fixture_repo: Callable[[str], Path], tmp_path: Path) -> None:
    repo = fixture_repo("reexport_chain")
    async with mcp_session(repo, tmp_path / "server.log") as session:
        for site, message in ((HUGE_LINE, "is outside app.py"), (HUGE_COL, "past the end of app.py:1")):
            text = error_text(await call(session, "resolve", target=site))
            assert message in text and "internal error" not in text, (site, text)
        for symbol in ("Cart", "cart.Cart"):
            found = ok(await call(session, "resolve", target=symbol))
            assert (found["declaration"]["path"], found["declaration"]["line"]) == ("shop/api/cart.py", 4)
        users = ok(await call(session, "dependents", symbol="Cart"))
        assert users["declaration"]["qualname"] == "shop.api.cart.Cart" and users["dependents"]
        bad = [
            ("map", {"budget_tokens": "many"}, "budget_tokens must be an integer (got 'many')"),
            ("ask", {"question": "Cart", "max_loops": 99}, "max_loops must be at most 8 (got 99)"),
            ("ask", {}, "question is required"),
            ("context", {"query": "Cart", "format": "html"}, "format must be 'json' or 'markdown' (got 'html')"),
        ]
        for tool, args, message in bad:
            text = error_text(await call(session, tool, **args))
            assert text.startswith(f"Error executing tool {tool}: bad arguments: "), text
            assert message in text and "validation error" not in text and "Arguments" not in text, text
    assert "Traceback" not in (tmp_path / "server.log").read_text()


@pytest.mark.slow
def test_lsp_positions(fixture_repo: Callable[[str], Path], tmp_path: Path) -> None:
    """The editor's side of the same inputs, by the LSP rules: a number past LSP's uinteger is
    InvalidParams (never an internal error), a line past the end is null, a character past the end
    of its line is clamped to it (`app.py:3` ends with `checkout`)."""
    repo = fixture_repo("reexport_chain")
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    with open(tmp_path / "server.log", "w", encoding="utf-8") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "codehop.frontends.lsp_server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
            cwd=repo,
            env=env,
        )
    assert proc.stdin is not None and proc.stdout is not None
    uri = (repo / "app.py").as_uri()

    def ask(msg_id: int, method: str, params: Any) -> dict[str, Any]:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}))
        proc.stdin.flush()
        while (m := read_message(proc.stdout)) is not None:
            if m.get("id") == msg_id and "method" not in m:
                return m
        raise AssertionError(f"no answer to {method}")

    try:
        ask(0, "initialize", {"processId": None, "rootUri": repo.as_uri(), "capabilities": {}})
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        cases = [
            ((99999999999999999999999, 0), "invalid"),
            ((2, 999999999999999999999), "invalid"),
            ((-1, 0), "invalid"),
            ((1_000_000, 0), None),
            ((2, 1_000_000), "shop/api/flow.py"),
        ]
        for i, ((line, character), want) in enumerate(cases, 1):
            params = {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}
            got = ask(i, "textDocument/definition", params)
            if want == "invalid":
                assert got.get("error", {}).get("code") == -32602, (line, character, got)
            elif want is None:
                assert "error" not in got and got["result"] is None, (line, character, got)
            else:
                assert want in json.dumps(got.get("result")), (line, character, got)
        assert "error" not in ask(99, "shutdown", None)
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "exit", "params": None}))
        proc.stdin.flush()
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
