"""A small, blocking client for language servers spoken to over stdio.

This module owns the lifetime of one language-server process per
:class:`LanguageServerClient`: it spawns the process (its stderr goes to a file,
never to an unread pipe), performs the LSP handshake, keeps the documents it is
asked about in sync with the disk (``didOpen``, then full-text ``didChange``
when a file's mtime moves), answers the few requests a server sends back, and
finally shuts the server down -- killing its whole process group if it does
not leave on its own.  The JSON-RPC plumbing is pygls's; it runs on an asyncio
loop in a background thread owned by the client, so every public method is an
ordinary blocking call that may be made from any thread.

Positions are LSP positions: 0-based lines and 0-based columns counted in
UTF-16 code units.  :func:`utf16_col` and :func:`codepoint_col` convert between
those and Python ``str`` indices.

Exceptions::

    LanguageServerError        .server (command name), .reason
     ├── ServerStartError      could not spawn, exited, or no answer to initialize
     │                         within start_timeout_s
     ├── ServerCrashedError    the process died (or closed its stdout) after start;
     │                         in-flight requests fail at once, not at their deadline
     ├── RequestTimeoutError   no answer within timeout_s; the request was cancelled
     └── ServerResponseError   an LSP error response, or a reply that is not valid
                               JSON-RPC / not the documented result shape

Using a client after :meth:`LanguageServerClient.close` raises the root
:class:`LanguageServerError`.  ``OSError`` from reading a queried document
(e.g. ``FileNotFoundError``) propagates unchanged.

Why one module of ~800 lines: it is one mechanism, a process and the session
that talks to it. The session (`_Session`: spawn, handshake, document sync,
crash detection, shutdown) and the blocking facade (`LanguageServerClient`:
lazy start, deadlines, restart after a crash) share one event loop thread, one
lock and one pending-request table; split across modules they would reach into
each other's private state. The position converters and result shapes at the
top are small and only this client's.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import itertools
import logging
import os
import signal
import tempfile
import threading
import weakref
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import IO, Any, Final, TypeVar

import attrs
from cattrs import Converter
from lsprotocol.converters import get_converter
from pygls.client import JsonRPCClient
from pygls.exceptions import JsonRpcException
from pygls.io_ import run_async
from pygls.protocol import (
    JsonRPCNotification,
    JsonRPCProtocol,
    JsonRPCRequestMessage,
    JsonRPCResponseMessage,
)
from pygls.uris import from_fs_path, to_fs_path, uri_scheme

from lsp_bridge.servers import SERVERS  # stdlib only, so a caller can name the servers cheaply

__all__ = [
    "SERVERS",
    "LanguageServerClient",
    "LanguageServerError",
    "Location",
    "RequestTimeoutError",
    "ServerCrashedError",
    "ServerResponseError",
    "ServerStartError",
    "codepoint_col",
    "find_executable",
    "utf16_col",
]

_log = logging.getLogger(__name__)

_T = TypeVar("_T")


def find_executable(name: str) -> str | None:
    """``name`` on PATH, else next to this interpreter (a virtualenv that is not activated
    still has its servers in its own ``bin/``)."""
    import shutil
    import sys

    found = shutil.which(name)
    if found is not None:
        return found
    beside = os.path.join(os.path.dirname(sys.executable), name)
    return beside if os.path.isfile(beside) and os.access(beside, os.X_OK) else None


_SHUTDOWN_REPLY_S: Final = 2.0
_EXIT_GRACE_S: Final = 2.0
# After stdout hits EOF the exit code usually follows within milliseconds; it
# makes for a much better error message than "closed its stdout".
_EOF_EXIT_GRACE_S: Final = 0.5
_STDERR_TAIL_BYTES: Final = 1500
_EXIT_POLL_S: Final = 0.02


# --------------------------------------------------------------------------- errors


class LanguageServerError(Exception):
    """Root of every error raised by this module."""

    def __init__(self, server: str, reason: str) -> None:
        super().__init__(f"{server}: {reason}")
        self.server = server
        self.reason = reason

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.server, self.reason))

    def _copy(self) -> LanguageServerError:
        # One stored error is raised in many threads; each raise gets its own
        # instance so tracebacks do not get spliced together.
        return type(self)(self.server, self.reason)


class ServerStartError(LanguageServerError):
    """The server could not be spawned, exited early, or never answered initialize."""


class ServerCrashedError(LanguageServerError):
    """The server process died (or closed its stdout) after a successful start."""


class RequestTimeoutError(LanguageServerError):
    """The server did not answer within ``timeout_s``; the request was cancelled."""


class ServerResponseError(LanguageServerError):
    """The server answered with an LSP error, or with something we cannot parse."""


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True, kw_only=True)
class Location:
    """A range in a file: LSP 0-based lines, columns in UTF-16 code units."""

    path: str
    line: int
    character: int
    end_line: int
    end_character: int


def _location_key(loc: Location) -> tuple[str, int, int, int, int]:
    return (loc.path, loc.line, loc.character, loc.end_line, loc.end_character)


def utf16_col(line_text: str, codepoint_col: int) -> int:
    """Convert a ``str`` index within ``line_text`` into an LSP (UTF-16) column."""
    if codepoint_col < 0:
        raise ValueError(f"negative column: {codepoint_col}")
    return len(line_text[:codepoint_col].encode("utf-16-le")) // 2


def codepoint_col(line_text: str, utf16_col: int) -> int:
    """Convert an LSP (UTF-16) column into a ``str`` index within ``line_text``.

    A column past the end clamps to ``len(line_text)``, as LSP prescribes; one
    that splits a surrogate pair rounds up to the next character.
    """
    if utf16_col < 0:
        raise ValueError(f"negative column: {utf16_col}")
    units = 0
    for index, char in enumerate(line_text):
        if units >= utf16_col:
            return index
        units += 2 if ord(char) > 0xFFFF else 1
    return len(line_text)


def _position(value: object, server: str) -> tuple[int, int]:
    if isinstance(value, dict):
        line, character = value.get("line"), value.get("character")
        if type(line) is int and type(character) is int and line >= 0 and character >= 0:
            return line, character
    raise ServerResponseError(server, f"malformed position: {value!r:.200}")


def _location(item: object, server: str) -> Location | None:
    if not isinstance(item, dict):
        raise ServerResponseError(server, f"expected a Location, got {item!r:.200}")
    if "targetUri" in item:
        # The selection range is the symbol's name; targetRange is the whole body.
        uri = item["targetUri"]
        range_ = item.get("targetSelectionRange") or item.get("targetRange")
    else:
        uri, range_ = item.get("uri"), item.get("range")
    if not isinstance(uri, str) or not isinstance(range_, dict):
        raise ServerResponseError(server, f"malformed Location: {item!r:.200}")
    start = _position(range_.get("start"), server)
    end = _position(range_.get("end"), server)
    if uri_scheme(uri) != "file":
        return None  # e.g. untitled: buffers; nothing on disk to point at
    path = to_fs_path(uri)
    if not path:
        raise ServerResponseError(server, f"unusable file URI: {uri!r:.200}")
    return Location(
        path=os.path.normpath(path),
        line=start[0],
        character=start[1],
        end_line=end[0],
        end_character=end[1],
    )


def _to_locations(result: object, server: str) -> list[Location]:
    """Normalise ``Location | Location[] | LocationLink[] | null``."""
    if result is None:
        return []
    items = result if isinstance(result, list) else [result]
    found = {loc for item in items if (loc := _location(item, server)) is not None}
    return sorted(found, key=_location_key)


# --------------------------------------------------------------------------- session


def _structure_raw(obj: Mapping[str, Any], cls: type[_T]) -> _T:
    fields = attrs.fields(cls)  # type: ignore[arg-type]  # cls is an attrs class
    return cls(**{field.name: obj.get(field.name) for field in fields})


def _raw_converter() -> Converter:
    # pygls's default converter turns result/params dicts into namedtuples (and
    # lists of dicts not at all); plain JSON values are simpler to validate.
    converter = get_converter()
    for cls in (JsonRPCRequestMessage, JsonRPCResponseMessage, JsonRPCNotification):
        converter.register_structure_hook(cls, _structure_raw)
    return converter


def _stderr_tail(stderr: IO[bytes]) -> str:
    # pread leaves the shared file offset alone, so the server keeps appending
    # where it was.
    try:
        size = os.fstat(stderr.fileno()).st_size
        start = max(0, size - _STDERR_TAIL_BYTES)
        data = os.pread(stderr.fileno(), size - start, start)
    except (OSError, ValueError):
        return ""
    text = data.decode("utf-8", "replace").strip()
    return f"; stderr: ...{text}" if text else ""


async def _exited(proc: asyncio.subprocess.Process, timeout_s: float | None) -> bool:
    """Wait until ``proc`` has an exit status; False if ``timeout_s`` ran out.

    Not ``proc.wait()``: on Python 3.11 that also waits until every pipe is
    closed, and a surviving grandchild (node under basedpyright's python
    launcher) keeps them open.
    """
    loop = asyncio.get_running_loop()
    deadline = None if timeout_s is None else loop.time() + timeout_s
    while proc.returncode is None:
        if deadline is not None and loop.time() >= deadline:
            return False
        await asyncio.sleep(_EXIT_POLL_S)
    return True


@dataclass(slots=True)
class _Document:
    version: int
    mtime_ns: int
    size: int


class _Session:
    """One server process and its connection; touched only on the loop thread."""

    def __init__(
        self,
        command: Sequence[str],
        root_path: str,
        server: str,
        stderr: IO[bytes],
        settings: dict[str, Any] | None = None,
        init_options: dict[str, Any] | None = None,
    ) -> None:
        self.command = list(command)
        self.settings = settings  # answered to workspace/configuration by section (`python.pythonPath`)
        self.init_options = init_options  # `initializationOptions` (jedi-language-server reads its paths there)
        self.root_path = root_path
        self.server = server
        self.stderr = stderr
        self.rpc = JsonRPCClient(protocol_cls=JsonRPCProtocol, converter_factory=_raw_converter)
        self.proc: asyncio.subprocess.Process | None = None
        self.capabilities: dict[str, Any] = {}
        self.dead: LanguageServerError | None = None
        self.closing = False
        self._ids = itertools.count(1)
        self._inflight: set[str] = set()
        self._docs: dict[str, _Document] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._register_handlers()

    def _section(self, item: object) -> Any:
        section = item.get("section") if isinstance(item, dict) else None
        value: Any = self.settings
        for part in (section or "").split(".") if section else []:
            value = value.get(part) if isinstance(value, dict) else None
        return value if section else None

    # -- plumbing -----------------------------------------------------------

    def _register_handlers(self) -> None:
        def null(params: object) -> None:
            return None

        # unannotated: pygls passes the client first to a handler whose first parameter's type fits it
        def configuration(params):  # type: ignore[no-untyped-def]
            items = params.get("items") if isinstance(params, dict) else None
            return [self._section(it) for it in items] if isinstance(items, list) else []

        def folders(params: object) -> list[dict[str, str]]:
            return [self._workspace_folder()]

        for method in (
            "client/registerCapability",
            "client/unregisterCapability",
            "window/workDoneProgress/create",
            "window/showMessageRequest",
            "workspace/diagnostic/refresh",
            "workspace/semanticTokens/refresh",
            "workspace/inlayHint/refresh",
        ):
            self.rpc.feature(method)(null)
        self.rpc.feature("workspace/configuration")(configuration)
        self.rpc.feature("workspace/workspaceFolders")(folders)
        # Without handlers pygls logs a warning for every one of these.
        for method in (
            "window/logMessage",
            "window/showMessage",
            "textDocument/publishDiagnostics",
            "$/progress",
            "$/logTrace",
            "telemetry/event",
            "pyright/reportProgress",
            "pyright/beginProgress",
            "pyright/endProgress",
        ):
            self.rpc.feature(method)(null)

    def _workspace_folder(self) -> dict[str, str]:
        uri = from_fs_path(self.root_path) or ""
        return {"uri": uri, "name": os.path.basename(self.root_path) or self.root_path}

    @property
    def _futures(self) -> dict[Any, concurrent.futures.Future[Any]]:
        # pygls 2.1.1 keeps in-flight requests in this private dict and offers
        # no API to drop one; a reply to a future we cancelled would otherwise
        # raise InvalidStateError inside its read loop.
        futures: dict[Any, concurrent.futures.Future[Any]]
        futures = self.rpc.protocol._request_futures
        return futures

    def _fail_inflight(self, make_error: Callable[[], Exception]) -> None:
        for msg_id in list(self._inflight):
            self._inflight.discard(msg_id)
            future = self._futures.pop(msg_id, None)
            if future is not None and not future.done():
                future.set_exception(make_error())

    def _die(self, error: LanguageServerError) -> None:
        if self.dead is None:
            self.dead = error
        self._fail_inflight(self.dead._copy)

    def _kill(self) -> None:
        if self.proc is None:
            return
        try:
            if os.name == "posix":
                # The whole group: wrappers (pyenv shims, basedpyright's python
                # launcher) leave the real server as a child of our child.
                os.killpg(self.proc.pid, signal.SIGKILL)
            elif self.proc.returncode is None:
                self.proc.kill()
        except (ProcessLookupError, PermissionError):
            pass

    def _on_read_error(self, error: Exception, source: object) -> None:
        # run_async reports bodies it cannot decode or dispatch.  They carry no
        # usable id, so every in-flight request is failed rather than left to
        # run into its deadline.
        reason = f"unparseable message from server: {error!r:.300}"
        self._fail_inflight(lambda: ServerResponseError(self.server, reason))

    async def _read(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        try:
            await run_async(
                stop_event=threading.Event(),
                reader=proc.stdout,
                protocol=self.rpc.protocol,
                logger=_log,
                error_handler=self._on_read_error,
            )
        except asyncio.IncompleteReadError:
            pass  # EOF inside a body: the process is going away, handled below
        except (ValueError, OSError) as exc:
            # A header line beyond the stream limit, or a broken pipe: the
            # framing is lost, so the session cannot be trusted any more.
            if not self.closing:
                reason = f"unreadable output from server: {exc!r:.300}"
                self._die(ServerResponseError(self.server, reason))
                self._kill()
            return
        if self.closing:
            return
        if await _exited(proc, _EOF_EXIT_GRACE_S):
            self._on_exit(proc)
        else:
            self._die(ServerCrashedError(self.server, "server closed its stdout"))
            self._kill()

    async def _watch_exit(self, proc: asyncio.subprocess.Process) -> None:
        await _exited(proc, None)
        self._kill()  # whatever the process left behind in its group goes too
        if not self.closing:
            self._on_exit(proc)

    def _on_exit(self, proc: asyncio.subprocess.Process) -> None:
        reason = f"process {proc.pid} exited with code {proc.returncode}"
        self._die(ServerCrashedError(self.server, reason + _stderr_tail(self.stderr)))

    # -- requests -----------------------------------------------------------

    async def request(self, method: str, params: object) -> Any:
        if self.dead is not None:
            raise self.dead._copy()
        # Not bare ints: pygls files our ids and the server's request ids in
        # the same dict (protocol._result_types), and servers count from 0 too.
        msg_id = f"lsp-bridge-{next(self._ids)}"
        self._inflight.add(msg_id)
        try:
            future = self.rpc.protocol.send_request(method, params, msg_id=msg_id)
            return await asyncio.wrap_future(future)
        except OSError as exc:
            raise ServerCrashedError(self.server, f"cannot write to server: {exc}") from exc
        except asyncio.CancelledError:
            if self._futures.pop(msg_id, None) is not None and self.dead is None:
                self.rpc.protocol.notify("$/cancelRequest", {"id": msg_id})
            raise
        except JsonRpcException as exc:
            raise ServerResponseError(self.server, f"{method} failed: {exc.message} (code {exc.code})") from exc
        finally:
            self._inflight.discard(msg_id)

    def notify(self, method: str, params: object) -> None:
        if self.dead is None:
            self.rpc.protocol.notify(method, params)

    def _sync_document(self, path: str) -> str:
        """didOpen ``path`` on first use, full-text didChange when it changed."""
        stat = os.stat(path)
        uri = from_fs_path(path) or ""
        doc = self._docs.get(path)
        if doc is not None and (doc.mtime_ns, doc.size) == (stat.st_mtime_ns, stat.st_size):
            return uri
        # newline="" keeps \r\n: the server must see the bytes the editor sees.
        with open(path, encoding="utf-8", errors="replace", newline="") as file:
            text = file.read()
        if doc is None:
            self._docs[path] = _Document(1, stat.st_mtime_ns, stat.st_size)
            item = {"uri": uri, "languageId": "python", "version": 1, "text": text}
            self.notify("textDocument/didOpen", {"textDocument": item})
        else:
            doc.version += 1
            doc.mtime_ns, doc.size = stat.st_mtime_ns, stat.st_size
            self.notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": uri, "version": doc.version},
                    "contentChanges": [{"text": text}],
                },
            )
        return uri

    async def query(self, method: str, path: str, line: int, character: int) -> Any:
        if self.dead is not None:
            raise self.dead._copy()
        uri = self._sync_document(path)
        position = {"line": line, "character": character}
        params = {"textDocument": {"uri": uri}, "position": position}
        return await self.request(method, params)

    # -- lifecycle ----------------------------------------------------------

    async def start(self) -> None:
        try:
            proc = await asyncio.create_subprocess_exec(
                *self.command,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                # pygls's start_io pipes stderr and never reads it, which stalls
                # a chatty server once the pipe buffer fills.
                stderr=self.stderr,
                cwd=self.root_path,
                start_new_session=os.name == "posix",
            )
        except OSError as exc:
            raise ServerStartError(self.server, f"cannot spawn {self.command}: {exc}") from exc
        self.proc = proc
        assert proc.stdin is not None
        self.rpc.protocol.set_writer(proc.stdin)
        self._tasks += [
            asyncio.create_task(self._read(proc)),
            asyncio.create_task(self._watch_exit(proc)),
        ]
        folder = self._workspace_folder()
        link = {"dynamicRegistration": False, "linkSupport": True}
        capabilities = {
            "general": {"positionEncodings": ["utf-16"]},
            "workspace": {"workspaceFolders": True, "configuration": self.settings is not None},
            "textDocument": {
                "synchronization": {"dynamicRegistration": False, "didSave": False},
                "definition": link,
                "declaration": link,
                "typeDefinition": link,
                "implementation": link,
            },
        }
        result = await self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "clientInfo": {"name": "lsp_bridge"},
                "rootPath": self.root_path,
                "rootUri": folder["uri"],
                "workspaceFolders": [folder],
                "capabilities": capabilities,
                **({"initializationOptions": self.init_options} if self.init_options is not None else {}),
            },
        )
        caps = result.get("capabilities") if isinstance(result, dict) else None
        if not isinstance(caps, dict):
            raise ServerResponseError(self.server, f"initialize returned {result!r:.200}")
        self.capabilities = caps
        self.notify("initialized", {})

    def supports(self, capability: str) -> bool:
        value = self.capabilities.get(capability)
        return value is not None and value is not False

    async def close(self, *, graceful: bool) -> None:
        self.closing = True
        closed = LanguageServerError(self.server, "client closed")
        self._fail_inflight(closed._copy)
        proc = self.proc
        if proc is not None:
            if graceful and self.dead is None and proc.returncode is None:
                try:
                    await asyncio.wait_for(self.request("shutdown", None), _SHUTDOWN_REPLY_S)
                except (TimeoutError, LanguageServerError):
                    pass
                self.notify("exit", None)
                await _exited(proc, _EXIT_GRACE_S)
            self._kill()
            await _exited(proc, _EXIT_GRACE_S)
            assert proc.stdin is not None
            proc.stdin.close()
        self._die(closed)
        # asyncio closes the subprocess transport once stdout has hit EOF, so
        # let the reader see it rather than cancelling it (which would leave an
        # "unclosed transport" behind).
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=_EOF_EXIT_GRACE_S)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self.stderr.close()

    def kill_now(self) -> None:
        """Last resort from a foreign thread when the loop is unresponsive."""
        self._kill()


# --------------------------------------------------------------------------- client

_LIVE_CLIENTS: weakref.WeakSet[LanguageServerClient] = weakref.WeakSet()


@atexit.register
def _close_all_clients() -> None:
    for client in list(_LIVE_CLIENTS):
        client.close()


class LanguageServerClient:
    """One language server, kept alive across queries.

    ``command`` is the argv of a stdio server (see :data:`SERVERS`);
    ``root_path`` becomes the workspace root and the server's cwd.  Every
    request is bounded by ``timeout_s`` (the first one of each server process
    by ``first_timeout_s`` when longer: a cold server analyses the workspace
    before it answers), start-up by ``start_timeout_s``.
    The server's stderr is appended to ``stderr_path`` (an anonymous temporary
    file when ``None``); its tail is quoted in start and crash errors.

    Queries start the server on first use.  After a failed start or a crash
    they keep raising that error (at once, without respawning) until
    :meth:`start` is called again.
    """

    def __init__(
        self,
        command: Sequence[str],
        root_path: str,
        *,
        timeout_s: float = 10.0,
        start_timeout_s: float = 30.0,
        first_timeout_s: float | None = None,
        stderr_path: str | None = None,
        settings: dict[str, Any] | None = None,
        init_options: dict[str, Any] | None = None,
    ) -> None:
        if not command:
            raise ValueError("empty command")
        self._command = list(command)
        if os.sep not in self._command[0]:
            self._command[0] = find_executable(self._command[0]) or self._command[0]
        self._root_path = os.path.abspath(root_path)
        self._timeout_s = timeout_s
        self._start_timeout_s = start_timeout_s
        # a cold server analyses the workspace before its first answer: that request gets longer
        self._first_timeout_s = max(timeout_s, first_timeout_s if first_timeout_s is not None else timeout_s)
        self._answered = False
        self._stderr_path = stderr_path
        self._settings = settings
        self._init_options = init_options
        self._server = os.path.basename(self._command[0])
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._session: _Session | None = None
        self._start_error: ServerStartError | None = None
        self._closed = False

    def __repr__(self) -> str:
        return f"<LanguageServerClient {self._command!r} pid={self.pid} alive={self.alive}>"

    @property
    def server(self) -> str:
        """The command name used in error messages."""
        return self._server

    @property
    def pid(self) -> int | None:
        """Pid of the spawned process (may be a wrapper of the real server)."""
        session = self._session
        proc = session.proc if session is not None else None
        return proc.pid if proc is not None else None

    @property
    def alive(self) -> bool:
        """Whether the server is started and running."""
        session = self._session
        return (
            not self._closed
            and session is not None
            and session.dead is None
            and session.proc is not None
            and session.proc.returncode is None
        )

    # -- lifecycle ----------------------------------------------------------

    def start(self) -> None:
        """Spawn the server and initialize it; a no-op while it is alive."""
        with self._lock:
            self._start_error = None
            self._start_locked()

    def _start_locked(self) -> None:
        if self._closed:
            raise LanguageServerError(self._server, "client is closed")
        if self._session is not None and self._session.dead is None:
            return
        if self._session is not None:
            self._end_session(self._session, graceful=False)
            self._session = None
        loop = self._ensure_loop()
        stderr: IO[bytes] = (
            # Readable too, for the tail quoted in errors; O_APPEND keeps the
            # server's writes at the end whatever our offset.
            open(self._stderr_path, "a+b")  # noqa: SIM115 -- owned by the session
            if self._stderr_path is not None
            else tempfile.TemporaryFile()  # noqa: SIM115
        )
        session = _Session(self._command, self._root_path, self._server, stderr, self._settings, self._init_options)
        self._answered = False
        _LIVE_CLIENTS.add(self)
        future = asyncio.run_coroutine_threadsafe(session.start(), loop)
        try:
            done, _ = concurrent.futures.wait([future], timeout=self._start_timeout_s)
            if not done and future.cancel():
                reason = f"no answer to initialize within {self._start_timeout_s:g}s"
                raise ServerStartError(self._server, reason + _stderr_tail(stderr))
            try:
                future.result()
            except ServerStartError:
                raise
            except LanguageServerError as exc:
                raise ServerStartError(self._server, exc.reason) from exc
        except ServerStartError as exc:
            self._start_error = exc
            self._end_session(session, graceful=False)
            raise
        except BaseException:
            # Includes KeyboardInterrupt while waiting: no process may outlive this.
            self._end_session(session, graceful=False)
            raise
        self._session = session

    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name=f"lsp-bridge:{self._server}", daemon=True)
            thread.start()
            self._loop, self._thread = loop, thread
        return self._loop

    def _end_session(self, session: _Session, *, graceful: bool) -> None:
        assert self._loop is not None
        future = asyncio.run_coroutine_threadsafe(session.close(graceful=graceful), self._loop)
        budget_s = _SHUTDOWN_REPLY_S + _EXIT_GRACE_S + 1.0
        done, _ = concurrent.futures.wait([future], timeout=budget_s)
        if not done:
            session.kill_now()

    def close(self) -> None:
        """Shut the server down (shutdown + exit, then kill); idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            session, self._session = self._session, None
            loop, thread = self._loop, self._thread
            if session is not None:
                self._end_session(session, graceful=True)
            if loop is not None and thread is not None:
                loop.call_soon_threadsafe(loop.stop)
                thread.join(timeout=5.0)
                if not thread.is_alive():
                    loop.close()
        _LIVE_CLIENTS.discard(self)

    def __enter__(self) -> LanguageServerClient:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- queries ------------------------------------------------------------

    def definition(self, path: str, line: int, character: int) -> list[Location]:
        """Where the symbol at ``line``/``character`` (LSP: 0-based, UTF-16) of ``path`` is defined.

        ``path`` is sent to the server first (didOpen, or didChange if its mtime
        moved).  A server without the capability yields ``[]``; so do the
        siblings below.
        """
        return self._locations("textDocument/definition", "definitionProvider", path, line, character)

    def declaration(self, path: str, line: int, character: int) -> list[Location]:
        """Like :meth:`definition`, for where the symbol is declared."""
        return self._locations("textDocument/declaration", "declarationProvider", path, line, character)

    def type_definition(self, path: str, line: int, character: int) -> list[Location]:
        """Like :meth:`definition`, for where its type is defined."""
        return self._locations("textDocument/typeDefinition", "typeDefinitionProvider", path, line, character)

    def implementation(self, path: str, line: int, character: int) -> list[Location]:
        """Like :meth:`definition`, for where it is implemented."""
        return self._locations("textDocument/implementation", "implementationProvider", path, line, character)

    def _locations(self, method: str, capability: str, path: str, line: int, character: int) -> list[Location]:
        if line < 0 or character < 0:
            raise ValueError(f"negative position: {line}:{character}")
        session = self._live_session()
        if not session.supports(capability):
            return []
        result = self._call(session.query(method, os.path.abspath(path), line, character))
        return _to_locations(result, self._server)

    def _live_session(self) -> _Session:
        with self._lock:
            if self._session is None and self._start_error is not None:
                raise self._start_error._copy()
            if self._session is None:
                self._start_locked()
            session = self._session
        if session is None:  # close() won the race
            raise LanguageServerError(self._server, "client is closed")
        if session.dead is not None:
            raise session.dead._copy()
        return session

    def _call(self, coro: Coroutine[Any, Any, _T]) -> _T:
        loop = self._loop
        if loop is None or self._closed:
            coro.close()
            raise LanguageServerError(self._server, "client is closed")
        future = asyncio.run_coroutine_threadsafe(coro, loop)
        timeout_s = self._timeout_s if self._answered else self._first_timeout_s
        done, _ = concurrent.futures.wait([future], timeout=timeout_s)
        # cancel() fails only if the answer raced in, which is then used.
        if not done and future.cancel():
            raise RequestTimeoutError(self._server, f"no answer within {timeout_s:g}s")
        result = future.result()
        self._answered = True
        return result
