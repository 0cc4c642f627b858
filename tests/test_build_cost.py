"""What makes a full build cheaper must not change what it writes: the search terms derived in
one pass per identifier (`terms._ident_terms`, `declaration_terms`) against the plain derivation
from `name_parts`, `name_terms` and `text_terms`, on the declarations tree-sitter finds in
fixtures_repos/vocabulary and fixtures_repos/described_in_words; `is_word` by either of its
bisections; and a build runs with the cyclic garbage collector off, turned back on after."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from codehop.index import terms
from codehop.index.chunking import parse_rows
from codehop.index.indexer import index_repo
from codehop.index.terms import declaration_terms, first_sentence, is_word, name_parts, name_terms, text_terms


def _plain(qualname: str, params: str, doc: str, assigns: str) -> tuple[str, ...]:
    """The term columns as docs/vocabulary.md defines them, one identifier at a time."""
    scope, _, name = qualname.rpartition(".")

    def joined(identifiers: list[str]) -> str:
        return " ".join(dict.fromkeys(t for i in identifiers for t in name_terms(i)))

    odd = [
        p
        for i in [name, *params.split(), *assigns.split()]
        for p in name_parts(i)
        if len(p) >= 2 and p.isalpha() and not is_word(p)
    ]
    return (
        joined([name]),
        joined(scope.split(".")),
        joined(params.split()),
        " ".join(dict.fromkeys(text_terms(first_sentence(doc)))) if doc else "",
        joined(assigns.split()),
        " ".join(dict.fromkeys(odd)),
    )


def _declarations(root: Path) -> list[tuple[str, str, str, str]]:
    """(qualname, params, doc, assigns) of every def, class and value binding tree-sitter finds,
    as the writer hands them to `declaration_terms`."""
    out: list[tuple[str, str, str, str]] = []
    for path in sorted(root.rglob("*.py")):
        rows = parse_rows(path.relative_to(root).as_posix(), path.read_bytes())
        out += [(c[4], c[10], c[7], c[11]) for c in rows[5] if len(c) > 10]
        out += [(f"{b[0]}.{b[1]}", "", "", "") for b in rows[6] if b[2] in ("value", "alias")]
    return out


@pytest.mark.parametrize("name", ["vocabulary", "described_in_words"])
def test_declaration_terms_are_the_plain_derivation(name: str, fixture_repo) -> None:  # type: ignore[no-untyped-def]
    decls = _declarations(fixture_repo(name))
    assert len(decls) > 5 and any(d[1] for d in decls) and any(d[2] for d in decls) and any(d[3] for d in decls)
    assert [declaration_terms(*d) for d in decls] == [_plain(*d) for d in decls]


@pytest.mark.parametrize("split_after", [0, 10**9], ids=["split list", "text"])
def test_is_word_answers_the_same_by_either_bisection(split_after: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past `_LOOKUPS_BEFORE_SPLIT` lookups `is_word` bisects the split list, before it the text:
    the same answers at both ends of the list, beyond them, and for a word and its near misses."""
    monkeypatch.setattr(terms, "_LOOKUPS_BEFORE_SPLIT", split_after)
    words = terms._dictionary().split()
    member = frozenset(words)
    tries = {words[0], words[-1], words[len(words) // 2], "", "zzzzzzzzz", "nl", "delim", "strip", "stripnl"}
    tries |= {w[:-1] for w in list(tries) if w} | {"a" + w for w in list(tries)}
    is_word.cache_clear()
    try:
        assert {t: is_word(t) for t in tries} == {t: t in member for t in tries}
    finally:
        is_word.cache_clear()


@pytest.mark.parametrize("enabled", [True, False], ids=["collector on", "collector off"])
def test_a_build_runs_without_cycle_collection(enabled: bool, fixture_repo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """fixtures_repos/vocabulary indexed into a real SQLite file: while it parses and writes, the
    cyclic collector is off; afterwards it is as the caller had it."""
    seen: dict[str, set[bool]] = {}
    (gc.enable if enabled else gc.disable)()
    try:
        store, report = index_repo(
            fixture_repo("vocabulary"),
            index_dir=tmp_path / "idx",
            progress=lambda phase, *_: seen.setdefault(phase, set()).add(gc.isenabled()),
        )
        store.close()
        assert report.parsed > 0
        assert gc.isenabled() is enabled
    finally:
        gc.enable()
    assert {phase: seen.get(phase) for phase in ("parse", "resolve", "write")} == dict.fromkeys(
        ("parse", "resolve", "write"), {False}
    )


def test_a_source_file_ends_with_its_stamp(tmp_path: Path) -> None:
    """`TreeStamp.unchanged` (every warm question) compares `sf[2:]` with the file's stat: the
    named tuple's last fields are `stamp`, in its order."""
    from codehop.index.walk import SourceFile

    sf = SourceFile(rel_path="a.py", abs_path=str(tmp_path / "a.py"), size=1, mtime_ns=2, ctime_ns=3, inode=4)
    assert sf[2:] == sf.stamp == (1, 2, 3, 4)


def test_builds_in_two_threads_share_one_pause() -> None:
    """Two builds overlapping in one process (an editor's server indexing a package while the
    repository updates): the collector stays off until the last one ends, then is back on."""
    from codehop.index.indexer import _no_cycle_collection

    gc.enable()
    try:
        first, second = _no_cycle_collection(), _no_cycle_collection()
        first.__enter__()
        second.__enter__()
        first.__exit__(None, None, None)
        assert not gc.isenabled()  # the second build still runs
        second.__exit__(None, None, None)
        assert gc.isenabled()
    finally:
        gc.enable()
