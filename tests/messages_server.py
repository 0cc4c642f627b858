"""A tiny Messages-API server on 127.0.0.1 for tests: scripted replies, recorded requests.

`POST /v1/messages` pops the next scripted `Reply` (status, headers, body,
delay_s), or repeats `default` once the script is used up. Every request is
recorded (path, lower-cased headers, JSON body) so tests can assert on what
the real `anthropic` SDK sent. One request per connection (HTTP/1.0), handler
threads are joined on close, and a pending `delay_s` ends as soon as the
server stops, so nothing outlives a test. Stdlib only.
"""

from __future__ import annotations

import json
import queue
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any


@dataclass(frozen=True, slots=True, kw_only=True)
class Reply:
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None  # dict/list -> JSON; str/bytes sent as is
    delay_s: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class Received:
    path: str
    headers: dict[str, str]
    body: Any


def message_body(
    content: list[dict[str, Any]], *, stop_reason: str = "tool_use", model: str = "claude-test"
) -> dict[str, Any]:
    return {
        "id": "msg_test",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }


def tool_reply(tool_input: Any, *, name: str = "report_answer", stop_reason: str = "tool_use") -> Reply:
    block = {"type": "tool_use", "id": "toolu_1", "name": name, "input": tool_input}
    return Reply(body=message_body([block], stop_reason=stop_reason), headers={"request-id": "req_ok"})


def text_reply(text: str) -> Reply:
    return Reply(body=message_body([{"type": "text", "text": text}], stop_reason="end_turn"))


def error_reply(
    status: int,
    error_type: str,
    message: str,
    *,
    request_id: str = "req_err",
    headers: dict[str, str] | None = None,
    delay_s: float = 0.0,
) -> Reply:
    return Reply(
        status=status,
        headers={"request-id": request_id, **(headers or {})},
        body={"type": "error", "error": {"type": error_type, "message": message}},
        delay_s=delay_s,
    )


class MessagesServer:
    def __init__(self) -> None:
        self.replies: queue.Queue[Reply] = queue.Queue()
        self.default = error_reply(500, "api_error", "no scripted reply left", request_id="req_unscripted")
        self.requests: list[Received] = []
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = False
        self._httpd.block_on_close = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, name="messages-server", daemon=True
        )

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def script(self, *replies: Reply) -> None:
        for r in replies:
            self.replies.put(r)

    def start(self) -> MessagesServer:
        self._thread.start()
        return self

    def close(self) -> None:
        self.stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()  # joins the handler threads
        self._thread.join(timeout=5)

    def __enter__(self) -> MessagesServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def _next(self) -> Reply:
        try:
            return self.replies.get_nowait()
        except queue.Empty:
            return self.default

    def _record(self, received: Received) -> None:
        with self._lock:
            self.requests.append(received)

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                try:
                    body: Any = json.loads(raw)
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                server._record(
                    Received(path=self.path, body=body, headers={k.lower(): v for k, v in self.headers.items()})
                )
                reply = (
                    server._next()
                    if self.path == "/v1/messages"
                    else error_reply(404, "not_found_error", f"no route {self.path}")
                )
                if reply.delay_s and server.stopping.wait(reply.delay_s):
                    return
                if isinstance(reply.body, bytes):
                    data, ctype = reply.body, "application/json"
                elif isinstance(reply.body, str):
                    data, ctype = reply.body.encode(), "application/json"
                else:
                    data, ctype = json.dumps(reply.body).encode(), "application/json"
                headers = {"content-type": ctype, **reply.headers}
                try:
                    self.send_response(reply.status)
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (its timeout): nothing to tell it

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

        return Handler
