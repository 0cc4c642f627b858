"""Queries while the index is being updated: threads and processes, one writer, no errors.

The repository is a generated medium tree plus `pair/models.py` (`class Base` and `class Child(Base)`,
both carrying a version number), which a writer process rewrites (atomic saves, like an editor) and
re-indexes in a loop. Meanwhile `codehop.ask("What is `pair.models.Child.LIMIT`?")` runs in threads
of this process and in other
processes (each ask also refreshes the index itself, so readers write too). Every query must
return an Answer (no exception, no "database is locked"), and no answer may mix two versions of
the pair: its answer text and the pair's context chunks all carry one version number.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import pytest_lsp
from crash_helpers import QUESTION, answer_record, initial_files, pair_texts, versions_in, write_tree
from lsprotocol import types
from pygls import uris
from pytest_lsp import ClientServerConfig, LanguageClient

import codehop
from codehop.index.indexer import index_repo

PROJECT = Path(__file__).resolve().parent.parent
HELPERS = Path(__file__).resolve().parent / "crash_helpers.py"
SECONDS = 12.0
HOVER_SECONDS = 8.0
THREADS = 3
PROCESSES = 2

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "busy"
    files = {rel: text for rel, text in initial_files().items() if rel.startswith(("pkg0/", "pkg1/", "pkg2/"))}
    files.update(pair_texts(0))
    write_tree(root, {}, files)
    index_repo(root)
    return root


def _spawn(role: str, root: Path, seconds: float) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, str(HELPERS), role, str(root), str(seconds)],
        cwd=PROJECT,
        env={**os.environ, "PYTHONPATH": str(PROJECT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _result(proc: subprocess.Popen[bytes]) -> dict[str, object]:
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err.decode(errors="replace")
    return json.loads(out.decode().strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_queries_in_threads_and_processes_during_updates(repo):
    first = codehop.ask(QUESTION, repo=str(repo))
    assert first.state == "complete" and "LIMIT = 0" in first.answer
    writer = _spawn("writer", repo, SECONDS)
    readers = [_spawn("reader", repo, SECONDS) for _ in range(PROCESSES)]
    stop = time.monotonic() + SECONDS
    lock = threading.Lock()
    local: dict[str, list[object]] = {"queries": [], "errors": [], "mixed": []}

    def ask_loop() -> None:
        while time.monotonic() < stop:
            try:
                d = answer_record(codehop.ask(QUESTION, repo=str(repo)))
            except Exception as exc:
                with lock:
                    local["errors"].append(f"{type(exc).__name__}: {exc}")
                continue
            with lock:
                local["queries"].append(d["state"])
                if len(versions_in(d)) > 1:
                    local["mixed"].append(sorted(versions_in(d)))

    threads = [threading.Thread(target=ask_loop) for _ in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    w = _result(writer)
    others = [_result(p) for p in readers]
    queries = len(local["queries"]) + sum(int(r["queries"]) for r in others)  # type: ignore[call-overload]
    errors = list(local["errors"]) + [e for r in others for e in r["errors"]] + list(w["errors"])  # type: ignore[attr-defined]
    mixed = list(local["mixed"]) + [m for r in others for m in r["mixed"]]  # type: ignore[attr-defined]
    print(
        f"\nconcurrent queries: {queries} ({len(local['queries'])} in {THREADS} threads, "
        f"{[r['queries'] for r in others]} in {PROCESSES} processes); updates: {w['updates']}; "
        f"errors: {len(errors)}; half-updated answers: {len(mixed)}"
    )
    assert not errors, errors[:5]
    assert not mixed, mixed[:5]
    assert int(w["updates"]) >= 10 and queries >= 30  # type: ignore[call-overload]
    assert all(int(r["queries"]) > 0 for r in others)  # type: ignore[call-overload]
    # after the writer stops, the next query sees its last version
    last = codehop.ask(QUESTION, repo=str(repo))
    final = int((repo / "pair/models.py").read_text().split("version ")[1].split(".")[0])
    assert last.state == "complete" and f"LIMIT = {final}" in last.answer
    assert versions_in(answer_record(last)) == {final}


# ---------------------------------------------------------------- the LSP server's hover, same writer

SERVER = ClientServerConfig(
    server_command=[sys.executable, "-m", "codehop.frontends.lsp_server"],
    server_env={**{k: v for k, v in os.environ.items() if k != "CODEHOP_INDEX_DIR"}, "PYTHONPATH": str(PROJECT)},
)


@pytest_lsp.fixture(config=SERVER)
async def lsp(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    yield
    await lsp_client.shutdown_session()


async def _hover(client: LanguageClient, models: Path) -> str:
    line = models.read_text().splitlines().index("class Child(Base):")
    result = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uris.from_fs_path(str(models)) or ""),
            position=types.Position(line=line, character=len("class Child(B")),
        )
    )
    assert result is not None and isinstance(result.contents, types.MarkupContent)
    return result.contents.value


@pytest.mark.asyncio
async def test_hover_during_updates(lsp: LanguageClient, repo: Path) -> None:
    """pair/models.py:11 `Child(Base)`: hovers on `Base` while a writer process re-indexes, and the
    server refreshes the index itself on every few saves. No error, one version per hover."""
    await lsp.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(
                text_document=types.TextDocumentClientCapabilities(
                    hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
                    synchronization=types.TextDocumentSyncClientCapabilities(did_save=True),
                )
            ),
            root_uri=uris.from_fs_path(str(repo)),
        )
    )
    models = repo / "pair/models.py"
    assert "version 0" in await _hover(lsp, models)
    writer = _spawn("writer", repo, HOVER_SECONDS)
    hovers, errors, mixed, seen = 0, [], [], set()
    while writer.poll() is None:
        if hovers % 5 == 0:
            lsp.text_document_did_save(
                types.DidSaveTextDocumentParams(
                    text_document=types.TextDocumentIdentifier(uri=uris.from_fs_path(str(models)) or "")
                )
            )
        try:
            text = await _hover(lsp, models)
        except Exception as exc:
            errors.append(f"{type(exc).__name__}: {exc}")
            continue
        hovers += 1
        versions = set(re.findall(r"version (\d+)", text))
        seen |= versions
        if len(versions) != 1:
            mixed.append(text)
        await asyncio.sleep(0.01)
    w = _result(writer)
    print(
        f"\nhovers during updates: {hovers} ({len(seen)} versions seen); updates: {w['updates']}; "
        f"errors: {len(errors)}; half-updated hovers: {len(mixed)}"
    )
    assert not errors and not w["errors"], (errors[:3], w["errors"])
    assert not mixed, mixed[:2]
    assert hovers >= 20 and int(w["updates"]) >= 10  # type: ignore[call-overload]
    assert len(seen) >= 3, "the hovers never saw the index move"
    final = re.search(r"version (\d+)", models.read_text()).group(1)  # type: ignore[union-attr]
    lsp.text_document_did_save(
        types.DidSaveTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uris.from_fs_path(str(models)) or "")
        )
    )
    assert f"version {final}" in await _hover(lsp, models)
