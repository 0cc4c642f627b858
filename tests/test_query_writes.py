"""Queries read; one writer writes: a query's counters and loop-time landings are written once,
after its read snapshot ended, and an index codehop cannot write still answers.

Fixture: reexport_chain (`shop.Cart` re-exported from `shop/models.py`; one hop through the
symbol table).
"""

from __future__ import annotations

import dataclasses
import os
import sqlite3
import stat

import pytest

from codehop.answer.orchestrator import Limits
from codehop.app import App, Config
from codehop.index.store.sqlite import WriteInSnapshotError
from codehop.kernel.records import QueryLog

QUESTION = "Where is `shop.Cart` defined?"


def _app(repo):  # type: ignore[no-untyped-def]
    return App(repo, Config(retrieve_k=1, use_graph=False, use_env=False))


def _counters(path) -> dict[str, int]:  # type: ignore[no-untyped-def]
    conn = sqlite3.connect(path)
    try:
        return dict(conn.execute("SELECT key, value FROM counters"))
    finally:
        conn.close()


def test_the_query_writes_once_after_its_snapshot(fixture_repo):  # type: ignore[no-untyped-def]
    app = _app(fixture_repo("reexport_chain"))
    statements: list[str] = []
    app.store.conn.set_trace_callback(statements.append)  # SQLite's own record of what ran, in order
    answer = app.navigator().ask(QUESTION, Limits())
    assert answer.state == "complete"
    counters = _counters(app.store.path)
    assert counters["queries"] == 1 and counters["hops_from_table"] == 1
    begins = [i for i, s in enumerate(statements) if s.startswith("BEGIN")]
    commits = [i for i, s in enumerate(statements) if s == "COMMIT"]
    writes = [i for i, s in enumerate(statements) if s.startswith(("INSERT", "UPDATE"))]
    # two transactions: the read snapshot (BEGIN ... COMMIT, no write inside), then the writer's
    assert [statements[i] for i in begins] == ["BEGIN", "BEGIN IMMEDIATE"]
    assert writes and all(commits[0] < i < commits[1] for i in writes)
    assert begins[1] > commits[0]
    app.close()


def test_a_write_inside_a_snapshot_is_refused(fixture_repo):  # type: ignore[no-untyped-def]
    app = _app(fixture_repo("reexport_chain"))
    with app.store.snapshot():
        with pytest.raises(WriteInSnapshotError):
            app.store.record_query(QueryLog(counters=(("queries", 1),)))
    assert app.store.record_query(QueryLog(counters=(("queries", 1),)))
    assert _counters(app.store.path)["queries"] == 1
    app.close()


def test_an_index_codehop_cannot_write_still_answers(fixture_repo):  # type: ignore[no-untyped-def]
    app = _app(fixture_repo("reexport_chain"))
    first = app.navigator().ask(QUESTION, Limits())
    path = app.store.path
    app.store.close()
    before = _counters(path)
    os.chmod(path, stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    os.chmod(path.parent, stat.S_IRUSR | stat.S_IXUSR | stat.S_IRGRP | stat.S_IXGRP)
    try:
        if os.geteuid() == 0:  # permission bits do not bind root: ask for the read-only open itself
            app.store.read_only = True
        again = app.navigator().ask(QUESTION, Limits())
    finally:
        os.chmod(path.parent, stat.S_IRWXU)
        os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)
    app.store.close()
    no_time = dataclasses.replace(first.stats, total_ms=None, timings=None)
    assert dataclasses.replace(again, stats=no_time) == dataclasses.replace(first, stats=no_time)
    assert _counters(path) == before  # nothing was written, and nothing failed
    app.store.read_only = None
    assert app.navigator().ask(QUESTION, Limits()).state == "complete"
    assert _counters(path)["queries"] == before["queries"] + 1
    app.close()


def test_the_generator_is_built_once_per_session_and_closed_with_it(fixture_repo, monkeypatch):  # type: ignore[no-untyped-def]
    """One Anthropic client per session (the model rung shares it), closed when the session closes."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    monkeypatch.setenv("CODEHOP_ANTHROPIC_BASE_URL", "http://127.0.0.1:9")  # never called here
    app = _app(fixture_repo("reexport_chain"))
    assert app.navigator().generator is app.navigator().generator
    gen = app.navigator(generator="anthropic").generator
    assert app.navigator(generator="anthropic").generator is gen
    client = gen.client  # type: ignore[attr-defined]
    assert app.resolver("llm").client is client  # type: ignore[attr-defined]
    assert not client.is_closed()
    app.close()
    assert client.is_closed()
