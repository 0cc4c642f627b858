"""A class attribute is answered where it is assigned: when Jedi lands an attribute on an
`X = Y` of the repository, the chain keeps that assignment and the symbol table follows `Y`
on (before, Jedi's inference jumped straight to `Y`'s class and the assignment was lost); a
second ask, served from the row the first one wrote, keeps it too.

Fixture `assigned_attribute` (fixtures_repos/README.md): `Reader.read` calls
`self.block.state_cls()` (parsekit/reader.py:9), `self.block = block or BlockParser()`;
`BlockParser.state_cls = BlockState` (parsekit/parser.py:5); `BlockState` at parsekit/state.py:1;
`Reader.result_class = TokenResult` (parsekit/reader.py:6) and the property `Reader.result ->
BaseResult` that returns `self.result_class(...)` (:17): what it returns is decided by the class
attribute, whatever the annotation says.
"""

from __future__ import annotations

import pytest
from shared import fixture_app

from codehop.answer.orchestrator import Limits
from codehop.app import App
from codehop.kernel.records import Answer, State


@pytest.fixture(scope="module")
def app(tmp_path_factory):  # type: ignore[no-untyped-def]
    yield from fixture_app("assigned_attribute", tmp_path_factory)


def chain(answer: Answer) -> list[tuple[str, int]]:
    return [(s.to_loc.rel_path, s.to_loc.line) for h in answer.hops for r in h.resolved for s in r.resolution.steps]


@pytest.mark.parametrize("round_", ["landed", "cached"])
def test_the_assignment_stays_in_the_chain(app: App, round_: str) -> None:
    a = app.navigator().ask("what class is Reader.block.state_cls?", Limits())
    assert a.state is State.COMPLETE
    assert ("parsekit/parser.py", 5) in chain(a)  # `state_cls = BlockState`
    assert chain(a)[-1] == ("parsekit/state.py", 1)
    assert any(
        c.chunk.rel_path == "parsekit/parser.py" and c.chunk.start_line <= 5 <= c.chunk.end_line for c in a.context
    )
    if round_ == "cached":
        assert any(s.note == "cached" for h in a.hops for r in h.resolved for s in r.resolution.steps)


@pytest.mark.parametrize(
    "question", ["what type does Reader.result return?", "Reader.result: what class is it, and where is that class?"]
)
def test_a_returned_class_attribute_decides_the_type(app: App, question: str) -> None:
    a = app.navigator().ask(question, Limits())
    assert a.state is State.COMPLETE
    assert "`parsekit.reader.Reader.result_class`" in a.answer and "TokenResult" in a.answer
    for path, line in (("parsekit/reader.py", 6), ("parsekit/result.py", 8)):
        assert any(c.chunk.rel_path == path and c.chunk.start_line <= line <= c.chunk.end_line for c in a.context)
