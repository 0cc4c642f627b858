"""Words whose initials spell a name part the repository uses ("least-recently-used" -> `lru`)
stand for that part; a class found for "what is raised" is no answer by itself.

Fixture `acronym_names` (fixtures_repos/README.md): `Cache` (cachekit/caches.py:4) whose `popitem`
(:11) raises `KeyError` when empty; `LRUCache` (:17) and `FIFOCache` (:24) extend it.
"""

from __future__ import annotations

import pytest
from shared import ask, fixture_app

from codehop.app import App
from codehop.kernel.records import State
from codehop.reading.grounding import question_terms
from codehop.reading.intent import read_question


@pytest.fixture(scope="module")
def app(tmp_path_factory):  # type: ignore[no-untyped-def]
    yield from fixture_app("acronym_names", tmp_path_factory)


@pytest.mark.parametrize(
    ("question", "run", "part"),
    [
        ("which entry does a least-recently-used cache drop?", "least recently used", "lru"),
        ("which entry does a first in first out cache drop?", "first in first out", "fifo"),
    ],
)
def test_words_whose_initials_spell_a_name_part_are_that_part(app: App, question: str, run: str, part: str) -> None:
    words = {w.text: w for w in question_terms(read_question(question), app.store)}
    assert part in words[run].forms
    assert not set(run.split()) & set(words)  # (no longer words of their own)


def test_no_acronym_where_the_repository_has_no_such_part(app: App) -> None:
    words = {
        w.text for w in question_terms(read_question("which entry does a most recently used cache drop?"), app.store)
    }
    assert {"recently", "used"} <= words  # (`mru` is no name part here)


def test_a_run_opens_with_a_word_of_its_own(app: App) -> None:
    # ("what's the default": the letter a contraction leaves, an article, then a word, spell `std`)
    words = {w.text for w in question_terms(read_question("what's the default stream?"), app.store)}
    assert "default" in words and not any(" " in w for w in words)


def test_a_class_described_by_an_acronym_is_the_subject(app: App) -> None:
    a = ask(app, "where is the least-recently-used cache defined?")
    assert a.state is State.COMPLETE
    assert "`cachekit.caches.LRUCache` is declared at cachekit/caches.py:17" in a.answer


def test_what_is_raised_asked_of_a_class_alone_is_partial(app: App) -> None:
    a = ask(app, "what exception is raised when a first-in-first-out cache is empty?")
    assert a.state is not State.COMPLETE
    assert "asks what is raised" in a.answer
