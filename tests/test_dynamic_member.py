"""A member made at run time by `__getattr__` has no declaration: a language server asked for the
definition of `T.Word.Verb` lands on the class of what it evaluates to (`class _Kind`), which is its
type, not where it is declared. Fixture `dynamic_member` (see fixtures_repos/README.md): `_Kind`
(kinds/tokens.py:1) makes members in `__getattr__` (line 4); `T.Word.Verb` is used at kinds/use.py:5."""

from __future__ import annotations

import pytest

from codehop.answer.orchestrator import Limits
from codehop.app import App
from codehop.kernel.records import State

pytestmark = [pytest.mark.slow]


@pytest.mark.parametrize("question", ["what is kinds.tokens.Word.Verb?", "what is Word.Verb?"])
def test_a_member_inferred_only_as_its_type_is_not_complete(fixture_repo, question):  # type: ignore[no-untyped-def]
    app = App(fixture_repo("dynamic_member"))
    try:
        d = app.navigator().ask(question, Limits()).to_dict()
        assert d["state"] != State.COMPLETE
        assert "made at run time" in d["answer"] and "kinds/tokens.py:1" in d["answer"]
        assert "kinds/tokens.py:4" in d["answer"]  # the `__getattr__` that makes it
    finally:
        app.close()
