"""`complete` means answered: a question in words, read as a declaration that leaves most of its
words unexplained, is partial, names those words and what they came close to.

Fixture `unsaid_words` (fixtures_repos/README.md): `Config.__init__` assigns `self.keys`
(confkit/config.py:8); `LayeredConfig(Config)` (:11); `NestedKey.separator = "."` (:24), the
character that separates the names of a nested key.
"""

from __future__ import annotations

import pytest
from shared import ask, fixture_app

from codehop.app import App
from codehop.kernel.records import State


@pytest.fixture(scope="module")
def app(tmp_path_factory):  # type: ignore[no-untyped-def]
    yield from fixture_app("unsaid_words", tmp_path_factory)


def test_a_reading_that_leaves_most_words_unexplained_is_partial(app: App) -> None:
    # "layered config" spells the class, "keys" an attribute its base assigns: what the question
    # asks (which character separates the names of nested keys) is said by none of it
    a = ask(app, "which character separates the names of nested keys when a layered config looks them up?")
    assert a.state is not State.COMPLETE
    assert "'separates'" in a.answer and "'nested'" in a.answer
    assert "`confkit.config.NestedKey.separator`" in a.answer  # what the words came close to


@pytest.mark.parametrize(
    ("question", "line"),
    [
        ("where are the keys of a layered config kept?", 8),  # the reading says what is asked
        ("what separator does a nested key split its text on?", 24),  # grounded by the words
    ],
)
def test_a_reading_that_explains_the_words_stays_complete(app: App, question: str, line: int) -> None:
    a = ask(app, question)
    assert a.state is State.COMPLETE
    assert any(
        c.chunk.rel_path == "confkit/config.py" and c.chunk.start_line <= line <= c.chunk.end_line for c in a.context
    )
    assert "unexplained" not in a.answer


def test_a_function_asked_for_and_an_attribute_read_is_partial(app: App) -> None:
    # ("its keys": the attribute `Config.__init__` assigns; the question asks for a function)
    a = ask(app, "when a LayeredConfig looks a key up, which function holds its keys?")
    assert a.state is not State.COMPLETE
    assert "The question asks for a function" in a.answer


def test_a_function_asked_for_and_a_function_read_stays_complete(app: App) -> None:
    a = ask(app, "which function splits a NestedKey into parts?")
    assert a.state is State.COMPLETE
    assert "asks for a function" not in a.answer


def test_a_class_asked_for_and_only_the_named_one_read_is_partial(app: App) -> None:
    # ("which settings class does LayeredConfig load": another class than the one it names)
    a = ask(app, "which settings class does LayeredConfig load from a file?")
    assert a.state is not State.COMPLETE
    assert "asks for a class it does not name" in a.answer


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("which base class does LayeredConfig inherit from?", "`confkit.config.Config`"),
        ("which class declares `lookup`?", "`confkit.config.LayeredConfig.lookup`"),  # the member's class
    ],
)
def test_a_class_asked_for_and_another_class_read_stays_complete(app: App, question: str, said: str) -> None:
    a = ask(app, question)
    assert a.state is State.COMPLETE
    assert said in a.answer


def test_nothing_found_for_a_plain_word_is_partial(app: App) -> None:
    # ("lookup": an ordinary word that matches one name; no caller says it was the subject)
    a = ask(app, "what calls lookup?")
    assert a.state is not State.COMPLETE
    assert "plain word 'lookup'" in a.answer


@pytest.mark.parametrize("question", ["what calls `lookup`?", "what calls lookup()?"])
def test_nothing_found_for_a_name_written_as_code_is_an_answer(app: App, question: str) -> None:
    a = ask(app, question)
    assert a.state is State.COMPLETE
    assert "no sites found" in a.answer


def test_a_quoted_import_statement_names_no_member(app: App) -> None:
    # (`from` and `import` are Python's keywords: never the name of a member asked)
    a = ask(app, "Old code does `from confkit.config import LayeredConfig`. Which class does that give me?")
    assert "has no member" not in a.answer
    assert "`confkit.config.LayeredConfig` is declared at confkit/config.py:11" in a.answer


def test_code_named_and_not_read_leaves_the_words_to_decide(app: App) -> None:
    # (`gunicorn` names nothing here: the reading still came from the words, which it leaves unsaid)
    a = ask(
        app, "under `gunicorn`, which character separates the names of nested keys when a layered config looks them up?"
    )
    assert a.state is not State.COMPLETE
    assert "'separates'" in a.answer and "unexplained" in a.answer


def test_an_ordinary_word_is_never_not_understood(app: App) -> None:
    # ("load" asks something of the class the question names; no declaration is named by it)
    a = ask(app, "which settings class does LayeredConfig load from a file?")
    assert "Not understood" not in a.answer
    assert "What the words 'load' ask of `confkit.config.LayeredConfig` is not placed" in a.answer
