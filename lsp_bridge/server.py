"""codehop's language server (pygls): go to the real declaration through re-exports, aliases and the MRO.

    python -m lsp_bridge.server              stdio
    python -m lsp_bridge.server --tcp 127.0.0.1:2087
    codehop lsp [--tcp HOST:PORT]            (calls `serve`)

Every handler has one shape: get the document, call `codehop.navigation` in a
worker thread, convert with `lsp_range` / `lsp_location`, return None when
there is nothing. Positions: codehop uses 1-based lines and code-point
columns; the converters below are the only place that speaks LSP's 0-based
lines and client units (UTF-16 unless the client negotiated another
encoding).

Features: definition (through every pointer), declaration (the import site),
hover (Markdown: chain, signature or value, docstring), `workspace/executeCommand`
`codehop.ask` [question, max_loops?] and the request `codehop/context`
{query, budget_tokens?} (both return the Answer JSON of DESIGN.md), code lens
"inherits N members from M files" (initializationOptions {"codeLens": true}).

Threads: `initialize` starts indexing the workspace root in a worker thread,
with `$/progress` (begin/report/end); a request that arrives before the index
is ready waits for it, up to `indexWaitSeconds`. didSave and
didChangeWatchedFiles refresh the index in a worker thread, one refresh at a
time; requests wait for a pending refresh too, so they see what was saved.
The event loop only awaits.

Errors, one conversion point each: a CodehopError becomes a JSON-RPC error
`RequestFailed` with its message; a document outside the workspace, bad
command arguments or params that do not parse become `InvalidParams`; any
other exception becomes `InternalError` (pygls). Bad initializationOptions
become a `window/showMessage` warning and the defaults. The server stays up.

May import: codehop (app, navigation, orchestrator, records, errors, walk), pygls, lsprotocol, stdlib.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from cattrs import transform_error
from lsprotocol import types
from pygls import uris
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.workspace.position_codec import PositionCodec

from codehop import navigation
from codehop.app import App
from codehop.errors import CodehopError, OutsideRepoError, RepoNotFoundError, UsageError
from codehop.orchestrator import Limits
from codehop.records import Location
from codehop.walk import confine

log = logging.getLogger(__name__)
_T = TypeVar("_T")

ASK_COMMAND = "codehop.ask"
CONTEXT_REQUEST = "codehop/context"
REQUEST_FAILED = int(types.LSPErrorCodes.RequestFailed)


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
    """1-based line, code-point column on `text` -> 0-based line, client-unit column."""
    return types.Position(line=max(line - 1, 0), character=codec.client_num_units(text[:col]))


def lsp_range(codec: PositionCodec, text: str, line: int, start_col: int, end_col: int) -> types.Range:
    return types.Range(start=lsp_position(codec, text, line, start_col), end=lsp_position(codec, text, line, end_col))


def lsp_location(app: App, codec: PositionCodec, loc: Location) -> types.Location:
    """A codehop Location -> an LSP Location spanning the declared name on its line."""
    text = navigation.source_line(app, loc.rel_path, loc.line) or ""
    start, end = navigation.name_span(text, loc.qualname.rpartition(".")[2])
    return types.Location(
        uri=uris.from_fs_path(str(app.root / loc.rel_path)) or "", range=lsp_range(codec, text, loc.line, start, end)
    )


def codepoint_col(codec: PositionCodec, text: str, character: int) -> int:
    """A client-unit column on `text` -> a code-point column."""
    return codec.position_from_client_units([text], types.Position(line=0, character=character)).character


# ---- progress of the index build ----------------------------------------------------------
class _BuildProgress:
    """`$/progress` for the first index build. Values wait until a token exists (the client's from
    `initialize`, or one we create after `initialized`); sent on the event loop, from any thread."""

    def __init__(self, server: CodehopLanguageServer) -> None:
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


# ---- the server ------------------------------------------------------------------------
class _Answered:
    """A request already answered with an error while it was being parsed."""

    jsonrpc = ""


class CodehopProtocol(LanguageServerProtocol):
    """pygls 2.1.1 logs a request whose params do not deserialize and never answers it (the client
    hangs); here it gets an `InvalidParams` error response."""

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


@dataclass(slots=True)
class _Refresh:
    """Bookkeeping for serialised refreshes: a save asked for one; a refresh started later covers it."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    asked: int = 0
    done: int = 0
    latest: Future[None] | None = None


class CodehopLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("codehop", _version(), protocol_cls=CodehopProtocol)
        self.options = Options()
        self.app_future: Future[App] = Future()
        self.executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="codehop-lsp")
        self.build_progress = _BuildProgress(self)
        self.refreshes = _Refresh()
        self.loop: asyncio.AbstractEventLoop | None = None

    # -- threads -> event loop
    def on_loop(self, fn: Callable[..., Any], *args: Any) -> None:
        """Call `fn` on the event loop (writes to the client happen there, whatever thread asks)."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(fn, *args)

    def show(self, message: str, kind: types.MessageType = types.MessageType.Warning) -> None:
        self.on_loop(self.window_show_message, types.ShowMessageParams(type=kind, message=f"codehop: {message}"))

    # -- the index
    def start_build(self, root: Path | None) -> None:
        if root is None:
            self.app_future.set_exception(RepoNotFoundError("the client sent no workspace root"))
            self.show("no workspace root: open a folder to use codehop", types.MessageType.Error)
            return
        self.executor.submit(self._build, root)

    def _build(self, root: Path) -> None:
        if not self.app_future.set_running_or_notify_cancel():
            return
        self.build_progress.begin(f"codehop: indexing {root.name}")
        try:
            app = App(root)
        except Exception as exc:
            log.exception("indexing %s failed", root)
            self.build_progress.end(f"failed: {exc}")
            self.show(f"could not index {root}: {exc}", types.MessageType.Error)
            self.app_future.set_exception(exc)
            return
        r = app.report
        self.build_progress.report(f"{r.files} files, {r.chunks} chunks, {r.xrefs} references", 90)
        self.build_progress.end(f"indexed {r.files} files in {r.seconds:.1f} s")
        self.app_future.set_result(app)

    def schedule_refresh(self) -> None:
        """Re-index what changed on disk, in a worker thread (event loop only)."""
        self.refreshes.asked += 1
        self.refreshes.latest = self.executor.submit(self._refresh, self.refreshes.asked)

    def _refresh(self, asked: int) -> None:
        try:
            app = self.app_future.result()
        except Exception:
            return  # the build failed and said so already
        with self.refreshes.lock:
            if self.refreshes.done >= asked:
                return  # a refresh that started after this save has read the disk already
            started = self.refreshes.asked
            try:
                app.refresh()
            except Exception as exc:
                log.exception("refresh failed")
                self.show(f"could not update the index: {exc}")
            self.refreshes.done = started

    async def app(self) -> App:
        """The index, once built and refreshed after the last save (waits up to indexWaitSeconds)."""
        wait_s = self.options.index_wait_s
        try:
            app = await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(self.app_future)), wait_s)
            if app.index_replaced():  # the index file was replaced or deleted under us: reopen first
                self.schedule_refresh()
            if self.refreshes.latest is not None:
                await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(self.refreshes.latest)), wait_s)
        except TimeoutError:
            raise JsonRpcException(
                f"codehop is still indexing (waited {wait_s:g} s); try again", code=REQUEST_FAILED
            ) from None
        except JsonRpcException:
            raise
        except Exception as exc:  # the build failed (and said so in a message): every request says why
            raise JsonRpcException(f"codehop has no index: {exc}", code=REQUEST_FAILED) from exc
        return app

    async def run(self, fn: Callable[..., _T], *args: Any) -> _T:
        """`fn(*args)` in a worker thread; a CodehopError becomes a RequestFailed error response."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.executor, fn, *args)
        except CodehopError as exc:
            raise JsonRpcException(exc.message, code=REQUEST_FAILED) from exc

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
        if self.app_future.done() and self.app_future.exception() is None:
            self.app_future.result().close()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("codehop")
    except PackageNotFoundError:
        return "0"


server = CodehopLanguageServer()


# ---- documents and cursors -------------------------------------------------------------------
def document_path(ls: CodehopLanguageServer, app: App, uri: str) -> str:
    """The repo-relative path of a document, or InvalidParams (not a file, outside, missing)."""
    doc = ls.workspace.get_text_document(uri)
    if doc.path is None or not uri.startswith("file:"):
        raise JsonRpcInvalidParams(f"not a file document: {uri}")
    try:
        full = confine(app.root, doc.path)
    except OutsideRepoError:
        raise JsonRpcInvalidParams(f"document is outside the workspace {app.root}: {uri}") from None
    if not full.is_file():
        raise JsonRpcInvalidParams(f"no such document: {uri}")
    return full.relative_to(app.root).as_posix()


PositionParams = types.DefinitionParams | types.DeclarationParams | types.HoverParams


async def cursor(ls: CodehopLanguageServer, params: PositionParams) -> tuple[App, str, int, int]:
    """(app, rel_path, 1-based line, code-point column) for a position request."""
    app = await ls.app()
    rel_path = document_path(ls, app, params.text_document.uri)
    line = params.position.line + 1
    text = navigation.source_line(app, rel_path, line) or ""
    return app, rel_path, line, codepoint_col(ls.workspace.position_codec, text, params.position.character)


# ---- lifecycle ---------------------------------------------------------------------------
@server.feature(types.INITIALIZE)
def initialize(ls: CodehopLanguageServer, params: types.InitializeParams) -> None:
    ls.loop = asyncio.get_running_loop()
    ls.options, problems = parse_options(params.initialization_options)
    for problem in problems:
        ls.show(f"{problem}. See the README for the options.")
    if params.work_done_token is not None:
        ls.build_progress.attach(params.work_done_token)
    root = ls.workspace.root_path or next((uris.to_fs_path(f.uri) for f in (params.workspace_folders or [])), None)
    ls.start_build(Path(root) if root else None)


@server.feature(types.INITIALIZED)
async def initialized(ls: CodehopLanguageServer, params: types.InitializedParams) -> None:
    caps = ls.client_capabilities
    if ls.build_progress.token is None and caps.window is not None and caps.window.work_done_progress:
        token = "codehop-index"
        try:
            await ls.work_done_progress.create_async(token)
        except Exception:
            log.warning("the client refused a progress token", exc_info=True)
        else:
            ls.build_progress.attach(token)
    watched = caps.workspace.did_change_watched_files if caps.workspace is not None else None
    if watched is not None and watched.dynamic_registration:
        watchers = types.DidChangeWatchedFilesRegistrationOptions(
            watchers=[types.FileSystemWatcher(glob_pattern="**/*.py")]
        )
        registration = types.Registration(
            id="codehop-watch", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=watchers
        )
        try:
            await ls.client_register_capability_async(types.RegistrationParams(registrations=[registration]))
        except Exception:
            log.warning("the client refused to watch files", exc_info=True)


@server.feature(types.SHUTDOWN)
def shutdown(ls: CodehopLanguageServer, params: None) -> None:
    ls.close()


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: CodehopLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
    ls.schedule_refresh()


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: CodehopLanguageServer, params: types.DidChangeWatchedFilesParams) -> None:
    ls.schedule_refresh()


# ---- navigation ------------------------------------------------------------------------------
@server.feature(types.TEXT_DOCUMENT_DEFINITION)
async def definition(ls: CodehopLanguageServer, params: types.DefinitionParams) -> types.Location | None:
    app, rel_path, line, col = await cursor(ls, params)
    res = await ls.run(navigation.definition, app, rel_path, line, col)
    if res is None or res.is_external:
        return None
    return lsp_location(app, ls.workspace.position_codec, res.target)


@server.feature(types.TEXT_DOCUMENT_DECLARATION)
async def declaration(ls: CodehopLanguageServer, params: types.DeclarationParams) -> types.Location | None:
    app, rel_path, line, col = await cursor(ls, params)
    loc = await ls.run(navigation.declaration, app, rel_path, line, col)
    if loc is None:
        return None
    return lsp_location(app, ls.workspace.position_codec, loc)


@server.feature(types.TEXT_DOCUMENT_HOVER)
async def hover(ls: CodehopLanguageServer, params: types.HoverParams) -> types.Hover | None:
    app, rel_path, line, col = await cursor(ls, params)
    markdown = await ls.run(navigation.hover_markdown, app, rel_path, line, col)
    if not markdown:
        return None
    hover_caps = ls.client_capabilities.text_document and ls.client_capabilities.text_document.hover
    formats = (hover_caps and hover_caps.content_format) or [types.MarkupKind.Markdown]
    kind = types.MarkupKind.Markdown if types.MarkupKind.Markdown in formats else types.MarkupKind.PlainText
    return types.Hover(contents=types.MarkupContent(kind=kind, value=markdown))


@server.feature(types.TEXT_DOCUMENT_CODE_LENS)
async def code_lens(ls: CodehopLanguageServer, params: types.CodeLensParams) -> list[types.CodeLens] | None:
    if not ls.options.code_lens:
        return None
    app = await ls.app()
    rel_path = document_path(ls, app, params.text_document.uri)
    lenses = await ls.run(navigation.class_lenses, app, rel_path)
    codec = ls.workspace.position_codec
    out = []
    for loc, n_members, n_files in lenses:
        title = f"inherits {n_members} member{'s' * (n_members != 1)} from {n_files} file{'s' * (n_files != 1)}"
        out.append(
            types.CodeLens(range=lsp_location(app, codec, loc).range, command=types.Command(title=title, command=""))
        )
    return out or None


# ---- questions -----------------------------------------------------------------------------------
@server.command(ASK_COMMAND)
async def ask(ls: CodehopLanguageServer, *args: Any) -> dict[str, Any]:
    """arguments: [question, max_loops?] -> the Answer JSON."""
    if not 1 <= len(args) <= 2 or not isinstance(args[0], str) or not args[0].strip():
        raise JsonRpcInvalidParams(f"{ASK_COMMAND} takes [question, max_loops?]; got {list(args)!r}")
    max_loops = args[1] if len(args) == 2 else ls.options.max_loops
    if isinstance(max_loops, bool) or not isinstance(max_loops, int) or not 0 <= max_loops <= 8:
        raise JsonRpcInvalidParams(f"{ASK_COMMAND}: max_loops must be an integer 0..8, not {max_loops!r}")
    limits = Limits(max_loops=max_loops, budget_tokens=ls.options.budget_tokens)
    return await answer(ls, args[0], limits)


@server.feature(CONTEXT_REQUEST)
async def context(ls: CodehopLanguageServer, params: Any) -> dict[str, Any]:
    """{query, budget_tokens?} -> the Answer JSON, its context packed to budget_tokens."""
    fields = plain(params)
    query, budget = fields.get("query"), fields.get("budget_tokens", ls.options.budget_tokens)
    if not isinstance(query, str) or not query.strip():
        raise JsonRpcInvalidParams(f"{CONTEXT_REQUEST} needs {{query: string, budget_tokens?: int}}")
    if isinstance(budget, bool) or not isinstance(budget, int) or budget <= 0:
        raise JsonRpcInvalidParams(f"{CONTEXT_REQUEST}: budget_tokens must be a positive integer, not {budget!r}")
    return await answer(ls, query, Limits(max_loops=ls.options.max_loops, budget_tokens=budget))


def plain(params: Any) -> dict[str, Any]:
    """The params of a custom request as a dict (pygls 2 hands them over as namedtuples)."""
    if isinstance(params, dict):
        return params
    as_dict = getattr(params, "_asdict", None)
    return dict(as_dict()) if callable(as_dict) else {}


async def answer(ls: CodehopLanguageServer, question: str, limits: Limits) -> dict[str, Any]:
    app = await ls.app()

    def _ask() -> dict[str, Any]:
        return app.navigator().ask(question, limits).to_dict()

    return await ls.run(_ask)


# ---- entry points --------------------------------------------------------------------------------
def serve(tcp: str | None = None) -> None:
    """Run the server on stdio, or on `HOST:PORT` when `tcp` is given (UsageError when malformed)."""
    if tcp is None:
        server.start_io()
        return
    host, _, port = tcp.rpartition(":")
    if not host or not port.isdigit():
        raise UsageError(f"--tcp wants HOST:PORT, not {tcp!r}", value=tcp)
    server.start_tcp(host, int(port))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m lsp_bridge.server", description=__doc__.split("\n")[0])
    parser.add_argument("--tcp", metavar="HOST:PORT", help="listen on TCP instead of stdio")
    args = parser.parse_args(argv)
    try:
        serve(args.tcp)
    except UsageError as exc:
        parser.error(exc.message)


if __name__ == "__main__":
    main()
