"""`codehop index` reads every page of the index only when the file changed since its last
passing check: the check is remembered beside the file (inode, size, mtime, ctime of the file and
its WAL). A file damaged, truncated or replaced after a verified run is still found and moved
aside; a query that met a database error, and doctor, read every page whatever was remembered."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

from click.testing import CliRunner

from codehop.frontends.cli import main
from codehop.index.indexer import index_repo
from codehop.index.store.schema import _memo_key, damage


def verified(fixture_repo) -> tuple[Path, Path]:  # type: ignore[no-untyped-def]
    """hostile/ indexed, then checked by `codehop index` once its last write is old enough to be
    remembered (a write within a clock tick of the check is checked again instead)."""
    repo = fixture_repo("hostile")
    store, _ = index_repo(repo)
    store.close()
    db = repo / ".codehop" / "index.db"
    time.sleep(0.25)
    result = CliRunner().invoke(main, ["index", str(repo), "--json"])
    assert result.exit_code == 0, result.output
    memo = Path(str(db) + "-verified")
    assert memo.exists(), "a passing check of a settled file is remembered"
    return repo, db


def index_cli(repo: Path) -> str:
    result = CliRunner().invoke(main, ["index", str(repo)])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_file_damaged_after_a_verified_run_is_still_found(fixture_repo):
    """Zeros written into the middle with its size and mtime put back: its ctime moved, so the
    pages are read again, the damage found, the file moved aside and rebuilt."""
    repo, db = verified(fixture_repo)
    st = db.stat()
    with open(db, "r+b") as fh:
        fh.seek(st.st_size // 2 // 4096 * 4096)
        fh.write(b"\0" * 32768)
    os.utime(db, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert db.stat().st_size == st.st_size and db.stat().st_mtime_ns == st.st_mtime_ns
    out = index_cli(repo)
    assert "damaged" in out and "moved aside" in out
    assert list((repo / ".codehop").glob("index.db.corrupt-*"))
    assert damage(db) is None


def test_a_file_truncated_after_a_verified_run_is_still_found(fixture_repo):
    repo, db = verified(fixture_repo)
    with open(db, "r+b") as fh:
        fh.truncate(db.stat().st_size - 100)
    assert "moved aside" in index_cli(repo)


def test_a_file_replaced_after_a_verified_run_is_still_found(fixture_repo, tmp_path):
    """Another file of the same size and mtime moved in (another inode), its pages damaged."""
    repo, db = verified(fixture_repo)
    st = db.stat()
    other = tmp_path / "other.db"
    shutil.copy(db, other)
    with open(other, "r+b") as fh:
        fh.seek(st.st_size // 2 // 4096 * 4096)
        fh.write(b"\0" * 32768)
    os.utime(other, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(other, db)
    assert "moved aside" in index_cli(repo)


def test_what_is_remembered_is_skipped_only_by_the_index_command(fixture_repo):
    """The memo is trusted while the file is the one checked (here made to vouch for a damaged
    file, which only bit rot under unchanged times could do): `codehop index` skips the page
    check, while a plain `damage()` (a query's repair, doctor) reads every page and finds it."""
    repo, db = verified(fixture_repo)
    with open(db, "r+b") as fh:
        fh.seek(db.stat().st_size // 2 // 4096 * 4096)
        fh.write(b"\0" * 32768)
    Path(str(db) + "-verified").write_text(" ".join(map(str, _memo_key(db))))
    assert damage(db, remember=True) is None
    assert damage(db) is not None


def test_a_changed_index_is_checked_again(fixture_repo):
    repo, db = verified(fixture_repo)
    memo = Path(str(db) + "-verified")
    (repo / "added.py").write_text("def added():\n    return 1\n")
    report = json.loads(CliRunner().invoke(main, ["index", str(repo), "--json"]).output)
    assert report["parsed"] == 1
    # the update wrote the file after this run's check: what is remembered no longer vouches for it
    assert memo.read_text().split() != [str(v) for v in _memo_key(db)]
    time.sleep(0.25)
    index_cli(repo)
    assert memo.read_text().split() == [str(v) for v in _memo_key(db)]


def test_a_check_within_a_clock_tick_of_a_write_is_not_remembered(fixture_repo):
    """A write landing in the same tick of the filesystem clock as the last one could leave every
    time as it was: a file changed just before its check is checked again next time."""
    repo, db = verified(fixture_repo)
    memo = Path(str(db) + "-verified")
    os.utime(db)  # its ctime is now
    assert damage(db, remember=True) is None
    assert not memo.exists()
    time.sleep(0.25)
    assert damage(db, remember=True) is None
    assert memo.exists()
