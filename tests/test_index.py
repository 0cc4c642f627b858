"""The index: walk, tree-sitter chunks, cross-references, SQLite store, bad input."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from codehop.index.chunking import module_name, parse_file
from codehop.index.indexer import index_repo, repo_key
from codehop.index.store.sqlite import SqliteStore
from codehop.index.symbols import SymbolTable
from codehop.kernel.errors import RepoNotFoundError
from codehop.kernel.records import ChunkKind, RefType
from codehop.kernel.words import split_identifiers


def test_chunks_of_a_class_and_its_methods(fixture_repo):
    """inherited_member/transport/base.py: one chunk per class header, per method; 1-based lines."""
    repo = fixture_repo("inherited_member")
    facts = parse_file("transport/base.py", (repo / "transport/base.py").read_bytes())
    kinds = {(c.kind, c.qualname) for c in facts.chunks}
    assert (ChunkKind.CLASS, "transport.base.BaseTransport") in kinds
    assert (ChunkKind.METHOD, "transport.base.BaseTransport.send") in kinds
    assert (ChunkKind.MODULE, "transport.base") in kinds
    send = next(c for c in facts.chunks if c.qualname.endswith(".send"))
    assert send.signature.startswith("def send(self, request")
    assert "timeout=5.0" in send.signature
    src_lines = (repo / "transport/base.py").read_text().splitlines()
    assert src_lines[send.start_line - 1].lstrip().startswith(("def send", "@"))
    # chunks are contiguous line ranges that never overlap
    spans = sorted((c.start_line, c.end_line) for c in facts.chunks)
    assert all(a[1] < b[0] for a, b in zip(spans, spans[1:], strict=False))


def test_decorators_stay_with_their_definition():
    src = b"import functools\n\n@functools.lru_cache(maxsize=2)\ndef f(x):\n    return x\n"
    facts = parse_file("m.py", src)
    f = next(c for c in facts.chunks if c.qualname == "m.f")
    assert (f.start_line, f.end_line) == (3, 5)
    assert any(x.ref_type is RefType.DECORATOR and x.anchor_text == "functools.lru_cache" for x in facts.xrefs)


@pytest.mark.parametrize(
    "edit",
    [
        lambda s: s.replace(b"def send(", b"def send_now(", 1),
        lambda s: b"import os\n" + s,
        lambda s: s + b"\n\nclass Extra(BaseTransport):\n    def send(self, request):\n        return 1\n",
        lambda s: s.replace(b"\n", b"\n\n", 3),
        lambda s: s[: len(s) // 2],
    ],
    ids=["rename", "prepend", "append-class", "blank-lines", "truncated"],
)
def test_a_file_parsed_again_gives_what_a_fresh_parse_gives(fixture_repo, edit):
    """inherited_member/transport/base.py parsed, edited, parsed again in one process (an editor's
    save: tree-sitter re-parses from the last tree) gives the rows of a parse in a new process."""
    from codehop.index import chunking

    repo = fixture_repo("inherited_member")
    src = (repo / "transport/base.py").read_bytes()
    chunking.parse_rows("transport/base.py", src)
    assert "transport/base.py" in chunking._TREES
    again = chunking.parse_rows("transport/base.py", edit(src))
    chunking._TREES.clear()
    fresh = chunking.parse_rows("transport/base.py", edit(src))
    assert again[:9] == fresh[:9]
    assert sorted(again[9]) == sorted(fresh[9])


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("pkg/mod.py", ("pkg.mod", False)),
        ("pkg/__init__.py", ("pkg", True)),
        ("src/pkg/a.py", ("pkg.a", False)),
        ("top.py", ("top", False)),
    ],
    ids=["module", "package", "src-layout", "top-level"],
)
def test_module_names(path, expected):
    assert module_name(path) == expected


def test_identifier_splitting():
    words = split_identifiers("class HTTPTransport: max_retry_count = getURLPath").split()
    for w in ("httptransport", "http", "transport", "max", "retry", "count", "geturlpath", "url", "path"):
        assert w in words


def test_reexport_chain_xrefs_resolve_to_declarations(fixture_repo):
    """reexport_chain: shop/__init__.py:6 -> shop/api/__init__.py:3 -> shop/api/cart.py:4."""
    repo = fixture_repo("reexport_chain")
    store, report = index_repo(repo)
    assert report.files == 5 and report.chunks > 0
    rows = store.xrefs(rel_path="shop/__init__.py")
    cart = next(x for x in rows if x.anchor_text == "Cart")
    assert cart.ref_type is RefType.REEXPORT
    assert (cart.target_path, cart.target_line, cart.provenance) == ("shop/api/cart.py", 4, "symbol_table")
    checkout = next(x for x in rows if x.anchor_text == "checkout")
    assert (checkout.target_path, checkout.target_line) == ("shop/api/flow.py", 6)
    star = next(x for x in store.xrefs(rel_path="shop/api/__init__.py") if x.ref_type is RefType.STAR_IMPORT)
    assert star.target == "shop.api.flow" and star.target_path == "shop/api/flow.py"


def test_star_import_honours_all(fixture_repo):
    """reexport_chain: `_helper` is not in flow.__all__, so `shop.api._helper` does not exist."""
    from codehop.index.symbols import SymbolTable

    store, _ = index_repo(fixture_repo("reexport_chain"))
    table = SymbolTable(store)
    assert table.resolve("shop.api.checkout").target.rel_path == "shop/api/flow.py"
    assert table.resolve("shop.api._helper") is None


def test_alias_xrefs(fixture_repo):
    """aliases: `Encoder = JSONEncoder` (encoders.py:19) and `DefaultEncoder` re-export resolve to :6."""
    store, _ = index_repo(fixture_repo("aliases"))
    enc = next(x for x in store.xrefs(rel_path="codecs_lib/encoders.py", line=19) if x.anchor_text == "Encoder")
    assert enc.ref_type is RefType.ALIAS and (enc.target_path, enc.target_line) == ("codecs_lib/encoders.py", 6)
    default = next(x for x in store.xrefs(rel_path="codecs_lib/__init__.py") if x.anchor_text == "DefaultEncoder")
    assert (default.target_path, default.target_line) == ("codecs_lib/encoders.py", 6)
    mod = next(x for x in store.xrefs(rel_path="codecs_lib/__init__.py") if x.anchor_text == "enc")
    assert mod.target == "codecs_lib.encoders" and mod.target_path == "codecs_lib/encoders.py"


def test_inherited_config_star_import(fixture_repo):
    """inherited_config: prod.py star-imports base.py; TIMEOUT comes from base.py:4."""
    from codehop.index.symbols import SymbolTable

    store, _ = index_repo(fixture_repo("inherited_config"))
    table = SymbolTable(store)
    timeout = table.resolve("config.settings.prod.TIMEOUT")
    assert (timeout.target.rel_path, timeout.target.line) == ("config/settings/base.py", 4)
    assert [s.note for s in timeout.steps] == ["star_import"]
    debug = table.resolve("config.settings.prod.DEBUG")
    assert (debug.target.rel_path, debug.target.line) == ("config/settings/prod.py", 5)


def test_gitignore_codehopignore_and_virtualenvs(fixture_repo):
    """gitignore: only src/app.py survives .gitignore (nested too), .codehopignore, .venv, __pycache__."""
    repo = fixture_repo("gitignore")
    store, report = index_repo(repo)
    assert sorted(store.file_states()) == ["src/app.py"]


def test_reindex_is_incremental_and_drops_deleted_files(fixture_repo):
    repo = fixture_repo("reexport_chain")
    store, first = index_repo(repo)
    assert first.parsed == 5 and first.rebuilt
    _, again = index_repo(repo)
    assert again.parsed == 0 and not again.rebuilt
    cart = repo / "shop/api/cart.py"
    cart.write_text(cart.read_text().replace("class Cart", "\n\nclass Cart"))
    (repo / "app.py").unlink()
    store, upd = index_repo(repo)
    assert (upd.parsed, upd.deleted) == (1, 1)
    # the re-export row now points at the moved declaration
    row = next(x for x in store.xrefs(rel_path="shop/__init__.py") if x.anchor_text == "Cart")
    assert row.target_line == 6
    assert "app.py" not in store.file_states()


def test_index_reopened_from_disk(fixture_repo):
    repo = fixture_repo("aliases")
    store, report = index_repo(repo)
    store.close()
    again = SqliteStore(Path(report.index_path))
    assert again.counts()["chunks"] == report.chunks
    assert again.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    hits = again.search('"encoder"', 5)
    assert hits and any("Encoder" in c.text for c, _ in hits)


def test_index_dir_override(fixture_repo, tmp_path, monkeypatch):
    repo = fixture_repo("aliases")
    monkeypatch.setenv("CODEHOP_INDEX_DIR", str(tmp_path / "elsewhere"))
    _, report = index_repo(repo)
    # one subfolder per repository, so repositories sharing CODEHOP_INDEX_DIR never evict each other
    assert report.index_path == str(tmp_path / "elsewhere" / repo_key(repo.resolve()) / "index.db")
    assert not (repo / ".codehop").exists()
    _, named = index_repo(repo, index_dir=tmp_path / "exact")
    assert named.index_path == str(tmp_path / "exact" / "index.db")


def test_syntax_error_still_yields_chunks(fixture_repo):
    """syntax_error/pkg/broken.py: a broken def between a valid class and a valid function."""
    store, report = index_repo(fixture_repo("syntax_error"))
    assert any("pkg/broken.py" in w and "syntax error" in w for w in report.warnings)
    names = {c.qualname for c in store.chunks_of_file("pkg/broken.py")}
    assert "pkg.broken.Survivor" in names


def test_non_utf8_and_binary_files(fixture_repo):
    """encodings: latin-1 file decoded with replacement + warning; binary .py skipped + warning."""
    store, report = index_repo(fixture_repo("encodings"))
    assert any("pkg/latin1.py" in w and "UTF-8" in w for w in report.warnings)
    assert any("pkg/binary.py" in w and "binary" in w for w in report.warnings)
    assert "pkg/binary.py" not in store.file_states()
    assert store.chunks_of_file("pkg/latin1.py")


def test_huge_file_skipped(fixture_repo):
    repo = fixture_repo("huge_file")
    (repo / "pkg/generated.py").write_text("".join(f"V{i} = {i}\n" for i in range(120_000)))
    store, report = index_repo(repo)
    assert any("pkg/generated.py" in w and "cap" in w for w in report.warnings)
    assert "pkg/generated.py" not in store.file_states()
    assert store.chunks_of_file("pkg/small.py")


def test_symlink_out_of_repo_not_followed(fixture_repo, tmp_path):
    repo = fixture_repo("symlink_escape")
    outside = tmp_path / "outside_secret.py"
    outside.write_text("SECRET = 1\n")
    os.symlink(outside, repo / "pkg/outside.py")
    os.symlink(repo / "pkg", repo / "pkg/loop")  # a directory symlink loop
    store, report = index_repo(repo)
    assert "pkg/outside.py" not in store.file_states()
    assert any("pkg/outside.py" in w and "symlink" in w for w in report.warnings)
    assert not any("SECRET" in c.text for f in store.file_states() for c in store.chunks_of_file(f))


@pytest.mark.parametrize("bad", ["missing", "file"], ids=["does-not-exist", "not-a-directory"])
def test_bad_repo_path(tmp_path, bad):
    path = tmp_path / "nope"
    if bad == "file":
        path.write_text("x")
    with pytest.raises(RepoNotFoundError) as err:
        index_repo(path)
    assert err.value.exit_code == 2


@pytest.mark.parametrize("damage", ["garbage", "foreign"], ids=["corrupt-file", "foreign-sqlite"])
def test_corrupt_or_foreign_index_is_moved_aside_and_rebuilt(fixture_repo, damage):
    repo = fixture_repo("aliases")
    _, report = index_repo(repo)
    db = Path(report.index_path)
    for suffix in ("-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    if damage == "garbage":
        db.write_bytes(b"this is not sqlite" * 100)
    else:
        db.unlink()
        conn = sqlite3.connect(db)
        conn.execute("CREATE TABLE unrelated (x)")
        conn.commit()
        conn.close()
    store, again = index_repo(repo)
    assert again.rebuilt and store.counts()["chunks"] == report.chunks
    aside = [p for p in db.parent.iterdir() if p.name.startswith("index.db.") and "tmp" not in p.name]
    assert aside, "the damaged index must be kept, not deleted"


def test_nothing_written_outside_codehop_dir(fixture_repo):
    repo = fixture_repo("reexport_chain")
    before = {p for p in repo.rglob("*")}
    index_repo(repo)
    after = {p for p in repo.rglob("*")}
    assert all(".codehop" in p.parts for p in after - before)


def test_an_edit_that_moves_lines_updates_only_what_points_into_the_file(fixture_repo):
    """reexport_chain: lines added at the top of shop/api/cart.py move `Cart` (4 -> 6) and `add`
    (12 -> 14); references into the file follow, and files that merely point there are not redone."""
    repo = fixture_repo("reexport_chain")
    store, _ = index_repo(repo)
    flow_before = store.xrefs(rel_path="shop/api/flow.py")
    cart = repo / "shop/api/cart.py"
    cart.write_text("# one\n# two\n" + cart.read_text())
    store, report = index_repo(repo)
    assert report.parsed == 1
    into = {(x.rel_path, x.anchor_text): x.target_line for x in store.xrefs() if x.target_path == "shop/api/cart.py"}
    assert into[("shop/__init__.py", "Cart")] == 6 and into[("shop/api/__init__.py", "Cart")] == 6
    assert store.xrefs(rel_path="shop/api/flow.py") == flow_before
    assert SymbolTable(store).resolve("shop.Cart.add").target.line == 14
