"""The store translates SQLite's errors: what reaches a front-end is a CodehopError with SQLite's
words kept (before, `sqlite3` exceptions reached the CLI, the MCP server and the Python API, each
catching them). Real index files of fixtures_repos/reexport_chain, damaged on disk; no mocks."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

import codehop
from codehop.frontends.cli import main
from codehop.index.indexer import index_repo
from codehop.index.store.sqlite import SqliteStore
from codehop.kernel.errors import CodehopError, IndexDamagedError, IndexSchemaError
from codehop.kernel.records import QueryLog

pytestmark = pytest.mark.timeout(180)

QUESTION = "Where is `shop.Cart` defined?"


def indexed(fixture_repo) -> Path:  # type: ignore[no-untyped-def]
    repo = fixture_repo("reexport_chain")
    store, _ = index_repo(repo)
    store.close()
    return repo


def zero_table(db: Path, table: str) -> None:
    """Overwrite every page of one table with zeros (the file still opens; reading it fails)."""
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    pages = [p for (p,) in conn.execute("SELECT pageno FROM dbstat WHERE name=?", (table,))]
    conn.close()
    assert pages
    with open(db, "r+b") as fh:
        for p in pages:
            fh.seek((p - 1) * page_size)
            fh.write(b"\0" * page_size)


def drop_table(db: Path, table: str) -> None:
    """A sound SQLite file (every page checks) that codehop's queries still fail on."""
    conn = sqlite3.connect(db)
    conn.execute(f"DROP TABLE {table}")
    conn.commit()
    conn.close()


def test_a_read_of_damaged_pages_is_index_damaged_error(fixture_repo):  # type: ignore[no-untyped-def]
    """reexport_chain/ with the chunk table's pages zeroed: each read, inside a snapshot or not,
    raises IndexDamagedError naming the file, SQLite's exception kept as its cause."""
    repo = indexed(fixture_repo)
    db = repo / ".codehop" / "index.db"
    zero_table(db, "chunks")
    store = SqliteStore(db)
    for read in (lambda: store.chunks_named("shop.api.cart.Cart"), lambda: store.chunks_of_file("shop/api/cart.py")):
        with pytest.raises(IndexDamagedError) as info:
            read()
        assert info.value.context["path"] == str(db)
        assert isinstance(info.value.__cause__, sqlite3.DatabaseError)
        assert info.value.message.startswith("the index could not be read: ")
        with pytest.raises(IndexDamagedError), store.snapshot():
            read()
    store.close()


def test_a_write_to_a_read_only_index_says_so(fixture_repo):  # type: ignore[no-untyped-def]
    """reexport_chain/ opened read-only: the indexer's transaction raises IndexSchemaError saying
    the index cannot be written (not "damaged"); a query's counting just skips (False)."""
    repo = indexed(fixture_repo)
    store = SqliteStore(repo / ".codehop" / "index.db", read_only=True)
    assert store.record_query(QueryLog(counters=(("asked", 1),))) is False
    with pytest.raises(IndexSchemaError) as info, store.transaction() as conn:
        conn.execute("DELETE FROM counters")
    assert not isinstance(info.value, IndexDamagedError)
    assert "cannot be written" in info.value.message and "readonly" in info.value.message
    store.close()


def test_a_sound_file_the_queries_fail_on_is_exit_3_and_kept(fixture_repo):  # type: ignore[no-untyped-def]
    """reexport_chain/ whose full-text vocabulary table is dropped: SQLite fails every search, the
    pages check sound, so the CLI says why (exit 3, no traceback) and moves nothing aside."""
    repo = indexed(fixture_repo)
    db = repo / ".codehop" / "index.db"
    drop_table(db, "chunks_vocab")
    result = CliRunner().invoke(main, ["ask", QUESTION, "--repo", str(repo)])
    assert result.exit_code == 3, result.output
    assert "codehop: error: the index could not be read: no such table: chunks_vocab" in result.output
    assert not isinstance(result.exception, sqlite3.Error)
    assert not list((repo / ".codehop").glob("index.db.corrupt-*"))


def test_the_mcp_workspace_and_the_api_get_codehops_error(fixture_repo):  # type: ignore[no-untyped-def]
    """The same sound-but-failing file under the MCP workspace (which turns a CodehopError into a
    tool error with its message) and the Python API: IndexDamagedError, not sqlite3's exception."""
    from codehop.frontends.mcp_server import Workspace, ask_tool

    repo = indexed(fixture_repo)
    drop_table(repo / ".codehop" / "index.db", "chunks_vocab")
    ws = Workspace(repo)
    with pytest.raises(CodehopError) as info:
        ws.run(lambda app: ask_tool(app, QUESTION, max_loops=1, budget_tokens=2000))
    assert "no such table: chunks_vocab" in info.value.message
    ws.close()
    with pytest.raises(IndexDamagedError) as api_info:
        codehop.ask(QUESTION, repo=str(repo))
    assert api_info.value.reason == "no such table: chunks_vocab"
