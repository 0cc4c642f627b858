"""End-to-end tests of codehop.frontends.lsp_server: a real pytest-lsp client drives `python -m codehop.frontends.lsp_server`
over stdio, on copies of fixture repositories (indexing writes `.codehop/` into the copy).

Lines in docstrings are 1-based, as in fixtures_repos/README.md; LSP lines are one less.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls import uris
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient
from shared import copy_fixture as _copy

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(60)]

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures_repos"
SERVER_ENV = {k: v for k, v in os.environ.items() if k != "CODEHOP_INDEX_DIR"}
SERVER_ENV["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))

CAPABILITIES = types.ClientCapabilities(
    window=types.WindowClientCapabilities(work_done_progress=True),
    text_document=types.TextDocumentClientCapabilities(
        hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
        synchronization=types.TextDocumentSyncClientCapabilities(did_save=True),
    ),
    general=types.GeneralClientCapabilities(position_encodings=[types.PositionEncodingKind.Utf16]),
)


SERVER = ClientServerConfig(
    server_command=[sys.executable, "-m", "codehop.frontends.lsp_server"], server_env=SERVER_ENV
)


def copy_fixture(fixture: str, tmp: Path) -> Path:
    root = tmp / fixture
    _copy(FIXTURES / fixture, root, symlinks=False)
    return root


async def initialize(client: LanguageClient, root: Path, options: dict[str, Any] | None = None) -> None:
    await client.initialize_session(
        types.InitializeParams(capabilities=CAPABILITIES, root_uri=uri(root), initialization_options=options)
    )


# One server per read-only fixture repository, shared by the tests of this module (a server start
# costs about a second, most of it importing lsprotocol); tests that edit files or need other
# initializationOptions start their own (`client`).
@pytest.fixture(scope="module")
def reexport_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_fixture("reexport_chain", tmp_path_factory.mktemp("lsp"))


@pytest.fixture(scope="module")
def inherited_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_fixture("inherited_member", tmp_path_factory.mktemp("lsp"))


@pytest_lsp.fixture(config=SERVER, scope="module")
async def reexport(lsp_client: LanguageClient, reexport_root: Path):  # type: ignore[no-untyped-def]
    await initialize(lsp_client, reexport_root)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=SERVER, scope="module")
async def inherited(lsp_client: LanguageClient, inherited_root: Path):  # type: ignore[no-untyped-def]
    await initialize(lsp_client, inherited_root)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=SERVER, loop_scope="module")
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    yield
    await lsp_client.shutdown_session()


def uri(path: Path) -> str:
    return uris.from_fs_path(str(path)) or ""


def at(root: Path, rel_path: str, line: int, needle: str, offset: int = 0) -> types.TextDocumentPositionParams:
    """The LSP position of `needle` on 1-based `line` of `rel_path` (UTF-16 columns)."""
    text = (root / rel_path).read_text(encoding="utf-8").splitlines()[line - 1]
    col = text.index(needle) + offset
    return types.TextDocumentPositionParams(
        text_document=types.TextDocumentIdentifier(uri=uri(root / rel_path)),
        position=types.Position(line=line - 1, character=len(text[:col].encode("utf-16-le")) // 2),
    )


def landed(root: Path, loc: Any) -> tuple[str, int]:
    """(repo-relative path, 1-based line) of an LSP Location."""
    assert isinstance(loc, types.Location), loc
    path = Path(uris.to_fs_path(loc.uri) or "").resolve()
    return path.relative_to(root.resolve()).as_posix(), loc.range.start.line + 1


async def definition(client: LanguageClient, pos: types.TextDocumentPositionParams) -> Any:
    return await client.text_document_definition_async(
        types.DefinitionParams(text_document=pos.text_document, position=pos.position)
    )


async def hover_text(client: LanguageClient, pos: types.TextDocumentPositionParams) -> str:
    result = await client.text_document_hover_async(
        types.HoverParams(text_document=pos.text_document, position=pos.position)
    )
    assert result is not None
    assert isinstance(result.contents, types.MarkupContent)
    assert result.contents.kind == types.MarkupKind.Markdown
    return result.contents.value


async def eventually(predicate: Any, timeout_s: float = 5.0) -> bool:
    for _ in range(int(timeout_s / 0.05)):
        if predicate():
            return True
        await asyncio.sleep(0.05)
    return bool(predicate())


async def test_definition_through_reexport(reexport: LanguageClient, reexport_root: Path) -> None:
    """reexport_chain, `Cart` at app.py:3 -> shop/api/cart.py:4 (through both `__init__` files);
    indexing reported `$/progress` begin/report/end."""
    client, root = reexport, reexport_root
    loc = await definition(client, at(root, "app.py", 3, "Cart"))
    assert landed(root, loc) == ("shop/api/cart.py", 4)
    assert loc.range.start.character == len("class ") and loc.range.end.character == len("class Cart")
    assert (root / ".codehop").is_dir()

    def kinds() -> list[str]:
        return [v.kind for reports in client.progress_reports.values() for v in reports]

    assert await eventually(lambda: "end" in kinds()), client.progress_reports
    assert kinds() == ["begin", "report", "end"]


@pytest.mark.parametrize(
    ("rel_path", "line", "needle", "expected"),
    [
        ("client.py", 12, "send", ("transport/http.py", 9)),  # HTTPTransport.send, not base.py:18
        ("client.py", 13, "close", ("transport/mock.py", 12)),  # close = _noop, not base.py:7
        ("transport/base.py", 15, "close", ("transport/base.py", 7)),  # self.close in BaseTransport
    ],
    ids=["send-from-parent", "close-overridden-by-alias", "self-member"],
)
async def test_definition_through_inheritance(
    inherited: LanguageClient, inherited_root: Path, rel_path: str, line: int, needle: str, expected: tuple[str, int]
) -> None:
    """inherited_member, a member used on a MockTransport (client.py:11 `with MockTransport(...) as
    transport`) lands on the class in the MRO that declares it (fixtures_repos/README.md)."""
    root = inherited_root
    assert landed(root, await definition(inherited, at(root, rel_path, line, needle))) == expected


async def test_declaration_stops_at_import_site(reexport: LanguageClient, reexport_root: Path) -> None:
    """reexport_chain, `Cart()` at app.py:7: declaration is the import at app.py:3, definition
    goes on to shop/api/cart.py:4."""
    client, root = reexport, reexport_root
    pos = at(root, "app.py", 7, "Cart")
    decl = await client.text_document_declaration_async(
        types.DeclarationParams(text_document=pos.text_document, position=pos.position)
    )
    assert landed(root, decl) == ("app.py", 3)
    assert decl.range.start.character == len("from shop import ")
    assert landed(root, await definition(client, pos)) == ("shop/api/cart.py", 4)


@pytest.mark.parametrize(
    ("line", "needle", "expected"),
    [
        (
            3,
            "Cart",
            [
                "`app.py:3` pointer `Cart`",
                "`shop/__init__.py:6` import (symbol_table)",
                "`shop/api/__init__.py:3` import",
                "`shop/api/cart.py:4` declaration",
                "class Cart",
                "A shopping cart holding items and their quantities.",
            ],
        ),
        (
            9,
            "checkout",
            [
                "`shop/api/__init__.py:4` star_import",
                "`shop/api/flow.py:6` declaration",
                "def checkout(cart)",
                "Charge the cart and return an order id.",
            ],
        ),
    ],
    ids=["reexported-class", "star-imported-function"],
)
async def test_hover_shows_chain_signature_and_docstring(
    reexport: LanguageClient, reexport_root: Path, line: int, needle: str, expected: list[str]
) -> None:
    """reexport_chain, app.py:3 `Cart` and app.py:9 `checkout`: the chain with file:line for each step,
    the declaration's signature and its docstring's first line."""
    text = await hover_text(reexport, at(reexport_root, "app.py", line, needle))
    for part in expected:
        assert part in text, text


async def test_ask_command_and_context_request(inherited: LanguageClient) -> None:
    """inherited_member, "Where is `MockTransport.__enter__`?": complete, with transport/base.py:11
    (BaseTransport.__enter__) in the context; `codehop/context` honours its token budget."""
    answer = await inherited.workspace_execute_command_async(
        types.ExecuteCommandParams(command="codehop.ask", arguments=["Where is `MockTransport.__enter__`?", 1])
    )
    assert answer["state"] == "complete"
    enter = [c for c in answer["context"] if c["qualname"].endswith(".__enter__")]
    assert [(c["path"], c["start_line"]) for c in enter] == [("transport/base.py", 11)]

    # a custom request's result reaches a pygls client as namedtuples, not dicts
    context = await inherited.protocol.send_request_async(
        "codehop/context", {"query": "Which `send` does `MockTransport` use?", "budget_tokens": 150}
    )
    assert context.state == "complete"
    assert 0 < context.stats.context_tokens <= 150
    assert "transport/http.py" in [c.path for c in context.context]
    assert all(c.text for c in context.context)  # the same builder as the CLI and MCP: the code travels


async def test_columns_are_utf16(client: LanguageClient, tmp_path: Path) -> None:
    """reexport_chain plus emoji.py: five non-BMP characters before `Cart` on emoji.py:1 (the import)
    and emoji.py:5 (the call) put its UTF-16 column 5 past its code-point column, both ways."""
    root = copy_fixture("reexport_chain", tmp_path)
    emoji = "\U0001f60b" * 5
    (root / "emoji.py").write_text(
        f'label = "{emoji}"; from shop import Cart\n\n\ndef make():\n    tag = "{emoji}"; return Cart()\n',
        encoding="utf-8",
    )
    await initialize(client, root)
    pos = at(root, "emoji.py", 5, "Cart")
    assert landed(root, await definition(client, pos)) == ("shop/api/cart.py", 4)
    decl = await client.text_document_declaration_async(
        types.DeclarationParams(text_document=pos.text_document, position=pos.position)
    )
    assert landed(root, decl) == ("emoji.py", 1)
    assert decl.range.start == at(root, "emoji.py", 1, "Cart").position


async def test_save_refreshes_index(client: LanguageClient, tmp_path: Path) -> None:
    """inherited_member, `BaseTransport` at transport/http.py:6: after transport/base.py is edited on
    disk (a line inserted above the class, a new docstring) and saved, the next hover shows both."""
    root = copy_fixture("inherited_member", tmp_path)
    await initialize(client, root)
    pos = at(root, "transport/http.py", 6, "BaseTransport")
    before = await hover_text(client, pos)
    assert "`transport/base.py:4`" in before and "owns a connection" in before

    base = root / "transport" / "base.py"
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri(base), language_id="python", version=1, text=base.read_text())
        )
    )
    edited = base.read_text().replace(
        '"""Abstract transport: sends requests and owns a connection."""',
        '"""Abstract transport, revised: one request at a time."""',
    )
    base.write_text("# a new first line\n" + edited)
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri(base)))
    )

    after = await hover_text(client, pos)
    assert "`transport/base.py:5`" in after and "revised: one request at a time" in after, after
    assert landed(root, await definition(client, pos)) == ("transport/base.py", 5)


async def test_errors_are_answered_and_server_stays_up(
    reexport: LanguageClient, reexport_root: Path, tmp_path: Path
) -> None:
    """reexport_chain: a hover with a negative line, a hover on a missing document, one outside the
    workspace, an unknown command and bad `codehop.ask` arguments each get a JSON-RPC error; then a
    hover on app.py:3 `Cart` still works."""
    client, root = reexport, reexport_root
    good = at(root, "app.py", 3, "Cart")

    bad_position = types.Position(line=0, character=0)
    object.__setattr__(bad_position, "line", -1)  # what a buggy client would send: not a uinteger
    with pytest.raises(JsonRpcException, match="(?i)invalid params"):
        await client.text_document_hover_async(
            types.HoverParams(text_document=good.text_document, position=bad_position)
        )
    outside = tmp_path / "elsewhere.py"
    outside.write_text("x = 1\n")
    for doc, message in [(root / "nope.py", "no such document"), (outside, "outside the workspace")]:
        with pytest.raises(JsonRpcException, match=message):
            await client.text_document_hover_async(
                types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri(doc)), position=good.position)
            )
    for command, arguments in [("codehop.nope", []), ("codehop.ask", [42]), ("codehop.ask", ["q", "x"])]:
        with pytest.raises(JsonRpcException):
            await client.workspace_execute_command_async(
                types.ExecuteCommandParams(command=command, arguments=arguments)
            )

    assert "class Cart" in await hover_text(client, good)


@pytest.mark.parametrize(
    ("options", "lens", "warnings"),
    [
        (None, None, []),
        ({"codeLens": True}, "inherits 3 members from 2 files", []),
        ({"codeLens": "yes", "colour": 1}, None, ["'codeLens'", "unknown option 'colour'"]),
    ],
    ids=["default-off", "enabled", "bad-config-warns"],
)
async def test_code_lens_and_configuration(
    client: LanguageClient, tmp_path: Path, options: dict[str, Any] | None, lens: str | None, warnings: list[str]
) -> None:
    """inherited_member, transport/mock.py:6 `class MockTransport(HTTPTransport)` inherits send
    (transport/http.py) and __enter__, __exit__ (transport/base.py); bad options warn and fall back."""
    root = copy_fixture("inherited_member", tmp_path)
    await initialize(client, root, options)
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri(root / "transport" / "mock.py")))
    )
    if lens is None:
        assert lenses is None
    else:
        assert lenses is not None and [(lz.range.start.line + 1, lz.command and lz.command.title) for lz in lenses] == [
            (6, lens)
        ]
    shown = [m.message for m in client.messages if m.type == types.MessageType.Warning]
    assert len(shown) == len(warnings), shown
    for text in warnings:
        assert any(text in m for m in shown), shown
