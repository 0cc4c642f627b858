"""The command line, through click's runner and as a real subprocess (exit codes, --json)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from codehop.frontends.cli import main


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, list(args))


def test_index_json_summary(fixture_repo):
    repo = fixture_repo("reexport_chain")
    r = run("index", str(repo), "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["files"] == 5 and data["chunks"] > 0 and data["xrefs"] > 0 and data["rebuilt"]
    again = json.loads(run("index", str(repo), "--json").output)
    assert again["parsed"] == 0


def test_index_human_summary_and_warnings(fixture_repo):
    r = run("index", str(fixture_repo("encodings")))
    assert r.exit_code == 0
    assert "indexed 3 files" in r.output and "chunks" in r.output and "xrefs" in r.output
    assert "warning: pkg/binary.py" in r.output


@pytest.mark.parametrize(
    "command",
    [["index", "/no/such/repo"], ["ask", "x", "--repo", "/no/such/repo"], ["search", "x", "--repo", "/no/such/repo"]],
    ids=["index", "ask", "search"],
)
def test_missing_repo_exit_code_2(command):
    r = run(*command)
    assert r.exit_code == 2
    assert "does not exist" in r.output


def test_search_and_xrefs(fixture_repo):
    repo = str(fixture_repo("inherited_config"))
    hits = json.loads(run("search", "timeout", "--repo", repo, "--json", "-k", "3").output)
    assert hits and any("TIMEOUT" in h["qualname"] or h["path"].endswith("base.py") for h in hits)
    rows = json.loads(run("xrefs", "--repo", repo, "--type", "star_import", "--json").output)
    assert [(r["path"], r["target_path"]) for r in rows] == [("config/settings/prod.py", "config/settings/base.py")]
    stats = json.loads(run("xrefs", "--repo", repo, "--stats", "--json").output)
    assert stats["by_type"]["star_import"] == {"rows": 1, "resolved_at_index_time": 1}
    assert stats["rebuilds"] >= 1


def test_ask_json_and_human(fixture_repo):
    repo = str(fixture_repo("inherited_member"))
    r = run("ask", "What does `MockTransport.send` do?", "--repo", repo, "--json")
    d = json.loads(r.output)
    assert d["state"] == "complete" and "transport/http.py:9" in d["answer"]
    human = run("ask", "What does `MockTransport.send` do?", "--repo", repo)
    assert human.exit_code == 0 and "complete" in human.output and "transport/http.py:9" in human.output


def test_xrefs_stats_count_hops(fixture_repo):
    repo = str(fixture_repo("reexport_chain"))
    from codehop.answer.orchestrator import Limits
    from codehop.app import App, Config

    App(repo, Config(retrieve_k=1, use_graph=False)).navigator().ask("Where is `shop.Cart` defined?", Limits())
    stats = json.loads(run("xrefs", "--repo", repo, "--stats", "--json").output)
    assert stats["queries"] == 1 and stats["hops_from_table"] == 1
    assert stats["rebuild_to_query_ratio"] == 1.0


def test_doctor(fixture_repo):
    repo = str(fixture_repo("aliases"))
    r = run("doctor", "--repo", repo, "--json")
    assert r.exit_code == 0, r.output  # a fresh install is green: the first question indexes
    checks = {c["name"]: c for c in json.loads(r.output)}
    assert checks["index"]["ok"] and "no index yet" in checks["index"]["detail"]
    assert checks["language server basedpyright"]["ok"] and checks["language server jedi"]["ok"]
    run("index", repo)
    ok = json.loads(run("doctor", "--repo", repo, "--json").output)
    assert all(c["ok"] for c in ok)


def test_doctor_never_prints_the_key(fixture_repo, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-secret-value-123")
    r = run("doctor", "--repo", str(fixture_repo("aliases")))
    assert "sk-ant-secret-value-123" not in r.output and "not shown" in r.output


def test_module_entry_point_and_fast_help():
    """`python -m codehop --help` works and loads none of the heavy engines."""
    out = subprocess.run([sys.executable, "-m", "codehop", "--help"], capture_output=True, text=True, check=True)
    assert "ask" in out.stdout and "index" in out.stdout
    probe = (
        "import sys, codehop.frontends.cli; heavy = [m for m in ('tree_sitter', 'jedi', 'networkx', 'anthropic',"
        " 'pygls', 'sqlite3', 'mcp') if m in sys.modules]; print(heavy)"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"


def test_resolvers_option(fixture_repo):
    repo = str(fixture_repo("aliases"))
    bad = run("ask", "Where is it?", "--repo", repo, "--resolvers", "symbol_table,telepathy")
    assert bad.exit_code != 0 and "telepathy" in bad.output
    r = run("ask", "Where is `shop.Cart` defined?", "--repo", repo, "--resolvers", "symbol_table", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["state"] in ("complete", "give_up_partial")


def test_default_ladder_has_the_language_server(monkeypatch):
    from codehop.app import Config

    monkeypatch.delenv("CODEHOP_RESOLVERS", raising=False)
    assert Config().resolvers == ("symbol_table", "jedi", "lsp", "regex")
    monkeypatch.setenv("CODEHOP_RESOLVERS", "symbol_table,jedi")
    assert Config().resolvers == ("symbol_table", "jedi")


@pytest.mark.parametrize("command", ["mcp", "lsp", "context"])
def test_resolvers_option_is_checked_on_every_frontend(command, fixture_repo):
    args = [command, "--resolvers", "telepathy"] + (
        ["q", "--repo", str(fixture_repo("aliases"))] if command == "context" else []
    )
    r = run(*args)
    assert r.exit_code == 2 and "telepathy" in r.output
