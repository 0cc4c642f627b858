"""Words that spell a class declared twice (fixture `spelt_namesakes`, see fixtures_repos/README.md):
"connection factory" spells `ConnectionFactory` in wiring/factories.py:1 and in wiring/fakes.py:1,
which the words cannot tell apart, and the setting `Config.connection_factory` (wiring/config.py:7,
`= DEFAULT_FACTORY`, itself `ConnectionFactory()` at wiring/config.py:3). The setting is read, and
its value is followed through the name between to the class it makes."""

from __future__ import annotations

from codehop.answer.orchestrator import Limits
from codehop.app import App
from codehop.kernel.records import State
from codehop.reading.question import SubjectFinder


def test_a_class_spelt_by_two_declarations_is_not_guessed(fixture_repo):  # type: ignore[no-untyped-def]
    app = App(fixture_repo("spelt_namesakes"))
    try:
        read = SubjectFinder(app.table).read("what's the default connection factory?")
        assert [s.dotted for s in read.subjects] == ["wiring.config.Config.connection_factory"]
    finally:
        app.close()


def test_a_value_named_by_a_name_between_answers_with_the_class_it_makes(fixture_repo):  # type: ignore[no-untyped-def]
    app = App(fixture_repo("spelt_namesakes"))
    try:
        d = app.navigator().ask("what's the default connection factory?", Limits()).to_dict()
        assert d["state"] == State.COMPLETE
        assert "DEFAULT_FACTORY = ConnectionFactory()" in d["answer"]
        assert "ConnectionFactory` is declared at wiring/factories.py:1" in d["answer"]
        assert "wiring/fakes.py" not in d["answer"]
    finally:
        app.close()
