"""A first question that talks and is fast (issue 29, item 8): installed distributions are indexed
when a hop reaches them (never all up front), the JSON `stats` say what was indexed, progress goes
to stderr on a terminal, and no process outlives the command; bridging runs only in a server, one
worker at a time, at low priority, ended when the server's session closes.

Fixtures: `fixtures_repos/app_with_venv/` with a real `.venv` holding real wheels of
`tests/data/minireq` and (where said) `tests/data/miniauth` (conftest); real CLI processes, a
real pty, real Jedi worker processes. Every process a test starts carries a tag in its
environment, which its descendants inherit: `/proc/*/environ` tells which of them are left.
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from conftest import DATA, build_wheel, install_wheel

from codehop.app import App, Config

ROOT = Path(__file__).resolve().parent.parent
QUESTION = "Which parameters does HTTPAdapter take?"
pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


def _tagged(tag: str) -> list[str]:
    """The live processes (not zombies) whose environment carries `CODEHOP_TEST_TAG=tag`."""
    want = f"CODEHOP_TEST_TAG={tag}".encode()
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit() or int(d.name) == os.getpid():
            continue
        try:
            if want in (d / "environ").read_bytes().split(b"\0"):
                cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                out.append(f"{d.name}: {cmd[:200]}")
        except OSError:
            continue
    return out


def _left_after(tag: str, grace_s: float = 2.0) -> list[str]:
    """What is still running `grace_s` after the command returned (a process in its last
    milliseconds of exiting is not counted; a worker allowed 120 s is)."""
    deadline = time.monotonic() + grace_s
    while (left := _tagged(tag)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def _env(tmp_path: Path, tag: str) -> dict[str, str]:
    drop = ("CODEHOP_PYTHON", "VIRTUAL_ENV", "CODEHOP_RESOLVERS", "CODEHOP_BRIDGE")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env["XDG_CACHE_HOME"] = str(tmp_path / "xdg-cache")
    env["CODEHOP_TEST_TAG"] = tag
    return env


def _codehop(root: Path, env: dict[str, str], *args: str, **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "codehop", *args, "--repo", str(root)],
        text=True,
        timeout=240,
        env=env,
        cwd=root,
        stdin=subprocess.DEVNULL,
        check=False,
        **({"capture_output": True} | kw),
    )


@pytest.fixture
def app_with_two(app_with_venv: Path, tmp_path: Path) -> Path:
    """app_with_venv whose `.venv` also holds miniauth 0.3.0, imported by a second module."""
    site = next((app_with_venv / ".venv" / "lib").glob("python3*/site-packages"))
    install_wheel(app_with_venv / ".venv", build_wheel(DATA / "miniauth", "miniauth", "0.3.0", tmp_path))
    assert (site / "miniauth").is_dir()
    (app_with_venv / "app" / "auth.py").write_text("import miniauth\n\nTOKEN = miniauth.AuthSession\n")
    return app_with_venv


def test_a_name_indexes_only_the_distributions_that_declare_it(
    app_with_two: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """app_with_two imports minireq and miniauth; `AuthSession` is looked up by name: miniauth,
    which declares it, is indexed; minireq, which does not, is not (it was, up front, before)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    for var in ("CODEHOP_PYTHON", "VIRTUAL_ENV"):
        monkeypatch.delenv(var, raising=False)
    app = App(app_with_two, Config(resolvers=("symbol_table",)))
    try:
        assert app.packages is not None and app.packages.indexed() == []
        found = app.store.bindings_named("AuthSession")
        assert any(b.scope.startswith("miniauth") for b in found), found
        assert [p.dist.name for p in app.packages.indexed()] == ["miniauth"]
    finally:
        app.close()


def test_cli_ask_leaves_no_process_and_says_what_it_indexed(app_with_venv: Path, tmp_path: Path) -> None:
    """`ask` (then `resolve` through Jedi and through basedpyright) on app_with_venv, fresh cache:
    once each command has returned, no process it started is left (the bridge's workers were
    left running before); the first `ask` names minireq in `stats.packages_indexed`, the second
    indexes nothing."""
    tag = uuid.uuid4().hex
    env = _env(tmp_path, tag)
    first = _codehop(app_with_venv, env, "ask", QUESTION, "--json")
    assert not (left := _left_after(tag)), left
    assert first.returncode == 0, first.stderr
    data = json.loads(first.stdout)
    assert data["state"] == "complete", data["answer"]
    assert [p["package"] for p in data["stats"]["packages_indexed"]] == ["minireq==1.2.0"]
    assert data["stats"]["packages_indexed"][0]["files"] >= 1
    second = json.loads(_codehop(app_with_venv, env, "ask", QUESTION, "--json").stdout)
    assert "packages_indexed" not in second["stats"] and second["answer"] == data["answer"]
    for via in ("jedi", "lsp"):
        got = _codehop(app_with_venv, env, "resolve", "app/client.py:6:27", "--via", via, "--json")
        assert got.returncode == 0, got.stderr
        assert not (left := _left_after(tag)), (via, left)


def test_progress_goes_to_stderr_on_a_terminal_only(app_with_venv: Path, tmp_path: Path) -> None:
    """With the threshold at 0 s (CODEHOP_PROGRESS_AFTER_S=0), indexing minireq is told on stderr
    when stderr is a terminal (a real pty), and not when it is a pipe; stdout stays the JSON."""
    env = _env(tmp_path, uuid.uuid4().hex) | {"CODEHOP_PROGRESS_AFTER_S": "0"}
    piped = _codehop(app_with_venv, env, "ask", QUESTION, "--json")
    assert piped.returncode == 0 and "indexing minireq" not in piped.stderr, piped.stderr
    env["XDG_CACHE_HOME"] = str(tmp_path / "xdg-cache-2")
    master, slave = pty.openpty()
    try:
        done = _codehop(
            app_with_venv, env, "ask", QUESTION, "--json", capture_output=False, stdout=subprocess.PIPE, stderr=slave
        )
        os.close(slave)
        told = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the terminal's other end is closed: all was read
                break
            if not chunk:
                break
            told += chunk
    finally:
        os.close(master)
    assert done.returncode == 0
    assert b"codehop: indexing minireq==1.2.0" in told, told
    assert json.loads(done.stdout)["state"] == "complete"


def test_a_server_bridges_one_worker_at_a_time_and_ends_it(
    app_with_two: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server's session (Config.for_server) that mounts minireq and miniauth queues both bridges:
    at most one worker process runs at a time, at low priority; closing the session ends it."""
    tag = uuid.uuid4().hex
    monkeypatch.setenv("CODEHOP_TEST_TAG", tag)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    monkeypatch.delenv("CODEHOP_BRIDGE", raising=False)
    for var in ("CODEHOP_PYTHON", "VIRTUAL_ENV", "CODEHOP_RESOLVERS"):
        monkeypatch.delenv(var, raising=False)
    assert Config().bridge_packages is False and Config.for_server().bridge_packages is True
    app = App(app_with_two, Config.for_server())
    most, niced = 0, False
    try:
        assert app.packages is not None
        assert app.packages.package("minireq") is not None and app.packages.package("miniauth") is not None
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not niced:
            workers = [p for p in _tagged(tag) if "codehop.resolve.jedi_bridge" in p]
            most = max(most, len(workers))
            for w in workers:
                stat = Path(f"/proc/{w.split(':')[0]}/stat").read_text()
                niced = niced or int(stat.rsplit(")", 1)[1].split()[16]) >= 10
            time.sleep(0.05)
    finally:
        app.close()
    assert most == 1 and niced
    assert not (left := _left_after(tag, grace_s=1.0)), left


@pytest.mark.parametrize("include", [frozenset({"pkg"}), None], ids=["distribution", "repository"])
def test_a_distributions_test_suite_is_not_indexed(tmp_path: Path, include: frozenset[str] | None) -> None:
    """A site dir holding `pkg/` with `pkg/tests/` (passlib's is 40% of its sources): walked as a
    distribution (`include`), the test suite is left out; walked as a repository, it is not."""
    from codehop.index.walk import walk_python_files

    for rel in ("pkg/__init__.py", "pkg/core.py", "pkg/tests/__init__.py", "pkg/tests/test_core.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("X = 1\n")
    got = sorted(sf.rel_path for sf in walk_python_files(tmp_path, include=include))
    tests = ["pkg/tests/__init__.py", "pkg/tests/test_core.py"]
    assert got == ["pkg/__init__.py", "pkg/core.py", *([] if include else tests)]
