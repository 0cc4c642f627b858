"""Words that spell two names (fixture `spelt_twice`, see fixtures_repos/README.md): "connection
factory" spells the class `ConnectionFactory` (wiring/factories.py:1) and the setting
`Config.connection_factory` (wiring/config.py:7, = `DEFAULT_FACTORY` at wiring/config.py:3). The
reading keeps both, so the answer names the setting's value too, not the class alone."""

from __future__ import annotations

from codehop.answer.orchestrator import Limits
from codehop.app import App
from codehop.kernel.records import State
from codehop.reading.question import SubjectFinder


def test_both_spellings_are_subjects(fixture_repo):  # type: ignore[no-untyped-def]
    app = App(fixture_repo("spelt_twice"))
    try:
        read = SubjectFinder(app.table).read("what's the default connection factory?")
        assert [s.dotted for s in read.subjects] == [
            "wiring.factories.ConnectionFactory",
            "wiring.config.Config.connection_factory",
        ]
        d = app.navigator().ask("what's the default connection factory?", Limits()).to_dict()
        assert d["state"] == State.COMPLETE
        assert "wiring/factories.py:1" in d["answer"] and "wiring/config.py:3" in d["answer"]
        assert "DEFAULT_FACTORY = ConnectionFactory()" in d["answer"]
    finally:
        app.close()


def test_a_class_spelt_alone_stays_one_subject(fixture_repo):  # type: ignore[no-untyped-def]
    """No snake_case namesake: "the retry policy" reads as the class `RetryPolicy` (wiring/factories.py:8) alone."""
    app = App(fixture_repo("spelt_twice"))
    try:
        read = SubjectFinder(app.table).read("what is the retry policy?")
        assert [s.dotted for s in read.subjects] == ["wiring.factories.RetryPolicy"]
    finally:
        app.close()
