"""Questions that describe their subject in words: the words are grounded in terms derived from
the code (name parts, path, parameters, docstring), a subject needs a clear margin, and an
ordinary word never becomes a subject by matching one global name.

Fixture `described_in_words` (fixtures_repos/README.md): `get_password_hash` at
vault/security.py:6, `MalformedHeader` at vault/errors.py:1 raised by `parse_header`
(vault/textfields.py:13), `PriorityQueue.add` at vault/queues.py:4 beside `IndexedSet.add`
(:11), the global `session` at vault/session.py:8.
"""

from __future__ import annotations

import pytest

from codehop.answer.orchestrator import Limits
from codehop.app import App, Config
from codehop.kernel.records import Intent, State
from codehop.reading.grounding import ground
from codehop.reading.intent import read_question


@pytest.fixture(scope="module")
def app(tmp_path_factory):  # type: ignore[no-untyped-def]
    import shutil
    from pathlib import Path

    src = Path(__file__).resolve().parent.parent / "fixtures_repos" / "described_in_words"
    dest = tmp_path_factory.mktemp("words") / "described_in_words"
    shutil.copytree(src, dest)
    a = App(dest, Config())
    yield a
    a.close()


def ask(app: App, question: str):  # type: ignore[no-untyped-def]
    return app.navigator().ask(question, Limits())


@pytest.mark.parametrize(
    ("question", "intent", "mentions", "owners"),
    [
        ("where is the user's password hashed?", Intent.DEFINITION, (), ("user",)),
        ("How are passwords hashed?", Intent.HOW, (), ()),
        ("what does `parse_header` raise?", Intent.RAISES, ("parse_header",), ()),
        ("what is the default delimiter of split_fields?", Intent.VALUE, ("split_fields",), ()),
        ("what type does SplitResult.first return?", Intent.TYPE, ("SplitResult.first",), ()),
        ("which pool is used if I never call setup()?", Intent.VALUE, (), ()),
        ("how long does it wait if I create a pool and never give it a limit?", Intent.VALUE, (), ()),
        ("how does it wait if I create a pool with a limit?", Intent.HOW, (), ()),
    ],
    ids=["where-possessive", "how", "raises", "default", "type", "unless-default", "how-unless", "how-if"],
)
def test_a_question_is_read_once_into_its_record(question, intent, mentions, owners):
    q = read_question(question)
    assert q.intent is intent
    assert q.mentions == mentions
    assert q.owners == owners


def test_a_ruled_out_call_is_a_condition_not_a_mention():
    q = read_question("which pool is used if I never call setup()?")
    assert q.conditions == ("setup",) and "setup" not in q.mentions


@pytest.mark.parametrize(
    "question",
    ["where is the user's password hashed?", "How are passwords hashed?", "which function hashes a password?"],
    ids=["where", "how", "which"],
)
def test_words_ground_the_declaration_they_describe(app, question):
    g = ground(read_question(question), app.store)
    assert [s.hit.qualname for s in g.subjects] == ["vault.security.get_password_hash"]
    a = ask(app, question)
    assert a.state is State.COMPLETE, a.answer
    assert "vault/security.py:6" in a.answer


def test_an_exception_described_in_words_is_the_class_with_no_outside_doubt(app):
    a = ask(app, "which exception do I get for a malformed header?")
    assert a.state is State.COMPLETE, a.answer
    assert "vault/errors.py:1" in a.answer
    assert "may be declared there" not in a.answer and "Not understood" not in a.answer


def test_what_a_function_raises_needs_the_raised_class(app):
    a = ask(app, "what does parse_header raise?")
    assert a.state is State.COMPLETE, a.answer
    assert "MalformedHeader" in a.answer
    assert ("vault/errors.py", 1) in {(c.chunk.rel_path, c.chunk.start_line) for c in a.context}


def test_a_possessive_qualifier_narrows_the_member(app):
    a = ask(app, "the priority queue's add()")
    assert "vault/queues.py:4" in a.answer and "IndexedSet" not in a.answer.split("\n")[0]


def test_a_plain_word_is_not_a_global_name(app):
    # "session" matches the module-level `session` (vault/session.py:8) and nothing else; that
    # alone never makes it the subject of a question that describes an operation
    a = ask(app, "how do I add a row to the session?")
    assert not a.answer.startswith("`vault.session.session` is declared")


def test_words_that_ground_nothing_clearly_are_partial_and_name_what_came_close(app):
    a = ask(app, "how is the cache invalidated after a password reset?")
    assert a.state is State.GIVE_UP_PARTIAL
    assert "Not understood" not in a.answer


@pytest.mark.parametrize(
    ("question", "needed"),
    [
        ("what does queue_class return?", ("vault/registry.py", 3)),
        ("what type does make_queue return?", ("vault/queues.py", 1)),
    ],
    ids=["returned-module-value", "return-annotation"],
)
def test_what_a_function_returns_needs_the_returned_declaration(app, question, needed):
    """vault/registry.py: `queue_class` returns `_KINDS[kind]` (:3); `make_queue` is annotated
    `-> PriorityQueue` (vault/queues.py:1)."""
    a = ask(app, question)
    assert a.state is State.COMPLETE, a.answer
    path, line = needed
    assert any(c.chunk.rel_path == path and c.chunk.start_line <= line <= c.chunk.end_line for c in a.context)
    assert f"{path}:{line}" in a.answer


def test_one_hop_fetches_the_declaration_and_what_its_aspect_needs(app):
    """`vault.make_queue` is re-exported by vault/__init__.py:3: the hop that fetches its declaration
    (vault/registry.py:11) fetches the class its return annotation names (vault/queues.py:1) too."""
    a = ask(app, "What does `vault.make_queue` return?")
    assert a.state is State.COMPLETE, a.answer
    assert a.stats.loops <= 1
    spans = {(c.chunk.rel_path, c.chunk.start_line) for c in a.context}
    assert ("vault/registry.py", 11) in spans and ("vault/queues.py", 1) in spans


@pytest.mark.parametrize(
    "question",
    ["what does pick_kind fall back to if I don't give a kind?", "what is the default kind of pick_kind?"],
    ids=["callable", "parameter"],
)
def test_a_sentinel_default_leads_to_what_replaces_it(app, question):
    """vault/registry.py: `pick_kind(kind=_UNSET)` returns `DEFAULT_KIND if kind is _UNSET else kind`;
    the default asked is `DEFAULT_KIND` (:16), not the sentinel."""
    a = ask(app, question)
    assert a.state is State.COMPLETE, a.answer
    assert "vault/registry.py:16" in a.answer
    assert any(
        c.chunk.rel_path == "vault/registry.py" and c.chunk.start_line <= 16 <= c.chunk.end_line for c in a.context
    )


def test_context_for_a_question_in_words_spends_the_budget_on_bodies_first(app):
    """`codehop context` on a question that names no code: the declarations its words describe
    lead retrieval, and bodies come before one-line sites (vault/security.py:6 and the
    verify_password body that calls it, at a budget too small for every site)."""
    data = app.context("how is a user's password hashed before it is stored?", budget_tokens=220).to_dict()
    bodies = [c for c in data["context"] if not c.get("relation")]
    assert bodies and bodies[0]["path"] == "vault/security.py"
    assert any(c["start_line"] == 6 for c in bodies)
    assert data["stats"]["context_tokens"] <= 220


def test_a_why_question_shows_the_code_and_stays_partial(app):
    """An extractive answer states no reason: "why" gets the code that bears on it, `partial`
    (vault/security.py:6 found by its words, as "how" would find it)."""
    a = ask(app, "why does get_password_hash digest the password so many times?")
    assert a.state is State.GIVE_UP_PARTIAL
    assert "vault/security.py:6" in a.answer and "does not state a reason" in a.answer


def test_a_word_tells_its_own_rarity_not_a_rare_variant_s(tmp_path):  # type: ignore[no-untyped-def]
    # "expire" is said by every declaration here, "expiry" by one: the word "expire" tells little
    from codehop.reading.grounding import _tells, _terms_of, question_terms

    pkg = tmp_path / "cachekit" / "cachekit"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    body = "".join(f"def expire_{n}():\n    return {i}\n\n\n" for i, n in enumerate("abcdefgh"))
    (pkg / "api.py").write_text(body + "def expiry_time():\n    return 3\n")
    a = App(tmp_path / "cachekit", Config())
    try:
        words = question_terms(read_question("when do entries expire?"), a.store)
        expire = next(w for w in words if w.text == "expire")
        assert "expiri" in expire.forms  # (the index's other form of the word, for finding)
        tells, _ = _tells(words, _terms_of(words), a.store)
        rarity = a.store.term_rarity(["expir", "expiri"])
        assert rarity["expir"] < rarity["expiri"]
        assert tells["expire"] == rarity["expir"]
    finally:
        a.close()


def test_words_another_declaration_holds_count_against_a_lone_name(tmp_path):  # type: ignore[no-untyped-def]
    # one name matches two words ("loaded command"); the rest ("registered", "entry point",
    # "directly", "application", "group") are words of this code, held by a docstring no name of
    # the question matched: they count (at half their weight) against the lone name, which
    # leaves them unexplained
    pkg = tmp_path / "clikit" / "clikit"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "group.py").write_text(
        "def load_plugin_commands():\n"
        '    """Load the commands plugins declare."""\n'
        "    return []\n\n\n"
        "def resolve(name):\n"
        '    """Its control flow decides whether to return a directly registered command, else one an entry point"\n'
        '    gives, else the application group\'s."""\n'
        "    return name\n"
    )
    a = App(tmp_path / "clikit", Config())
    try:
        q = (
            "where is the control flow that decides whether to return a directly registered command, "
            "an entry point loaded command or the application group's command?"
        )
        g = ground(read_question(q), a.store)
        assert g.subjects == ()
        assert "registered" in g.unexplained and "entry" in g.unexplained
    finally:
        a.close()
