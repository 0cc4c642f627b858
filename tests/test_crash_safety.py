"""SIGKILL `codehop index` (a real `python -m codehop index PATH --json` subprocess) at random points,
during full builds and incremental updates, and check what is left on disk.

The repository is generated (tests/crash_helpers.py: 150 files, each carrying its version in
MARKER, docstrings and `_v<version>` names). After every kill: `index.db` is absent (a killed
first build) or opens as a codehop index, passes `PRAGMA integrity_check`, and holds, as a whole,
exactly the old or exactly the new version of the tree (an update is one transaction, a build is
swapped in with os.replace) with each file's chunks matching its stored hash; the killed run's pool
workers do not outlive it; the next run completes the index and leaves no `index.db.tmp-*` behind.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from crash_helpers import digest, initial_files, next_files, write_tree
from shared import live_group_members

from codehop.index.store.sqlite import SqliteStore

PROJECT = Path(__file__).resolve().parent.parent
KILLS_PER_PHASE = 25

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]


def _start(repo: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "codehop", "index", str(repo), "--json"],
        cwd=PROJECT,
        env={**os.environ, "PYTHONPATH": str(PROJECT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def _run(repo: Path) -> dict[str, object]:
    proc = _start(repo)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err.decode(errors="replace")
    return json.loads(out)  # type: ignore[no-any-return]


def _kill_at(repo: Path, delay_s: float) -> tuple[int, list[int]]:
    """Start an index run, SIGKILL it after `delay_s`; return its exit status and any orphan that outlived
    it by 3 s (killed afterwards, so one failure does not leak into the next run)."""
    proc = _start(repo)
    time.sleep(delay_s)
    try:
        os.kill(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.communicate(timeout=30)
    deadline = time.monotonic() + 3.0
    while live_group_members(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    orphans = live_group_members(proc.pid)
    for pid in orphans:
        os.kill(pid, signal.SIGKILL)
    return proc.returncode, orphans


def _held(db: Path) -> tuple[dict[str, str], SqliteStore]:
    store = SqliteStore(db)  # opens, and checks the schema version
    assert store.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    return {rel: h for rel, (h, *_) in store.file_states().items()}, store


def _check_chunks(store: SqliteStore, rel: str, text: str) -> None:
    """The chunks stored for `rel` belong to the version whose hash is stored."""
    version = int(re.search(r"MARKER = (\d+)", text).group(1)) if "MARKER" in text else None
    chunks = store.chunks_of_file(rel)
    assert chunks, rel
    for c in chunks:
        assert c.text in text, (rel, c.qualname)
    if version is not None:
        names = {c.qualname.rsplit(".", 1)[-1] for c in chunks if c.kind == "function"}
        assert names == {f"func_{j}_v{version}" for j in range(6)}, (rel, names)
        (marker,) = store.conn.execute(
            "SELECT value FROM bindings WHERE rel_path=? AND name='MARKER'", (rel,)
        ).fetchone()
        assert marker == str(version)


def _check_state(db: Path, old: dict[str, str] | None, new: dict[str, str]) -> str:
    """Which whole state the index holds after a kill: "none" (no index yet), "old" or "new"."""
    if not db.exists():
        assert old is None, "a killed update must never remove the index"
        return "none"
    held, store = _held(db)
    try:
        candidates = {"new": new} if old is None else {"old": old, "new": new}
        for name, files in candidates.items():
            if held == {rel: digest(text) for rel, text in files.items()}:
                for rel, text in files.items():
                    _check_chunks(store, rel, text)
                return name
        mixed = {rel for rel, h in held.items() if all(h != digest(f.get(rel, "")) for f in candidates.values())}
        raise AssertionError(
            f"index holds neither the old nor the new tree (e.g. {sorted(mixed)[:5]}; {len(held)} files)"
        )
    finally:
        store.close()


def _complete(repo: Path, db: Path, files: dict[str, str]) -> None:
    report = _run(repo)
    assert report["files"] == len(files)
    assert _check_state(db, None, files) == "new"
    assert not list(db.parent.glob("index.db.tmp-*")), "stale build files left behind"


def _duration(repo: Path) -> float:
    t0 = time.perf_counter()
    _run(repo)
    return time.perf_counter() - t0


def test_sigkill_during_full_and_incremental_index(tmp_path):
    rng = random.Random(int(os.environ.get("CODEHOP_KILL_SEED", "8")))
    repo = tmp_path / "medium"
    db = repo / ".codehop" / "index.db"
    files = initial_files()
    write_tree(repo, {}, files)
    full_s = _duration(repo)
    outcomes: dict[str, dict[str, int]] = {"full": {}, "incremental": {}}
    orphans_seen: list[int] = []
    kills = {"full": 0, "incremental": 0}
    late = 0  # the run had finished before the signal arrived: not a kill, tried again

    def killed(phase: str, status: int, state: str, orphans: list[int]) -> None:
        nonlocal late
        orphans_seen.extend(orphans)
        if status != -signal.SIGKILL:
            assert status == 0
            late += 1
            return
        kills[phase] += 1
        outcomes[phase][state] = outcomes[phase].get(state, 0) + 1

    # full builds: no index on disk, a kill at a random point, then a run that must finish the job
    for _ in range(2 * KILLS_PER_PHASE):
        if kills["full"] == KILLS_PER_PHASE:
            break
        for suffix in ("", "-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)
        status, orphans = _kill_at(repo, rng.uniform(0, full_s))
        killed("full", status, _check_state(db, None, files), orphans)
        _complete(repo, db, files)

    # incremental updates: a third of the files rewritten, two deleted, two added, then a kill
    version = 0
    new = files
    for _ in range(2 * KILLS_PER_PHASE):
        if kills["incremental"] == KILLS_PER_PHASE:
            break
        version += 1
        old, new = new, next_files(new, version)
        write_tree(repo, old, new)
        status, orphans = _kill_at(repo, rng.uniform(0, full_s))
        killed("incremental", status, _check_state(db, old, new), orphans)
        _complete(repo, db, new)

    total = sum(kills.values())
    print(
        f"\nkills survived: {total}/{total} (+{late} signals after a normal exit); outcomes {outcomes}; "
        f"full build {full_s:.2f} s"
    )
    assert total >= 2 * KILLS_PER_PHASE >= 50
    assert not orphans_seen, f"pool workers outlived the killed indexer: {orphans_seen}"
    # kills did land mid-run (how many land after the commit, leaving "new", is luck: it is reported)
    assert outcomes["full"].get("none") and outcomes["incremental"].get("old"), outcomes


def test_stale_build_files_of_dead_processes_are_removed(tmp_path):
    """A killed full build leaves `index.db.tmp-<pid>` (and its journal); the next run removes those whose
    process is gone and keeps one whose process is alive."""
    repo = tmp_path / "medium"
    files = initial_files()
    write_tree(repo, {}, files)
    idx = repo / ".codehop"
    idx.mkdir()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    for name in (f"index.db.tmp-{dead.pid}", f"index.db.tmp-{dead.pid}-journal", f"index.db.tmp-{dead.pid}-wal"):
        (idx / name).write_bytes(b"half a build")
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (idx / f"index.db.tmp-{alive.pid}").write_bytes(b"someone else's build in progress")
        _run(repo)
        left = sorted(p.name for p in idx.glob("index.db.tmp-*"))
        assert left == [f"index.db.tmp-{alive.pid}"]
    finally:
        alive.kill()
        alive.wait()
