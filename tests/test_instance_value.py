"""A value that is one call of a repository class (`widget = widgets.NumberInput(step=1)` in a class
body) holds an instance of that class: "which class, and where is it" is answered only with the
class's declaration, as for `self.x = Maker(...)` in a method. Fixture `instance_value` (see
fixtures_repos/README.md)."""

from __future__ import annotations

import pytest

from codehop.answer.orchestrator import Limits
from codehop.app import App
from codehop.kernel.records import State
from codehop.reading.signatures import instantiated


def _ask(app: App, question: str):  # type: ignore[no-untyped-def]
    return app.navigator().ask(question, Limits()).to_dict()


def test_the_class_a_value_instantiates_is_a_finding(fixture_repo):  # type: ignore[no-untyped-def]
    app = App(fixture_repo("instance_value"))
    try:
        d = _ask(app, "which widget class does CountField render with, and where is it?")
        assert ("forms/widgets.py", 10) in {(c["path"], c["start_line"]) for c in d["context"]}
        assert d["state"] == State.COMPLETE
        assert "forms/widgets.py:10" in d["answer"] and "class NumberInput" in d["answer"]
    finally:
        app.close()


def test_a_value_made_outside_the_repository_needs_nothing_more(fixture_repo):  # type: ignore[no-untyped-def]
    """`limit = int("10")`: the callee is a builtin; answered from the class alone."""
    app = App(fixture_repo("instance_value"))
    try:
        d = _ask(app, "what is CountField.limit?")
        assert d["state"] == State.COMPLETE and d["hops"] == []
        assert "forms/widgets.py:10" not in d["answer"]
    finally:
        app.close()


@pytest.mark.parametrize(
    ("value", "callee"),
    [
        ("widgets.NumberInput(step=1)", "widgets.NumberInput"),
        ("Namespace()", "Namespace"),
        ("Namespace() or None", ""),
        ("make()()", ""),
        ("BASE * 2", ""),
        ("x", ""),
        ("(", ""),
    ],
)
def test_instantiated(value: str, callee: str) -> None:
    assert instantiated(value) == callee
