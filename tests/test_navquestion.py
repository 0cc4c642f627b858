"""codehop.answer.navquestion: navigation questions read from their grammar and answered from the
dependents engine, over fixtures_repos/dependents (exact site lists)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from codehop.answer.navquestion import Intent, read_question
from codehop.app import App


@pytest.mark.parametrize(
    ("question", "intent", "subject"),
    [
        ("what calls `_connection_for_bind`?", Intent.CALLERS, ("_connection_for_bind",)),
        ("Who calls Cookies.set in httpx", Intent.CALLERS, ("Cookies.set", "httpx")),
        ("show me everything that calls area", Intent.CALLERS, ("area",)),
        ("Where is `area` called?", Intent.CALLERS, ("area",)),
        ("list the callers of area", Intent.CALLERS, ("area",)),
        ("callers of area?", Intent.CALLERS, ("area",)),
        ("who uses Shape?", Intent.USERS, ("Shape",)),
        ("where is area used?", Intent.USERS, ("area",)),
        ("find all usages of area", Intent.USERS, ("area",)),
        ("what depends on conf.base.TIMEOUT?", Intent.USERS, ("conf.base.TIMEOUT",)),
        ("where is the TIMEOUT setting read?", Intent.USERS, ("TIMEOUT",)),
        ("where is Shape's describe used?", Intent.USERS, ("describe", "Shape")),
        ("what imports geo.core?", Intent.IMPORTERS, ("geo.core",)),
        ("what subclasses Shape?", Intent.SUBCLASSES, ("Shape",)),
        ("which classes inherit from Shape?", Intent.SUBCLASSES, ("Shape",)),
        ("what are the subclasses of Shape?", Intent.SUBCLASSES, ("Shape",)),
        ("what overrides Shape.area?", Intent.OVERRIDES, ("Shape.area",)),
        ("what overrides the area method in Shape?", Intent.OVERRIDES, ("area", "Shape")),
        ("what does report call?", Intent.CALLEES, ("report",)),
        ("Which functions does `report` call?", Intent.CALLEES, ("report",)),
        ("what is called by report?", Intent.CALLEES, ("report",)),
        ("callees of report", Intent.CALLEES, ("report",)),
        # outgoing shapes beyond the plain one: a catenative, adverbs, a purpose clause, a compound subject
        ("what does Shape.describe end up calling?", Intent.CALLEES, ("Shape.describe",)),
        ("what does geo.core.area actually call to get the number?", Intent.CALLEES, ("geo.core.area",)),
        ("what does the geo Shape.describe actually call?", Intent.CALLEES, ("Shape.describe", "geo")),
        ("what does `report` go on to call?", Intent.CALLEES, ("report",)),
        # relation words by stem: any inflection of a listed verb or noun
        ("what invoked `area`?", Intent.CALLERS, ("area",)),
        ("what are the consumer of Shape?", Intent.USERS, ("Shape",)),
        ("what are the implementations of Shape.area?", Intent.OVERRIDES, ("Shape.area",)),
    ],
)
def test_navigation_intents(question, intent, subject):
    nav = read_question(question)
    assert nav is not None and (nav.intent, nav.subject_words) == (intent, subject)


@pytest.mark.parametrize(
    "question",
    [
        "What does `area` do?",
        "Where is `Cart` defined?",
        "where's DigestAuth defined in httpx and what does it subclass?",
        "what does click's MissingParameter exception inherit from, and where is it?",
        "what is the rich_cast that rich.console uses, and where is it declared?",
        "Which decode() does Response.text call? It makes a decoder.",
        "Which value does `PathHighlighter` use for `base_style`?",
        "If I subclass `NativeEnvironment` and leave `shared` alone, what value do I get?",
        "What's `linked_to` set to on `SandboxedEnvironment` if I don't override it?",
        "What is `area` used for?",
        "Where does the `pop_context` used in `click/core.py` come from? Show me its definition.",
        "How does `click.parser.CoreParameter` behave when I use it?",
        "When `click.Choice` rejects a value it calls self.fail(...). Where is `fail` defined?",
        "what does Shape.describe call area with?",
        "what does the shape end up calling?",
        "what does app.run do when I call it?",
        # one inflection reads differently: the implementation of X is X itself
        "what is the implementation of Shape.area?",
        "where is Shape.area implemented?",
    ],
)
def test_other_questions_are_not_navigation(question):
    """A relation word that is not the clause's predicate about a subject leaves the question alone."""
    assert read_question(question) is None


def test_a_long_question_is_read_in_linear_time():
    import time

    t0 = time.perf_counter()
    assert read_question("what calls " + "x" * 100_000 + "?") is not None  # the cap keeps the clause
    read_question("where is area used " * 5000)
    assert time.perf_counter() - t0 < 1.0


@pytest.fixture
def ask(fixture_repo: Callable[[str], Path]) -> Iterator[Callable[[str], dict]]:
    app = App(fixture_repo("dependents"))

    def run(question: str) -> dict:
        return app.navigator().ask(question).to_dict()

    yield run
    app.close()


def _sites(answer: dict) -> list[str]:
    return [line.split(": `")[0][2:] for line in answer["answer"].splitlines() if line.startswith("- ")]


def test_callers_through_alias_reexport_and_as(ask):
    """dependents: area (geo/core.py:4) is called as area, surface (as-rename), g.area (module alias),
    measure (alias) and in a test; `pick(fn=area)` passes it as a value, so the answer is partial."""
    answer = ask("what calls area?")
    assert _sites(answer) == [
        "app/local.py:8",
        "app/local.py:8",
        "app/main.py:12",
        "app/main.py:13",
        "app/main.py:14",
        "app/main.py:15",
        "tests/test_geo.py:8",
    ]
    assert answer["answer_completeness"] == "partial" and "passed around as a value" in answer["answer"]
    assert answer["context"][0]["qualname"] == "geo.core.area" and answer["state"] == "give_up_partial"
    assert {c["path"] for c in answer["context"]} == {"geo/core.py", "app/local.py", "app/main.py", "tests/test_geo.py"}


def test_subclasses_across_files_are_complete(ask):
    """dependents: Shape (geo/core.py:9) <- Square (geo/square.py:6) <- Cube (app/cube.py:6)."""
    answer = ask("which classes inherit from Shape?")
    assert _sites(answer) == ["app/cube.py:6", "geo/square.py:6"]
    assert answer["answer_completeness"] == "complete" and answer["state"] == "complete"


def test_overrides_of_a_method(ask):
    """dependents: Shape.area (geo/core.py:12) is overridden at geo/square.py:10 and app/cube.py:7."""
    answer = ask("what overrides the area method in Shape?")
    assert _sites(answer) == ["app/cube.py:7", "geo/square.py:10"]
    assert answer["answer_completeness"] == "partial"  # a method: dynamic dispatch may hide more


def test_callees(ask):
    """dependents: report (app/main.py:11) calls area four ways, Square, Cube and describe on both
    (traced through `Square(2).describe()` and `cube = Cube(1)`): complete. area (geo/core.py:4)
    calls `shape.area()` on a parameter: partial, and says why."""
    answer = ask("what does report call?")
    assert _sites(answer) == [f"app/main.py:{n}" for n in (12, 13, 14, 15, 16, 16, 17, 18)]
    assert answer["answer_completeness"] == "complete"
    answer = ask("what does Shape.describe call?")
    assert _sites(answer) == ["geo/core.py:16"]
    assert answer["answer_completeness"] == "complete"
    answer = ask("what functions does the area function call?")
    assert _sites(answer) == [] and answer["answer_completeness"] == "partial"
    assert "1 call(s) on objects of unknown type" in answer["answer"]


def test_callees_asked_in_plain_words(ask):
    """The same list as "what does Shape.describe call?" when the question says it the way people do."""
    for question in ("what does Shape.describe end up calling?", "what does the geo Shape.describe actually call?"):
        answer = ask(question)
        assert _sites(answer) == ["geo/core.py:16"], question
        assert answer["context"][0]["qualname"] == "geo.core.Shape.describe"


def test_settings_readers(ask):
    answer = ask("who reads TIMEOUT?")
    assert _sites(answer) == ["app/main.py:18", "conf/prod.py:3"]
    assert answer["answer_completeness"] == "complete"


def test_budget_cuts_the_list_and_says_partial(fixture_repo):
    """dependents: with a budget too small for the list, the answer lists what fits and is partial."""
    from codehop.answer.orchestrator import Limits

    app = App(fixture_repo("dependents"))
    try:
        answer = app.navigator().ask("which classes inherit from Shape?", Limits(budget_tokens=40)).to_dict()
    finally:
        app.close()
    assert len(_sites(answer)) < 2
    assert answer["answer_completeness"] == "partial" and "token budget" in answer["answer"]


def test_a_subject_the_repository_does_not_declare_falls_back_to_the_loop(ask):
    answer = ask("what calls nonexistent_function_xyz?")
    assert "Callers of" not in answer["answer"]
