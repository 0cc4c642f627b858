"""A value made by a call into code outside the repository (`logger = logging.getLogger(...)`):
asked what it does, with words neither it nor the call explains, the answer is partial (that is
decided by the outside code); asked where it is, it is complete; a value the repository makes
(`box = make_box()`) is answered by the repository.

Fixture `outside_made` (fixtures_repos/README.md): `notifykit.logger` (notifykit/__init__.py:7),
`notifykit.box` (:8) from `make_box` (notifykit/box.py:1).
"""

from __future__ import annotations

import pytest
from shared import ask, fixture_app

from codehop.app import App
from codehop.kernel.records import State


@pytest.fixture(scope="module")
def app(tmp_path_factory):  # type: ignore[no-untyped-def]
    yield from fixture_app("outside_made", tmp_path_factory)


def test_what_an_outside_made_value_does_is_decided_outside(app: App) -> None:
    a = ask(app, "where does the notifykit logger send its log records?")
    assert a.state is not State.COMPLETE
    assert "made by `logging.getLogger(...)`, outside the repository" in a.answer


@pytest.mark.parametrize(
    "question", ["where is the notifykit logger defined?", "where does the notifykit box come from?"]
)
def test_where_a_value_is_stays_complete(app: App, question: str) -> None:
    a = ask(app, question)
    assert a.state is State.COMPLETE
    assert "outside the repository" not in a.answer
