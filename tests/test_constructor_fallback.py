"""A value asked of a class the words describe: its subclasses are no rivals, and the
constructor parameter whose replacement the words name is the value asked.

Fixture `constructor_fallback` (fixtures_repos/README.md): `GuardedRunner` (lockkit/machines.py:24,
"safe to share between threads") whose `__init__(self, states=None, contexts=None)` (:27)
puts `listify(contexts) or [CopyableMutex()]` (:28) in place of `None`; `CopyableMutex`
(:12); two subclasses that mix it in, `GuardedDrawingRunner` (:33) and `GuardedNestedRunner` (:37);
`Engine.shift(self, gear="neutral")` (:44) and its override `TurboEngine.shift` (:51).
"""

from __future__ import annotations

import pytest
from shared import FIXTURES, copy_fixture

from codehop.answer.orchestrator import Limits
from codehop.app import App, Config
from codehop.kernel.records import State
from codehop.reading.grounding import _declared_first, ground
from codehop.reading.intent import read_question

QUESTION = "which mutex guards a thread-safe runner unless I pass my own contexts?"


@pytest.fixture(scope="module")
def app(tmp_path_factory):  # type: ignore[no-untyped-def]
    a = App(
        copy_fixture(FIXTURES / "constructor_fallback", tmp_path_factory.mktemp("ctor") / "constructor_fallback"),
        Config(),
    )
    yield a
    a.close()


def test_the_subclasses_of_the_class_the_words_name_are_no_rivals(app: App) -> None:
    g = ground(read_question(QUESTION), app.store)
    assert [s.hit.qualname for s in g.subjects] == ["lockkit.machines.GuardedRunner"]


def test_the_constructor_parameter_whose_replacement_the_words_name_answers(app: App) -> None:
    a = app.navigator().ask(QUESTION, Limits())
    assert a.state is State.COMPLETE
    assert "Parameter `contexts` of `lockkit.machines.GuardedRunner.__init__`" in a.answer
    assert "it becomes `[CopyableMutex()]`" in a.answer  # (`listify(contexts) or [...]`)
    assert any(c.chunk.qualname == "lockkit.machines.CopyableMutex" for c in a.context)


@pytest.mark.parametrize(
    "question",
    [
        "what gear does an engine shift to if I don't give one?",
        "what is the gear an engine shifts to if I don't give one?",
    ],
)
def test_the_parameter_the_asked_noun_names_is_the_value(app: App, question: str) -> None:
    # (`Engine.shift(self, gear="neutral")`; "what is the gear ...": the noun after the article)
    a = app.navigator().ask(question, Limits())
    assert a.state is State.COMPLETE
    assert 'Parameter `gear` of `lockkit.machines.Engine.shift` defaults to `"neutral"`' in a.answer


def test_a_namesake_in_a_base_answers_before_an_override_the_words_do_not_name(app: App) -> None:
    g = ground(read_question("what gear does an engine shift to if I don't give one?"), app.store)
    by_name = {c.hit.qualname: c for c in g.candidates}
    override, base = by_name["lockkit.machines.TurboEngine.shift"], by_name["lockkit.machines.Engine.shift"]
    assert _declared_first(app.store, [override, base]) is base  # (the words say nothing of "turbo")
    turbo = ground(read_question("what gear does a turbo engine shift to if I don't give one?"), app.store)
    assert [s.hit.qualname for s in turbo.subjects] == ["lockkit.machines.TurboEngine.shift"]
