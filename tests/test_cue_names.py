"""A word that says what is asked names nothing (fixture `cue_names`, see fixtures_repos/README.md):
"which function calls ..." asks for callers, so "calls" does not spell `Emitter._call_handlers`
(relay/events.py:5) beside "handlers". And words the repository never uses count against a
subject that two words of its name matched."""

from __future__ import annotations

import pytest
from shared import fixture_app

from codehop.app import App
from codehop.reading.grounding import ground
from codehop.reading.intent import read_question


@pytest.fixture(scope="module")
def app(tmp_path_factory):  # type: ignore[no-untyped-def]
    yield from fixture_app("cue_names", tmp_path_factory)


def test_the_asking_word_does_not_spell_a_name(app: App) -> None:
    q = read_question(
        "which function calls the helper that patches one emitter so it also fires the handlers of another?"
    )
    assert [s.hit.qualname for s in ground(q, app.store).subjects] != ["relay.events.Emitter._call_handlers"]


def test_the_same_words_as_a_description_still_name_it(app: App) -> None:
    q = read_question("where are the registered handlers called for an event?")
    assert [s.hit.qualname for s in ground(q, app.store).subjects] == ["relay.events.Emitter._call_handlers"]


def test_words_the_repository_never_uses_count_against_a_thin_match(app: App) -> None:
    # (two words of a name, and four the code never says: the name does not explain the question)
    q = read_question("where are the handlers called after the emitter is wired, patched, marked and constructed?")
    assert ground(q, app.store).subjects == ()
    q = read_question("where are the handlers called once the emitter is wired and patched?")
    assert [s.hit.qualname for s in ground(q, app.store).subjects] == ["relay.events.Emitter._call_handlers"]
