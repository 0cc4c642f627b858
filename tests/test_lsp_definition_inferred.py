"""`codehop lsp` go-to-definition through the pointers the symbol table learned (issue 12): a
member inherited through a subscripted generic base, a class rebound after its body by
hand-applied decorators, an export made by a module `__getattr__`. A real pytest-lsp client
drives `python -m codehop.frontends.lsp_server` over stdio on a copy of fixtures_repos/inferred.

Lines are 1-based, as in fixtures_repos/README.md; LSP lines are one less.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls import uris
from pytest_lsp import ClientServerConfig, LanguageClient

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(90)]

ROOT = Path(__file__).resolve().parent.parent
SERVER_ENV = {k: v for k, v in os.environ.items() if k not in ("CODEHOP_INDEX_DIR", "CODEHOP_RESOLVERS")}
# the symbol table alone must land: no Jedi or language-server fallback may hide a miss
SERVER_ENV["CODEHOP_RESOLVERS"] = "symbol_table"
SERVER_ENV["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
SERVER = ClientServerConfig(
    server_command=[sys.executable, "-m", "codehop.frontends.lsp_server"], server_env=SERVER_ENV
)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("lsp") / "inferred"
    shutil.copytree(ROOT / "fixtures_repos" / "inferred", dest)
    return dest


@pytest_lsp.fixture(config=SERVER, scope="module")
async def client(lsp_client: LanguageClient, root: Path):  # type: ignore[no-untyped-def]
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=uris.from_fs_path(str(root)))
    )
    yield
    await lsp_client.shutdown_session()


def at(root: Path, rel_path: str, line: int, needle: str) -> types.DefinitionParams:
    text = (root / rel_path).read_text(encoding="utf-8").splitlines()[line - 1]
    col = text.index(needle) + 1  # inside the name, as an editor's cursor often is
    return types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=uris.from_fs_path(str(root / rel_path)) or ""),
        position=types.Position(line=line - 1, character=len(text[:col].encode("utf-16-le")) // 2),
    )


def landed(root: Path, loc: Any) -> tuple[str, int]:
    if isinstance(loc, list):
        assert len(loc) >= 1, loc
        loc = loc[0]
    assert isinstance(loc, types.Location), loc
    path = Path(uris.to_fs_path(loc.uri) or "").resolve()
    return path.relative_to(root.resolve()).as_posix(), loc.range.start.line + 1


@pytest.mark.parametrize(
    ("rel_path", "line", "needle", "expected"),
    [
        # `class WebSocket(HTTPConnection[StateT])`: `url` is declared on HTTPConnection
        ("app.py", 8, "url", ("wire/connection.py", 13)),
        # `Square = add_eq(add_repr(Square))` at wire/shapes.py:18: the class and its members stay
        ("app.py", 9, "area", ("wire/shapes.py", 14)),
        ("app.py", 9, "Square", ("wire/shapes.py", 11)),
        ("app.py", 2, "Square", ("wire/shapes.py", 11)),
        # inside the library: the subscripted base itself
        ("wire/connection.py", 17, "HTTPConnection", ("wire/connection.py", 6)),
    ],
)
async def test_definition_lands_on_the_declaration(
    client: LanguageClient, root: Path, rel_path: str, line: int, needle: str, expected: tuple[str, int]
) -> None:
    loc = await client.text_document_definition_async(at(root, rel_path, line, needle))
    assert landed(root, loc) == expected
