"""The derived-terms table (`terms`, `terms_fts`) and its readers `SqliteStore.term_hits` and
`name_part_vocabulary`, on fixtures_repos/vocabulary (textparse/core.py: `read_rows(source,
stripnl=True, delim=",")` at :12, `ParserElement.DEFAULT_WHITE_CHARS` at :4; textparse/settings.py:
`MAX_MSG_LEN`, `cfg_path`), indexed into a real SQLite file and read by a reopened store."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from codehop.index.indexer import index_repo
from codehop.index.store.sqlite import SqliteStore
from codehop.index.terms import abbreviates, name_parts, text_terms


def _reopened(repo: Path) -> SqliteStore:
    store, _ = index_repo(repo)
    path = store.path
    store.close()
    return SqliteStore(path)


def test_words_find_the_declarations_their_abbreviations_name(fixture_repo):
    store = _reopened(fixture_repo("vocabulary"))
    strip = store.term_hits(text_terms("strip newlines"))
    assert strip[0].qualname == "textparse.core.read_rows"
    assert (strip[0].rel_path, strip[0].line, strip[0].end_line, strip[0].kind) == (
        "textparse/core.py",
        12,
        17,
        "function",
    )
    assert strip[0].matched == ()  # found by its parameter `stripnl`, not by its name
    white = store.term_hits(text_terms("whitespace"))  # one word; the constant splits it
    assert white[0].qualname == "textparse.core.ParserElement.DEFAULT_WHITE_CHARS"
    assert (white[0].line, white[0].kind, white[0].name_terms) == (4, "value", ("default", "white", "char"))
    column = store.term_hits(text_terms("the column of a location"))
    assert column[0].qualname == "textparse.core.col"  # its docstring's first sentence
    assert "col" in column[0].name_terms and column[0].matched == ()
    rows = store.term_hits(text_terms("split rows"))
    assert rows[0].qualname == "textparse.core.read_rows" and rows[0].matched == ("row",)
    assert store.term_hits([]) == [] and store.term_hits(["zzzz"]) == []
    written_as_one = store.term_hits(text_terms("stripnl"))  # the code splits it: strip nl
    assert written_as_one[0].qualname == "textparse.core.read_rows"


def test_name_part_vocabulary_holds_the_abbreviations(fixture_repo):
    store = _reopened(fixture_repo("vocabulary"))
    vocab = store.name_part_vocabulary()
    assert {"nl", "delim", "msg", "cfg", "strg"} <= vocab
    assert not {"strip", "white", "default", "source", "path"} & vocab  # dictionary words
    assert {p for p in vocab if abbreviates(p, "newline")} == {"nl"}
    assert {p for p in vocab if abbreviates(p, "delimiter")} == {"delim"}
    assert {p for p in vocab if abbreviates(p, "config")} == {"cfg"}


def test_an_incremental_update_changes_the_rows(fixture_repo):
    repo = fixture_repo("vocabulary")
    store = _reopened(repo)
    assert store.term_hits(text_terms("strip newlines"))[0].qualname == "textparse.core.read_rows"
    assert "nl" in store.name_part_vocabulary()
    core = repo / "textparse" / "core.py"
    core.write_text(core.read_text().replace("stripnl", "keepends").replace("def col(", "def column_of("))
    store.close()
    store = _reopened(repo)
    assert "nl" not in store.name_part_vocabulary()
    assert [h.qualname for h in store.term_hits(text_terms("strip newlines"))] == []
    assert [h.qualname for h in store.term_hits(text_terms("column"))] == ["textparse.core.column_of"]
    keep = store.term_hits(text_terms("keep ends"))
    assert [h.qualname for h in keep] == ["textparse.core.read_rows"]
    n_terms, n_fts = store.conn.execute(
        "SELECT (SELECT count(*) FROM terms), (SELECT count(*) FROM terms_fts)"
    ).fetchone()
    assert n_terms == n_fts == 8  # no row left behind by the update


@pytest.mark.slow
def test_an_installed_package_index_has_the_terms(app_with_venv: Path, tmp_path: Path, monkeypatch) -> None:
    """fixtures_repos/app_with_venv with a real `.venv` holding minireq 1.2.0 (tests/data/minireq):
    the package's own index, built into the shared cache on first use, has the derived terms
    (`HTTPAdapter.__init__(self, pool_connections=10, pool_maxsize=10, max_retries=0)`,
    minireq/adapters.py:7)."""
    from codehop.app import App

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    monkeypatch.delenv("CODEHOP_PYTHON", raising=False)
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.setenv("CODEHOP_BRIDGE", "0")
    app = App(app_with_venv)
    try:
        app.ask("Which parameters does HTTPAdapter take?")
        assert app.packages is not None
        [pkg] = app.packages.indexed()
        hits = pkg.mount.store.term_hits(text_terms("pool max size"))
        assert hits[0].qualname == "minireq.adapters.HTTPAdapter.__init__"
        assert hits[0].rel_path == "minireq/adapters.py" and hits[0].line == 7
    finally:
        app.close()


_READER = """
import json, sys
from pathlib import Path
from codehop.index.store.sqlite import SqliteStore
from codehop.index import terms
SqliteStore(Path(sys.argv[1])).conn
print(json.dumps([[terms.name_parts(i) for i in sys.argv[2:]], terms._segmenter.cache_info().currsize]))
"""


def _fresh_reader(index: Path, *identifiers: str) -> tuple[list[list[str]], int]:
    """A fresh interpreter that opens the index and splits `identifiers`: (their parts, whether it
    built the segmenter's model)."""
    out = subprocess.run(
        [sys.executable, "-c", _READER, str(index), *identifiers], capture_output=True, text=True, check=True
    )
    parts, built = json.loads(out.stdout)
    return parts, built


def test_a_reader_splits_indexed_code_without_the_segmenters_model(fixture_repo):
    """fixtures_repos/vocabulary: `read_rows(source, stripnl=True, ...)` (textparse/core.py:12),
    `ParserElement.__init__(self, savelist=False)` (:7), `verbose_stacktrace` (:5). The index keeps
    what the segmenter made of each run of letters it split, so a reader in a fresh process splits
    those names as the indexer did without building the model (60-100 ms, which every question
    paid); a name the index never saw is still split, by the model. An update keeps the runs of
    the code it adds."""
    repo = fixture_repo("vocabulary")
    store, _ = index_repo(repo)
    path = store.path
    store.close()
    names = ("stripnl", "savelist", "verbose_stacktrace", "textparse")
    assert [list(name_parts(n)) for n in names] == [
        ["strip", "nl"],
        ["save", "list"],
        ["verbose", "stack", "trace"],
        ["text", "parse"],
    ]
    assert _fresh_reader(path, *names) == ([list(name_parts(n)) for n in names], 0)
    assert _fresh_reader(path, "rowsquicklyread") == ([["rows", "quickly", "read"]], 1)
    core = repo / "textparse" / "core.py"
    core.write_text(core.read_text() + "\n\ndef rowsquicklyread(source):\n    return source\n")
    store, _ = index_repo(repo)
    store.close()
    assert _fresh_reader(path, "rowsquicklyread", "stripnl") == ([["rows", "quickly", "read"], ["strip", "nl"]], 0)
