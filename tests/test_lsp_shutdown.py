"""`shutdown` while requests are pending (issue 29 item 10): a raw JSON-RPC client on a real
`python -m codehop.frontends.lsp_server` process over stdio, on fixtures_repos/reexport_chain.

Each round opens `app.py`, sends 100 requests without waiting (definition, hover, references,
documentSymbol and the `codehop.ask` command, which pygls runs as a generator handler), then
`shutdown` at once, then `exit`. Every request gets exactly one response, a result (null allowed)
and never an error; `shutdown` answers null; the process exits 0. Before the fix, pygls cancelled
the pending requests while iterating the dict their callbacks pop from: the shutdown answered
-32603 "dictionary changed size during iteration" and the process exited 1.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

import pytest

PROJECT = Path(__file__).resolve().parent.parent
ROUNDS = 3
REQUESTS = 100
SHUTDOWN_ID = 10_000

pytestmark = [pytest.mark.timeout(240), pytest.mark.slow]

METHODS = (
    "textDocument/definition",
    "textDocument/hover",
    "textDocument/references",
    "textDocument/documentSymbol",
    "workspace/executeCommand",
)


def frame(obj: dict[str, Any]) -> bytes:
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_message(stream: IO[bytes]) -> dict[str, Any] | None:
    headers: dict[bytes, bytes] = {}
    while True:
        line = stream.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        key, _, value = line.partition(b":")
        headers[key.strip().lower()] = value.strip()
    data: dict[str, Any] = json.loads(stream.read(int(headers[b"content-length"])))
    return data


def request(i: int, uri: str, lines: list[str]) -> dict[str, Any]:
    method = METHODS[i % len(METHODS)]
    line = i % len(lines)
    params: dict[str, Any] = {
        "textDocument": {"uri": uri},
        "position": {"line": line, "character": min(5, len(lines[line]))},
    }
    if method == "textDocument/references":
        params["context"] = {"includeDeclaration": True}
    elif method == "textDocument/documentSymbol":
        params = {"textDocument": {"uri": uri}}
    elif method == "workspace/executeCommand":
        params = {"command": "codehop.ask", "arguments": ["where is Cart defined"]}
    return {"jsonrpc": "2.0", "id": i, "method": method, "params": params}


def one_round(repo: Path, log: Path) -> tuple[int, dict[str, Any] | None, dict[int, dict[str, Any]]]:
    """(exit code, the shutdown response, the other responses by id)."""
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    with open(log, "w", encoding="utf-8") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "codehop.frontends.lsp_server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
            cwd=repo,
            env=env,
        )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        init = {"processId": None, "rootUri": repo.as_uri(), "capabilities": {}}
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init}))
        proc.stdin.flush()
        while (m := read_message(proc.stdout)) is not None and m.get("id") != 0:
            pass
        text = (repo / "app.py").read_text()
        uri = (repo / "app.py").as_uri()
        doc = {"uri": uri, "languageId": "python", "version": 1, "text": text}
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": doc}}))
        lines = text.splitlines()
        for i in range(1, REQUESTS + 1):
            proc.stdin.write(frame(request(i, uri, lines)))
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": SHUTDOWN_ID, "method": "shutdown", "params": None}))
        proc.stdin.flush()
        answers: dict[int, dict[str, Any]] = {}
        shutdown = None
        while (m := read_message(proc.stdout)) is not None:
            if "method" in m or "id" not in m:
                continue  # the server's own requests and notifications (progress, messages)
            if m["id"] == SHUTDOWN_ID:
                shutdown = m
                break
            assert m["id"] not in answers, f"request {m['id']} answered twice"
            answers[m["id"]] = m
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "exit", "params": None}))
        proc.stdin.flush()
        while (m := read_message(proc.stdout)) is not None:
            if "method" not in m and "id" in m:
                assert m["id"] not in answers, f"request {m['id']} answered twice"
                answers[m["id"]] = m
        return proc.wait(timeout=30), shutdown, answers
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_shutdown_under_load_answers_everything(fixture_repo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    repo = fixture_repo("reexport_chain")
    for r in range(ROUNDS):
        code, shutdown, answers = one_round(repo, tmp_path / f"server{r}.log")
        assert shutdown is not None and "error" not in shutdown and shutdown["result"] is None, (r, shutdown)
        assert sorted(answers) == list(range(1, REQUESTS + 1)), (r, sorted(set(range(1, REQUESTS + 1)) - set(answers)))
        errors = {i: m["error"] for i, m in answers.items() if "error" in m}
        assert not errors, (r, errors)
        assert code == 0, (r, (tmp_path / f"server{r}.log").read_text()[-2000:])
