"""JediResolver.land for the call hierarchy: its Scripts share one inference state across files,
and what they inferred is dropped when the index sees a change (App.refresh -> forget).

Fixture: fixtures_repos/call_sites (calls/writer.py `out.start(key)` lands on calls/sink.py's
`Sink.start`; main.py `Writer().write(...)` on calls/writer.py's `Writer.write`)."""

from __future__ import annotations

import threading
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


def ask_jedi(app: App, barrier: threading.Barrier, got: list[object]) -> None:
    barrier.wait()
    got.append(app.resolver("jedi"))


def test_one_jedi_resolver_per_session_whatever_threads_ask(fixture_repo):  # type: ignore[no-untyped-def]
    """call_sites: a server's build thread (`warm_calls`) and its first request (`sources`) ask for
    Jedi at the same moment; a second JediResolver would run Jedi on a thread of its own beside
    the first (issue 27: `super()` placed as `AssertionError`)."""
    root = fixture_repo("call_sites")
    for _ in range(3):
        app = App(root, Config(resolvers=("symbol_table", "jedi")))
        barrier = threading.Barrier(8)
        got: list[object] = []
        threads = [threading.Thread(target=ask_jedi, args=(app, barrier, got)) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        kept = app.resolver("jedi")
        for r in {id(r): r for r in got}.values():
            if r is not kept:
                assert isinstance(r, JediResolver)
                r.close()
        app.close()
        assert all(r is kept for r in got)


def test_two_resolvers_probing_builtins_at_once_place_each_name_as_itself(fixture_repo):  # type: ignore[no-untyped-def]
    """call_sites: one resolver places every builtin (`warm`: ArithmeticError, AssertionError, ...,
    one a probe line) while another places `len` and `super` (lines 1 and 2 of its own probe), on
    two threads. parso keeps one tree per probe path for the process and updates it in place for
    the next probe, so unlocked, `super` read line 2 of the other list: `AssertionError`."""
    root = fixture_repo("call_sites")
    app = App(root, Config(resolvers=("symbol_table", "jedi")))
    for _ in range(3):  # unlocked, each of them failed
        warmer, asker = JediResolver(str(root), app.table), JediResolver(str(root), app.table)
        warmer.warm()
        try:
            got = asker.land_builtins(["len", "super"], deadline_s=60)
        finally:
            warmer.close()
            asker.close()
        assert {n: landing.qualname for n, landing in got.items()} == {"len": "builtins.len", "super": "builtins.super"}
    app.close()


def test_jedi_starts_only_once_no_request_has_come_for_a_while(fixture_repo):  # type: ignore[no-untyped-def]
    """call_sites, a later session (every builtin's place in the landing cache): `warm_calls` starts
    Jedi only once the server has been idle for _IDLE_WARM_S; references requests, which never ask
    Jedi, keep it waiting too (before, only a call hierarchy request did: a references pass longer
    than that read as idle, and Jedi's start, a second of CPU, came beside the requests after it)."""
    import builtins
    import time

    from codehop.resolve import jedi_resolver

    root = fixture_repo("call_sites")
    first = App(root, Config(resolvers=("symbol_table", "jedi")))
    jedi = first.resolver("jedi")
    assert isinstance(jedi, JediResolver)
    jedi.land_builtins([n for n in dir(builtins) if not n.startswith("_")], deadline_s=60)
    first.close()
    app = App(root, Config(resolvers=("symbol_table", "jedi")))
    jedi = app.resolver("jedi")
    assert isinstance(jedi, JediResolver)
    app.warm_calls()
    line = declared(root, "calls/sink.py", "def start")  # a declaration: the index answers, never Jedi
    col = (root / "calls/sink.py").read_text().splitlines()[line - 1].index("start")
    until = time.monotonic() + 2 * jedi_resolver._IDLE_WARM_S
    while time.monotonic() < until:  # a references request every 0.2 s, for twice the idle time
        app.references("calls/sink.py", line, col)
        time.sleep(0.2)
    assert jedi._project is None  # Jedi not started
    deadline = time.monotonic() + 30
    while jedi._project is None and time.monotonic() < deadline:  # then idle: it starts
        time.sleep(0.1)
    assert jedi._project is not None
    app.close()
