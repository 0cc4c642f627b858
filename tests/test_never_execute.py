"""A repository is data: codehop never runs anything from it (issue 29, item 1).

Fixture: `fixtures_repos/app_with_venv/` with a real `.venv` holding a real wheel of
`tests/data/minireq` (conftest), whose interpreters (`.venv/bin/python`, `python3`, `python3.X`)
are replaced by a script that appends to a marker file outside the repository, then runs a real
Python as the venv's. Every front-end runs as a real process (the CLI's `ask`, `doctor`, `map` and `resolve`
through Jedi and basedpyright; the MCP server's `map` and `ask` through the SDK's client): none may
leave a marker, and the venv's packages must still be found (a chain into minireq resolves).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


@pytest.fixture
def trapped(app_with_venv: Path, tmp_path: Path) -> tuple[Path, Path]:
    """app_with_venv whose virtualenv interpreters write `marker` when run; (root, marker)."""
    marker = tmp_path / "ran-the-repository-interpreter"
    for exe in (app_with_venv / ".venv" / "bin").glob("python*"):
        exe.unlink()
        # a real Python that still takes itself for the venv's (`-a`: its argv[0], so pyvenv.cfg is found)
        exe.write_text(f'#!/bin/bash\necho "$0 $*" >> {marker}\nexec -a "$0" {sys.executable} "$@"\n')
        exe.chmod(0o755)
    return app_with_venv, marker


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CODEHOP_PYTHON", "VIRTUAL_ENV", "CODEHOP_RESOLVERS")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env["XDG_CACHE_HOME"] = str(tmp_path / "xdg-cache")
    return env


def _codehop(root: Path, tmp_path: Path, *args: str, server: str = "basedpyright") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "codehop", *args, "--repo", str(root)],
        capture_output=True,
        text=True,
        timeout=240,
        env=_env(tmp_path) | {"CODEHOP_LANGUAGE_SERVER": server},
        cwd=root,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def test_cli_never_runs_the_repository_interpreter(trapped: tuple[Path, Path], tmp_path: Path) -> None:
    """`ask`, `doctor`, `map`, and `resolve` via Jedi, basedpyright and jedi-language-server on app_with_venv: no
    marker; the chain into minireq (RetrySession.get -> minireq.sessions.Session.get) resolves."""
    root, marker = trapped

    def ran(command: str) -> str:
        return f"`{command}` ran the repository's interpreter:\n" + (marker.read_text() if marker.exists() else "")

    ask = _codehop(root, tmp_path, "ask", "Where is RetrySession.get defined?", "--json")
    assert not marker.exists(), ran("ask")
    assert ask.returncode == 0, ask.stderr
    data = json.loads(ask.stdout)
    assert data["state"] == "complete", data["answer"]
    [item] = [c for c in data["context"] if c["qualname"] == "minireq.sessions.Session.get"]
    assert item["source"] == "environment" and item["package"] == "minireq==1.2.0"
    doctor = _codehop(root, tmp_path, "doctor")
    assert not marker.exists(), ran("doctor")
    assert "read, never run" in doctor.stdout + doctor.stderr, doctor.stdout + doctor.stderr
    assert _codehop(root, tmp_path, "map").returncode == 0
    assert not marker.exists(), ran("map")
    # app/client.py:6 `minireq.Session`: lands in the venv's minireq through Jedi, basedpyright and
    # jedi-language-server (which found nothing there before it was told the paths)
    for via, server in (("jedi", "basedpyright"), ("lsp", "basedpyright"), ("lsp", "jedi")):
        got = _codehop(root, tmp_path, "resolve", "app/client.py:6:27", "--via", via, "--json", server=server)
        assert not marker.exists(), ran(f"resolve --via {via} ({server})")
        assert got.returncode == 0, (via, server, got.stdout, got.stderr)
        assert "minireq/sessions.py" in got.stdout, (via, server, got.stdout)


@pytest.mark.asyncio
async def test_mcp_never_runs_the_repository_interpreter(trapped: tuple[Path, Path], tmp_path: Path) -> None:
    """The MCP server's `map` and `ask` tools on app_with_venv, through the SDK's stdio client."""
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client

    root, marker = trapped
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "codehop.frontends.mcp_server", "--repo", str(root)],
        env=_env(tmp_path),
        cwd=str(root),
    )
    with open(tmp_path / "mcp.log", "w", encoding="utf-8") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            with anyio.fail_after(120):
                await session.initialize()
                mapped = await session.call_tool("map", {})
                asked = await session.call_tool("ask", {"question": "Which parameters does HTTPAdapter take?"})
    assert not marker.exists(), marker.read_text()  # before any answer is looked at
    assert not mapped.is_error, mapped.content
    assert not asked.is_error, asked.content
    data = asked.structured_content
    assert isinstance(data, dict) and data["state"] == "complete"
    assert any(c["qualname"] == "minireq.adapters.HTTPAdapter.__init__" for c in data["context"])
