"""`complete` means answered: the pointers an intent needs are in the context, or the answer is
partial and says what is missing.

Fixture `aspect_pointers` (fixtures_repos/README.md): a Protocol `Checker` whose members are stubs
(checks/protocols.py:5, :8) beside a module-level `validate` with a body (checks/core.py:8) and
`StrictChecker.validate` (:19); the callee `pick_checker` (:4) it falls back to; `StrictDraft =
make_checker(..., format_registry=formats.strict_formats)` (:35, the registry at
checks/formats.py:6); `worst_error(errors, key=by_weight)` (:42, `by_weight` at :38); `load(text,
loader=None)` (:49) whose `else:` returns `DEFAULT_LOADER.validate(...)` (`DEFAULT_LOADER` at :46);
`Rule.passes` (:60) calling `cond.check` on a loop variable; `Rule.context_of` (:66) returning a
`getattr(...)`; `Gate.opens` (:91) calling `guard.allows` (:83) on the elements of `self.guards =
[Guard()]`.
"""

from __future__ import annotations

import pytest
from shared import ask, fixture_app

from codehop.app import App
from codehop.kernel.records import Intent, State
from codehop.reading.intent import read_question


@pytest.fixture(scope="module")
def app(tmp_path_factory):  # type: ignore[no-untyped-def]
    yield from fixture_app("aspect_pointers", tmp_path_factory)


def spans(answer) -> set[tuple[str, int]]:  # type: ignore[no-untyped-def]
    """(file, line) for every line the context holds."""
    return {(c.chunk.rel_path, n) for c in answer.context for n in range(c.chunk.start_line, c.chunk.end_line + 1)}


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("what does is_valid call under the hood?", Intent.CALLEES),
        ("which function does Rule use to check its conditions?", Intent.CALLEES),
        ("when does the loader validate the text?", Intent.CALLEES),
        ("what class is StrictDraft?", Intent.TYPE),
        ("which checker does validate() use if I don't pass cls?", Intent.VALUE),
        ("where is the function used to pick a checker?", Intent.DEFINITION),
        ("Rule.passes calls cond.check(data). Where is check declared?", Intent.DEFINITION),
    ],
    ids=["call", "use", "when", "what-class-is", "unless-beats-use", "where-used", "story-sentence"],
)
def test_intent(question: str, intent: Intent) -> None:
    assert read_question(question).intent is intent


def test_a_bare_name_prefers_the_namesake_with_a_body(app: App) -> None:
    a = ask(app, "what does validate() fall back to if I don't pass cls?")
    assert "checks.core.validate" in a.answer and "checks.protocols" not in a.answer
    assert "checks.core.pick_checker" in a.answer and ("checks/core.py", 4) in spans(a)
    assert a.state is State.COMPLETE


def test_behaviour_of_a_protocol_stub_is_partial(app: App) -> None:
    a = ask(app, "what does Checker.is_valid call under the hood?")
    assert a.state is not State.COMPLETE
    assert "declares no behaviour" in a.answer


def test_a_value_asked_through_a_keyword_needs_its_argument(app: App) -> None:
    a = ask(app, "what format registry does StrictDraft use by default?")
    assert a.state is State.COMPLETE
    assert "checks.formats.strict_formats" in a.answer and ("checks/formats.py", 6) in spans(a)


def test_the_one_default_that_names_code(app: App) -> None:
    a = ask(app, "what does worst_error use to rank errors by default?")
    assert a.state is State.COMPLETE
    assert "checks.core.by_weight" in a.answer and ("checks/core.py", 38) in spans(a)


def test_an_else_branch_is_the_fallback(app: App) -> None:
    a = ask(app, "which loader does load() use when no loader is given?")
    assert a.state is State.COMPLETE
    assert "DEFAULT_LOADER" in a.answer and ("checks/core.py", 46) in spans(a)


def test_calls_on_values_of_unknown_type_are_said(app: App) -> None:
    a = ask(app, "how are a rule's conditions evaluated when it passes?")
    assert a.state is not State.COMPLETE
    assert "cond.check" in a.answer


def test_calls_on_values_inference_can_type_are_followed(app: App) -> None:
    # `for guard in self.guards: guard.allows(data)` with `self.guards = [Guard()]`: the hop asks the
    # ladder at the call's site, and Jedi lands on `Guard.allows`
    a = ask(app, "how does a gate check its guards before it opens?")
    assert a.state is State.COMPLETE
    assert ("checks/core.py", 83) in spans(a)
    assert any(r.resolution.target.qualname == "checks.core.Guard.allows" for h in a.hops for r in h.resolved)


def test_an_untyped_computed_return_is_partial(app: App) -> None:
    a = ask(app, "what object does Rule.context_of return?")
    assert a.state is not State.COMPLETE
    assert "known only when it runs" in a.answer


def test_a_member_of_a_module_level_instance_reexported(app: App) -> None:
    """`checks.check` is imported from checks/core.py:70 `check = DEFAULT_LOADER.validate`: the
    method of the instance's class (`StrictChecker.validate`, :19) and the alias line both answer."""
    a = ask(app, "what does checks.check do?")
    assert a.state is State.COMPLETE
    assert "checks.core.StrictChecker.validate" in a.answer
    assert ("checks/core.py", 19) in spans(a) and ("checks/core.py", 70) in spans(a)


def test_where_it_comes_from_through_a_named_callee(app: App) -> None:
    """`summarize` (checks/core.py:77) gets its report from `error_report` (:73), which the
    question names in words: both are the answer."""
    a = ask(app, "where does summarize() get its error report from?")
    assert a.state is State.COMPLETE
    assert "checks.core.error_report" in a.answer and ("checks/core.py", 73) in spans(a)
