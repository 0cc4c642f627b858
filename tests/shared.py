"""Small helpers several test modules share (importable because pytest puts tests/ on sys.path)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from codehop.answer.orchestrator import Limits
from codehop.app import App, Config
from codehop.kernel.records import Answer

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


def fixture_app(name: str, tmp_path_factory: Any) -> Iterator[App]:
    """An App on a fresh copy of fixture repository `name`, closed when the tests using it end
    (`yield from` it in a module-scoped fixture)."""
    app = App(copy_fixture(FIXTURES / name, tmp_path_factory.mktemp(name) / name), Config())
    try:
        yield app
    finally:
        app.close()


def ask(app: App, question: str) -> Answer:
    """The navigator's answer with the default limits (what `codehop ask` gives)."""
    return app.navigator().ask(question, Limits())


def holds(answer: Answer, path: str, line: int) -> bool:
    """Whether a context item of the answer holds `path:line`."""
    return any(c.chunk.rel_path == path and c.chunk.start_line <= line <= c.chunk.end_line for c in answer.context)
