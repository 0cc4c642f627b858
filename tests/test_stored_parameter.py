"""An attribute stored from the method's own parameter (`self.receipt = receipt`) holds what the
parameter's annotation says (`receipt: "Receipt"`); one computed from a parameter (`self.most =
int(most)`) holds, when it is left out, what its default names: the answer needs those declarations,
or it is not complete. Fixture `stored_parameter` (see fixtures_repos/README.md)."""

from __future__ import annotations

from codehop.answer.orchestrator import Limits
from codehop.app import App
from codehop.kernel.records import State


def _ask(app: App, question: str):  # type: ignore[no-untyped-def]
    return app.navigator().ask(question, Limits()).to_dict()


def test_the_parameter_annotation_class_is_fetched(fixture_repo):  # type: ignore[no-untyped-def]
    """`self.receipt = receipt` (shop/order.py:7) under `receipt: "Receipt"` (line 6): `shop/receipt.py:1`."""
    app = App(fixture_repo("stored_parameter"))
    try:
        for question in ("what type is Order.receipt, and where is that class?", "what is Order.receipt?"):
            d = _ask(app, question)
            spans = {(c["path"], c["start_line"]) for c in d["context"]}
            assert ("shop/receipt.py", 1) in spans, (question, spans)
            assert d["state"] == State.COMPLETE
            assert "shop/receipt.py:1" in d["answer"]
    finally:
        app.close()


def test_the_default_of_the_parameter_the_value_uses_is_fetched(fixture_repo):  # type: ignore[no-untyped-def]
    """`self.most = int(most)` (shop/order.py:9), `most: int = settings.MAX_ITEMS` (line 6): left out,
    `most` is `MAX_ITEMS`, so `shop/settings.py:1` is needed."""
    app = App(fixture_repo("stored_parameter"))
    try:
        d = _ask(app, "what is Order.most if I don't pass it?")
        assert ("shop/settings.py", 1) in {(c["path"], c["start_line"]) for c in d["context"]}
        assert d["state"] == State.COMPLETE and "MAX_ITEMS = 100" in d["answer"]
    finally:
        app.close()


def test_a_builtin_parameter_annotation_needs_nothing_more(fixture_repo):  # type: ignore[no-untyped-def]
    """`self.count = count` under `count: int`: nothing in the repository to fetch."""
    app = App(fixture_repo("stored_parameter"))
    try:
        d = _ask(app, "what is Order.count?")
        assert d["state"] == State.COMPLETE and d["hops"] == []
        assert {c["path"] for c in d["context"]} == {"shop/order.py"}
    finally:
        app.close()
