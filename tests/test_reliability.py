"""Reliability: where the index lives, what happens when it is damaged or replaced, and every
user mistake a clear message with the README's exit code (0 ok, 2 bad input, 3 index, 4 language
server). Real SQLite files, real subprocesses; "unwritable" and "unreadable" are made real by
running codehop without the capabilities that let root ignore permission bits."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from shared import FIXTURES, copy_fixture

from codehop.app import App
from codehop.frontends.cli import main
from codehop.index.indexer import index_repo, repo_key
from codehop.index.store.schema import damage
from codehop.kernel.errors import IndexSchemaError

PROJECT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.timeout(180)


def run(*args: str, env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, list(args), env=env)


def plain_user(argv: list[str]) -> list[str]:
    """`argv` run so that file permission bits apply (root without DAC override), or skip."""
    if os.geteuid() != 0:
        return argv
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv is needed to drop root's permission override")
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *argv]


def codehop_proc(args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "PYTHONPATH": str(PROJECT), **(env or {})}
    full_env.pop("CODEHOP_INDEX_DIR", None) if "CODEHOP_INDEX_DIR" not in (env or {}) else None
    return subprocess.run(
        plain_user([sys.executable, "-m", "codehop", *args]), capture_output=True, text=True, timeout=120, env=full_env
    )


# ---- fixtures are copied clean ---------------------------------------------------------------
def test_fixture_copy_leaves_the_index_folder_behind(tmp_path):
    """The README's first command leaves reexport_chain/.codehop/; a copy must not carry it."""
    src = tmp_path / "src"
    copy_fixture(FIXTURES / "reexport_chain", src)
    (src / ".codehop").mkdir()
    (src / ".codehop" / "index.db").write_bytes(b"stale")
    dest = copy_fixture(src, tmp_path / "dest")
    assert (dest / "shop").is_dir() and not (dest / ".codehop").exists()


# ---- index location --------------------------------------------------------------------------
@pytest.mark.slow
def test_read_only_repository_falls_back_to_the_user_cache(fixture_repo, tmp_path):
    """aliases/, made read-only: `ask` answers (exit 0) from $XDG_CACHE_HOME/codehop/repos/<key>/
    and says so in one line on stderr; nothing is written in the repository."""
    repo = fixture_repo("aliases")
    cache = tmp_path / "cache"
    cache.mkdir()
    for d, _, _ in os.walk(repo):
        os.chmod(d, 0o555)
    try:
        proc = codehop_proc(["ask", "What is `Client`?", "--repo", str(repo)], {"XDG_CACHE_HOME": str(cache)})
    finally:
        for d, _, _ in os.walk(repo):
            os.chmod(d, 0o755)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    notes = [line for line in proc.stderr.splitlines() if line.startswith("note:")]
    assert len(notes) == 1 and "cannot write" in notes[0], proc.stderr
    assert (cache / "codehop" / "repos" / repo_key(repo.resolve()) / "index.db").is_file()
    assert not (repo / ".codehop").exists()


def test_repository_that_cannot_hold_the_folder_falls_back(fixture_repo, tmp_path, monkeypatch):
    """aliases/ with a plain file named `.codehop`: the index goes to the user cache, with a note."""
    repo = fixture_repo("aliases")
    (repo / ".codehop").write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("CODEHOP_INDEX_DIR", raising=False)
    _, report = index_repo(repo)
    assert report.index_path.startswith(str(tmp_path / "cache" / "codehop" / "repos"))
    assert report.note.startswith("note: cannot write") and report.files == 3


@pytest.mark.parametrize("how", ["file", "env-file"], ids=["index-dir-is-a-file", "env-under-a-file"])
def test_named_index_location_that_cannot_be_used_exits_3(fixture_repo, tmp_path, how):
    repo = fixture_repo("aliases")
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    if how == "file":
        result = run("index", str(repo), "--index-dir", str(blocker))
        named = "--index-dir"
    else:
        result = run("ask", "What is `Client`?", "--repo", str(repo), env={"CODEHOP_INDEX_DIR": str(blocker)})
        named = "CODEHOP_INDEX_DIR"
    assert result.exit_code == 3, result.output
    assert named in result.output and "writable" in result.output
    assert not isinstance(result.exception, (FileExistsError, NotADirectoryError))


@pytest.mark.slow
def test_unwritable_index_dir_exits_3(fixture_repo, tmp_path):
    repo = fixture_repo("aliases")
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o555)
    proc = codehop_proc(["index", str(repo)], {"CODEHOP_INDEX_DIR": str(shared)})
    assert proc.returncode == 3, proc.stderr
    assert "CODEHOP_INDEX_DIR" in proc.stderr and "Traceback" not in proc.stderr


def test_shared_index_dir_keeps_one_folder_per_repository(fixture_repo, tmp_path, monkeypatch):
    """Two repositories under one CODEHOP_INDEX_DIR: switching between them parses nothing again."""
    monkeypatch.setenv("CODEHOP_INDEX_DIR", str(tmp_path / "shared"))
    one, two = fixture_repo("aliases"), fixture_repo("reexport_chain")
    _, r1 = index_repo(one)
    _, r2 = index_repo(two)
    assert r1.index_path != r2.index_path and r1.parsed and r2.parsed
    again1 = index_repo(one)[1]
    again2 = index_repo(two)[1]
    assert (again1.parsed, again2.parsed, again1.rebuilt, again2.rebuilt) == (0, 0, False, False)
    assert sorted(p.name for p in (tmp_path / "shared").iterdir()) == sorted(
        [repo_key(one.resolve()), repo_key(two.resolve())]
    )


# ---- damage ----------------------------------------------------------------------------------
def zero_middle(db: Path, nbytes: int = 32768) -> None:
    size = db.stat().st_size
    page = 4096
    with open(db, "r+b") as fh:
        fh.seek(max(page, (size // 2) // page * page))
        fh.write(b"\0" * min(nbytes, size - page))


def indexed(fixture_repo, name: str = "hostile") -> Path:  # type: ignore[no-untyped-def]
    repo = fixture_repo(name)
    store, _ = index_repo(repo)
    store.close()
    return repo


def test_index_command_checks_and_rebuilds_a_damaged_index(fixture_repo):
    """hostile/ (enough pages to damage one in the middle): `codehop index` notices, moves the
    file aside and rebuilds every file; doctor's advice before was exactly that command."""
    repo = indexed(fixture_repo)
    db = repo / ".codehop" / "index.db"
    files = json.loads(run("index", str(repo), "--json").output)["files"]
    zero_middle(db)
    assert damage(db) is not None
    doctor = run("doctor", "--repo", str(repo), "--json")
    index_check = next(c for c in json.loads(doctor.output) if c["name"] == "index")
    assert not index_check["ok"] and index_check["fix"].startswith(f"run: codehop index {repo.resolve()}")
    result = run("index", str(repo))
    assert result.exit_code == 0, result.output
    assert "damaged" in result.output and "moved aside" in result.output
    assert list((repo / ".codehop").glob("index.db.corrupt-*"))
    assert damage(db) is None
    report = json.loads(run("index", str(repo), "--json").output)
    assert report["files"] == files and report["parsed"] == 0


def zero_table(db: Path, table: str) -> None:
    """Overwrite every page of one table with zeros (the file still opens; reading it fails)."""
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    pages = [p for (p,) in conn.execute("SELECT pageno FROM dbstat WHERE name=?", (table,))]
    conn.close()
    assert pages
    with open(db, "r+b") as fh:
        for p in pages:
            fh.seek((p - 1) * page_size)
            fh.write(b"\0" * page_size)


def test_a_query_meeting_a_damaged_index_rebuilds_and_retries_once(fixture_repo):
    """reexport_chain/ with the full-text table's pages zeroed: `search` meets "malformed", moves
    the file aside, rebuilds, and answers (exit 0, real hits, one line on stderr)."""
    repo = indexed(fixture_repo, "reexport_chain")
    db = repo / ".codehop" / "index.db"
    zero_table(db, "chunks_fts_data")
    result = run("search", "Cart", "--repo", str(repo), "--json")
    assert result.exit_code == 0, result.output
    assert any(hit["qualname"].endswith("Cart") for hit in json.loads(result.stdout))
    assert "damaged" in result.stderr
    assert list((repo / ".codehop").glob("index.db.corrupt-*"))
    assert list((repo / ".codehop").glob("index.db.*-*"))


def test_long_running_app_notices_a_replaced_or_deleted_index(fixture_repo):
    """reexport_chain/: an App (as the MCP and LSP servers keep one) whose index file is deleted,
    then replaced by another repository's, answers from the right index after refresh()."""
    repo = indexed(fixture_repo, "reexport_chain")
    app = App(repo)
    assert app.store.chunks_named("shop.api.cart.Cart")
    db = repo / ".codehop" / "index.db"
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    app.refresh()
    assert db.exists() and app.store.chunks_named("shop.api.cart.Cart")
    other = indexed(fixture_repo, "aliases")
    app.store.close()
    os.replace(other / ".codehop" / "index.db", db)
    app.refresh()
    assert app.store.chunks_named("shop.api.cart.Cart"), "a foreign index must be noticed and rebuilt"
    app.close()


def test_mcp_workspace_forgets_a_file_deleted_mid_session(fixture_repo):
    """reexport_chain/shop/api/cart.py deleted between two MCP calls: the second no longer cites it."""
    from codehop.frontends.mcp_server import Workspace, ask_tool

    repo = fixture_repo("reexport_chain")
    ws = Workspace(repo)
    first = ws.run(lambda app: ask_tool(app, "Where is `shop.Cart` defined?", max_loops=1, budget_tokens=2000))
    assert any(c["path"] == "shop/api/cart.py" for c in first["context"])
    (repo / "shop/api/cart.py").unlink()
    second = ws.run(lambda app: ask_tool(app, "Where is `shop.Cart` defined?", max_loops=1, budget_tokens=2000))
    assert all(c["path"] != "shop/api/cart.py" for c in second["context"])
    ws.close()


def test_build_whose_temporary_file_is_deleted_says_so(fixture_repo):
    """hostile/: the build's index.db.tmp-<pid> deleted while files arrive: exit-3 error, no traceback."""
    repo = fixture_repo("hostile")
    idx = repo / ".codehop"

    def delete_tmp(phase: str, done: int, total: int) -> None:
        for p in idx.glob("index.db.tmp-*"):
            p.unlink()

    with pytest.raises(IndexSchemaError, match="deleted while it was written"):
        index_repo(repo, progress=delete_tmp)
    assert not (idx / "index.db").exists()
    _, report = index_repo(repo)  # and the next run simply builds it
    assert report.rebuilt and report.files > 0


# ---- bad input: clear messages and the README's exit codes -------------------------------------
def test_mcp_resolve_with_a_nul_byte_is_a_usage_error(fixture_repo):
    from codehop.frontends.mcp_server import Workspace, resolve_tool
    from codehop.kernel.errors import UsageError

    ws = Workspace(fixture_repo("reexport_chain"))
    for target in ("shop/__init__.py\x00:1", "app.py\x00x:3:0"):
        with pytest.raises(UsageError, match="NUL"):
            ws.run(lambda app: resolve_tool(app, target))  # noqa: B023
    ws.close()


@pytest.mark.slow
def test_resolve_via_lsp_without_a_server_exits_4(fixture_repo):
    repo = fixture_repo("reexport_chain")
    # a server command that is not there (the default one is found beside the interpreter too)
    env = {"PATH": "/nonexistent", "CODEHOP_LANGUAGE_SERVER_COMMAND": "/nonexistent/basedpyright-langserver --stdio"}
    proc = subprocess.run(
        [sys.executable, "-m", "codehop", "resolve", "app.py:3", "--repo", str(repo), "--via", "lsp"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(PROJECT), **env},
    )
    assert proc.returncode == 4, (proc.stdout, proc.stderr)
    assert "language server" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("site", "message"),
    [
        ("shop/api/cart.py:999999", "line 999999 is outside shop/api/cart.py"),
        ("shop/api/nope.py:3", "no such file in the repository: shop/api/nope.py"),
        ("app.py:3:99999", "column 99999 is past the end of app.py:3"),
    ],
    ids=["line-past-end", "missing-file", "column-past-end"],
)
def test_resolve_site_errors_say_what_is_wrong(fixture_repo, site, message):
    result = run("resolve", site, "--repo", str(fixture_repo("reexport_chain")))
    assert result.exit_code == 2 and message in result.output, result.output


@pytest.mark.slow
def test_an_unreadable_file_is_dropped_from_the_index(fixture_repo):
    """reexport_chain/shop/api/cart.py made unreadable after indexing: the next `index` drops it
    (with a warning) and `search` no longer answers from it."""
    repo = indexed(fixture_repo, "reexport_chain")
    cart = repo / "shop/api/cart.py"
    os.chmod(cart, 0)
    try:
        proc = codehop_proc(["index", str(repo), "--json"])
        search = codehop_proc(["search", "Cart", "--repo", str(repo), "--json"])
    finally:
        os.chmod(cart, 0o644)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert any("shop/api/cart.py" in w and "cannot read" in w for w in report["warnings"])
    assert report["deleted"] == 1
    assert all(hit["path"] != "shop/api/cart.py" for hit in json.loads(search.stdout))


@pytest.mark.parametrize("content", [{}, {"README.md": "# notes\n", "data/x.json": "{}"}], ids=["empty", "no-python"])
def test_a_folder_without_python_says_so(tmp_path, content):
    repo = tmp_path / "repo"
    repo.mkdir()
    for rel, text in content.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    for args in (["index", str(repo)], ["ask", "What is `x`?", "--repo", str(repo)]):
        result = run(*args)
        assert result.exit_code == 2, result.output
        assert "no Python files" in result.output


def test_mcp_call_meeting_a_damaged_index_rebuilds_and_answers(fixture_repo):
    """reexport_chain/, MCP workspace warm, then the full-text pages zeroed under it: the next
    `ask` answers (the index moved aside, rebuilt, the call retried once), no internal error."""
    from codehop.frontends.mcp_server import Workspace, ask_tool

    repo = fixture_repo("reexport_chain")
    ws = Workspace(repo)

    def ask(app):  # type: ignore[no-untyped-def]
        return ask_tool(app, "Where is `shop.Cart` defined?", max_loops=1, budget_tokens=2000)

    assert ws.run(ask)["state"] == "complete"
    ws._app.store.close()  # type: ignore[union-attr]  # a fresh connection reads the damaged pages
    zero_table(repo / ".codehop" / "index.db", "chunks_fts_data")
    again = ws.run(ask)
    assert again["state"] == "complete" and any(c["path"] == "shop/api/cart.py" for c in again["context"])
    assert list((repo / ".codehop").glob("index.db.corrupt-*"))
    ws.close()
