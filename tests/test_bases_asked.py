"""A question about what a class inherits from is answered by its bases' declarations (fixture
`diamond`: `class Left(Base)` at kinds/left.py:6, `Base` at kinds/base.py:4; `Right(Base)` at
kinds/right.py:6). Without them the class statement alone was labelled complete."""

from __future__ import annotations

import pytest

from codehop.answer.orchestrator import Limits
from codehop.app import App
from codehop.kernel.records import State
from codehop.reading.intent import read_question
from codehop.reading.question import SubjectFinder


@pytest.mark.parametrize(
    "question",
    ["what does Left inherit from?", "where is the parent class of Left?", "what's Left's base class and where is it?"],
)
def test_the_base_is_a_declaration_of_the_answer(fixture_repo, question):  # type: ignore[no-untyped-def]
    app = App(fixture_repo("diamond"))
    try:
        findings = app.generator().reader.read(read_question(question), [], {})  # type: ignore[attr-defined]
        targets = {f.resolution.target.qualname for f in findings if f.resolution is not None}
        assert {"kinds.left.Left", "kinds.base.Base"} <= targets, targets
        d = app.navigator().ask(question, Limits()).to_dict()
        assert d["state"] == State.COMPLETE
        assert "kinds/base.py:4" in d["answer"]
        assert any(c["path"] == "kinds/base.py" and c["start_line"] <= 4 <= c["end_line"] for c in d["context"])
    finally:
        app.close()


def test_a_question_without_the_relation_leaves_the_bases_out(fixture_repo):  # type: ignore[no-untyped-def]
    app = App(fixture_repo("diamond"))
    try:
        assert not SubjectFinder(app.table).read("what does Left.greet return?").bases
        findings = app.generator().reader.read(read_question("what does Left.greet return?"), [], {})  # type: ignore[attr-defined]
        assert "kinds.base.Base" not in {f.resolution.target.qualname for f in findings if f.resolution is not None}
    finally:
        app.close()
