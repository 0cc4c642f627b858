"""Small helpers several test modules share (importable because pytest puts tests/ on sys.path)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures_repos"

# the Answer JSON of DESIGN.md, as every front-end returns it
CONTRACT_KEYS = {"question", "answer", "answer_completeness", "state", "pending_references", "context", "hops", "stats"}
# the keys every context item carries (DESIGN.md's contract; `untrusted_text` and `relation` only when they apply)
ITEM_KEYS = {
    "path",
    "start_line",
    "end_line",
    "qualname",
    "kind",
    "hop",
    "via",
    "provenance",
    "text",
    "truncated",
    "source",
}


def live_group_members(pgid: int) -> list[int]:
    """Processes of process group `pgid` still running (zombies waiting for a reaper do not count)."""
    live = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path("/proc", entry, "stat").read_text()
        except OSError:
            continue
        state, _ppid, pgrp = stat.rsplit(")", 1)[1].split()[:3]
        if int(pgrp) == pgid and state not in ("Z", "X"):
            live.append(int(entry))
    return live


def copy_fixture(src: Path, dest: Path, *, symlinks: bool = True) -> Path:
    """A copy of repository `src` at `dest` without any `.codehop/` folder (the README's first
    command leaves one in `fixtures_repos/reexport_chain`; a test starts from a clean repository)."""
    shutil.copytree(src, dest, symlinks=symlinks, ignore=shutil.ignore_patterns(".codehop"))
    return dest
