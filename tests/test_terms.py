"""The vocabulary derived from code (`codehop.index.terms`): identifiers from the benchmark
repositories (click, flask, httpx, jinja2, rich) and pyparsing's, split by hand first; the real
segmenter (wordninja), dictionary (wordsegment's word list) and stemmer (PyStemmer)."""

from __future__ import annotations

import pytest

from codehop.index.terms import abbreviates, first_sentence, is_word, name_parts, name_terms, stem, text_terms

SPLITS = [
    ("stripnl", ("strip", "nl")),  # pyparsing `stripnl` parameter: run-together, `nl` not a word
    ("tabsize", ("tab", "size")),
    ("maxMismatches", ("max", "mismatches")),  # camel case
    ("DEFAULT_WHITE_CHARS", ("default", "white", "chars")),  # snake case, upper
    ("HTTPTransport", ("http", "transport")),  # httpx: an acronym before a word
    ("lineno", ("line", "no")),
    ("isinstance", ("is", "instance")),
    ("dirname", ("dir", "name")),
    ("startswith", ("starts", "with")),
    ("autoescape", ("auto", "escape")),  # jinja2
    ("currentframe", ("current", "frame")),
    ("searchpath", ("search", "path")),  # jinja2 FileSystemLoader
    ("keep_trailing_newline", ("keep", "trailing", "newline")),  # jinja2: `newline` kept whole
    ("lstrip_blocks", ("lstrip", "blocks")),  # a two-part run kept when a piece is one letter
    ("getattr", ("getattr",)),  # wordninja says get at tr: rejected
    ("kwargs", ("kwargs",)),  # k war gs: rejected
    ("delim", ("delim",)),  # short runs are never segmented
    ("httpx", ("httpx",)),
    ("color2", ("color", "2")),
]


@pytest.mark.parametrize(("identifier", "parts"), SPLITS, ids=[s[0] for s in SPLITS])
def test_name_parts(identifier: str, parts: tuple[str, ...]) -> None:
    assert name_parts(identifier) == parts


def test_hand_split_set_is_mostly_right() -> None:
    """At least 55 of the 68 identifiers of docs/vocabulary.md split as by hand (59 measured)."""
    from pathlib import Path

    doc = (Path(__file__).parent.parent / "docs" / "vocabulary.md").read_text()
    table = doc.split("## The 68 identifiers, split by hand", 1)[1]
    rows = [line.split("|")[1:3] for line in table.splitlines() if line.startswith("| `")]
    gold = [(i.strip().strip("`"), tuple(p.split())) for i, p in rows]
    assert len(gold) == 68
    right = [i for i, parts in gold if name_parts(i) == parts]
    assert len(right) >= 55, sorted(set(i for i, _ in gold) - set(right))


TERMS = [
    ("DEFAULT_WHITE_CHARS", ("default", "white", "char")),
    ("stripnl", ("strip", "nl")),
    ("maxMismatches", ("max", "mismatch")),
    ("_backend_type", ("backend", "type")),
    ("settings_settings", ("set",)),  # once each
]


@pytest.mark.parametrize(("identifier", "terms"), TERMS, ids=[t[0] for t in TERMS])
def test_name_terms(identifier: str, terms: tuple[str, ...]) -> None:
    assert name_terms(identifier) == terms


TEXTS = [
    ("strip newlines", ("strip", "newlin")),
    ("How are passwords hashed?", ("how", "are", "password", "hash")),
    ("the priority queue's add()", ("the", "prioriti", "queue", "add")),  # possessive dropped
    ("is maxSize or max_size mismatched", ("is", "max", "size", "or", "max", "size", "mismatch")),
    ("HTTP timeouts", ("http", "timeout")),
]


@pytest.mark.parametrize(("text", "terms"), TEXTS, ids=[t[0] for t in TEXTS])
def test_text_terms(text: str, terms: tuple[str, ...]) -> None:
    assert text_terms(text) == terms


def test_question_and_name_meet() -> None:
    """A question's word and an identifier's part stem alike (`mismatched` ~ `maxMismatches`)."""
    assert stem("mismatched") in name_terms("maxMismatches")
    assert stem("tabs") in name_terms("tabsize")


ABBREVIATIONS = [
    ("nl", "newline", True),  # consonant skeleton
    ("msg", "message", True),
    ("cfg", "config", True),
    ("idx", "index", True),
    ("args", "arguments", True),
    ("delim", "delimiter", True),  # prefix
    ("env", "environment", True),
    ("cfg", "context", False),  # no `f` in context
    ("msg", "mass", False),  # `g` missing
    ("nl", "lane", False),  # another first letter
    ("del", "de", False),  # not shorter than the word
    ("dlm", "delimiter", True),  # the consonant skeleton
    ("delm", "delimiter", False),  # a vowel inside: neither a prefix nor a skeleton
    ("deli", "delimiter", True),  # prefix
    ("dali", "delimiter", False),  # a vowel that is not in order as a prefix
]


@pytest.mark.parametrize(
    ("part", "word", "expected"), ABBREVIATIONS, ids=[f"{p}~{w}" if e else f"{p}!~{w}" for p, w, e in ABBREVIATIONS]
)
def test_abbreviates(part: str, word: str, expected: bool) -> None:
    assert abbreviates(part, word) is expected


@pytest.mark.parametrize(
    ("part", "expected"),
    [("strip", True), ("delimiter", True), ("tab", True), ("nl", False), ("msg", False), ("cfg", False)],
    ids=["strip", "delimiter", "tab", "nl", "msg", "cfg"],
)
def test_is_word(part: str, expected: bool) -> None:
    assert is_word(part) is expected


def test_first_sentence() -> None:
    assert first_sentence("Strip newlines.  More here. And here.") == "Strip newlines."
    assert first_sentence("Title line\n\nBody.") == "Title line"


def test_the_segmenter_splits_as_wordninja() -> None:
    """`_ZipfSegmenter` is wordninja's model and dynamic program, built faster: the same splits as
    `wordninja.split` on the parts of the hand-split identifiers and more runs (5,545 runs of the
    five benchmark trees measured identical, docs/vocabulary.md)."""
    import wordninja

    from codehop.index.terms import _case_parts, _segmenter

    runs = {p for i, _ in SPLITS for p in _case_parts(i)} | {
        "stripnl",
        "maxmismatches",
        "querystring",
        "iteritems",
        "subprocess",
        "whitespace",
        "keepalive",
        "getattribute",
        "xmlhttprequest",
    }
    assert [_segmenter()(r) for r in sorted(runs)] == [wordninja.split(r) for r in sorted(runs)]


def test_is_word_bisects_the_sorted_list() -> None:
    """`is_word` bisects wordsegment's `words.txt` in its text, which holds only when the installed
    list is one word a line in sorted order; on a sample of its words and their near misses
    (a letter more, a letter less, upper case, a space, two lines) it answers as membership of the
    list's words does."""
    from importlib import resources

    text = resources.files("wordsegment").joinpath("words.txt").read_text(encoding="utf-8")
    words = text.split()
    assert text.split("\n")[:-1] == words == sorted(words)
    member = frozenset(words)
    sample = [*words[::17], words[0], words[-1]]
    tries = {m for w in sample for m in (w, w + "s", w[:-1], w[1:], "a" + w, w.upper(), w + " ", f"{w}\n{w}")}
    tries |= {"", " ", "\n", "a", "zzzzzzzz", "nl", "delim", "0"}
    assert {t for t in tries if is_word(t) != (t in member)} == set()
