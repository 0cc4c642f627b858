"""codehop's language server (pygls): go to the real declaration through re-exports, aliases and the MRO.

    python -m codehop.frontends.lsp_server              stdio
    python -m codehop.frontends.lsp_server --tcp 127.0.0.1:2087
    codehop lsp [--tcp HOST:PORT]                       (calls `serve`)

Every handler has one shape: get the document, call the door (`App`) in a
worker thread, convert with `lsp_range` / `lsp_location`, return None when
there is nothing. Positions: codehop uses 1-based lines and code-point
columns; in this server only the converters below speak LSP's 0-based lines
and client units (UTF-16 unless the client negotiated another encoding). The
LSP resolver rung converts for the language servers it asks on its own side,
with lsp_bridge.client's converters.

Features: definition (through every pointer), declaration (the import site),
hover (Markdown: chain, signature or value, docstring), references (through
re-exports, aliases, star imports, `as`, module aliases, imports inside
functions; an inherited member's uses on subclasses; the re-export lines always, after
the uses; with includeDeclaration the declaration too, first), call hierarchy (prepare, incoming:
nested callers and calls placed by Jedi; outgoing: every call site of the body, callees outside
the repository on their typeshed stub or installed file, `detail` saying where), type
hierarchy (supertypes in MRO order, subtypes across files), documentSymbol (the nested chunk
tree and the values bound at module and class level), workspace/symbol (exact name, prefix,
subsequence; dotted qualnames), `workspace/executeCommand` `codehop.ask` [question, max_loops?] and the request
`codehop/context` {query, budget_tokens?} (both return the Answer JSON of
DESIGN.md; the Navigator cuts an over-long question and says so), code lens
"inherits N members from M files" (initializationOptions {"codeLens": true}),
and `codehop/landingStatus` {} -> {running, asked, pending}: the land worker, started once
the index is ready, places Jedi's call sites in the background (a document the editor opens
first: didOpen); a call hierarchy request
answers from the index, its cache and the server's own Jedi (started then too) within its
deadline, and hands what is left to it (`pending` 0: asked again, a request gets what the
worker found).
Open documents' unsaved text is honoured for definition, declaration and hover.

Robustness: a Content-Length over MAX_MESSAGE_BYTES is answered with an
InvalidRequest error (id null) and skipped up to the next header; didChange on
a document never opened is accepted (whole text) or dropped (incremental)
without an error popup; `$/cancelRequest` cancels a waiting request at once
(a worker thread already running finishes in the background); `exit` ends the
process within EXIT_GRACE_S even while a worker is busy.

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

May import: the door (codehop.app), records, errors, lsp_wire (options, position converters,
progress, the protocol and reader below the handlers), pygls, lsprotocol, stdlib.

Why one module of ~650 lines: it is the whole server, one handler per LSP feature in one shape,
readable top to bottom as pygls's example servers are; the wire-level parts that are not
handlers live in codehop.frontends.lsp_wire.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from lsprotocol import types
from pygls import uris
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.io_ import StdoutWriter, run_async
from pygls.lsp.server import LanguageServer
from pygls.workspace.position_codec import PositionCodec

from codehop.app import App, Config
from codehop.frontends.lsp_wire import (
    BoundedReader,
    BuildProgress,
    CodehopProtocol,
    Options,
    codepoint_col,
    lsp_position,
    lsp_range,
    parse_options,
)
from codehop.kernel.errors import CodehopError, OutsideRepoError, RepoNotFoundError, UsageError
from codehop.kernel.records import Location

if TYPE_CHECKING:
    from codehop.app import Item, Outline, Site

log = logging.getLogger(__name__)
_T = TypeVar("_T")

ASK_COMMAND = "codehop.ask"
CONTEXT_REQUEST = "codehop/context"
LANDING_STATUS = "codehop/landingStatus"  # the land worker: running, sites asked and not placed yet
REQUEST_FAILED = int(types.LSPErrorCodes.RequestFailed)
EXIT_GRACE_S = 0.3  # after `exit`, the process ends this soon even if a worker is busy


# ---- converters that read the repository (through the door) ------------------------------
def lsp_location(app: App, codec: PositionCodec, loc: Location) -> types.Location:
    """A codehop Location -> an LSP Location spanning the declared name on its line."""
    text, start, end = app.name_at(loc)
    return types.Location(
        uri=uris.from_fs_path(str(app.root / loc.rel_path)) or "", range=lsp_range(codec, text, loc.line, start, end)
    )


def site_range(app: App, codec: PositionCodec, site: Site, target_name: str) -> types.Range:
    """The range of the name at a dependent site (the door finds its columns)."""
    text, start, end = app.site_span(site, target_name)
    return lsp_range(codec, text, site.line, start, end)


def site_location(app: App, codec: PositionCodec, site: Site, target_name: str) -> types.Location:
    uri = uris.from_fs_path(str(app.root / site.rel_path)) or ""
    return types.Location(uri=uri, range=site_range(app, codec, site, target_name))


@dataclass(slots=True)
class _Refresh:
    """Bookkeeping for serialised refreshes: a save asked for one; a refresh started later covers it."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    asked: int = 0
    done: int = 0
    latest: Future[None] | None = None


def _relative(root: Path, path: str) -> str:
    try:
        return Path(path).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return ""


class CodehopLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("codehop", _version(), protocol_cls=CodehopProtocol)
        self.options = Options()
        self.app_future: Future[App] = Future()
        self.executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="codehop-lsp")
        self.build_progress = BuildProgress(self)
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
            app = App(root, Config.for_server())  # a long-running server: it bridges packages
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
        try:  # Jedi's answers at every call site, ahead of the requests (the open files first)
            opened = [uris.to_fs_path(uri) or "" for uri in list(self.workspace.text_documents)]
            app.precompute_calls([_relative(app.root, p) for p in opened if p])
        except Exception:
            log.exception("starting the landing worker failed")
        try:  # a request asks Jedi here at the sites the worker has not placed: its start (1 s) is not the request's
            app.warm_calls()
        except Exception:
            log.exception("warming Jedi failed")

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

    def start_io(self, stdin: Any = None, stdout: Any = None) -> None:
        """pygls's stdio loop, reading through `BoundedReader` (oversize messages are refused)."""
        self._stop_event = threading.Event()
        assert isinstance(self.protocol, CodehopProtocol)  # the protocol_cls this server is built with
        reader = BoundedReader(stdin or sys.stdin.buffer, self.thread_pool, self.protocol)
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        try:
            asyncio.run(
                run_async(
                    stop_event=self._stop_event,
                    reader=reader,
                    protocol=self.protocol,
                    logger=log,
                    error_handler=self.report_server_error,
                )
            )
        except BrokenPipeError:
            log.error("the client closed the connection")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.close()
            # worker threads (an index build, a language server) must not keep the process alive
            os._exit(0 if getattr(self.protocol, "_shutdown", False) else 1)


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
        rel_path = app.rel_path(doc.path)
    except OutsideRepoError:
        raise JsonRpcInvalidParams(f"document is outside the workspace {app.root}: {uri}") from None
    if not (app.root / rel_path).is_file():
        raise JsonRpcInvalidParams(f"no such document: {uri}")
    return rel_path


PositionParams = (
    types.DefinitionParams
    | types.DeclarationParams
    | types.HoverParams
    | types.ReferenceParams
    | types.CallHierarchyPrepareParams
    | types.TypeHierarchyPrepareParams
)


@dataclass(frozen=True, slots=True)
class Cursor:
    app: App
    rel_path: str
    line: int  # 1-based
    col: int  # code points
    buffer: str | None  # the editor's text of the document, when it is open


def open_buffer(ls: CodehopLanguageServer, uri: str) -> str | None:
    """The editor's current text of an open document (unsaved changes included), else None."""
    from urllib.parse import unquote

    doc = ls.workspace.text_documents.get(unquote(uri))
    return doc.source if doc is not None else None


async def cursor(ls: CodehopLanguageServer, params: PositionParams) -> Cursor:
    """The position of a request, in codehop's units, read in the editor's buffer when open."""
    app = await ls.app()
    uri = params.text_document.uri
    rel_path = document_path(ls, app, uri)
    line = params.position.line + 1
    buffer = open_buffer(ls, uri)
    if buffer is not None:
        lines = buffer.splitlines()
        text = lines[line - 1] if 0 < line <= len(lines) else ""
    else:
        text = app.source_line(rel_path, line) or ""
    col = codepoint_col(ls.workspace.position_codec, text, params.position.character)
    return Cursor(app, rel_path, line, col, buffer)


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


@server.feature(types.EXIT)
def exit_(ls: CodehopLanguageServer, params: None) -> None:
    """pygls closes stdout and exits the loop after this; a busy worker thread must not delay
    the end of the process, so a timer ends it soon after in any case."""
    code = 0 if getattr(ls.protocol, "_shutdown", False) else 1
    timer = threading.Timer(EXIT_GRACE_S, os._exit, (code,))
    timer.daemon = True
    timer.start()


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: CodehopLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
    """(pygls keeps the text first.) Once the index is ready, the land worker places the opened
    file's call sites next (a document opened before that went to it when it started)."""
    future = ls.app_future
    if not future.done() or future.cancelled() or future.exception() is not None:
        return
    app = future.result()
    path = uris.to_fs_path(params.text_document.uri) if params.text_document.uri.startswith("file:") else None
    if path:
        app.document_opened(_relative(app.root, path))


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: CodehopLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
    ls.schedule_refresh()


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: CodehopLanguageServer, params: types.DidChangeWatchedFilesParams) -> None:
    ls.schedule_refresh()


# ---- definition, declaration, hover, references ------------------------------------------------
@server.feature(types.TEXT_DOCUMENT_DEFINITION)
async def definition(ls: CodehopLanguageServer, params: types.DefinitionParams) -> types.Location | None:
    c = await cursor(ls, params)
    res = await ls.run(c.app.definition, c.rel_path, c.line, c.col, c.buffer)
    if res is None or res.is_external:
        return None
    return lsp_location(c.app, ls.workspace.position_codec, res.target)


@server.feature(types.TEXT_DOCUMENT_DECLARATION)
async def declaration(ls: CodehopLanguageServer, params: types.DeclarationParams) -> types.Location | None:
    c = await cursor(ls, params)
    loc = await ls.run(c.app.declaration, c.rel_path, c.line, c.col, c.buffer)
    if loc is None:
        return None
    return lsp_location(c.app, ls.workspace.position_codec, loc)


@server.feature(types.TEXT_DOCUMENT_HOVER)
async def hover(ls: CodehopLanguageServer, params: types.HoverParams) -> types.Hover | None:
    c = await cursor(ls, params)
    markdown = await ls.run(c.app.hover, c.rel_path, c.line, c.col, c.buffer)
    if not markdown:
        return None
    hover_caps = ls.client_capabilities.text_document and ls.client_capabilities.text_document.hover
    formats = (hover_caps and hover_caps.content_format) or [types.MarkupKind.Markdown]
    kind = types.MarkupKind.Markdown if types.MarkupKind.Markdown in formats else types.MarkupKind.PlainText
    return types.Hover(contents=types.MarkupContent(kind=kind, value=markdown))


@server.feature(types.TEXT_DOCUMENT_REFERENCES)
async def references(ls: CodehopLanguageServer, params: types.ReferenceParams) -> list[types.Location] | None:
    """Every site naming the declaration under the cursor, through re-exports, aliases, star
    imports and `as` renames; an inherited member's uses on subclasses. The re-export lines come
    after the other uses; `includeDeclaration` adds the declaration itself, first."""
    c = await cursor(ls, params)
    target, sites = await ls.run(c.app.references, c.rel_path, c.line, c.col, c.buffer)
    if target is None:
        return None
    codec = ls.workspace.position_codec
    name = target.qualname.rpartition(".")[2]
    out = [site_location(c.app, codec, s, name) for s in sites]
    if params.context.include_declaration:
        out.insert(0, lsp_location(c.app, codec, target))
    return out or None


# ---- call and type hierarchy -------------------------------------------------------------------
_SYMBOL_KIND = {
    "class": types.SymbolKind.Class,
    "function": types.SymbolKind.Function,
    "method": types.SymbolKind.Method,
    "value": types.SymbolKind.Variable,
    "alias": types.SymbolKind.Variable,
    "module": types.SymbolKind.Module,
}


def hierarchy_item(app: App, codec: PositionCodec, it: Item, cls: Any = types.CallHierarchyItem) -> Any:
    """A hierarchy Item -> a CallHierarchyItem or TypeHierarchyItem (its qualname in `data`). An
    item outside the repository (a stub, an installed file) is placed by the column it carries,
    its file never read; `detail` says where it lives."""
    if it.col is not None:
        start = types.Position(line=it.line - 1, character=it.col)
        name = types.Range(start=start, end=types.Position(line=it.line - 1, character=it.col + len(it.name)))
        return cls(
            name=it.name,
            kind=_SYMBOL_KIND.get(it.kind, types.SymbolKind.Function),
            uri=uris.from_fs_path(it.rel_path) or "",
            range=name,
            selection_range=name,
            detail=f"{it.qualname} ({it.where})" if it.where else it.qualname,
            data={"qualname": it.qualname},
        )
    name_loc = lsp_location(app, codec, Location(rel_path=it.rel_path, line=it.line, qualname=it.qualname))
    last = app.source_line(it.rel_path, it.end_line) or ""
    full = types.Range(
        start=types.Position(line=it.line - 1, character=0), end=lsp_position(codec, last, it.end_line, len(last))
    )
    return cls(
        name=it.name,
        kind=_SYMBOL_KIND.get(it.kind, types.SymbolKind.Variable),
        uri=name_loc.uri,
        range=full,
        selection_range=name_loc.range,
        detail=it.qualname,
        data={"qualname": it.qualname},
    )


def item_qualname(item: Any) -> str:
    data = item.data
    if isinstance(data, dict):
        q = data.get("qualname")
    else:
        q = getattr(data, "qualname", None)
    if not isinstance(q, str) or not q:
        raise JsonRpcInvalidParams("hierarchy item without codehop data (prepare it with this server)")
    return q


@server.feature(types.TEXT_DOCUMENT_PREPARE_CALL_HIERARCHY)
async def prepare_call_hierarchy(
    ls: CodehopLanguageServer, params: types.CallHierarchyPrepareParams
) -> list[types.CallHierarchyItem] | None:
    c = await cursor(ls, params)
    it = await ls.run(c.app.item_at, c.rel_path, c.line, c.col, c.buffer)
    if it is None or it.kind not in ("function", "method", "class"):
        return None
    return [hierarchy_item(c.app, ls.workspace.position_codec, it)]


async def calls(
    ls: CodehopLanguageServer, direction: str, item: types.CallHierarchyItem
) -> list[tuple[types.CallHierarchyItem, list[types.Range]]]:
    """Both directions of the call hierarchy in one shape: (the caller or callee, the call sites'
    ranges in the caller) for each group the door returns."""
    app = await ls.app()
    groups = await ls.run(app.hierarchy, direction, item_qualname(item))
    codec = ls.workspace.position_codec
    return [(hierarchy_item(app, codec, it), [site_range(app, codec, s, "") for s in sites]) for it, sites in groups]


@server.feature(types.CALL_HIERARCHY_INCOMING_CALLS)
async def incoming_calls(
    ls: CodehopLanguageServer, params: types.CallHierarchyIncomingCallsParams
) -> list[types.CallHierarchyIncomingCall] | None:
    found = await calls(ls, "incoming", params.item)
    return [types.CallHierarchyIncomingCall(from_=it, from_ranges=ranges) for it, ranges in found] or None


@server.feature(types.CALL_HIERARCHY_OUTGOING_CALLS)
async def outgoing_calls(
    ls: CodehopLanguageServer, params: types.CallHierarchyOutgoingCallsParams
) -> list[types.CallHierarchyOutgoingCall] | None:
    found = await calls(ls, "outgoing", params.item)
    return [types.CallHierarchyOutgoingCall(to=it, from_ranges=ranges) for it, ranges in found] or None


@server.feature(LANDING_STATUS)
async def landing_status(ls: CodehopLanguageServer, params: Any) -> dict[str, Any]:
    """`codehop/landingStatus`: whether the land worker runs and how many requests' sites it has
    not placed yet (`pending` 0: a request asked again now gets what the worker found)."""
    app = await ls.app()
    st = app.landing_status()
    if st is None:
        return {"running": False, "asked": 0, "pending": 0}
    return {"running": st.running, "asked": st.asked, "pending": st.pending}


@server.feature(types.TEXT_DOCUMENT_PREPARE_TYPE_HIERARCHY)
async def prepare_type_hierarchy(
    ls: CodehopLanguageServer, params: types.TypeHierarchyPrepareParams
) -> list[types.TypeHierarchyItem] | None:
    c = await cursor(ls, params)
    it = await ls.run(c.app.item_at, c.rel_path, c.line, c.col, c.buffer)
    if it is None or it.kind != "class":
        return None
    return [hierarchy_item(c.app, ls.workspace.position_codec, it, types.TypeHierarchyItem)]


@server.feature(types.TYPE_HIERARCHY_SUPERTYPES)
async def supertypes(
    ls: CodehopLanguageServer, params: types.TypeHierarchySupertypesParams
) -> list[types.TypeHierarchyItem] | None:
    """The bases in method-resolution order (the order Python looks members up)."""
    app = await ls.app()
    items = await ls.run(app.hierarchy, "supertypes", item_qualname(params.item))
    codec = ls.workspace.position_codec
    return [hierarchy_item(app, codec, it, types.TypeHierarchyItem) for it, _ in items] or None


@server.feature(types.TYPE_HIERARCHY_SUBTYPES)
async def subtypes(
    ls: CodehopLanguageServer, params: types.TypeHierarchySubtypesParams
) -> list[types.TypeHierarchyItem] | None:
    app = await ls.app()
    items = await ls.run(app.hierarchy, "subtypes", item_qualname(params.item))
    codec = ls.workspace.position_codec
    return [hierarchy_item(app, codec, it, types.TypeHierarchyItem) for it, _ in items] or None


# ---- symbols ------------------------------------------------------------------------------------
@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
async def document_symbol(
    ls: CodehopLanguageServer, params: types.DocumentSymbolParams
) -> list[types.DocumentSymbol] | None:
    app = await ls.app()
    rel_path = document_path(ls, app, params.text_document.uri)
    outline = await ls.run(app.outline, rel_path)
    codec = ls.workspace.position_codec

    def convert(node: Outline) -> types.DocumentSymbol:
        first = app.source_line(rel_path, node.line) or ""
        last = app.source_line(rel_path, node.end_line) or ""
        return types.DocumentSymbol(
            name=node.name,
            kind=_SYMBOL_KIND.get(node.kind, types.SymbolKind.Variable),
            detail=node.qualname,
            range=types.Range(
                start=types.Position(line=node.line - 1, character=0),
                end=lsp_position(codec, last, node.end_line, len(last)),
            ),
            selection_range=lsp_range(codec, first, node.line, node.col, node.col + len(node.name)),
            children=[convert(k) for k in node.children] or None,
        )

    return [convert(n) for n in outline] or None


@server.feature(types.WORKSPACE_SYMBOL)
async def workspace_symbol(
    ls: CodehopLanguageServer, params: types.WorkspaceSymbolParams
) -> list[types.WorkspaceSymbol] | None:
    """Fuzzy and ranked: the exact name, then a prefix, then a subsequence; dotted qualnames."""
    app = await ls.app()
    hits = await ls.run(app.symbols, params.query)
    out = []
    for h in hits:
        start = types.Position(line=h.line - 1, character=h.name_col)
        end = types.Position(line=h.line - 1, character=h.name_col + len(h.name))
        uri = uris.from_fs_path(str(app.root / h.rel_path)) or ""
        out.append(
            types.WorkspaceSymbol(
                name=h.name,
                kind=_SYMBOL_KIND.get(h.kind, types.SymbolKind.Variable),
                container_name=h.container,
                location=types.Location(uri=uri, range=types.Range(start=start, end=end)),
            )
        )
    return out or None


@server.feature(types.TEXT_DOCUMENT_CODE_LENS)
async def code_lens(ls: CodehopLanguageServer, params: types.CodeLensParams) -> list[types.CodeLens] | None:
    if not ls.options.code_lens:
        return None
    app = await ls.app()
    rel_path = document_path(ls, app, params.text_document.uri)
    lenses = await ls.run(app.lenses, rel_path)
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
    app = await ls.app()
    question = args[0]  # the Navigator cuts an over-long question and says so in the answer
    return await ls.run(
        lambda: app.ask(question, max_loops=max_loops, budget_tokens=ls.options.budget_tokens).to_dict()
    )


@server.feature(CONTEXT_REQUEST)
async def context(ls: CodehopLanguageServer, params: Any) -> dict[str, Any]:
    """{query, budget_tokens?} -> the Answer JSON, its context packed to budget_tokens."""
    fields = plain(params)
    query, budget = fields.get("query"), fields.get("budget_tokens", ls.options.budget_tokens)
    if not isinstance(query, str) or not query.strip():
        raise JsonRpcInvalidParams(f"{CONTEXT_REQUEST} needs {{query: string, budget_tokens?: int}}")
    if isinstance(budget, bool) or not isinstance(budget, int) or budget <= 0:
        raise JsonRpcInvalidParams(f"{CONTEXT_REQUEST}: budget_tokens must be a positive integer, not {budget!r}")
    app = await ls.app()  # the door's context: the same as the CLI's and the MCP tool's
    return await ls.run(lambda: app.context(query, budget_tokens=budget, max_loops=ls.options.max_loops).to_dict())


def plain(params: Any) -> dict[str, Any]:
    """The params of a custom request as a dict (pygls 2 hands them over as namedtuples)."""
    if isinstance(params, dict):
        return params
    as_dict = getattr(params, "_asdict", None)
    return dict(as_dict()) if callable(as_dict) else {}


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
    parser = argparse.ArgumentParser(prog="python -m codehop.frontends.lsp_server", description=__doc__.split("\n")[0])
    parser.add_argument("--tcp", metavar="HOST:PORT", help="listen on TCP instead of stdio")
    args = parser.parse_args(argv)
    try:
        serve(args.tcp)
    except UsageError as exc:
        parser.error(exc.message)


if __name__ == "__main__":
    main()
