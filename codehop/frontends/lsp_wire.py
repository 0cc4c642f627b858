"""The LSP edge of codehop's language server, below its handlers: checked initializationOptions,
the position converters (codehop's 1-based lines and code-point columns <-> LSP's 0-based lines
and client units), `$/progress` for the index build, and a protocol and stdin reader that never
leave a client hanging (params that do not parse get InvalidParams; an oversize message is refused
and the stream resynchronised).

Split from codehop.frontends.lsp_server, which holds the handlers. May import: pygls,
lsprotocol, cattrs, stdlib (nothing of codehop: what it converts arrives as plain values).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import threading
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, Protocol

from cattrs import transform_error
from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.io_ import StdinAsyncReader
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method
from pygls.workspace.position_codec import PositionCodec

log = logging.getLogger("codehop.frontends.lsp_server")

MAX_MESSAGE_BYTES = 64 * 1024 * 1024  # a bigger Content-Length is refused, and the stream resynchronised
MAX_HEADER_BYTES = 64 * 1024
SHUTDOWN_GRACE_S = 2.0  # at `shutdown`, pending requests get this long to answer; the rest get null


class _Notifier(Protocol):
    """What progress needs of the server: a way onto its event loop, and its protocol."""

    protocol: Any

    def on_loop(self, fn: Callable[..., Any], *args: Any) -> None: ...


# ---- configuration -------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    """initializationOptions, checked: unknown keys and wrong types fall back to these defaults."""

    code_lens: bool = False
    max_loops: int = 1
    budget_tokens: int = 2000
    index_wait_s: float = 60.0


# client key -> (field, accepted types, validity check)
_OPTION_KEYS: dict[str, tuple[str, tuple[type, ...], Callable[[Any], bool]]] = {
    "codeLens": ("code_lens", (bool,), lambda v: True),
    "maxLoops": ("max_loops", (int,), lambda v: 0 <= v <= 8),
    "budgetTokens": ("budget_tokens", (int,), lambda v: v > 0),
    "indexWaitSeconds": ("index_wait_s", (int, float), lambda v: v > 0),
}


def parse_options(raw: object) -> tuple[Options, list[str]]:
    """Options from initializationOptions, and one line per problem found (never raises)."""
    if raw is None:
        return Options(), []
    if not isinstance(raw, dict):
        return Options(), [f"initializationOptions must be an object, not {type(raw).__name__}"]
    values: dict[str, Any] = {}
    problems: list[str] = []
    for key, value in raw.items():
        if key not in _OPTION_KEYS:
            problems.append(f"unknown option {key!r} (known: {', '.join(_OPTION_KEYS)})")
            continue
        name, kinds, valid = _OPTION_KEYS[key]
        bad_bool = isinstance(value, bool) and bool not in kinds
        if bad_bool or not isinstance(value, kinds) or not valid(value):
            default = getattr(Options(), name)
            problems.append(f"option {key!r}: {value!r} is not valid; using {default!r}")
            continue
        values[name] = value
    return Options(**values), problems


# ---- converters: codehop positions <-> LSP positions (only here) ----------------------
def lsp_position(codec: PositionCodec, text: str, line: int, col: int) -> types.Position:
    """1-based line, code-point column on `text` -> 0-based line, client-unit column (an ASCII
    prefix is one unit a code point in every encoding: the codec counts only the others)."""
    prefix = text[:col]
    return types.Position(line=max(line - 1, 0), character=col if prefix.isascii() else codec.client_num_units(prefix))


def lsp_range(codec: PositionCodec, text: str, line: int, start_col: int, end_col: int) -> types.Range:
    return types.Range(start=lsp_position(codec, text, line, start_col), end=lsp_position(codec, text, line, end_col))


def codepoint_col(codec: PositionCodec, text: str, character: int) -> int:
    """A client-unit column on `text` -> a code-point column."""
    return codec.position_from_client_units([text], types.Position(line=0, character=character)).character


# ---- progress of the index build ----------------------------------------------------------
class BuildProgress:
    """`$/progress` for the first index build. Values wait until a token exists (the client's from
    `initialize`, or one we create after `initialized`); sent on the event loop, from any thread."""

    def __init__(self, server: _Notifier) -> None:
        self.server = server
        self.token: types.ProgressToken | None = None
        self._pending: list[Any] = []
        self._lock = threading.Lock()

    def attach(self, token: types.ProgressToken) -> None:
        with self._lock:
            self.token = token
            pending, self._pending = self._pending, []
        for value in pending:
            self._send(token, value)

    def begin(self, title: str) -> None:
        self._emit(types.WorkDoneProgressBegin(title=title, cancellable=False, percentage=0))

    def report(self, message: str, percentage: int) -> None:
        self._emit(types.WorkDoneProgressReport(message=message, percentage=percentage))

    def end(self, message: str) -> None:
        self._emit(types.WorkDoneProgressEnd(message=message))

    def _emit(self, value: Any) -> None:
        with self._lock:
            if self.token is None:
                self._pending.append(value)
                return
            token = self.token
        self._send(token, value)

    def _send(self, token: types.ProgressToken, value: Any) -> None:
        params = types.ProgressParams(token=token, value=value)
        self.server.on_loop(self.server.protocol.notify, types.PROGRESS, params)


# ---- the protocol and the reader ---------------------------------------------------------
class _Answered:
    """A request already answered with an error while it was being parsed."""

    jsonrpc = ""


class CodehopProtocol(LanguageServerProtocol):
    """pygls 2.1.1 logs a request whose params do not deserialize and never answers it (the client
    hangs); here it gets an `InvalidParams` error response."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._open_requests: set[Any] = set()  # the client's requests not answered yet
        self._settled: set[Any] = set()  # answered null at shutdown: a late result is not sent

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if "id" not in data or "method" not in data:
                raise
            cause = exc.__cause__
            detail = "; ".join(transform_error(cause)) if cause is not None else exc.message
            error = JsonRpcInvalidParams(f"invalid params for {data['method']}: {detail}")
            self._send_response(data["id"], error=error.to_response_error())
            return _Answered()

    def handle_message(self, message: Any) -> None:
        if not isinstance(message, _Answered):
            super().handle_message(message)

    # -- shutdown: every pending request answered once, with its result or null
    @lsp_method(types.SHUTDOWN)
    def lsp_shutdown(self, *args: Any) -> Generator[Any, Any, None]:
        """pygls 2.1.1 cancels the pending requests while iterating the dict their callbacks pop
        from: a generator-handled request (`workspace/executeCommand`) pops at once, the shutdown
        fails ("dictionary changed size during iteration") and `exit` ends with 1; the others are
        answered "canceled". Here they get SHUTDOWN_GRACE_S to finish, then null; then the
        server's own shutdown handler runs (it stops the workers)."""
        current = self.msg_id
        pending = [
            (i, f)
            for i, f in list(self._request_futures.items())
            if i != current and i in self._open_requests and not f.done()
        ]
        if pending:
            yield self._settle, (pending,), None
        if (user_handler := self.fm.features.get(types.SHUTDOWN)) is not None:
            yield user_handler, args, None
        self._shutdown = True
        return None

    async def _settle(self, pending: list[tuple[Any, Any]]) -> None:
        """Wait for the pending requests (up to SHUTDOWN_GRACE_S), then answer the rest null."""
        waits = [asyncio.wrap_future(f) if isinstance(f, concurrent.futures.Future) else f for _, f in pending]
        await asyncio.wait(waits, timeout=SHUTDOWN_GRACE_S)
        for msg_id, future in pending:
            if future.done():
                continue
            self._request_futures.pop(msg_id, None)
            self._settled.add(msg_id)
            self._send_response(msg_id, result=None)
            future.cancel()

    def _handle_request(self, msg_id: Any, method_name: str, params: Any) -> None:
        self._open_requests.add(msg_id)  # pygls keeps its own sub-handlers' futures beside these
        super()._handle_request(msg_id, method_name, params)

    def _send_handler_result(self, future: Any, *, msg_id: Any) -> None:
        self._open_requests.discard(msg_id)
        if msg_id in self._settled:
            self._settled.discard(msg_id)
            return
        super()._send_handler_result(future, msg_id=msg_id)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Any:
        """A change to a document the client never opened: a whole-text change opens it, an
        incremental one (nothing to apply it to) is dropped with a log line, never a popup."""
        uri = params.text_document.uri
        if uri not in self.workspace.text_documents:
            whole = [c for c in params.content_changes if isinstance(c, types.TextDocumentContentChangeWholeDocument)]
            if not whole:
                log.warning("didChange for %s, which was never opened: ignored", uri)
                return
            self.workspace.put_text_document(
                types.TextDocumentItem(
                    uri=uri, language_id="python", version=params.text_document.version, text=whole[-1].text
                )
            )
            return
        yield from super().lsp_text_document__did_change(params)


class BoundedReader(StdinAsyncReader):
    """stdin for `run_async`, with bounds: a header line longer than MAX_HEADER_BYTES or a
    Content-Length over MAX_MESSAGE_BYTES is answered with a JSON-RPC error (id null) and skipped
    up to the next header, so the server stays up and keeps reading."""

    def __init__(self, stdin: Any, executor: Any, protocol: CodehopProtocol) -> None:
        super().__init__(stdin, executor)
        self.protocol = protocol
        self._pushback: bytes | None = None

    def readline(self) -> Any:
        if self._pushback is not None:
            line, self._pushback = self._pushback, None
            fut: asyncio.Future[bytes] = self.loop.create_future()
            fut.set_result(line)
            return fut
        return self.loop.run_in_executor(self.executor, self._readline)

    def _readline(self) -> bytes:
        line: bytes = self.stdin.readline(MAX_HEADER_BYTES)
        while len(line) >= MAX_HEADER_BYTES and not line.endswith(b"\n"):
            line = self.stdin.readline(MAX_HEADER_BYTES)  # an endless header: drop it
            if not line:
                return b""
        return line

    def readexactly(self, n: int) -> Any:
        if n <= MAX_MESSAGE_BYTES:
            return super().readexactly(n)
        return self.loop.run_in_executor(self.executor, self._skip, n)

    def _skip(self, n: int) -> bytes:
        log.error("refused a message of %d bytes (limit %d)", n, MAX_MESSAGE_BYTES)
        # JSON-RPC: an error whose request id cannot be read carries `"id": null`
        body = json.dumps(
            {
                "jsonrpc": "2.0",
                "id": None,
                "error": {
                    "code": int(types.ErrorCodes.InvalidRequest),
                    "message": f"message of {n} bytes refused (limit {MAX_MESSAGE_BYTES})",
                },
            }
        ).encode()
        frame = b"Content-Length: %d\r\n\r\n" % len(body) + body
        writer = self.protocol.writer
        if writer is not None:
            self.loop.call_soon_threadsafe(writer.write, frame)  # writes happen on the event loop
        # what follows is the refused body, then the next message's header: find that header
        while True:
            line = self.stdin.readline(MAX_HEADER_BYTES)
            if not line:
                return b""
            at = line.find(b"Content-Length:")
            if at >= 0:
                self._pushback = line[at:]
                break
        # a harmless notification stands in for the refused message
        return b'{"jsonrpc": "2.0", "method": "$/codehop/refused", "params": {}}'
