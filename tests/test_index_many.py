"""`codehop index-many`: many trees, one index each, on the local pool and on a local Ray instance.

Fixtures: copies of `fixtures_repos/reexport_chain`, `inherited_member` and `inherited_config`
under tmp_path (indexes are written inside each repository), plus a generated repository large
enough that its index outgrows a file-size limit (tests/crash_helpers.py's modules). Every test
runs the real CLI as a process; the indexes are then opened by the real `codehop.ask`.
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

import codehop
from tests.crash_helpers import module_text

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures_repos"
ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow

QUESTIONS = {
    "reexport_chain": ("Where is `Cart` defined?", "shop/api/cart.py"),
    "inherited_member": ("Which `send` does `MockTransport` use?", "transport/http.py"),
    "inherited_config": ("What is `ProdSettings.retries`?", "config/appsettings.py"),
}


def _copy(tmp_path: Path, *names: str) -> list[Path]:
    out = []
    for name in names:
        dest = tmp_path / name
        shutil.copytree(FIXTURES / name, dest, ignore=shutil.ignore_patterns(".codehop", "__pycache__"))
        out.append(dest)
    return out


def _big_repo(root: Path, modules: int = 120) -> Path:
    for i in range(modules):
        rel = f"pkg{i // 20}/mod{i % 20}.py"
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        (path.parent / "__init__.py").touch()
        path.write_text(module_text(rel, i))
    return root


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    env.pop("VIRTUAL_ENV", None)
    return env


def _run(*args: str, fsize: int | None = None, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    def limit() -> None:  # a real failure mid-write: past `fsize` bytes a write fails with EFBIG
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    return subprocess.run(
        [sys.executable, "-m", "codehop", "index-many", *args],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=timeout,
        preexec_fn=limit,
        stdin=subprocess.DEVNULL,
    )


def _answers(repo: Path, index_dir: Path | None = None) -> None:
    question, path = QUESTIONS[repo.name]
    answer = codehop.ask(question, repo=str(repo), index_dir=str(index_dir) if index_dir else None).to_dict()
    assert any(item["path"] == path for item in answer["context"]), (question, answer["context"])


def test_local_pool_indexes_each_repository(tmp_path: Path) -> None:
    """Three fixture repositories on a pool of two processes: one index each, inside each
    repository, and each answers its own question."""
    repos = _copy(tmp_path, *QUESTIONS)
    done = _run(*map(str, repos), "--jobs", "2", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["ok"] and out["backend"] == "local"
    by_path = {r["path"]: r for r in out["repositories"]}
    assert set(by_path) == {str(r) for r in repos}
    for repo in repos:
        row = by_path[str(repo)]
        assert row["ok"] and row["error"] == "" and row["files"] > 0
        assert row["index"] == str(repo / ".codehop" / "index.db")
        assert Path(row["index"]).is_file()
        assert not list((repo / ".codehop").glob(".building-*"))
        _answers(repo)
    assert "3/3" in done.stderr  # progress goes to stderr, stdout is the JSON


def test_out_folder_and_rerun(tmp_path: Path) -> None:
    """--out keeps every index in one folder, one subfolder each; a second run re-parses nothing."""
    repos = _copy(tmp_path, "reexport_chain", "inherited_member")
    out_dir = tmp_path / "indexes"
    first = json.loads(_run(*map(str, repos), "--out", str(out_dir), "--json").stdout)
    second = _run(*map(str, repos), "--out", str(out_dir), "--json", "--jobs", "1")
    assert second.returncode == 0, second.stderr
    rows = json.loads(second.stdout)["repositories"]
    assert [r["parsed"] for r in rows] == [0, 0]
    assert sorted(r["index"] for r in rows) == sorted(r["index"] for r in first["repositories"])
    for repo, row in zip(repos, sorted(rows, key=lambda r: r["path"]), strict=True):
        assert Path(row["index"]).parent.parent == out_dir
        assert not (repo / ".codehop").exists()
        _answers(repo, Path(row["index"]).parent)


def test_bad_input_is_named(tmp_path: Path) -> None:
    """A missing path and a file are refused before anything is indexed (exit 2), both named."""
    repo = _copy(tmp_path, "reexport_chain")[0]
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x")
    done = _run(str(repo), str(tmp_path / "missing"), str(a_file))
    assert done.returncode == 2
    assert "missing" in done.stderr and "notes.txt" in done.stderr and "not a directory" in done.stderr
    assert not (repo / ".codehop").exists()  # nothing made before every name is checked
    nothing = _run()
    assert nothing.returncode == 2 and "nothing to index" in nothing.stderr


def test_a_failing_repository_leaves_no_index_and_does_not_stop_the_others(tmp_path: Path) -> None:
    """Under a 1 MB file-size limit the generated repository's index fails mid-write (EFBIG):
    that task leaves no index.db and no build folder, a sound older index of it stays byte for
    byte, the two small repositories are indexed, and the exit code says one failed."""
    small = _copy(tmp_path, "reexport_chain", "inherited_member")
    big = _big_repo(tmp_path / "big")
    out_dir = tmp_path / "indexes"
    done = _run(*map(str, [*small, big]), "--out", str(out_dir), "--json", "--jobs", "1", fsize=1 << 20)
    assert done.returncode == 1, done.stderr
    rows = {Path(r["path"]).name: r for r in json.loads(done.stdout)["repositories"]}
    assert not rows["big"]["ok"] and rows["big"]["error"] and rows["big"]["index"] == ""
    assert rows["reexport_chain"]["ok"] and rows["inherited_member"]["ok"]
    # the write's own error is named, not only the failed rollback after it
    assert any(w in rows["big"]["error"] for w in ("disk I/O error", "disk is full", "too large"))
    (big_dir,) = (p for p in out_dir.iterdir() if p.name.startswith("big-"))
    assert list(big_dir.iterdir()) == []  # no index.db, no build folder
    for repo in small:
        _answers(repo, Path(rows[repo.name]["index"]).parent)
    assert "failed" in done.stderr

    # a sound index of the big repository exists; a failing rebuild leaves it as it was
    ok = _run(str(big), "--out", str(out_dir), "--json")
    assert ok.returncode == 0, ok.stderr
    index = Path(json.loads(ok.stdout)["repositories"][0]["index"])
    before = hashlib.sha256(index.read_bytes()).hexdigest()
    for path in big.rglob("mod*.py"):
        path.write_text(path.read_text() + "\nEXTRA = 1\n" * 50)
    again = _run(str(big), "--out", str(out_dir), "--json", fsize=index.stat().st_size + (64 << 10))
    assert again.returncode == 1
    assert hashlib.sha256(index.read_bytes()).hexdigest() == before
    assert not list(index.parent.glob(".building-*"))


def test_installed_distribution(tmp_path: Path) -> None:
    """--dist indexes an installed distribution's own top-level packages (pathspec, a dependency
    of codehop) from the interpreter named by --python, into --out; an unknown name is exit 2."""
    out_dir = tmp_path / "indexes"
    done = _run("--dist", "pathspec", "--python", sys.executable, "--out", str(out_dir), "--json")
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(done.stdout)["repositories"]
    assert row["ok"] and row["path"].startswith("pathspec==") and row["files"] > 3
    assert Path(row["index"]).is_file() and Path(row["index"]).parent.parent == out_dir
    bad = _run("--dist", "no-such-distribution-here", "--python", sys.executable)
    assert bad.returncode == 2 and "no-such-distribution-here" in bad.stderr


def test_local_ray_instance(tmp_path: Path) -> None:
    """--ray local: a private Ray instance of one CPU runs each repository as a Ray task (in a
    Ray worker process, not the CLI's), and the indexes answer. Skipped only without Ray."""
    pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[ray]')")
    repos = _copy(tmp_path, "reexport_chain", "inherited_config")
    done = _run(*map(str, repos), "--ray", "local", "--jobs", "1", "--json", timeout=280)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["backend"] == "ray" and out["ok"]
    for row in out["repositories"]:
        assert row["ok"] and row["files"] > 0 and Path(row["index"]).is_file()
        assert row["worker"] and row["worker"].split(":")[1] != str(out["pid"])
    for repo in repos:
        _answers(repo)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_ray_cluster_by_address(tmp_path: Path) -> None:
    """--ray HOST:PORT joins a running cluster (`ray start --head`, with token authentication as
    Ray 2.59+ starts it): the repositories are indexed by that cluster's workers and answer; a
    refused token is exit 2 with a message that says what Ray needs. Skipped only without Ray."""
    pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[ray]')")
    port = _free_port()
    token = hashlib.sha256(os.urandom(16)).hexdigest()
    env = {**_env(), "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token, "RAY_USAGE_STATS_ENABLED": "0"}
    head = subprocess.Popen(
        [sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--block", "--port", str(port)]
        + ["--num-cpus", "1", "--include-dashboard=false", "--disable-usage-stats"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        start_new_session=True,  # its own process group: the head and every process it starts
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            assert head.poll() is None and time.monotonic() < deadline, "the Ray head did not start"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.5)
        repos = _copy(tmp_path, "reexport_chain", "inherited_member")
        done = subprocess.run(
            [sys.executable, "-m", "codehop", "index-many", *map(str, repos), "--ray", f"127.0.0.1:{port}", "--json"],
            capture_output=True,
            text=True,
            env=env,
            timeout=240,
        )
        assert done.returncode == 0, done.stderr
        out = json.loads(done.stdout)
        assert out["backend"] == "ray" and out["ok"]
        for row in out["repositories"]:
            assert row["ok"] and row["worker"].split(":")[1] != str(out["pid"])
        for repo in repos:
            _answers(repo)
        other = _copy(tmp_path / "other", "inherited_config")[0]
        refused = subprocess.run(
            [sys.executable, "-m", "codehop", "index-many", str(other), "--ray", f"127.0.0.1:{port}"],
            capture_output=True,
            text=True,
            env={**env, "RAY_AUTH_TOKEN": "0" * 64},
            timeout=240,
        )
        assert refused.returncode == 2 and "RAY_AUTH_MODE=token" in refused.stderr, refused.stderr[-2000:]
        assert not (other / ".codehop" / "index.db").exists()
    finally:
        os.killpg(head.pid, signal.SIGKILL)
        head.wait()
        # `ray start` names its cluster in the Ray temp folder for later `ray.init()` calls: a
        # killed head leaves that file naming a dead address
        for folder in {Path("/tmp/ray"), Path(tempfile.gettempdir()) / "ray"}:
            named = folder / "ray_current_cluster"
            if named.is_file() and named.read_text().strip().endswith(f":{port}"):
                named.unlink()


def test_a_killed_run_leaves_no_index(tmp_path: Path) -> None:
    """SIGKILL in the middle of a build (its SQLite file is being written): the index folder holds
    no index.db, only the build folder; the next run removes that folder and builds the index."""
    big = _big_repo(tmp_path / "big", modules=600)
    out_dir = tmp_path / "indexes"
    proc = subprocess.Popen(
        [sys.executable, "-m", "codehop", "index-many", str(big), "--out", str(out_dir), "--jobs", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=_env(),
        start_new_session=True,  # its own process group: the CLI and its parse workers
    )
    try:
        deadline = time.monotonic() + 120
        while not list(out_dir.glob("big-*/.building-*/index.db*")) and proc.poll() is None:
            assert time.monotonic() < deadline, "the build never started"
            time.sleep(0.01)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the run finished before it could be killed; grow the repository"
    (index_dir,) = out_dir.glob("big-*")
    assert not (index_dir / "index.db").exists()
    assert [p.name.startswith(".building-") for p in index_dir.iterdir()] == [True]
    again = _run(str(big), "--out", str(out_dir), "--json")
    assert again.returncode == 0, again.stderr
    assert sorted(p.name for p in index_dir.iterdir()) == ["index.db"]


def test_unreachable_ray_cluster_is_named(tmp_path: Path) -> None:
    """--ray HOST:PORT where nothing listens is exit 2 at once (Ray itself would retry for minutes)."""
    pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[ray]')")
    repo = _copy(tmp_path, "reexport_chain")[0]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    done = _run(str(repo), "--ray", f"127.0.0.1:{port}", timeout=60)
    assert done.returncode == 2 and "cannot reach the Ray cluster" in done.stderr
    assert not (repo / ".codehop" / "index.db").exists()
