"""A property with a setter (fixture `property_setter`, see fixtures_repos/README.md): the name is
bound last by `@level.setter` (gauge/meter.py:12-14), but what reading `Meter.level` gives is the
`@property` getter (gauge/meter.py:7-10). The getter is a declaration the answer needs."""

from __future__ import annotations

from codehop.answer.orchestrator import Limits
from codehop.app import App
from codehop.kernel.records import State
from codehop.reading.intent import read_question


def test_the_getter_is_needed_and_answered(fixture_repo):  # type: ignore[no-untyped-def]
    app = App(fixture_repo("property_setter"))
    try:
        # with nothing in the context, the getter is a pending reference of its own, at its def line
        findings = app.generator().reader.read(read_question("what does Meter.level return?"), [], {})  # type: ignore[attr-defined]
        lines = {f.resolution.target.line for f in findings if f.resolution is not None}
        assert lines == {13, 8}, lines
        assert all(f.pending for f in findings)
        d = app.navigator().ask("what does Meter.level return?", Limits()).to_dict()
        assert d["state"] == State.COMPLETE
        assert "gauge/meter.py:8" in d["answer"] and "def level(self) -> int" in d["answer"]
        assert any(c["start_line"] <= 8 <= c["end_line"] for c in d["context"])
    finally:
        app.close()


def test_a_property_without_setter_is_one_declaration(fixture_repo):  # type: ignore[no-untyped-def]
    """annotated_attribute: `spare` has no setter; one finding, at its def line."""
    app = App(fixture_repo("annotated_attribute"))
    try:
        findings = app.generator().reader.read(read_question("what is Manager.spare?"), [], {})  # type: ignore[attr-defined]
        spare = [f for f in findings if f.subject.dotted.endswith("spare")]
        assert [f.resolution.target.line for f in spare if f.resolution is not None] == [13]
    finally:
        app.close()
