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


# ---- ignore files: read only when regular, inside, small; matched in linear time ----------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "plant", "says"),
    [
        (".gitignore", lambda p, out: p.symlink_to(out), "leaving the repository"),
        (".codehopignore", lambda p, out: p.symlink_to("/dev/zero"), "leaving the repository"),
        (".gitignore", lambda p, out: os.mkfifo(p), "not a regular file"),
        (".codehopignore", lambda p, out: p.write_bytes(b"#" * (1 << 20) + b"\n"), "1048576-byte cap"),
    ],
    ids=["link-out", "dev-zero", "fifo", "over-cap"],
)
def test_an_ignore_file_that_may_not_be_read_is_refused(fixture_repo, tmp_path, name, plant, says):  # type: ignore[no-untyped-def]
    """A `.gitignore` linked to a file outside (never opened: its atime stays), to /dev/zero, a FIFO,
    or a `.codehopignore` over 1 MiB: exit 2 naming the file, in seconds, nothing read."""
    repo = fixture_repo("reexport_chain")
    outside = tmp_path / "secret.txt"
    outside.write_text("*.py\n")
    os.utime(outside, ns=(1_000_000_000, 1_000_000_000))
    plant(repo / "shop" / name if name == ".gitignore" else repo / name, outside)
    out = codehop("index", str(repo), timeout=60)
    assert out.returncode == 2, out.stderr
    assert name in out.stderr and says in out.stderr, out.stderr
    assert outside.stat().st_atime_ns == 1_000_000_000  # never opened


@pytest.mark.slow
def test_a_link_to_an_ignore_file_inside_is_read(fixture_repo):  # type: ignore[no-untyped-def]
    repo = fixture_repo("reexport_chain")
    (repo / "rules.txt").write_text("app.py\n")
    (repo / ".gitignore").symlink_to("rules.txt")
    out = codehop("index", str(repo), "--json")
    assert out.returncode == 0, out.stderr
    assert '"files": 4' in out.stdout


@pytest.mark.slow
def test_a_pathological_pattern_is_matched_in_linear_time(fixture_repo):  # type: ignore[no-untyped-def]
    """`*a*a*a*a*a*a*a*a*a*a*a*a*b` against a folder named with 32 a's: 13 s with a backtracking
    matcher, here a whole `codehop index` in well under its 20 s timeout (the match itself: µs)."""
    repo = fixture_repo("reexport_chain")
    (repo / ".gitignore").write_text("*a*a*a*a*a*a*a*a*a*a*a*a*b\n")
    deep = repo / ("a" * 32) / ("a" * 40)
    deep.mkdir(parents=True)
    (deep / "mod.py").write_text("X = 1\n")
    (repo / ("a" * 31 + "b")).mkdir()
    (repo / ("a" * 31 + "b") / "gone.py").write_text("Y = 1\n")
    out = codehop("index", str(repo), "--json", timeout=20)
    assert out.returncode == 0, out.stderr
    assert '"files": 6' in out.stdout  # the five of the fixture and mod.py; gone.py ignored


_GIT_CASES = [
    ["*.py", "!keep.py"],
    ["build/", "a/**/b", "!a/x/y/b"],
    ["/top.py", "docs/*.py", "[a-c]z.py"],
    ["*", "!*/", "!*.py", "sub/*", "!sub/keep.py"],
    ["gen/**", "**/deep/*.py", "x?y.py", "lit[.py"],
    ["a*b*c.py", "[!a]x.py", "\\#hash.py", "trail.py   "],
]
_GIT_PATHS = [
    "a.py", "build/x.py", "src/build/y.py", "docs/a.py", "docs/sub/a.py", "a/b/c.py", "a/x/y/b/c.py", "gen/z.py",
    "q/gen/z.py", "keep.py", "xzy.py", "bx.py", "ax.py", "azbzc.py", "deep/q.py", "w/deep/q.py", "#hash.py",
    "trail.py", "sub/keep.py", "sub/o.py", "bz.py", "lit[.py", "top.py", "s/top.py",
]  # fmt: skip


@pytest.mark.parametrize("patterns", _GIT_CASES, ids=lambda p: " ".join(p))
def test_ignore_patterns_agree_with_git(tmp_path, patterns):  # type: ignore[no-untyped-def]
    """The matcher against git itself (`git status --ignored`), file by file, folders pruned as the walk does."""
    from codehop.index.ignore import IgnoreSpec

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("\n".join(patterns) + "\n")
    for rel in _GIT_PATHS:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    status = subprocess.run(
        ["git", "-C", str(tmp_path), "status", "--porcelain", "--untracked-files=all"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    shown = {line[3:] for line in status.splitlines()}
    spec = IgnoreSpec(patterns)
    for rel in _GIT_PATHS:
        names = rel.split("/")
        ours = any(spec.match("/".join(names[:i]), True) for i in range(1, len(names))) or spec.match(rel, False)
        assert ours == (rel not in shown), rel
