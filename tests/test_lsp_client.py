"""Tests for lsp_bridge.client against real language servers and scripted fakes."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from shared import copy_fixture, live_group_members

from lsp_bridge.client import (
    SERVERS,
    LanguageServerClient,
    LanguageServerError,
    Location,
    RequestTimeoutError,
    ServerCrashedError,
    ServerResponseError,
    ServerStartError,
    codepoint_col,
    utf16_col,
)

pytestmark = pytest.mark.timeout(60)

HERE = Path(__file__).resolve().parent
SAMPLE = HERE / "data" / "lsp_sample"
FAKE_SERVER = HERE / "fake_lsp_servers" / "fake_server.py"
USE_PY = SAMPLE / "use.py"
CORE_PY = SAMPLE / "pkg" / "core.py"


def fake(mode: str, log: Path | None = None) -> list[str]:
    return [sys.executable, str(FAKE_SERVER), mode, *([str(log)] if log else [])]


def received(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def col_of(path: Path, line: int, needle: str, offset: int = 0) -> int:
    """UTF-16 column of ``needle`` (plus ``offset`` characters) on ``line``."""
    text = path.read_text(encoding="utf-8").splitlines()[line]
    return utf16_col(text, text.index(needle) + offset)


def wait_until(predicate: Callable[[], bool], timeout_s: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def assert_no_process_left(pid: int) -> None:
    if not Path("/proc").is_dir():
        pytest.skip("needs /proc")
    assert wait_until(lambda: not live_group_members(pid)), live_group_members(pid)


@pytest.fixture
def client_factory(tmp_path: Path) -> Iterator[Callable[..., LanguageServerClient]]:
    clients: list[LanguageServerClient] = []

    def make(command: list[str], **kwargs: Any) -> LanguageServerClient:
        kwargs.setdefault("root_path", str(SAMPLE))
        kwargs.setdefault("stderr_path", str(tmp_path / "stderr.log"))
        client = LanguageServerClient(command, **kwargs)
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()


# --------------------------------------------------------------------- columns


@pytest.mark.parametrize(
    ("text", "cp", "u16"),
    [
        ("abc", 2, 2),
        ("é = 1", 1, 1),  # BMP: one code unit
        ("🙂 = 1", 1, 2),  # astral: a surrogate pair
        ("a🙂🙂b", 3, 5),
        ("x🙂", 9, 3),  # past the end clamps
    ],
    ids=["ascii", "bmp", "astral", "two-astral", "past-end"],
)
def test_column_conversions(text: str, cp: int, u16: int) -> None:
    assert utf16_col(text, cp) == u16
    assert codepoint_col(text, u16) == min(cp, len(text))


def test_codepoint_col_inside_surrogate_pair_rounds_up() -> None:
    assert codepoint_col("🙂x", 1) == 1


# --------------------------------------------------------------------- start


def test_server_exiting_at_start_raises_start_error_quickly(
    client_factory: Callable[..., LanguageServerClient],
) -> None:
    client = client_factory(fake("exit_at_start"))
    began = time.monotonic()
    with pytest.raises(ServerStartError) as info:
        client.start()
    assert time.monotonic() - began < 5
    assert "code 3" in info.value.reason
    assert "refuses to start" in info.value.reason  # the stderr tail
    assert info.value.server == os.path.basename(sys.executable)
    assert not client.alive


def test_server_never_answering_initialize_raises_start_error(
    client_factory: Callable[..., LanguageServerClient],
) -> None:
    client = client_factory(fake("silent"), start_timeout_s=1)
    began = time.monotonic()
    with pytest.raises(ServerStartError, match="initialize"):
        client.start()
    assert 0.9 < time.monotonic() - began < 5
    assert client.pid is None or not live_group_members(client.pid)


def test_initialize_error_raises_start_error(
    client_factory: Callable[..., LanguageServerClient],
) -> None:
    client = client_factory(fake("init_error"))
    with pytest.raises(ServerStartError, match="no workspace for you"):
        client.start()


def test_missing_executable_raises_start_error(
    client_factory: Callable[..., LanguageServerClient],
) -> None:
    client = client_factory(["no-such-language-server-xyz"])
    with pytest.raises(ServerStartError, match="cannot spawn"):
        client.definition(str(USE_PY), 0, 0)
    with pytest.raises(ServerStartError, match="cannot spawn"):
        client.definition(str(USE_PY), 0, 0)  # remembered, not retried


def test_chatty_stderr_does_not_stall_the_server(
    client_factory: Callable[..., LanguageServerClient], tmp_path: Path
) -> None:
    client = client_factory(fake("chatty"), start_timeout_s=10)
    client.start()
    assert client.definition(str(USE_PY), 0, 0) == []
    assert (tmp_path / "stderr.log").stat().st_size >= 2 * 1024 * 1024


# --------------------------------------------------------------------- faults


def test_crash_mid_request_fails_fast(
    client_factory: Callable[..., LanguageServerClient],
) -> None:
    client = client_factory(fake("crash_on_definition"), timeout_s=30)
    client.start()
    began = time.monotonic()
    with pytest.raises(ServerCrashedError, match="exited with code 1"):
        client.definition(str(USE_PY), 2, 9)
    assert time.monotonic() - began < 5
    assert not client.alive
    began = time.monotonic()
    with pytest.raises(ServerCrashedError):
        client.definition(str(USE_PY), 2, 9)
    assert time.monotonic() - began < 0.5


def test_start_after_crash_spawns_a_new_server(
    client_factory: Callable[..., LanguageServerClient],
) -> None:
    client = client_factory(fake("crash_on_definition"))
    client.start()
    first_pid = client.pid
    with pytest.raises(ServerCrashedError):
        client.definition(str(USE_PY), 2, 9)
    client.start()
    assert client.alive
    assert client.pid != first_pid


def test_hanging_request_times_out_and_is_cancelled(
    client_factory: Callable[..., LanguageServerClient], tmp_path: Path
) -> None:
    log = tmp_path / "received.jsonl"
    client = client_factory(fake("hang_on_definition", log), timeout_s=1)
    client.start()
    began = time.monotonic()
    with pytest.raises(RequestTimeoutError):
        client.definition(str(USE_PY), 2, 9)
    assert 0.9 < time.monotonic() - began < 3
    assert client.alive

    def cancelled() -> bool:
        messages = received(log)
        definition = next(m for m in messages if m.get("method") == "textDocument/definition")
        return any(m.get("method") == "$/cancelRequest" and m["params"]["id"] == definition["id"] for m in messages)

    assert wait_until(cancelled)


def test_late_reply_to_a_timed_out_request_is_ignored(
    client_factory: Callable[..., LanguageServerClient],
) -> None:
    client = client_factory(fake("slow_first"), timeout_s=1)
    with pytest.raises(RequestTimeoutError):
        client.definition(str(USE_PY), 2, 9)
    # The late reply arrives while this request is in flight and must not
    # disturb it.
    assert client.definition(str(USE_PY), 2, 9) == []
    assert client.alive


@pytest.mark.parametrize(
    ("mode", "match"),
    [
        ("garbage_body", "unparseable"),
        ("wrong_type", "expected a Location"),
        ("error_response", "internal kaboom"),
    ],
)
def test_bad_replies_raise_response_error(
    client_factory: Callable[..., LanguageServerClient], mode: str, match: str
) -> None:
    client = client_factory(fake(mode), timeout_s=20)
    client.start()
    began = time.monotonic()
    with pytest.raises(ServerResponseError, match=match):
        client.definition(str(USE_PY), 2, 9)
    assert time.monotonic() - began < 5
    assert client.alive  # one bad reply does not end the session


# --------------------------------------------------------------------- results


def test_location_links_are_normalised(
    client_factory: Callable[..., LanguageServerClient],
) -> None:
    client = client_factory(fake("links"))
    here, other = str(USE_PY), str(SAMPLE / "other.py")
    assert client.definition(here, 2, 9) == [
        Location(path=other, line=1, character=6, end_line=1, end_character=12),
        Location(path=here, line=2, character=6, end_line=2, end_character=12),
        Location(path=here, line=9, character=6, end_line=9, end_character=12),
    ]


def test_single_location_result_becomes_a_list(
    client_factory: Callable[..., LanguageServerClient],
) -> None:
    client = client_factory(fake("single"))
    assert client.definition(str(USE_PY), 0, 0) == [
        Location(path=str(USE_PY), line=4, character=2, end_line=4, end_character=5)
    ]


def test_missing_capabilities_answer_empty_without_asking(
    client_factory: Callable[..., LanguageServerClient], tmp_path: Path
) -> None:
    log = tmp_path / "received.jsonl"
    client = client_factory(fake("no_capabilities", log))
    for query in (
        client.definition,
        client.declaration,
        client.type_definition,
        client.implementation,
    ):
        assert query(str(USE_PY), 2, 9) == []
    assert not [m for m in received(log) if m.get("method", "").startswith("textDocument/")]


def test_documents_are_opened_once_and_changed_on_mtime(
    client_factory: Callable[..., LanguageServerClient], tmp_path: Path
) -> None:
    log = tmp_path / "received.jsonl"
    source = tmp_path / "mod.py"
    source.write_text("x = 1\n", encoding="utf-8")
    client = client_factory(fake("default", log), root_path=str(tmp_path))
    client.definition(str(source), 0, 0)
    client.definition(str(source), 0, 0)
    source.write_text("x = 2\ny = x\n", encoding="utf-8")
    stat = source.stat()
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    client.definition(str(source), 1, 4)
    client.definition(str(source), 1, 4)

    sync = [m for m in received(log) if m.get("method", "").startswith("textDocument/did")]
    assert [m["method"] for m in sync] == ["textDocument/didOpen", "textDocument/didChange"]
    opened, changed = sync[0]["params"], sync[1]["params"]
    assert opened["textDocument"]["languageId"] == "python"
    assert opened["textDocument"]["text"] == "x = 1\n"
    assert changed["textDocument"]["version"] == opened["textDocument"]["version"] + 1
    assert changed["contentChanges"] == [{"text": "x = 2\ny = x\n"}]


def test_requests_from_many_threads(
    client_factory: Callable[..., LanguageServerClient],
) -> None:
    client = client_factory(fake("single"))
    results: list[list[Location]] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(20):
                results.append(client.definition(str(USE_PY), 0, 0))
        except BaseException as exc:  # noqa: BLE001 -- reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert len(results) == 120 and all(len(r) == 1 for r in results)


# --------------------------------------------------------------------- lifecycle


def test_close_is_idempotent_and_final(
    client_factory: Callable[..., LanguageServerClient],
) -> None:
    client = client_factory(fake("default"))
    with client:
        pid = client.pid
        assert pid is not None and client.alive
    assert not client.alive
    client.close()
    assert_no_process_left(pid)
    with pytest.raises(LanguageServerError, match="closed"):
        client.definition(str(USE_PY), 0, 0)
    with pytest.raises(LanguageServerError, match="closed"):
        client.start()


def test_close_kills_a_server_that_ignores_exit(
    client_factory: Callable[..., LanguageServerClient],
) -> None:
    client = client_factory(fake("ignore_exit"))
    client.start()
    pid = client.pid
    assert pid is not None
    began = time.monotonic()
    client.close()
    assert time.monotonic() - began < 6
    assert_no_process_left(pid)


# --------------------------------------------------------------------- real servers


@pytest.fixture(scope="module")
def real_client() -> Iterator[Callable[[str], LanguageServerClient]]:
    """One started client per real server, shared by this module's tests."""
    clients: dict[str, LanguageServerClient] = {}

    def get(server: str) -> LanguageServerClient:
        if server not in clients:
            command = SERVERS[server]
            if shutil.which(command[0]) is None:
                pytest.skip(f"{command[0]} not installed")
            clients[server] = LanguageServerClient(command, str(SAMPLE), timeout_s=20)
            clients[server].start()
        return clients[server]

    yield get
    for client in clients.values():
        client.close()


@pytest.mark.slow
@pytest.mark.parametrize("server", sorted(SERVERS))
@pytest.mark.parametrize(
    ("line", "needle", "expected"),
    [
        (0, "Engine", (CORE_PY, 3, 6)),  # through the pkg/__init__ re-export
        (2, "Engine", (CORE_PY, 3, 6)),
        (3, "run", (CORE_PY, 6, 8)),
    ],
    ids=["import", "class", "method"],
)
def test_definition_on_real_server(
    real_client: Callable[[str], LanguageServerClient],
    server: str,
    line: int,
    needle: str,
    expected: tuple[Path, int, int],
) -> None:
    client = real_client(server)
    locations = client.definition(str(USE_PY), line, col_of(USE_PY, line, needle))
    assert [(Path(loc.path), loc.line, loc.character) for loc in locations] == [expected]


@pytest.mark.slow
def test_basedpyright_counts_utf16_columns(
    real_client: Callable[[str], LanguageServerClient],
) -> None:
    # Line 4 has two astral emoji before `run`: UTF-16 and code points differ by 2.
    column = col_of(USE_PY, 4, "run", offset=2)
    locations = real_client("basedpyright").definition(str(USE_PY), 4, column)
    assert [(Path(loc.path), loc.line) for loc in locations] == [(CORE_PY, 6)]


@pytest.mark.slow
def test_jedi_counts_code_points_despite_advertising_utf16(
    real_client: Callable[[str], LanguageServerClient],
) -> None:
    # Pins a jedi-language-server 0.47 quirk: jedi_utils.line_column hands the
    # LSP character straight to jedi, so its columns are str indices, although
    # initialize reports positionEncoding "utf-16".
    client = real_client("jedi")
    text = USE_PY.read_text(encoding="utf-8").splitlines()[4]
    last_letter_of_run = text.index("run") + 2
    by_index = client.definition(str(USE_PY), 4, last_letter_of_run)
    assert [loc.path for loc in by_index] == [str(CORE_PY)]
    by_utf16 = client.definition(str(USE_PY), 4, utf16_col(text, last_letter_of_run))
    assert str(CORE_PY) not in [loc.path for loc in by_utf16]


@pytest.mark.slow
@pytest.mark.parametrize("server", sorted(SERVERS))
def test_edited_file_is_resent_to_real_server(server: str, tmp_path: Path) -> None:
    root = tmp_path / "sample"
    copy_fixture(SAMPLE, root, symlinks=False)
    use_py = root / "use.py"
    with LanguageServerClient(SERVERS[server], str(root), timeout_s=20) as client:
        original = client.definition(str(use_py), 4, 9)
        assert str(root / "pkg" / "core.py") not in [loc.path for loc in original]
        use_py.write_text("\n\n" + use_py.read_text(encoding="utf-8"), encoding="utf-8")
        stat = use_py.stat()
        os.utime(use_py, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
        moved = client.definition(str(use_py), 4, 9)
        assert [(loc.path, loc.line) for loc in moved] == [(str(root / "pkg" / "core.py"), 3)]


@pytest.mark.slow
@pytest.mark.parametrize("server", sorted(SERVERS))
def test_killed_real_server_is_reported_and_cleaned_up(server: str) -> None:
    with LanguageServerClient(SERVERS[server], str(SAMPLE), timeout_s=30) as client:
        assert client.definition(str(USE_PY), 2, col_of(USE_PY, 2, "Engine"))
        pid = client.pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        began = time.monotonic()
        # For basedpyright the pid is a python launcher and node, its child,
        # could still answer until the client notices the exit and kills the
        # group; the client must notice within bounded time.
        assert wait_until(lambda: not client.alive, timeout_s=5)
        with pytest.raises(ServerCrashedError, match=f"process {pid} exited"):
            client.definition(str(USE_PY), 3, col_of(USE_PY, 3, "run"))
        assert time.monotonic() - began < 5
        assert not client.alive
    # basedpyright-langserver is a python launcher with node as its child.
    assert_no_process_left(pid)


@pytest.mark.slow
@pytest.mark.parametrize("server", sorted(SERVERS))
def test_close_leaves_no_real_server_behind(server: str) -> None:
    client = LanguageServerClient(SERVERS[server], str(SAMPLE))
    client.start()
    pid = client.pid
    assert pid is not None
    assert live_group_members(pid)  # launcher (+ node for basedpyright)
    began = time.monotonic()
    client.close()
    assert time.monotonic() - began < 5
    assert_no_process_left(pid)
