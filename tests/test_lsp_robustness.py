"""codehop.frontends.lsp_server never blocks, never dies: each robustness case is followed by a request the
server must answer. Some cases speak raw JSON-RPC over the server's stdio (an oversize header,
timing the process's end); the others use pytest-lsp's client.

Fixtures: fixtures_repos/reexport_chain (`Cart` at app.py:3 -> shop/api/cart.py:4), and a
generated repository of a few hundred modules (so that indexing takes a while).
"""

from __future__ import annotations

import asyncio
import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from tests.test_lsp_server import SERVER, SERVER_ENV, at, copy_fixture, definition, hover_text, initialize, landed, uri

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


def big_repo(root: Path, modules: int = 400) -> Path:
    """A repository that takes a few seconds to index: `modules` modules of 40 functions each."""
    pkg = root / "bigpkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text('"""Generated."""\n')
    for m in range(modules):
        body = [f'"""Module {m}."""', "", "from bigpkg import m0", ""]
        for f in range(40):
            body += [f"def f{f}(x):", f'    """Function {f} of module {m}."""', f"    return m0.f0(x) + {f}", ""]
        (pkg / f"m{m}.py").write_text("\n".join(body))
    return root


class RawClient:
    """JSON-RPC over a server process's stdio, read by a thread into a queue."""

    def __init__(self, cwd: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "codehop.frontends.lsp_server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=SERVER_ENV,
            cwd=cwd,
        )
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = 0
            while True:
                line = out.readline()
                if not line:
                    return
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
                if line in (b"\r\n", b"\n"):
                    break
            self.inbox.put(json.loads(out.read(length)))

    def send_raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def wait_for(self, predicate: Any, timeout_s: float = 60.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout_s
        while True:
            message = self.inbox.get(timeout=max(0.01, deadline - time.monotonic()))
            if predicate(message):
                return message

    def response(self, msg_id: Any, timeout_s: float = 60.0) -> dict[str, Any]:
        return self.wait_for(lambda m: m.get("id") == msg_id and "method" not in m, timeout_s)

    def initialize(self, root: Path) -> None:
        self.send(
            {"id": 1, "method": "initialize", "params": {"processId": None, "rootUri": uri(root), "capabilities": {}}}
        )
        self.response(1)
        self.send({"method": "initialized", "params": {}})

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)


@pytest.fixture
def raw(tmp_path: Path) -> Any:
    clients: list[RawClient] = []

    def start() -> RawClient:
        clients.append(RawClient(tmp_path))
        return clients[-1]

    yield start
    for c in clients:
        c.close()


def symbol_request(msg_id: int, query: str) -> dict[str, Any]:
    return {"id": msg_id, "method": "workspace/symbol", "params": {"query": query}}


def test_oversize_message_is_refused_and_the_server_stays_up(raw: Any, tmp_path: Path) -> None:
    """reexport_chain: `Content-Length: 999999999999` gets an InvalidRequest error (id null); the
    next request (workspace/symbol `Cart`) is answered."""
    root = copy_fixture("reexport_chain", tmp_path)
    client = raw()
    client.initialize(root)
    client.send_raw(b"Content-Length: 999999999999\r\n\r\n" + b'{"jsonrpc": "2.0", "id": 7, "method": "x"}')
    error = client.wait_for(lambda m: "error" in m, timeout_s=30)
    assert error["id"] is None and "refused" in error["error"]["message"]
    client.send(symbol_request(2, "Cart"))
    answer = client.response(2, timeout_s=60)
    assert [s["name"] for s in answer["result"]][:1] == ["Cart"]
    assert client.proc.poll() is None


def test_shutdown_and_exit_end_the_process_within_a_second(raw: Any, tmp_path: Path) -> None:
    """A generated repository still indexing: shutdown is answered, exit ends the process at once."""
    root = big_repo(tmp_path / "big")
    client = raw()
    client.initialize(root)
    client.send({"id": 2, "method": "shutdown"})
    assert client.response(2, timeout_s=30).get("result", "missing") is None
    t0 = time.monotonic()
    client.send({"method": "exit"})
    code = client.proc.wait(timeout=10)
    elapsed = time.monotonic() - t0
    assert code == 0
    assert elapsed < 1.0, f"the process took {elapsed:.2f} s to end after exit"


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_did_change_on_a_document_never_opened(client: LanguageClient, tmp_path: Path) -> None:
    """reexport_chain: incremental and whole-text didChange on app.py, which was never opened, raise
    no error popup; a hover on `Cart` (app.py:3) is answered after them."""
    root = copy_fixture("reexport_chain", tmp_path)
    await initialize(client, root)
    doc = types.VersionedTextDocumentIdentifier(uri=uri(root / "app.py"), version=2)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=doc,
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)
                    ),
                    text="# edited\n",
                )
            ],
        )
    )
    assert "class Cart" in await hover_text(client, at(root, "app.py", 3, "Cart"))
    errors = [m.message for m in client.messages if m.type == types.MessageType.Error]
    assert errors == []


@pytest.mark.asyncio
async def test_unsaved_changes_are_honoured_for_definition_and_hover(client: LanguageClient, tmp_path: Path) -> None:
    """reexport_chain, app.py edited in the editor only: two lines inserted at the top shift
    `Cart()` (app.py:7) to line 9, and a new line `extra = checkout` appears; definition and hover
    follow the buffer, not the file on disk."""
    root = copy_fixture("reexport_chain", tmp_path)
    await initialize(client, root)
    path = root / "app.py"
    text = path.read_text()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri(path), language_id="python", version=1, text=text)
        )
    )
    edited = "# one\n# two\n" + text.replace("def main():\n", "def main():\n    extra = checkout\n")
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(path), version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=edited)],
        )
    )
    lines = edited.splitlines()
    cart_line = next(i for i, ln in enumerate(lines) if "Cart()" in ln)
    new_line = next(i for i, ln in enumerate(lines) if "extra = checkout" in ln)
    assert cart_line == 9  # 0-based: app.py:7 moved down by three lines
    doc = types.TextDocumentIdentifier(uri=uri(path))
    pos = types.Position(line=cart_line, character=lines[cart_line].index("Cart"))
    loc = await client.text_document_definition_async(types.DefinitionParams(text_document=doc, position=pos))
    assert landed(root, loc) == ("shop/api/cart.py", 4)
    pos = types.Position(line=new_line, character=lines[new_line].index("checkout") + 2)
    loc = await client.text_document_definition_async(types.DefinitionParams(text_document=doc, position=pos))
    assert landed(root, loc) == ("shop/api/flow.py", 6)
    hover = await client.text_document_hover_async(types.HoverParams(text_document=doc, position=pos))
    assert hover is not None and "shop.api.flow.checkout" in hover.contents.value  # type: ignore[union-attr]


@pytest.mark.asyncio
async def test_requests_during_indexing_wait_and_cancel_is_honoured(client: LanguageClient, tmp_path: Path) -> None:
    """A generated repository: a request sent while it indexes and then cancelled is answered
    RequestCancelled at once; one left alone is answered when the index is ready (with progress)."""
    root = big_repo(tmp_path / "big")
    await initialize(client, root)
    params = types.WorkspaceSymbolParams(query="f39")
    doomed = asyncio.ensure_future(client.protocol.send_request_async(types.WORKSPACE_SYMBOL, params, msg_id="doomed"))
    waiting = asyncio.ensure_future(client.workspace_symbol_async(params))
    await asyncio.sleep(0.2)
    assert not waiting.done(), "indexing finished too fast for this test"
    t0 = time.monotonic()
    client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="doomed"))
    with pytest.raises(JsonRpcException, match="(?i)cancel"):
        await asyncio.wait_for(doomed, 10)
    assert time.monotonic() - t0 < 5
    found = await asyncio.wait_for(waiting, 120)
    assert found and found[0].name == "f39"
    assert any(v.kind == "end" for reports in client.progress_reports.values() for v in reports)


@pytest.mark.asyncio
async def test_a_huge_question_does_not_freeze_the_server(client: LanguageClient, tmp_path: Path) -> None:
    """reexport_chain: `codehop.ask` with one 2 MB word is cut and answered; a hover sent right
    after it is answered quickly."""
    root = copy_fixture("reexport_chain", tmp_path)
    await initialize(client, root)
    await hover_text(client, at(root, "app.py", 3, "Cart"))  # the index is ready
    ask = asyncio.ensure_future(
        client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="codehop.ask", arguments=["where is " + "x" * 2_000_000])
        )
    )
    t0 = time.monotonic()
    assert "class Cart" in await hover_text(client, at(root, "app.py", 3, "Cart"))
    assert time.monotonic() - t0 < 5
    result = await asyncio.wait_for(ask, 60)
    answer = result._asdict() if hasattr(result, "_asdict") else result
    assert "cut to its first" in answer["answer"]
    assert landed(root, await definition(client, at(root, "app.py", 3, "Cart"))) == ("shop/api/cart.py", 4)
