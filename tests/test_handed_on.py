"""What a function ends up calling: a callee that hands its work on to its base's namesake
(`super().emit(...)` in an override of `emit`) is followed to it, in the list and the context.

Fixture `handed_on` (fixtures_repos/README.md): `StdLogger.info` (logkit/std.py:12) calls
`self.emit` (:13); `StdLogger.emit` (:7) calls `super().emit` (:10), `BaseLogger.emit` at
logkit/base.py:4.
"""

from __future__ import annotations

import pytest
from shared import fixture_app

from codehop.answer.orchestrator import Limits
from codehop.app import App
from codehop.kernel.records import State


@pytest.fixture(scope="module")
def app(tmp_path_factory):  # type: ignore[no-untyped-def]
    yield from fixture_app("handed_on", tmp_path_factory)


def test_the_base_a_callee_hands_on_to_is_called_too(app: App) -> None:
    a = app.navigator().ask("what does StdLogger.info end up calling?", Limits())
    assert a.state is State.COMPLETE
    assert "(via logkit.std.StdLogger.emit)" in a.answer
    assert "(via logkit.base.BaseLogger.emit), declared at logkit/base.py:4" in a.answer
    assert any(c.chunk.rel_path == "logkit/base.py" and c.chunk.start_line <= 4 <= c.chunk.end_line for c in a.context)
