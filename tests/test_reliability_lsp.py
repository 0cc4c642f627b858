"""The language server notices an index file replaced under it before it answers (real server
over stdio, driven by pytest-lsp)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls import uris
from pytest_lsp import ClientServerConfig, LanguageClient
from shared import FIXTURES, copy_fixture

from codehop.index.indexer import index_repo

ROOT = Path(__file__).resolve().parent.parent
ENV = {k: v for k, v in os.environ.items() if k != "CODEHOP_INDEX_DIR"}
ENV["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "codehop.frontends.lsp_server"], server_env=ENV)

pytestmark = [pytest.mark.slow, pytest.mark.asyncio, pytest.mark.timeout(120)]


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    yield
    await lsp_client.shutdown_session()


async def cart_definition(client: LanguageClient, root: Path) -> tuple[str, int]:
    """Where `Cart` at reexport_chain/app.py:3 lands (repo-relative path, 1-based line)."""
    text = (root / "app.py").read_text().splitlines()[2]
    result = await client.text_document_definition_async(
        types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=uris.from_fs_path(str(root / "app.py")) or ""),
            position=types.Position(line=2, character=text.index("Cart")),
        )
    )
    loc = result[0] if isinstance(result, list) else result
    assert isinstance(loc, types.Location), result
    path = Path(uris.to_fs_path(loc.uri) or "").resolve()
    return path.relative_to(root.resolve()).as_posix(), loc.range.start.line + 1


async def test_replaced_index_is_reopened_before_answering(client: LanguageClient, tmp_path: Path) -> None:
    """reexport_chain: the server answers shop/api/cart.py:4; then cart.py gains five lines and
    another process swaps in an index built from the edited tree (no file event reaches the
    server). The next answer comes from the new file: line 9, not the old index's 4."""
    root = copy_fixture(FIXTURES / "reexport_chain", tmp_path / "shop")
    await client.initialize_session(
        types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=uris.from_fs_path(str(root)))
    )
    assert await cart_definition(client, root) == ("shop/api/cart.py", 4)
    cart = root / "shop/api/cart.py"
    cart.write_text("\n" * 5 + cart.read_text())
    store, _ = index_repo(root, index_dir=tmp_path / "built")
    store.close()
    db = root / ".codehop" / "index.db"
    for suffix in ("-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    os.replace(tmp_path / "built" / "index.db", db)
    assert await cart_definition(client, root) == ("shop/api/cart.py", 9)
