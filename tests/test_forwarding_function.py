"""A function whose whole body hands its parameters on to one call only points at the callee:
its answer needs the callee's declaration. Fixture `forwarding_function` (see fixtures_repos/README.md):
`clock.api.now(tz=None)` is `return _default.now(tz)` (clock/api.py:6-8), `_default = Factory()`
(line 3), `Factory.now` at clock/factory.py:2; `clock.api.parse` changes its argument first (line 12)."""

from __future__ import annotations

import pytest

from codehop.answer.orchestrator import Limits
from codehop.app import App
from codehop.kernel.records import State
from codehop.reading.signatures import forwarded_call


@pytest.mark.parametrize(
    ("source", "callee"),
    [
        ("def get(*args, **kwargs):\n    '''Doc.'''\n    return _factory.get(*args, **kwargs)\n", "_factory.get"),
        ("def now(tz=None):\n    return _default.now(tz)\n", "_default.now"),
        ("def close(self):\n    self._inner.close()\n", "self._inner.close"),
        ("async def fetch(self, url, *, timeout):\n    return await self.send(url, timeout=timeout)\n", "self.send"),
        ("def utcnow():\n    return _factory.utcnow()\n", "_factory.utcnow"),
        ("def parse(text, strict=False):\n    return _default.parse(text.strip(), strict)\n", ""),
        ("def info(self, event, **kw):\n    return self._proxy('info', event, **kw)\n", ""),
        ("def pair(a, b):\n    return make(a)\n", ""),
        ("def two(a):\n    log(a)\n    return make(a)\n", ""),
        ("def value():\n    return CONSTANT\n", ""),
    ],
    ids=[
        "splat",
        "named",
        "method-no-return",
        "await-keyword",
        "no-parameters",
        "argument-changed",
        "literal-added",
        "parameter-dropped",
        "two-statements",
        "not-a-call",
    ],
)
def test_forwarded_call(source: str, callee: str) -> None:
    assert forwarded_call(source) == callee


def test_the_callee_of_a_forwarding_function_is_needed(fixture_repo):  # type: ignore[no-untyped-def]
    app = App(fixture_repo("forwarding_function"))
    try:
        d = app.navigator().ask("what does clock.api.now do?", Limits()).to_dict()
        assert ("clock/factory.py", 2) in {(c["path"], c["start_line"]) for c in d["context"]}
        assert "clock/factory.py:2" in d["answer"] and "clock.factory.Factory.now" in d["answer"]
        assert d["state"] == State.COMPLETE
    finally:
        app.close()


def test_a_function_that_changes_its_arguments_is_its_own_answer(fixture_repo):  # type: ignore[no-untyped-def]
    app = App(fixture_repo("forwarding_function"))
    try:
        d = app.navigator().ask("what does clock.api.parse do?", Limits()).to_dict()
        assert d["state"] == State.COMPLETE and "clock/factory.py:7" not in d["answer"]
    finally:
        app.close()
