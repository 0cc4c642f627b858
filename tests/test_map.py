"""codehop map: central declarations as signatures, grouped by file, within a budget (fixture blast_radius)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from codehop.answer.retrieval import count_tokens
from codehop.app import App
from codehop.frontends.cli import main
from codehop.kernel.errors import UsageError


@pytest.fixture
def app(fixture_repo: Callable[[str], Path]) -> Iterator[App]:
    app = App(fixture_repo("blast_radius"))
    yield app
    app.close()


def test_the_most_used_class_ranks_first_and_an_unused_function_below_what_is_called(app):
    """blast_radius: Record (store/models.py:1) is instantiated, subclassed and re-exported; lonely.unused
    is used by nothing and ranks below fetch_record (called from three files)."""
    m = app.map(budget_tokens=2000)
    order = [e.qualname for e in sorted(m.entries, key=lambda e: -e.rank)]
    assert order[0] == "store.models.Record"
    assert order.index("store.fetch.fetch_record") < order.index("lonely.unused")
    assert m.left_out == 0


def test_the_map_is_signatures_grouped_by_file_within_the_budget(app):
    """blast_radius: each file once, its declarations in line order, a method under its class header."""
    m = app.map(budget_tokens=60)
    assert m.tokens == count_tokens(m.text) <= 60
    assert m.left_out > 0
    headers = [ln for ln in m.text.splitlines() if ln.endswith(".py:")]
    assert len(headers) == len(set(headers)) >= 1
    assert "store/models.py:\nclass Record\n    def __init__(self, key, value)" in app.map().text
    for path in {e.rel_path for e in m.entries}:
        lines = [e.line for e in m.entries if e.rel_path == path]
        assert lines == sorted(lines)


def test_focus_centres_the_map(app):
    """blast_radius: focused on store/styles.py, `lookup` (store/styles.py:7) comes first; an unknown focus
    is a usage error."""
    m = app.map(budget_tokens=2000, focus="store/styles.py")
    assert max(m.entries, key=lambda e: e.rank).qualname == "store.styles.lookup"
    assert app.map(focus="store.render.render").entries
    with pytest.raises(UsageError):
        app.map(focus="no/such/file.py")


def test_the_cli_prints_the_map_and_its_json(fixture_repo):
    """blast_radius through `codehop map` (text and --json)."""
    repo = fixture_repo("blast_radius")
    runner = CliRunner()
    text = runner.invoke(main, ["map", "--repo", str(repo), "--budget-tokens", "200"])
    assert text.exit_code == 0, text.output
    assert text.output.startswith("# repository map") and "class Record" in text.output
    js = runner.invoke(main, ["map", "--repo", str(repo), "--json"])
    assert js.exit_code == 0 and '"entries"' in js.output
