"""A repository is data: codehop writes, renames and reads nothing outside it (issue 29).

Every case runs the real `codehop` command in a subprocess on a copy of `fixtures_repos/reexport_chain`
(`shop/api/cart.py:4` declares `Cart`) into which a hostile link or file is planted, and checks
what happened on disk outside the repository.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest


def codehop(*args: str, cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CODEHOP_INDEX_DIR"}
    return subprocess.run(
        [sys.executable, "-m", "codehop", *args], capture_output=True, text=True, timeout=timeout, cwd=cwd, env=env
    )


def _tree(folder: Path) -> dict[str, tuple[int, int, bytes]]:
    """Every file under `folder`: (inode, mtime, first bytes): what a stray write or rename would change."""
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_file() and not p.is_symlink():
            st = p.stat()
            out[str(p.relative_to(folder))] = (st.st_ino, st.st_mtime_ns, p.read_bytes()[:200])
    return out


def _rollback_sqlite(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x)")
    conn.execute("INSERT INTO t VALUES (1)")
    conn.commit()
    conn.close()


@pytest.mark.slow
def test_a_codehop_folder_linked_elsewhere_is_refused(fixture_repo, tmp_path):  # type: ignore[no-untyped-def]
    """`.codehop` -> another folder holding an `index.db`: nothing written there, nothing renamed, exit 3."""
    repo = fixture_repo("reexport_chain")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "index.db").write_bytes(b"not an index, someone's file")
    (elsewhere / "notes.txt").write_text("keep")
    before = _tree(elsewhere)
    (repo / ".codehop").symlink_to(elsewhere)
    for args in (("index", str(repo)), ("ask", "Where is `Cart` defined?", "--repo", str(repo))):
        out = codehop(*args)
        assert out.returncode == 3, out.stderr
        assert "symbolic link" in out.stderr and ".codehop" in out.stderr
        assert _tree(elsewhere) == before
        assert sorted(p.name for p in elsewhere.iterdir()) == ["index.db", "notes.txt"]


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["index.db", "index.db-wal", "index.db-shm", "index.db-verified", "walk-memo.json"], ids=str
)
def test_an_index_file_linked_elsewhere_is_refused(fixture_repo, tmp_path, name):  # type: ignore[no-untyped-def]
    """`.codehop/<name>` -> a file outside (another repository's index, an unrelated SQLite file in
    rollback mode): the file is neither overwritten, renamed nor switched to WAL; exit 3."""
    repo = fixture_repo("reexport_chain")
    other = tmp_path / "other"
    other.mkdir()
    _rollback_sqlite(other / "data.db")
    before = _tree(other)
    (repo / ".codehop").mkdir()
    (repo / ".codehop" / name).symlink_to(other / "data.db")
    out = codehop("index", str(repo))
    assert out.returncode == 3, out.stderr
    assert "symbolic link" in out.stderr and name in out.stderr
    assert _tree(other) == before
    assert (other / "data.db").read_bytes()[18:20] == b"\x01\x01"  # still a rollback-journal database


@pytest.mark.slow
def test_a_fifo_planted_as_the_index_is_refused_without_blocking(fixture_repo):  # type: ignore[no-untyped-def]
    repo = fixture_repo("reexport_chain")
    (repo / ".codehop").mkdir()
    os.mkfifo(repo / ".codehop" / "index.db")
    out = codehop("index", str(repo), timeout=60)
    assert out.returncode == 3, out.stderr
    assert "not a regular file" in out.stderr
