"""The landing cache (codehop/index/landings.py): Jedi's landings for the call hierarchy,
kept in the repository's `.codehop/landings.db` by content, survive a restart, are asked again
when the calling file, a file it imports or the landed-on file changes, and nothing else in the
tree is written.

Fixture: fixtures_repos/call_sites (calls/writer.py `out.start(key)` lands on calls/sink.py's
`Sink.start`; calls/writer.py imports calls/sink.py)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from codehop.app import App, Config
from codehop.index.landings import FILE_NAME, LandingCache, Row
from codehop.kernel.errors import IndexLocationError
from codehop.resolve.jedi_resolver import JediResolver

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


def at(root: Path, rel_path: str, needle: str) -> tuple[int, int]:
    """(1-based line, 0-based col) of the last segment of `needle`'s first occurrence."""
    for n, text in enumerate((root / rel_path).read_text().splitlines(), start=1):
        if needle in text:
            return n, text.index(needle) + needle.rindex(".") + 1
    raise AssertionError(f"{needle!r} not in {rel_path}")


def declared(root: Path, rel_path: str, needle: str) -> int:
    return next(n for n, t in enumerate((root / rel_path).read_text().splitlines(), start=1) if needle in t)


@contextmanager
def session(root: Path) -> Iterator[tuple[JediResolver, list[tuple[str, tuple[tuple[int, int], ...]]]]]:
    """A fresh App (a new server session) whose Jedi records every site it is asked."""
    app = App(root, Config(resolvers=("symbol_table", "jedi")))
    jedi = app.resolver("jedi")
    assert isinstance(jedi, JediResolver)
    asked: list[tuple[str, tuple[tuple[int, int], ...]]] = []
    real = jedi._land

    def spy(rel_path, positions, deadline, scope=""):  # type: ignore[no-untyped-def]
        asked.append((rel_path, positions))
        return real(rel_path, positions, deadline, scope)

    jedi._land = spy  # type: ignore[method-assign]
    try:
        yield jedi, asked
    finally:
        app.close()


def tree_state(root: Path) -> dict[str, tuple[int, int]]:
    """(mtime_ns, size) of every file outside `.codehop/`."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".codehop"]
        for f in filenames:
            st = os.stat(os.path.join(dirpath, f))
            out[os.path.relpath(os.path.join(dirpath, f), root)] = (st.st_mtime_ns, st.st_size)
    return out


def test_survives_restart_and_writes_only_under_codehop(fixture_repo):  # type: ignore[no-untyped-def]
    root = fixture_repo("call_sites")
    App(root).close()  # the index first, so that only the sessions' writes are compared
    before = tree_state(root)
    site = at(root, "calls/writer.py", "out.start")
    with session(root) as (jedi, asked):
        first = jedi.land("calls/writer.py", [site], deadline_s=60)[0]
        assert asked == [("calls/writer.py", (site,))]
        placed = jedi.land_builtins(["len"], deadline_s=60)["len"]
    assert first is not None and (first.qualname, first.path) == ("calls.sink.Sink.start", "calls/sink.py")
    assert (root / ".codehop" / FILE_NAME).is_file()
    with session(root) as (jedi, asked):  # a restart: answered from the cache, Jedi not asked
        again = jedi.land("calls/writer.py", [site], deadline_s=60)[0]
        assert asked == []
        jedi._land_builtins = asked.append  # type: ignore[assignment,method-assign]
        assert jedi.land_builtins(["len"], deadline_s=60) == {"len": placed}
        assert asked == [] and placed.path.endswith("builtins.pyi")
    assert again == first
    assert tree_state(root) == before


@pytest.mark.parametrize(
    ("edited", "edit"),
    [
        ("calls/writer.py", lambda text: text + "\n# the calling file changed\n"),
        ("calls/sink.py", lambda text: '"""Moved."""\n\n\n' + text),
    ],
    ids=["calling-file", "landed-on-file"],
)
def test_asked_again_when_content_changes(fixture_repo, edited, edit):  # type: ignore[no-untyped-def]
    root = fixture_repo("call_sites")
    site = at(root, "calls/writer.py", "out.start")
    with session(root) as (jedi, asked):
        jedi.land("calls/writer.py", [site], deadline_s=60)
    path = root / edited
    path.write_text(edit(path.read_text()))
    with session(root) as (jedi, asked):
        moved = jedi.land("calls/writer.py", [site], deadline_s=60)[0]
        assert asked == [("calls/writer.py", (site,))]
    assert moved is not None and moved.qualname == "calls.sink.Sink.start"
    assert moved.line == declared(root, "calls/sink.py", "def start")


def test_an_imported_file_changes_the_scope(fixture_repo):  # type: ignore[no-untyped-def]
    """calls/writer.py's names take their types from calls/sink.py: a change there (even one
    that leaves the landed-on line in place) asks again."""
    root = fixture_repo("call_sites")
    site = at(root, "calls/writer.py", "out.start")
    with session(root) as (jedi, asked):
        jedi.land("calls/writer.py", [site], deadline_s=60)
    sink = root / "calls" / "sink.py"
    sink.write_text(sink.read_text() + "\n\nclass Other:\n    pass\n")
    with session(root) as (jedi, asked):
        jedi.land("calls/writer.py", [site], deadline_s=60)
        assert asked == [("calls/writer.py", (site,))]


def test_precomputed_sites_need_no_jedi_in_the_next_session(fixture_repo):  # type: ignore[no-untyped-def]
    """The land worker's `precompute` (run in-process here) asks Jedi at every call site of the
    repository; a session then answers calls/writer.py's sites from the cache."""
    from codehop.navigation.callers import call_sites
    from codehop.navigation.land_worker import precompute

    root = fixture_repo("call_sites")
    app = App(root)
    index_db = Path(app.store.path)
    app.close()
    before = tree_state(root)
    files, asked_n = precompute(root, index_db, first=["calls/writer.py"], budget_s=120)
    assert files >= 4 and asked_n > 10
    assert tree_state(root) == before
    with session(root) as (jedi, asked):
        toks = jedi_tokens(root, "calls/writer.py")
        sites = [(c.line, c.col) for c in call_sites("calls/writer.py", toks, 1, toks[-1][0])]
        landed = jedi.land("calls/writer.py", sites, deadline_s=60)
        assert asked == []
    assert any(landing is not None and landing.qualname == "calls.sink.Sink.start" for landing in landed)


def jedi_tokens(root: Path, rel_path: str) -> list[tuple[int, int, str, int]]:
    app = App(root)
    try:
        return list(app.sources().finder().tokens(rel_path))
    finally:
        app.close()


def test_a_server_app_starts_the_worker_at_once_and_it_ends(fixture_repo):  # type: ignore[no-untyped-def]
    """App.precompute_calls (what the LSP server calls once its index is ready): the worker process
    starts at once, fills the cache, ends when its pass is done, and leaves no lock behind."""
    import sqlite3
    import time

    root = fixture_repo("call_sites")
    app = App(root, Config(resolvers=("symbol_table", "jedi"), precompute_landings=True))
    try:
        assert app.precompute_calls(["calls/writer.py"])
        assert not app.precompute_calls()  # one worker per session
        workers = app._land_workers
        assert workers is not None
        deadline = time.monotonic() + 60
        while workers._proc is None or workers._proc.poll() is None:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert workers._proc.returncode == 0
    finally:
        app.close()
    with sqlite3.connect(root / ".codehop" / FILE_NAME) as conn:
        assert conn.execute("SELECT count(*) FROM sites WHERE rel_path='calls/writer.py'").fetchone()[0] > 5
    assert not (root / ".codehop" / "landings.lock").exists()


def test_no_worker_unless_configured(fixture_repo):  # type: ignore[no-untyped-def]
    root = fixture_repo("call_sites")
    app = App(root, Config(resolvers=("symbol_table", "jedi")))
    try:
        assert not app.precompute_calls()
    finally:
        app.close()


def test_a_planted_link_in_place_of_the_cache_is_never_written_through(fixture_repo, tmp_path):  # type: ignore[no-untyped-def]
    """A repository that ships `.codehop/landings.db-wal` as a link to a file outside it: the index
    folder is refused as for the index's own companions (issue 29), and a cache opened after the
    link was planted stays off; the linked file is untouched either way."""
    root = fixture_repo("call_sites")
    App(root).close()
    outside = tmp_path / "victim.db"
    outside.write_bytes(b"not yours")
    (root / ".codehop" / f"{FILE_NAME}-wal").symlink_to(outside)
    with pytest.raises(IndexLocationError):
        App(root)
    cache = LandingCache(root / ".codehop" / FILE_NAME, "stamp", root)
    assert cache.get("calls/writer.py", "scope", [(1, 0)]) == {}
    cache.put("calls/writer.py", "scope", [])
    assert outside.read_bytes() == b"not yours"
    assert not (root / ".codehop" / FILE_NAME).exists()


def test_the_worker_lock_is_never_read_or_written_through_a_link(fixture_repo, tmp_path):  # type: ignore[no-untyped-def]
    """`.codehop/landings.lock` planted as a link to a file outside the repository: the index
    folder is refused, the lock reads as no lock, and the worker never writes through it."""
    import subprocess
    import sys

    from codehop.index.confine import live_lock

    root = fixture_repo("call_sites")
    App(root).close()
    outside = tmp_path / "pid"
    outside.write_text(str(os.getpid()))  # a live pid: read through the link, it would look held
    lock = root / ".codehop" / "landings.lock"
    lock.symlink_to(outside)
    with pytest.raises(IndexLocationError):
        App(root)
    assert live_lock(lock) is False
    worker = [sys.executable, "-m", "codehop.navigation.land_worker", str(root), str(root / ".codehop" / "index.db")]
    assert subprocess.run([*worker, "--budget-s", "1"], timeout=120).returncode == 1  # (its own process: it renices)
    assert outside.read_text() == str(os.getpid())


def test_the_worker_never_imports_the_repository_it_is_started_in(fixture_repo, monkeypatch):  # type: ignore[no-untyped-def]
    """A server whose working folder is the repository (as editors start one) starts the worker:
    a repository `argparse.py` (a module the worker imports) that writes a marker is never run."""
    from codehop.navigation.land_worker import LandWorkers

    root = fixture_repo("call_sites")
    App(root).close()
    marker = root.parent / "ran"
    (root / "argparse.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    monkeypatch.chdir(root)
    workers = LandWorkers(root, root / ".codehop" / "index.db", budget_s=5)
    assert workers.start()
    pid = workers.running
    deadline = time.monotonic() + 60
    while workers.running is not None and time.monotonic() < deadline:
        time.sleep(0.1)
    workers.close()
    assert pid is not None and not marker.exists()


def test_a_kept_landing_on_another_name_is_never_shown(fixture_repo):  # type: ignore[no-untyped-def]
    """call_sites, Writer.write (calls/writer.py:26): a landings.db that places `super` (the
    builtins' table) on typeshed's `AssertionError` and the site `.convert(1)` (:31, asked of
    Jedi) on `Sink.start` (calls/sink.py:5), as a probe that read another probe's lines kept them
    (issue 27). The next session places `super` as itself (the row is refused, Jedi asked again)
    and shows no callee at :31 rather than `start`: a callee of another name than the call's is
    never shown."""
    root = fixture_repo("call_sites")
    method = "calls.writer.Writer.write"
    app = App(root, Config(resolvers=("symbol_table", "jedi")))
    first = {it.name: [s.line for s in sites] for it, sites in app.hierarchy("outgoing", method)}
    jedi = app.resolver("jedi")
    assert isinstance(jedi, JediResolver) and jedi.cache is not None
    cache = jedi.cache
    typeshed = cache.builtins()["len"].path
    assert typeshed is not None and first["convert"] == [31, 32] and first["super"] == [33]
    wrong = Row(typeshed, 1, 6, "builtins.AssertionError", "class", "stub", "")
    cache.put_builtins([("super", wrong)])
    start = Row("calls/sink.py", 5, 8, "calls.sink.Sink.start", "method", "repository", cache.hashes("calls/sink.py"))
    cache.put("calls/writer.py", cache.scope("calls/writer.py"), [(*at(root, "calls/writer.py", "].convert"), start)])
    app.close()

    app = App(root, Config(resolvers=("symbol_table", "jedi")))
    again = app.hierarchy("outgoing", method)
    jedi = app.resolver("jedi")
    assert isinstance(jedi, JediResolver)
    assert jedi.land_builtins(["super"], deadline_s=60)["super"].qualname == "builtins.super"
    app.close()
    names = {it.qualname: [s.line for s in sites] for it, sites in again}
    assert names["builtins.super"] == [33] and "builtins.AssertionError" not in names
    assert names["calls.sink.Sink.start"] == [28] and names["calls.convert.Convertor.convert"] == [32]


def test_sites_a_request_asks_for_are_landed_and_told(fixture_repo):  # type: ignore[no-untyped-def]
    """call_sites, calls/writer.py `out.start(key)` (:28): `LandWorkers.ask` sends the site to the
    running worker, `status` counts it pending until the worker says it is in the cache, and the
    cache then answers it without Jedi (`landed`: nothing missing) on Sink.start."""
    from codehop.navigation.land_worker import LandWorkers

    root = fixture_repo("call_sites")
    App(root).close()
    site = at(root, "calls/writer.py", "out.start")
    workers = LandWorkers(root, root / ".codehop" / "index.db", budget_s=120)
    try:
        assert workers.start()
        assert workers.ask("calls/writer.py", [site])
        assert workers.status().asked == 1
        deadline = time.monotonic() + 90
        while workers.status().pending:
            assert time.monotonic() < deadline
            time.sleep(0.1)
    finally:
        workers.close()
    with session(root) as (jedi, asked):
        found, missing = jedi.landed("calls/writer.py", [site])
        assert asked == [] and missing == []
    assert found[0] is not None and found[0].qualname == "calls.sink.Sink.start"
