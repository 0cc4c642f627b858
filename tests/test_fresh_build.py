"""A full build resolves from the rows it holds, not from what it reads back (issue 19).

The full build keeps the symbol rows it inserts (`LoadedRows`), builds the symbol table from them
(`symbol_rows_of`), resolves in memory while SQLite fills the FTS table and indexes the loaded
tables in a thread, and inserts the xrefs and edges resolved. These tests hold that path to the
one that reads the rows back from SQLite: the same symbol rows, the same resolutions, the same
index as an incremental update builds, and None (read them back) where SQLite's sort would pick.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from shared import FIXTURES

from codehop.index.chunking import parse_rows
from codehop.index.indexer import index_repo
from codehop.index.store.schema import connect, create_indexes, create_schema
from codehop.index.store.sqlite import SqliteStore
from codehop.index.store.write import LoadedRows, symbol_rows_of, write_file_rows
from codehop.index.symbols import SymbolTable
from codehop.index.walk import walk_python_files

FIXTURE_NAMES = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir())


def _load(root: Path, db: Path) -> LoadedRows:
    """Parse every file of `root` and write it into a fresh index at `db`, keeping the rows."""
    files = sorted(walk_python_files(root, [], [], None), key=lambda sf: sf.rel_path)
    rows = [parse_rows(sf.rel_path, Path(sf.abs_path).read_bytes()) for sf in files]
    conn = connect(db, fast_unsafe=True)
    create_schema(conn)
    loaded = LoadedRows()
    write_file_rows(
        conn,
        [(*f[:9], []) for f in rows],
        {f[0]: "h" for f in rows},
        {f[0]: (1, 1, 1, 1) for f in rows},
        keep=loaded,
    )
    conn.close()
    return loaded


@pytest.mark.parametrize("name", FIXTURE_NAMES, ids=FIXTURE_NAMES)
def test_rows_kept_are_the_rows_read_back(name: str, tmp_path: Path) -> None:
    """Each fixture of fixtures_repos/: the symbol rows built from what was inserted equal those
    `SqliteStore.symbol_rows` reads back (bindings in force, modules, `__all__`, stars, classes)."""
    db = tmp_path / "index.db"
    loaded = _load(FIXTURES / name, db)
    kept = symbol_rows_of(loaded)
    assert kept is not None
    read = SqliteStore(db).symbol_rows()
    assert kept.binding_rows == read.binding_rows
    assert kept.class_rows == read.class_rows
    assert kept.modules == read.modules
    assert kept.all_names == read.all_names
    assert kept.stars == read.stars


def test_a_tie_on_one_line_is_read_back(tmp_path: Path) -> None:
    """`a = 1; a = len` binds `a` twice on line 1: which row SQL's `ORDER BY line` puts last is
    SQLite's choice, so the kept rows answer None (the build reads them back), and a build and an
    update of the same tree resolve `m.a` alike."""
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    (repo / "pkg" / "__init__.py").write_text("")
    (repo / "pkg" / "m.py").write_text("def f():\n    pass\na = 1; a = f\n")
    (repo / "pkg" / "use.py").write_text("from pkg.m import a\na()\n")
    assert symbol_rows_of(_load(repo, tmp_path / "probe.db")) is None
    store, _ = index_repo(repo, index_dir=tmp_path / "idx")
    full = SymbolTable(store).resolve("pkg.use.a")
    (repo / "pkg" / "use.py").write_text("from pkg.m import a\na()\n\n")  # an update redoes use.py
    store, report = index_repo(repo, index_dir=tmp_path / "idx")
    assert not report.rebuilt and report.parsed == 1
    assert SymbolTable(store).resolve("pkg.use.a") == full


CHAINS = ["aliases", "reexport_chain", "diamond", "circular", "inherited_member"]


@pytest.mark.parametrize("name", CHAINS, ids=CHAINS)
def test_a_full_build_resolves_as_an_update_does(name: str, fixture_repo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """fixtures_repos/<name>: the xrefs and edges of a full build (resolved in memory) equal those
    of the same tree indexed one file at a time through updates (resolved over SQL)."""
    root = fixture_repo(name)
    store, _ = index_repo(root, index_dir=tmp_path / "full")
    full = _resolved(store.path)
    files = sorted(p for p in root.rglob("*.py") if ".codehop" not in p.parts)
    step = tmp_path / "steps"
    hidden = {p: p.read_bytes() for p in files[1:]}
    for p in files[1:]:
        p.unlink()
    index_repo(root, index_dir=step)  # a first build of one file, then updates adding the rest
    for p, data in hidden.items():
        p.write_bytes(data)
        index_repo(root, index_dir=step)
    assert _resolved(step / "index.db") == full


def _resolved(db: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        xrefs = sorted(
            conn.execute(
                "SELECT rel_path, line, col, anchor_text, ref_type, target, scope, target_path, target_line,"
                " provenance FROM xrefs"
            )
        )
        edges = sorted(conn.execute("SELECT src, dst, type, rel_path, line, resolved FROM edges"))
    finally:
        conn.close()
    return xrefs, edges


def test_resolve_flat_is_resolve_without_the_chain(fixture_repo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """fixtures_repos/aliases: for every target the index holds, `resolve_flat` names the place
    (and the external name) `resolve` lands on."""
    store, _ = index_repo(fixture_repo("aliases"), index_dir=tmp_path / "idx")
    table = SymbolTable(store)
    targets = {t for (t,) in store.conn.execute("SELECT target FROM xrefs")}
    targets |= {f"{s}.{n}" for s, n in store.conn.execute("SELECT scope, name FROM bindings")}
    assert targets
    for t in sorted(targets):
        res = table.resolve(t)
        flat = table.resolve_flat(t)
        if res is None:
            assert flat is None, t
        else:
            assert flat == (res.target.rel_path, res.target.line, res.target.qualname, res.external), t


def test_create_indexes_of_named_tables(tmp_path: Path) -> None:
    """A bulk build indexes the loaded tables first and the xref and edge tables last."""
    conn = connect(tmp_path / "x.db", fast_unsafe=True)
    create_schema(conn, indexes=False)
    create_indexes(conn, ("xrefs",))
    names = {r[0] for r in conn.execute("SELECT tbl_name FROM sqlite_master WHERE type='index' AND sql IS NOT NULL")}
    assert names == {"xrefs"}
    create_indexes(conn, ("edges", "files"))
    names = {r[0] for r in conn.execute("SELECT tbl_name FROM sqlite_master WHERE type='index' AND sql IS NOT NULL")}
    assert names == {"xrefs", "edges", "files"}
    conn.close()


def test_a_module_in_two_files_is_the_package(tmp_path: Path) -> None:
    """`dup.py` beside `dup/__init__.py`: both are module `dup`; as read back, the package's file
    and its `__all__` are the ones kept."""
    repo = tmp_path / "repo"
    (repo / "dup").mkdir(parents=True)
    (repo / "dup" / "__init__.py").write_text("__all__ = ['x']\nx = 1\n")
    (repo / "dup.py").write_text("\n\n__all__ = ['y']\ny = 2\n")  # lines apart: no tie
    db = tmp_path / "index.db"
    kept = symbol_rows_of(_load(repo, db))
    assert kept is not None
    assert kept.modules["dup"] == "dup/__init__.py"
    assert kept.all_names["dup"] == ("x",)
    read = SqliteStore(db).symbol_rows()
    assert (kept.modules, kept.all_names) == (read.modules, read.all_names)
