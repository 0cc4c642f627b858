"""The tree stamp a warm process checks before each question: what it watches, what it sees."""

from __future__ import annotations

import os

from codehop.index.indexer import index_repo


def _tree(root):  # type: ignore[no-untyped-def]
    (root / "pkg" / "sub").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "sub" / "mod.py").write_text("def f():\n    return 1\n")
    (root / "pkg" / "locale" / "de" / "LC_MESSAGES").mkdir(parents=True)
    (root / "pkg" / "locale" / "de" / "LC_MESSAGES" / "django.po").write_text("msgid ''\n")
    (root / "docs" / "img").mkdir(parents=True)
    (root / "docs" / "img" / "a.png").write_bytes(b"\x89PNG")


def test_stamp_watches_only_directories_that_lead_to_python(tmp_path):  # type: ignore[no-untyped-def]
    root = tmp_path / "repo"
    _tree(root)
    store, report = index_repo(root, index_dir=str(tmp_path / "idx"))
    store.close()
    assert report.stamp is not None
    watched = {os.path.relpath(d, report.root) for d, _ in report.stamp.dirs}
    assert watched == {".", "pkg", os.path.join("pkg", "sub")}


def test_stamp_sees_an_edit_and_a_new_file(tmp_path):  # type: ignore[no-untyped-def]
    root = tmp_path / "repo"
    _tree(root)
    store, report = index_repo(root, index_dir=str(tmp_path / "idx"))
    store.close()
    stamp = report.stamp
    assert stamp is not None and stamp.unchanged()
    (root / "pkg" / "sub" / "new.py").write_text("X = 1\n")
    assert not stamp.unchanged()  # its directory's mtime moved
    store, report = index_repo(root, index_dir=str(tmp_path / "idx"), stamp=stamp)
    store.close()
    assert report.stamp is not None and report.files == 3
    stamp = report.stamp
    mod = root / "pkg" / "sub" / "mod.py"
    mod.write_text("def f():\n    return 22\n")
    os.utime(mod, ns=(1, 1))  # a different mtime whatever the clock's resolution
    assert not stamp.unchanged()
