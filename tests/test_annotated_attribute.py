"""An attribute annotated without a value (`current: Connection` in a class body) says only what it
holds: its answer needs the annotation's declaration, fetched through the import, or it is not
complete. Fixture `annotated_attribute` (see fixtures_repos/README.md)."""

from __future__ import annotations

from codehop.answer.orchestrator import Limits
from codehop.app import App
from codehop.kernel.records import State


def _ask(app: App, question: str):  # type: ignore[no-untyped-def]
    return app.navigator().ask(question, Limits()).to_dict()


def test_the_annotated_class_is_fetched(fixture_repo):  # type: ignore[no-untyped-def]
    app = App(fixture_repo("annotated_attribute"))
    try:
        for question in ("what type is Manager.current?", "what is Manager.current?"):
            d = _ask(app, question)
            spans = {(c["path"], c["start_line"]) for c in d["context"]}
            assert ("pool/conn.py", 1) in spans, (question, spans)
            assert d["state"] == State.COMPLETE
            assert "pool/conn.py:1" in d["answer"] and "`current: Connection`" in d["answer"]
            hop = d["hops"][0]["resolved"][0]
            assert (hop["target"]["path"], hop["target"]["line"]) == ("pool/conn.py", 1)
    finally:
        app.close()


def test_a_property_is_read_as_the_attribute_its_return_annotation_types(fixture_repo):  # type: ignore[no-untyped-def]
    """`@property def spare(self) -> Connection` (pool/manager.py:12-14): the class it returns is fetched."""
    app = App(fixture_repo("annotated_attribute"))
    try:
        d = _ask(app, "what is Manager.spare?")
        assert ("pool/conn.py", 1) in {(c["path"], c["start_line"]) for c in d["context"]}
        assert d["state"] == State.COMPLETE and "pool/conn.py:1" in d["answer"]
    finally:
        app.close()


def test_a_builtin_annotation_needs_nothing_more(fixture_repo):  # type: ignore[no-untyped-def]
    """`limit: int`: nothing in the repository to fetch; answered from the class and `__init__`."""
    app = App(fixture_repo("annotated_attribute"))
    try:
        d = _ask(app, "what is Manager.limit?")
        assert d["state"] == State.COMPLETE and d["hops"] == []
        assert {c["path"] for c in d["context"]} == {"pool/manager.py"}
    finally:
        app.close()


def test_a_parameter_the_constructor_transforms_is_not_the_attribute(fixture_repo):  # type: ignore[no-untyped-def]
    """`link: Connection` (pool/formatter.py:5), and `__init__(self, link: str = "local")` stores
    `self.link = connect(link)` (:8): the attribute holds what the call makes, not the parameter."""
    app = App(fixture_repo("annotated_attribute"))
    try:
        d = _ask(app, "what type is Formatter.link and where is that class defined?")
        assert d["state"] == State.COMPLETE
        assert "`link: Connection`" in d["answer"] and "pool/conn.py:1" in d["answer"]
        assert "Parameter `link`" not in d["answer"]
    finally:
        app.close()
