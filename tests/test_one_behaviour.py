"""One behaviour for one input on every front-end (issue 29 item 9), on fixtures_repos/reexport_chain
(`app.py:3` is `from shop import Cart, checkout`; `Cart` is declared at `shop/api/cart.py:4`).

The CLI as a real `python -m codehop` process, the MCP server as a real stdio server driven by the
SDK's client: a position past the end is the same refusal on both (MCP said "internal error:
OverflowError"), a short name works wherever a symbol does (`resolve Cart`, MCP `dependents`),
unknown xrefs filters are exit 2 naming the valid values, a capped list says "first N of M", and a
bad tool argument is answered in codehop's words, not pydantic's `...Arguments` text.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
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
