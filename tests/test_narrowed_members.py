"""A class the words name, narrowed to the member the rest of the words ask of: its name must
explain one of them, or what its body raises may (the class raised and the messages said: "when
the disk doesn't support locking"), and it must tell clearly more than any other member; a class
declared twice (one per platform) is narrowed through the members of both. A function that makes a class answers
"which class does it build".

Fixture `narrowed_members` (fixtures_repos/README.md): `BoundedQueue` (queuekit/bounded.py:4)
with `push` raising `QueueFull("the queue is full")` (:11), `pop` raising `QueueEmpty("the
queue is empty")` (:16), `peek` (:21), `save` raising `OSError(msg)` after `msg = "this disk
does not support locking"` (:24), `count_full_slots` (:29, raises nothing); `make_queue` returns a `BoundedQueue`; queuekit/codec.py: `decode` calls `_verify_claims`, which calls `_verify_aud` and `_verify_exp`.
"""

from __future__ import annotations

import pytest
from shared import ask, fixture_app

from codehop.app import App
from codehop.kernel.records import State
from codehop.reading.grounding import ground
from codehop.reading.intent import read_question


@pytest.fixture(scope="module")
def app(tmp_path_factory):  # type: ignore[no-untyped-def]
    yield from fixture_app("narrowed_members", tmp_path_factory)


@pytest.mark.parametrize(
    ("question", "member", "raised"),
    [
        ("what is raised when a bounded queue is already full?", "push", "QueueFull"),  # the class in words
        # the class as code (`count_full_slots` is named by "full" too, and raises nothing)
        ("what is raised when a BoundedQueue is already full?", "push", "QueueFull"),
        ("what exception is raised when you pop from a bounded queue that is empty?", "pop", "QueueEmpty"),
        # ("entry" is no data-model operation here: nothing in the class or in `object` is `__mro_entries__`)
        ("what exception is raised when you take an entry from an empty bounded queue?", "pop", "QueueEmpty"),
    ],
)
def test_the_member_the_words_ask_of_answers(app: App, question: str, member: str, raised: str) -> None:
    a = ask(app, question)
    assert a.state is State.COMPLETE
    assert f"`queuekit.bounded.BoundedQueue.{member}` is declared" in a.answer
    assert f"`queuekit.errors.{raised}`" in a.answer


def test_a_class_asked_for_itself_stays_the_class(app: App) -> None:
    a = ask(app, "where is the bounded queue defined?")
    assert a.state is State.COMPLETE
    assert "`queuekit.bounded.BoundedQueue` is declared" in a.answer and ".push" not in a.answer


def test_no_member_clearly_asked_leaves_the_class(app: App) -> None:
    # ("entries": every member holds them, none is named by the words)
    g = ground(read_question("what is raised when a bounded queue gets new entries?"), app.store)
    assert [s.hit.qualname for s in g.subjects] in ([], ["queuekit.bounded.BoundedQueue"])


def test_a_function_that_makes_the_class_answers_which_class(app: App) -> None:
    a = ask(app, "which queue class does make_queue build?")
    assert a.state is State.COMPLETE
    assert "The question asks for a class" not in a.answer


def test_a_value_asked_is_no_method_narrowed_to(app: App) -> None:
    # (`push` takes no parameter with a default: the value asked is not placed, not answered by it)
    a = ask(app, "what is the default when a bounded queue pushes?")
    assert a.state is not State.COMPLETE
    assert "`queuekit.bounded.BoundedQueue.push` is declared" not in a.answer


def test_a_raise_message_narrows_what_a_class_does(app: App) -> None:
    # (no exception asked: what the queue does when "the disk doesn't support locking" is the
    # member whose body says so as it raises, `save`)
    g = ground(read_question("what does a bounded queue do when the disk doesn't support locking?"), app.store)
    assert [s.hit.qualname for s in g.subjects] == ["queuekit.bounded.BoundedQueue.save"]


def test_the_member_narrowed_to_is_read_after_the_class(app: App) -> None:
    # (a subject or not, the member the words narrow the class to is among what the context reads)
    g = ground(read_question("what does a bounded queue do when the disk doesn't support locking?"), app.store)
    assert [c.hit.qualname for c in g.candidates][:2] == [
        "queuekit.bounded.BoundedQueue",
        "queuekit.bounded.BoundedQueue.save",
    ]


def test_the_constructor_of_the_class_created_is_not_the_class_asked(app: App) -> None:
    # ("when you create X, what class holds ...": X's `__init__` read is no answer; the class asked is another)
    a = ask(app, "When you create a BoundedQueue with all the defaults, what class ends up holding its entries?")
    assert a.state is not State.COMPLETE
    assert "asks for a class" in a.answer


def test_a_value_asked_of_a_constructor_names_its_parameter(app: App) -> None:
    # ("size" is no parameter of `BoundedQueue.__init__(limit=8)`: the value asked is not placed)
    a = ask(app, "If I create a BoundedQueue and never give it a size, how many entries will it hold?")
    assert a.state is not State.COMPLETE
    assert "asks for a value" in a.answer


@pytest.mark.parametrize(
    "question", ["how does decoding check the audience?", "how is the audience checked when a token is decoded?"]
)
def test_a_function_is_narrowed_to_the_callee_the_words_ask_of(app: App, question: str) -> None:
    # (`decode` reaches `_verify_aud` through `_verify_claims`, queuekit/codec.py: "aud" abbreviates
    # "audience"; the caller that passes the work on is no rival)
    g = ground(read_question(question), app.store)
    assert [s.hit.qualname for s in g.subjects] == ["queuekit.codec._verify_aud"]


def test_a_callee_outside_the_repository_explains_by_its_name(app: App) -> None:
    # (`signature_matches` calls `hmac.compare_digest`: "compared" is what its body does)
    g = ground(read_question("how is a signature compared?"), app.store)
    best = next(c for c in g.candidates if c.hit.qualname == "queuekit.codec.signature_matches")
    assert "compared" in best.explained
