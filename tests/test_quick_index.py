"""The entry point's quick path: a `codehop index` whose index is current prints what the full
command line prints, without loading click, the records or the store's writers; anything that
would change the index (or warn, or repair) goes to the full command, which says so.

Real processes running the installed entry point's module (`python -m codehop`), real SQLite
files, real fixture copies."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from codehop.frontends.launch import _index_args

pytestmark = pytest.mark.slow


def _codehop(*args: str, cwd: Path | None = None, importtime: bool = False) -> subprocess.CompletedProcess[str]:
    flags = ["-X", "importtime"] if importtime else []
    return subprocess.run(
        [sys.executable, *flags, "-m", "codehop", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def _loaded(stderr: str) -> set[str]:
    """The modules `-X importtime` reported."""
    return {line.rsplit("|", 1)[1].strip() for line in stderr.splitlines() if line.startswith("import time:")}


def _summary(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if not line.startswith("import time:")]


def test_the_parser_takes_only_what_it_knows():
    assert _index_args([]) == (None, None, False)
    assert _index_args(["repo", "--index-dir", "d", "--json"]) == ("repo", "d", True)
    assert _index_args(["--index-dir=d", "repo"]) == ("repo", "d", False)
    # anything else is the full command line's: its options, its help, its errors
    for args in (["--max-file-bytes", "10"], ["-h"], ["--help"], ["a", "b"], ["--"], ["--index-dir"], [""]):
        assert _index_args(args) is None, args


def test_a_current_index_is_reported_as_the_full_command_reports_it(fixture_repo, tmp_path):
    repo = fixture_repo("reexport_chain")
    idx = tmp_path / "idx"
    first = _codehop("index", str(repo), "--index-dir", str(idx))
    assert first.returncode == 0, first.stderr
    assert "parsed, 0 removed" in first.stderr and "(0 parsed" not in first.stderr

    quick = _codehop("index", str(repo), "--index-dir", str(idx), importtime=True)
    assert quick.returncode == 0, quick.stderr
    loaded = _loaded(quick.stderr)
    assert "codehop.index.survey" in loaded  # it did answer, from the survey
    assert not loaded & {"click", "codehop.kernel.records", "codehop.index.store.write", "codehop.index.indexer"}
    (line,) = _summary(quick.stderr)
    assert line.startswith("indexed ") and "(0 parsed, 0 removed)" in line and line.endswith(str(idx / "index.db"))

    # the same figures as the full command line (an option the quick parser does not take)
    fast = json.loads(_codehop("index", str(repo), "--index-dir", str(idx), "--json").stdout)
    full_run = _codehop("index", str(repo), "--index-dir", str(idx), "--json", "--max-file-bytes", "1000000")
    full = json.loads(full_run.stdout)
    assert full_run.returncode == 0
    for report in (fast, full):
        report.pop("seconds")
    assert fast == full
    assert fast["files"] > 0 and fast["chunks"] > 0 and fast["parsed"] == 0


def test_the_project_we_are_in_is_found_as_the_full_command_finds_it(fixture_repo, tmp_path):
    repo = fixture_repo("reexport_chain")
    (repo / "pyproject.toml").write_text("[project]\nname = 'shop'\n")
    assert _codehop("index", cwd=repo).returncode == 0
    quick = _codehop("index", "--json", cwd=repo / "shop")
    assert quick.returncode == 0, quick.stderr
    report = json.loads(quick.stdout)
    assert report["root"] == str(repo.resolve()) and report["parsed"] == 0
    assert report["index"] == str(repo.resolve() / ".codehop" / "index.db")


def test_an_edit_goes_to_the_full_command(fixture_repo, tmp_path):
    repo = fixture_repo("reexport_chain")
    idx = tmp_path / "idx"
    assert _codehop("index", str(repo), "--index-dir", str(idx)).returncode == 0
    target = next(p for p in sorted(repo.rglob("*.py")) if p.stat().st_size > 0)
    target.write_text(target.read_text() + "\n\ndef added_later():\n    return 1\n")
    after = _codehop("index", str(repo), "--index-dir", str(idx), "--json", importtime=True)
    assert after.returncode == 0
    assert "click" in _loaded(after.stderr)
    assert json.loads(after.stdout)["parsed"] == 1
    # a file only touched (same bytes, new time) is re-stamped by the full command, then is current
    os.utime(target, ns=(target.stat().st_atime_ns, target.stat().st_mtime_ns + 10**9))
    touched = _codehop("index", str(repo), "--index-dir", str(idx), importtime=True)
    assert "click" in _loaded(touched.stderr) and "(0 parsed, 0 removed)" in touched.stderr
    again = _codehop("index", str(repo), "--index-dir", str(idx), importtime=True)
    assert "click" not in _loaded(again.stderr)


def test_a_warning_is_said_on_every_run(fixture_repo, tmp_path):
    repo = fixture_repo("reexport_chain")
    (repo / "blob.py").write_bytes(b"x = 1\x00\x00binary\n")
    idx = tmp_path / "idx"
    for _ in range(2):
        run = _codehop("index", str(repo), "--index-dir", str(idx))
        assert run.returncode == 0
        assert "blob.py: binary content (NUL bytes); skipped" in run.stderr


def test_a_damaged_index_is_repaired_and_said_by_the_full_command(fixture_repo, tmp_path):
    repo = fixture_repo("reexport_chain")
    idx = tmp_path / "idx"
    assert _codehop("index", str(repo), "--index-dir", str(idx)).returncode == 0
    db = idx / "index.db"
    data = bytearray(db.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[page + 10 : page * 2] = b"\xff" * (page - 10)  # the second page: garbage
    db.write_bytes(bytes(data))
    run = _codehop("index", str(repo), "--index-dir", str(idx), "--json")
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["rebuilt"] is True
    assert any("the index was damaged" in w for w in report["warnings"]), report
    assert list(idx.glob("index.db.corrupt*")), sorted(p.name for p in idx.iterdir())


def test_an_unusable_index_folder_is_the_full_command_error(fixture_repo, tmp_path):
    repo = fixture_repo("reexport_chain")
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    run = _codehop("index", str(repo), "--index-dir", str(blocker / "idx"))
    assert run.returncode == 3
    assert run.stderr.startswith("codehop: error: cannot keep the index in")
    assert "Traceback" not in run.stderr
