"""codehop.reading.question_words: cue lists matched by stem, and the stop words from the
`stopwords` package (no repository needed)."""

from __future__ import annotations

import pytest

from codehop.reading.question_words import NEGATIONS, STOP, Cues, tokenize


@pytest.mark.parametrize(
    ("word", "matches"),
    [("call", True), ("calls", True), ("called", True), ("calling", True), ("caller", False), ("recall", False)],
)
def test_a_cue_matches_its_inflections(word, matches):
    assert (word in Cues(["call"])) is matches


def test_an_exact_cue_matches_as_written_only():
    cues = Cues(["override"], exact=["implementations"])
    assert "implementations" in cues and "overridden" not in cues and "overrides" in cues
    assert "implementation" not in cues
    assert {"implementations", "foo"} & cues == {"implementations"}


def test_a_phrase_matches_word_by_word():
    assert "call sites" in Cues(["call site"]) and "call" not in Cues(["call site"])


def test_stop_words_hold_the_parts_of_contractions():
    """The tokenizer cuts "doesn't" into doesn, t: both parts are stop words; "doesn" negates."""
    words = [t.low for t in tokenize("Why doesn't it wrap?")]
    assert words == ["why", "doesn", "t", "it", "wrap"]
    assert {"why", "doesn", "t", "it"} <= STOP and "wrap" not in STOP
    assert "doesn" in NEGATIONS and "can" not in NEGATIONS  # "can" of "can't" is a word of its own
