"""`codehop lsp` go-to-definition and hover into an installed package: `s.get(...)` in
fixtures_repos/app_with_venv (app/client.py:12), whose `.venv` holds a real wheel of
tests/data/minireq, opens the package's file at `Session.get`. A real pytest-lsp client drives
`python -m codehop.frontends.lsp_server` over stdio; the package index goes to a temporary XDG cache.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from conftest import DATA, build_wheel, install_wheel
from lsprotocol import types
from pygls import uris
from pytest_lsp import ClientServerConfig, LanguageClient

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(120)]

ROOT = Path(__file__).resolve().parent.parent
SERVER_ENV = {
    k: v
    for k, v in os.environ.items()
    if k not in ("CODEHOP_INDEX_DIR", "CODEHOP_RESOLVERS", "CODEHOP_PYTHON", "VIRTUAL_ENV")
}
SERVER_ENV["CODEHOP_RESOLVERS"] = "symbol_table"  # the table must cross the boundary by itself
SERVER_ENV["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="codehop-lsp-pkg-cache-")
SERVER_ENV["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
SERVER = ClientServerConfig(
    server_command=[sys.executable, "-m", "codehop.frontends.lsp_server"], server_env=SERVER_ENV
)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("lsp-pkg") / "app_with_venv"
    shutil.copytree(ROOT / "fixtures_repos" / "app_with_venv", dest)
    wheel = build_wheel(DATA / "minireq", "minireq", "1.2.0", tmp_path_factory.mktemp("wheels"))
    install_wheel(dest / ".venv", wheel, create=True)
    return dest


@pytest_lsp.fixture(config=SERVER, scope="module")
async def client(lsp_client: LanguageClient, root: Path):  # type: ignore[no-untyped-def]
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=uris.from_fs_path(str(root)))
    )
    yield
    await lsp_client.shutdown_session()


def _position(root: Path, rel_path: str, line: int, needle: str) -> tuple[str, types.Position]:
    text = (root / rel_path).read_text(encoding="utf-8").splitlines()[line - 1]
    col = text.index(needle) + len(needle) - 1  # on the needle's last character
    return uris.from_fs_path(str(root / rel_path)) or "", types.Position(line=line - 1, character=col)


def _site(root: Path) -> Path:
    return next((root / ".venv" / "lib").glob("python3*/site-packages")).resolve()


def _landed(loc: Any) -> tuple[Path, int, int]:
    if isinstance(loc, list):
        assert len(loc) >= 1, loc
        loc = loc[0]
    assert isinstance(loc, types.Location), loc
    return Path(uris.to_fs_path(loc.uri) or "").resolve(), loc.range.start.line + 1, loc.range.start.character


@pytest.mark.parametrize(
    ("line", "needle", "expected", "name"),
    [
        (12, "s.get", ("minireq/sessions.py", 26), "get"),  # s.get(...): an inherited member of the package
        (
            6,
            "minireq.Session",
            ("minireq/sessions.py", 11),
            "Session",
        ),  # the base class, through the package's re-export
    ],
)
async def test_definition_opens_the_package_file(
    client: LanguageClient, root: Path, line: int, needle: str, expected: tuple[str, int], name: str
) -> None:
    uri, pos = _position(root, "app/client.py", line, needle)
    loc = await client.text_document_definition_async(
        types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos)
    )
    path, got_line, col = _landed(loc)
    assert (path, got_line) == (_site(root) / expected[0], expected[1])
    text = path.read_text(encoding="utf-8").splitlines()[got_line - 1]
    assert text[col:].startswith(name)  # the range names the declaration, read from the package file


async def test_hover_names_the_package_declaration(client: LanguageClient, root: Path) -> None:
    uri, pos = _position(root, "app/client.py", 12, "s.get")
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos)
    )
    assert hover is not None
    assert "minireq.sessions.Session.get" in str(hover.contents) and "Send a GET request." in str(hover.contents)
