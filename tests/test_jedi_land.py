"""JediResolver.land for the call hierarchy: its Scripts share one inference state across files,
and what they inferred is dropped when the index sees a change (App.refresh -> forget).

Fixture: fixtures_repos/call_sites (calls/writer.py `out.start(key)` lands on calls/sink.py's
`Sink.start`; main.py `Writer().write(...)` on calls/writer.py's `Writer.write`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from codehop.app import App, Config
from codehop.resolve.jedi_resolver import JediResolver, Landing

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]


def at(root: Path, rel_path: str, needle: str) -> tuple[int, int]:
    """(1-based line, 0-based col) of the last segment of `needle`'s first occurrence."""
    for n, text in enumerate((root / rel_path).read_text().splitlines(), start=1):
        if needle in text:
            return n, text.index(needle) + needle.rindex(".") + 1
    raise AssertionError(f"{needle!r} not in {rel_path}")


def declared(root: Path, rel_path: str, needle: str) -> int:
    return next(n for n, t in enumerate((root / rel_path).read_text().splitlines(), start=1) if needle in t)


def land_one(jedi: JediResolver, root: Path, rel_path: str, needle: str) -> Landing | None:
    return jedi.land(rel_path, [at(root, rel_path, needle)], deadline_s=60)[0]


def test_landings_across_files_then_after_a_change(fixture_repo):  # type: ignore[no-untyped-def]
    root = fixture_repo("call_sites")
    app = App(root, Config(resolvers=("symbol_table", "jedi")))
    jedi = app.resolver("jedi")
    assert isinstance(jedi, JediResolver)
    first = land_one(jedi, root, "calls/writer.py", "out.start")
    assert first is not None and (first.qualname, first.path) == ("calls.sink.Sink.start", "calls/sink.py")
    assert first.line == declared(root, "calls/sink.py", "def start")
    other = land_one(jedi, root, "main.py", "Writer().write")
    assert other is not None and (other.qualname, other.path) == ("calls.writer.Writer.write", "calls/writer.py")
    assert other.line == declared(root, "calls/writer.py", "def write")

    # the declaration moves down three lines; the calling file is unchanged
    sink = root / "calls" / "sink.py"
    sink.write_text('"""Moved."""\n\n\n' + sink.read_text())
    app.refresh()
    moved = land_one(jedi, root, "calls/writer.py", "out.start")
    assert moved is not None and moved.qualname == "calls.sink.Sink.start"
    assert moved.line == declared(root, "calls/sink.py", "def start") == first.line + 3
    app.close()
