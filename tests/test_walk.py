"""The repository walk and its memo: a walk remembered beside the index is replayed with one stat
per directory and per file (no directory listed) while nothing it listed or read changed, and is
otherwise walked again; either way the same files, in the same order, with the same warnings."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from shared import FIXTURES, copy_fixture

from codehop.index.indexer import index_repo
from codehop.index.walk import SourceFile, walk_python_files


def _tree(root: Path) -> Path:
    (root / "pkg" / "sub").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "sub" / "mod.py").write_text("def f():\n    return 1\n")
    (root / "pkg" / "sub" / "gen_out.py").write_text("X = 1\n")
    (root / "pkg" / "locale" / "de" / "LC_MESSAGES").mkdir(parents=True)
    (root / "pkg" / "locale" / "de" / "LC_MESSAGES" / "django.po").write_text("msgid ''\n")
    (root / "docs").mkdir()
    (root / "docs" / "conf.py").write_text("project = 'x'\n")
    (root / "z.py").write_text("")
    return root


def walk(root: Path, memo: Path | None = None) -> tuple[list[SourceFile], list[str], list[tuple[str, int]]]:
    warnings: list[str] = []
    dirs: list[tuple[str, int]] = []
    files = list(walk_python_files(root, warnings, dirs, memo=memo))
    return files, warnings, dirs


def settled() -> None:
    """A walk of a directory changed within a clock tick is not remembered: let the tree settle."""
    time.sleep(0.15)


def remembered(root: Path, tmp_path: Path) -> Path:
    settled()
    memo = tmp_path / "walk-memo.json"
    assert walk(root, memo) == walk(root)
    assert memo.exists()
    return memo


def no_listing(monkeypatch: pytest.MonkeyPatch, root: Path) -> None:
    """Listing a folder of the repository (its index folder aside) fails the test."""
    scandir = os.scandir

    def refuse(path: str) -> object:
        if str(path).startswith(str(root)) and not str(path).endswith(".codehop"):
            raise AssertionError(f"a replay lists no directory ({path})")
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refuse)


def rels(files: list[SourceFile]) -> list[str]:
    return [f.rel_path for f in files]


def test_walk_order_and_rules(tmp_path):  # type: ignore[no-untyped-def]
    root = _tree(tmp_path / "repo")
    (root / ".venv").mkdir()
    (root / ".venv" / "x.py").write_text("")
    (root / "env").mkdir()
    (root / "env" / "pyvenv.cfg").write_text("")
    (root / "env" / "y.py").write_text("")
    (root / "pkg" / ".gitignore").write_text("gen_*.py\n")
    files, warnings, dirs = walk(root)
    assert rels(files) == ["z.py", "docs/conf.py", "pkg/__init__.py", "pkg/sub/mod.py"]  # files, then folders
    assert warnings == []
    watched = {os.path.relpath(d, root) for d, _ in dirs}
    assert watched == {".", "docs", "pkg", "pkg/sub"}


def test_a_remembered_walk_is_replayed_without_listing(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    root = _tree(tmp_path / "repo")
    memo = remembered(root, tmp_path)
    expected = walk(root)
    (root / "pkg" / "sub" / "mod.py").write_text("def f():\n    return 22\n")  # an edit: one stat sees it
    expected = walk(root)
    no_listing(monkeypatch, root)
    assert walk(root, memo) == expected


@pytest.mark.parametrize(
    "change",
    [
        "new file in a data-only leaf",
        "file removed",
        "folder renamed",
        "gitignore edited",
        "codehopignore added",
        "virtualenv marker added",
    ],
)
def test_any_change_a_walk_would_see_is_walked_again(tmp_path, change):  # type: ignore[no-untyped-def]
    root = _tree(tmp_path / "repo")
    (root / "pkg" / ".gitignore").write_text("nothing_matches_*.py\n")
    memo = remembered(root, tmp_path)
    before = rels(walk(root, memo)[0])
    if change == "new file in a data-only leaf":
        (root / "pkg" / "locale" / "de" / "LC_MESSAGES" / "late.py").write_text("")
    elif change == "file removed":
        (root / "pkg" / "sub" / "mod.py").unlink()
    elif change == "folder renamed":
        (root / "docs").rename(root / "docs2")
    elif change == "gitignore edited":  # same folder, same entries: only the file's own times move
        (root / "pkg" / ".gitignore").write_text("gen_*.py\n")
    elif change == "codehopignore added":
        (root / ".codehopignore").write_text("docs/\n")
    elif change == "virtualenv marker added":
        (root / "docs" / "pyvenv.cfg").write_text("")
    after = walk(root, memo)
    assert after == walk(root)
    assert rels(after[0]) != before


def test_what_is_not_remembered(tmp_path):  # type: ignore[no-untyped-def]
    """A walk that warned (a file may become readable), met a symlinked file (its target may move
    with a change elsewhere) or saw a folder changed within a clock tick is not remembered."""
    root = _tree(tmp_path / "repo")
    memo = tmp_path / "walk-memo.json"
    assert walk(root, memo) == walk(root) and not memo.exists()  # just made
    settled()
    walk(root, memo)
    assert memo.exists()
    (root / "link.py").symlink_to(root / "z.py")
    settled()
    walk(root, memo)
    assert not memo.exists()
    (root / "link.py").unlink()
    (root / "bad.py").symlink_to(tmp_path / "outside.py")
    (tmp_path / "outside.py").write_text("")
    settled()
    files, warnings, _ = walk(root, memo)
    assert warnings and not memo.exists()


def test_a_root_that_cannot_be_listed_is_not_remembered(tmp_path):  # type: ignore[no-untyped-def]
    memo = tmp_path / "walk-memo.json"
    assert walk(tmp_path / "gone", memo) == ([], [], [])
    assert not memo.exists()


def test_a_memo_of_another_tree_or_a_damaged_memo_is_ignored(tmp_path):  # type: ignore[no-untyped-def]
    root = _tree(tmp_path / "repo")
    memo = remembered(root, tmp_path)
    other = tmp_path / "other"
    shutil.copytree(root, other)
    assert walk(other, memo) == walk(other)
    memo.write_text('{"head": [')
    assert walk(root, memo) == walk(root)


def test_the_index_replays_on_fixtures(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    """Each fixture repository: the replayed index run finds what the walk found."""
    for fixture in ("gitignore", "hostile", "reexport_chain"):
        repo = copy_fixture(FIXTURES / fixture, tmp_path / fixture)
        store, first = index_repo(repo)
        store.close()
        settled()
        store, walked = index_repo(repo)
        store.close()
        assert (repo / ".codehop" / "walk-memo.json").exists()
        with monkeypatch.context() as m:
            no_listing(m, repo)
            store, replayed = index_repo(repo)
            store.close()
        assert replayed.files == walked.files == first.files and replayed.parsed == 0
        assert replayed.stamp == walked.stamp
        assert replayed.warnings == walked.warnings
