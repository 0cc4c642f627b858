"""A misbehaving language server for fault tests: JSON-RPC over stdio, stdlib only.

Usage: fake_server.py MODE [LOG_PATH]

Every message received is appended to LOG_PATH (one JSON object per line) when
given.  MODE picks how the server behaves:

    exit_at_start        print to stderr and exit 3 before reading anything
    silent               read requests, never answer anything
    chatty               write 2 MiB to stderr before answering initialize
    no_capabilities      initialize advertises nothing
    crash_on_definition  exit 1 upon textDocument/definition
    hang_on_definition   never answer textDocument/definition
    slow_first           answer the first definition after 1.5 s, later ones at once
    init_error           answer initialize with a JSON-RPC error
    garbage_body         answer definition with a framed non-JSON body
    wrong_type           answer definition with a result of the wrong type
    error_response       answer definition with a JSON-RPC error
    links                answer definition with unsorted, duplicated LocationLinks
    single               answer definition with a single Location (no list)
    ignore_exit          answer shutdown, then ignore exit (must be killed)

Otherwise definition answers ``[]`` and shutdown/exit behave.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any, BinaryIO

MODE = sys.argv[1]
LOG_PATH = sys.argv[2] if len(sys.argv) > 2 else None
STDIN: BinaryIO = sys.stdin.buffer
STDOUT: BinaryIO = sys.stdout.buffer


def read_message() -> dict[str, Any] | None:
    length = 0
    while True:
        header = STDIN.readline()
        if not header:
            return None
        if header in (b"\r\n", b"\n"):
            break
        name, _, value = header.decode("ascii").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
    message: dict[str, Any] = json.loads(STDIN.read(length))
    if LOG_PATH:
        with open(LOG_PATH, "a", encoding="utf-8") as log:
            log.write(json.dumps(message) + "\n")
    return message


def write_body(body: bytes) -> None:
    STDOUT.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    STDOUT.flush()


def reply(msg_id: object, result: object) -> None:
    write_body(json.dumps({"jsonrpc": "2.0", "id": msg_id, "result": result}).encode())


def location(uri: str, line: int, character: int) -> dict[str, Any]:
    start = {"line": line, "character": character}
    end = {"line": line, "character": character + 3}
    return {"uri": uri, "range": {"start": start, "end": end}}


def link(uri: str, line: int) -> dict[str, Any]:
    whole = {"start": {"line": line, "character": 0}, "end": {"line": line + 2, "character": 0}}
    name = {"start": {"line": line, "character": 6}, "end": {"line": line, "character": 12}}
    return {"targetUri": uri, "targetRange": whole, "targetSelectionRange": name}


def error(msg_id: object, message: str) -> None:
    body = {"jsonrpc": "2.0", "id": msg_id, "error": {"code": -32603, "message": message}}
    write_body(json.dumps(body).encode())


DEFINITIONS_SEEN = 0


def answer_definition(msg_id: object, params: dict[str, Any]) -> None:
    global DEFINITIONS_SEEN
    DEFINITIONS_SEEN += 1
    uri = params["textDocument"]["uri"]
    if MODE == "slow_first" and DEFINITIONS_SEEN == 1:
        time.sleep(1.5)
    if MODE == "crash_on_definition":
        sys.exit(1)
    elif MODE == "hang_on_definition":
        return
    elif MODE == "garbage_body":
        write_body(b"this is {not json")
    elif MODE == "wrong_type":
        reply(msg_id, 42)
    elif MODE == "error_response":
        error(msg_id, "internal kaboom")
    elif MODE == "links":
        other = uri.rsplit("/", 1)[0] + "/other.py"
        reply(msg_id, [link(uri, 9), link(other, 1), link(uri, 2), link(uri, 9)])
    elif MODE == "single":
        reply(msg_id, location(uri, 4, 2))
    else:
        reply(msg_id, [])


def main() -> None:
    if MODE == "exit_at_start":
        sys.stderr.write("fake server refuses to start\n")
        sys.exit(3)
    while (message := read_message()) is not None:
        method, msg_id = message.get("method"), message.get("id")
        if MODE == "silent":
            continue
        if method == "initialize" and MODE == "init_error":
            error(msg_id, "no workspace for you")
        elif method == "initialize":
            if MODE == "chatty":
                for _ in range(2048):
                    sys.stderr.write("x" * 1023 + "\n")
                sys.stderr.flush()
            capabilities = {} if MODE == "no_capabilities" else {"definitionProvider": True}
            reply(msg_id, {"capabilities": capabilities})
        elif method == "textDocument/definition":
            answer_definition(msg_id, message["params"])
        elif method == "shutdown":
            reply(msg_id, None)
        elif method == "exit":
            if MODE == "ignore_exit":
                time.sleep(60)
            return


if __name__ == "__main__":
    main()
