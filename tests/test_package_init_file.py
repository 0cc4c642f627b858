""" "The package __init__" names the package's file, not the constructor of the class the question
asks about: "where is notes.Notebook defined? the package __init__ just imports it" is answered with
`class Notebook` (through the re-export), not with `Notebook.__init__`. A `__init__` asked of the
class itself ("the Notebook __init__") is still the constructor. Fixture `package_init_file`."""

from __future__ import annotations

from codehop.answer.orchestrator import Limits
from codehop.app import App
from codehop.kernel.records import State


def _ask(app: App, question: str):  # type: ignore[no-untyped-def]
    return app.navigator().ask(question, Limits()).to_dict()


def test_the_package_init_is_the_file_not_the_constructor(fixture_repo):  # type: ignore[no-untyped-def]
    app = App(fixture_repo("package_init_file"))
    try:
        d = _ask(app, "where is notes.Notebook defined? the package __init__ just imports it")
        assert d["state"] == State.COMPLETE
        assert "notes/core.py:4" in d["answer"] and "class Notebook" in d["answer"]
        assert "Notebook.__init__" not in d["answer"]
    finally:
        app.close()


def test_the_init_of_a_named_class_is_its_constructor(fixture_repo):  # type: ignore[no-untyped-def]
    app = App(fixture_repo("package_init_file"))
    try:
        d = _ask(app, "what does the Notebook __init__ set title to?")
        assert "notes.core.Notebook.__init__" in d["answer"] and "notes/core.py:7" in d["answer"]
    finally:
        app.close()
