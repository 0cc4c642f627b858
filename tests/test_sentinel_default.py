"""A default that is a sentinel is followed to where the sentinel is replaced; a parameter the
words name is the value asked; a signature keeps every parameter after a comment; two letters
stand for a word only where the repository does not spell it.

Fixture `sentinel_default` (fixtures_repos/README.md): `_UNSET = object()` (signkit/low.py:3);
`Signer.sign(self, payload, key, scheme=_UNSET)` (:14) replaces it with a decision ending in
`"plain-sha"` (:16-19); `Client.sign` (signkit/high.py:11), whose header has a comment after
`scheme=_UNSET`, hands `scheme` on to `self._signer.sign` (`self._signer = Signer()`, :9);
`verify(token, leeway=_UNSET)` (:29) tests its sentinel nowhere; `ECKey` beside `encode`;
`remember(store, key=keys.make_key)` (:33), `make_key` at signkit/keys.py:4.
"""

from __future__ import annotations

import pytest
from shared import ask, fixture_app, holds

from codehop.app import App
from codehop.kernel.records import State
from codehop.reading.grounding import question_terms
from codehop.reading.intent import read_question
from codehop.reading.signatures import parameters


@pytest.fixture(scope="module")
def app(tmp_path_factory):  # type: ignore[no-untyped-def]
    yield from fixture_app("sentinel_default", tmp_path_factory)


def test_a_parameter_the_words_name_is_the_value_asked(app: App) -> None:
    a = ask(app, "which scheme is used to sign a payload if I don't pick one?")
    assert a.state is State.COMPLETE
    assert "Parameter `scheme` of `signkit.low.Signer.sign`" in a.answer
    assert '"plain-sha"' in a.answer and holds(a, "signkit/low.py", 16)


def test_a_sentinel_handed_on_is_followed_to_where_it_is_replaced(app: App) -> None:
    a = ask(app, "which scheme does the client's sign use if I don't pick one?")
    assert a.state is State.COMPLETE
    assert "Parameter `scheme` of `signkit.high.Client.sign`" in a.answer
    # (`self._signer.sign(payload, key, scheme)`: the Signer its constructor makes)
    assert "Left at `_UNSET`" in a.answer and '"plain-sha"' in a.answer
    assert holds(a, "signkit/low.py", 16)


def test_a_sentinel_replaced_nowhere_is_partial(app: App) -> None:
    a = ask(app, "what leeway does verify allow if I don't pass one?")
    assert a.state is not State.COMPLETE
    assert "bare sentinel (`object()`)" in a.answer


def test_a_signature_keeps_the_parameters_after_a_comment(app: App) -> None:
    (chunk,) = app.store.chunks_named("signkit.high.Client.sign")
    assert "#" not in chunk.signature
    assert [p.name for p in parameters(chunk.signature)] == ["self", "payload", "key", "scheme", "headers"]


def test_two_letters_do_not_stand_for_a_word_the_repository_spells(app: App) -> None:
    (encode, _) = question_terms(read_question("what does encode do with the payload?"), app.store)
    assert encode.text == "encode" and "ec" not in encode.abbreviations  # (`ECKey` beside `encode`)


@pytest.mark.parametrize(
    "question",
    [
        "which payloads are signed with a scheme if I do not pick one?",  # the value asked is not `scheme`
        "which payload does the signer sign by default?",  # `payload` has no default: no value to give
    ],
)
def test_a_parameter_is_the_value_asked_only_when_the_question_asks_for_it(app: App, question: str) -> None:
    a = ask(app, question)
    assert a.state is not State.COMPLETE
    assert "Parameter `payload`" not in a.answer and "Parameter `scheme`" not in a.answer


def test_where_something_a_callable_uses_is_declared_follows_the_parameter_the_words_name(app: App) -> None:
    # `remember(store, key=keys.make_key)`: "the function that builds the key" is the default of `key`
    a = ask(
        app, "where is the function defined that builds the key for remembered results when I don't pass my own key?"
    )
    assert a.state is State.COMPLETE
    assert "`signkit.high.keys.make_key` is declared at signkit/keys.py:4" in a.answer
    assert holds(a, "signkit/keys.py", 4)
