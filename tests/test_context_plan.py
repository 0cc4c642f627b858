"""The context's one plan (codehop.answer.context, .trim, .links) on real indexes of fixtures_repos/:
no hit is cut silently, a big chunk is trimmed not dropped, sites are grouped per file, and the
links code makes without imports (settings, string keys, role-named families, callees' reads)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from codehop.answer.retrieval import retrieve
from codehop.app import App
from codehop.frontends.render import render_markdown


@pytest.fixture
def app_for(fixture_repo: Callable[[str], Path]) -> Iterator[Callable[[str], App]]:
    apps: list[App] = []

    def make(name: str) -> App:
        apps.append(App(fixture_repo(name)))
        return apps[-1]

    yield make
    for app in apps:
        app.close()


# ---- one plan, no gate; trim, never drop -------------------------------------------------------
def test_a_chunk_bigger_than_the_budget_is_sent_as_its_head_and_the_named_line(app_for):
    """settings_attr: conf/global_settings.py is one module chunk of 284 lines (~3,400 tokens) that
    assigns EMAIL_TIMEOUT at line 204; at 600 tokens it is sent trimmed: its first lines, a marker
    for the lines not sent, the assignment, and the ranges stated in its provenance."""
    app = app_for("settings_attr")
    ctx = app.context("Change the default of EMAIL_TIMEOUT to 30 seconds.", budget_tokens=600)
    big = [c for c in ctx.context if c.chunk.rel_path == "conf/global_settings.py" and c.chunk.start_line == 1]
    assert big, [c.chunk.rel_path for c in ctx.context]
    item = big[0]
    assert item.truncated and not item.relation
    assert "EMAIL_TIMEOUT = None" in item.chunk.text
    lines = (app.root / "conf/global_settings.py").read_text().split("\n")
    assert item.chunk.text.startswith("\n".join(lines[:3]))
    assert "not sent" in item.chunk.text
    assert "trimmed: sent lines 1-" in item.provenance and "of 1-284" in item.provenance
    assert sum(c.tokens for c in ctx.context) <= 600


def test_trim_keeps_the_head_and_the_named_line_with_the_lines_after_it(app_for):
    """settings_attr: the global_settings chunk (lines 1-284) trimmed to 100 tokens for EMAIL_TIMEOUT
    keeps its first lines and 204-206 (the assignment and the two lines after it), marks the gap,
    and states exactly those ranges."""
    from codehop.answer.trim import Focus, trim

    app = app_for("settings_attr")
    chunk = next(c for c in app.store.chunks_of_file("conf/global_settings.py") if c.start_line == 1)
    cut = trim(chunk, 100, Focus(names=frozenset({"EMAIL_TIMEOUT"}), terms=frozenset()))
    assert cut is not None
    assert cut.spans[0][0] == 1 and cut.spans[-1] == (204, 206)
    lines = (app.root / "conf/global_settings.py").read_text().split("\n")
    head = "\n".join(lines[: cut.spans[0][1]])
    gap = f"# ... lines {cut.spans[0][1] + 1}-203 not sent"
    assert cut.chunk.text == "\n".join([head, gap, *lines[203:206]])
    assert cut.stated(chunk) == f"trimmed: sent lines 1-{cut.spans[0][1]}, 204-206 of 1-284"
    assert cut.chunk.end_line == 206


@pytest.mark.parametrize("budget", [120, 300], ids=["120", "300"])
def test_every_retrieval_hit_is_sent_or_left_out_with_its_reason(app_for, budget):
    """blast_radius: every hit retrieval ranks for the task reaches the plan, also those ranked past
    what the loop's own packing holds; what is not in the context is named under "left out" with
    the source that ranked it and the room it met, in JSON and in markdown alike."""
    app = app_for("blast_radius")
    task = "Add a retries parameter to fetch_record and update every caller."
    ctx = app.context(task, budget_tokens=budget)
    data = ctx.to_dict()
    sent = {c.chunk.qualname for c in ctx.context}
    left = {x["name"]: x for x in data["left_out"]["entries"]}
    hits = retrieve(app.store, task, k=app.config.retrieve_k, graph=app.graph_neighbours())
    looped = {c.chunk.qualname for c in app.ask(task, budget_tokens=budget).context}
    past = [h.chunk.qualname for h in hits if h.chunk.qualname not in looped]
    assert past, "some hit is ranked past the loop's packing"
    for hit in hits:
        q = hit.chunk.qualname
        assert q in sent or q in left, q
    assert left, "a budget this small leaves something out"
    assert all(x["reason"] and "left" in x["reason"] for x in left.values())
    assert any(x["reason"].startswith("hit ") for x in left.values())
    md = render_markdown(ctx)
    for name, x in left.items():
        assert f"- {name} ({x['tokens']} tokens; {x['reason']})" in md


def test_the_subjects_do_not_depend_on_the_budget(app_for):
    """blast_radius: a task that names no declaration takes its subjects from the ranked hits, the same
    at every budget."""
    app = app_for("blast_radius")
    task = "Add a retries field"
    subjects = {b: app.context(task, budget_tokens=b).subjects for b in (200, 2000, 8000)}
    assert subjects[200] == subjects[2000] == subjects[8000] and subjects[200]


# ---- sites cost little -----------------------------------------------------------------------
def test_sites_are_grouped_into_one_entry_per_file(app_for):
    """blast_radius: store/__init__.py re-exports fetch_record (line 1) and lists it in `__all__` (line 4):
    one manifest entry for the file, naming both lines."""
    app = app_for("blast_radius")
    ctx = app.context("Add a retries parameter to fetch_record and update every caller.", budget_tokens=2000)
    sites = [c for c in ctx.context if c.relation]
    paths = [c.chunk.rel_path for c in sites]
    assert len(paths) == len(set(paths)), paths
    assert ctx.to_dict()["manifest"]["sites_sent"] == ctx.to_dict()["manifest"]["sites"]


def test_test_sites_come_after_the_code_unless_the_task_is_about_tests(app_for):
    """blast_radius at 120 tokens: the call sites in app/main.py:5 and app/batch.py:5 are sent; the one in
    tests/test_fetch.py:5 waits until the code is in, and is left out saying so. A task that names tests
    gets it among the sites."""
    app = app_for("blast_radius")
    ctx = app.context("Add a retries parameter to fetch_record and update every caller.", budget_tokens=120)
    sites = {(c.chunk.rel_path, c.chunk.start_line) for c in ctx.context if c.relation}
    assert {("app/main.py", 5), ("app/batch.py", 5)} <= sites
    left = {x.name: x.reason for x in ctx.left_out}
    assert left["tests/test_fetch.py:5"].startswith("test site, after the code")
    about = app.context("Add a retries parameter to fetch_record and update its tests.", budget_tokens=2000)
    assert ("tests/test_fetch.py", 5) in {(c.chunk.rel_path, c.chunk.start_line) for c in about.context if c.relation}


# ---- links code makes without imports ---------------------------------------------------------
def test_a_setting_read_by_attribute_leads_to_its_default(app_for):
    """settings_attr: send_mail (mail/send.py:6) reads `settings.EMAIL_TIMEOUT`; conf/global_settings.py:204
    assigns its default and comes as a one-line site."""
    app = app_for("settings_attr")
    ctx = app.context("send_mail should retry once when the server does not answer in time.", budget_tokens=2000)
    sites = {(c.chunk.rel_path, c.chunk.start_line): c for c in ctx.context if c.relation}
    site = sites[("conf/global_settings.py", 204)]
    assert site.relation == "defines setting" and "EMAIL_TIMEOUT = None" in site.provenance


def test_a_setting_read_by_key_leads_to_its_default(app_for):
    """settings_attr: max_recipients (mail/limits.py:4) reads `config["MAIL_MAX_RECIPIENTS"]`; its default
    is the `"MAIL_MAX_RECIPIENTS": 50` entry of conf/defaults.py:5."""
    app = app_for("settings_attr")
    ctx = app.context("max_recipients should never return less than one.", budget_tokens=2000)
    sites = {(c.chunk.rel_path, c.chunk.start_line): c for c in ctx.context if c.relation}
    site = sites[("conf/defaults.py", 5)]
    assert site.relation == "defines setting" and '"MAIL_MAX_RECIPIENTS": 50' in site.provenance


def test_a_route_name_leads_to_the_code_that_looks_it_up(app_for):
    """route_names: retrieve_current_user is registered as "users:get-current-user" (web/users.py:4);
    tests/test_paths.py:5 looks the same name up, with no import of web.users."""
    from codehop.answer.links import key_sites

    app = app_for("route_names")
    focus = app.store.chunks_named("web.users.retrieve_current_user")
    sites = key_sites(app.store, app.root, "", focus)
    assert [(s.rel_path, s.line, s.relation) for s in sites] == [
        ("tests/test_paths.py", 5, 'names "users:get-current-user"')
    ]
    # a plain hyphenated name counts where it is given as a name (`name="user-settings"`, web/users.py:9)
    focus = app.store.chunks_named("web.users.edit_user_settings")
    sites = key_sites(app.store, app.root, "", focus)
    assert [(s.rel_path, s.line, s.relation) for s in sites] == [("tests/test_paths.py", 9, 'names "user-settings"')]
    ctx = app.context("retrieve_current_user should also return the user's bio; update the tests.")
    assert any(
        c.chunk.rel_path == "tests/test_paths.py" and c.chunk.start_line <= 5 <= c.chunk.end_line for c in ctx.context
    )


RESPONSE_SCHEMAS = {
    "app.models.schemas.users.UserInResponse",
    "app.models.schemas.articles.ArticleInResponse",
    "app.models.schemas.articles.ListOfArticlesInResponse",
    "app.models.schemas.profiles.ProfileInResponse",
}


@pytest.mark.parametrize(
    "task",
    [
        "Add a generated_at timestamp field to all response schema classes.",
        "Every response schema should carry a generated_at timestamp.",
        "each of the Response Schemas needs a generated_at timestamp.",
    ],
    ids=["all-X-classes", "every-X-verb", "each-of-the-X"],
)
def test_the_role_of_a_family_is_read_up_to_its_verb(app_for, task):
    """role_family: however the family is named, its role is "response schema" (the words after all /
    every / each, shortened from the end until two classes hold them all): the four response schemas."""
    from codehop.answer.links import family_sites

    app = app_for("role_family")
    sites = family_sites(app.store, app.root, task)
    assert {s.subject for s in sites} == RESPONSE_SCHEMAS
    assert {s.relation for s in sites} == {"family response schema"}


def test_a_family_named_by_role_is_every_class_of_that_role(app_for):
    """role_family: "all response schema classes" are the RWSchema subclasses whose name says Response
    (users.py:9, articles.py:9 and :14, profiles.py:4); not UserInLogin (a schema, not a response),
    not ErrorResponse (a response, not a schema), not the domain User."""
    app = app_for("role_family")
    ctx = app.context("Add a generated_at timestamp field to all response schema classes.", budget_tokens=2000)
    family = [c for c in ctx.context if c.relation.startswith("family")]
    named = " ".join(c.provenance for c in family)
    for cls in ("UserInResponse", "ArticleInResponse", "ListOfArticlesInResponse", "ProfileInResponse"):
        assert cls in named, cls
    for cls in ("UserInLogin", "ErrorResponse", "User,", "User]"):
        assert cls not in named, cls
    assert {c.chunk.rel_path for c in family} == {
        "app/models/schemas/users.py",
        "app/models/schemas/articles.py",
        "app/models/schemas/profiles.py",
    }


def test_the_blast_radius_follows_callees_two_steps_out(app_for):
    """callee_chain: url_for (web/helpers.py:4) calls url_path_for (web/routing.py:6), which reads
    CONVERTOR_TYPES (web/convertors.py:3): the value arrives as a body, with the path that led there."""
    app = app_for("callee_chain")
    ctx = app.context("url_for should accept an _external flag that returns an absolute address.")
    read = [c for c in ctx.context if not c.relation and c.chunk.qualname == "web.convertors.CONVERTOR_TYPES"]
    assert read, [(c.chunk.qualname, c.provenance) for c in ctx.context]
    assert (read[0].chunk.rel_path, read[0].chunk.start_line) == ("web/convertors.py", 3)
    assert "web.helpers.url_for -calls-> web.routing.url_path_for" in read[0].provenance
    assert "web.routing.url_path_for -reads-> web.convertors.CONVERTOR_TYPES" in read[0].provenance
