"""Layering: imports flow down only. Each layer is imported in a fresh interpreter and what got
loaded is checked (front-ends stay lazy; libraries know nothing of codehop)."""

from __future__ import annotations

import subprocess
import sys

import pytest

CASES = [
    # module imported, modules that must NOT be loaded as a result
    ("codehop", ["tree_sitter", "jedi", "networkx", "anthropic", "pygls", "click", "sqlite3"]),
    ("codehop.kernel.records", ["codehop.index.store", "codehop.index.chunking", "tree_sitter", "sqlite3"]),
    ("codehop.kernel.errors", ["codehop.kernel.records", "sqlite3"]),
    ("codehop.frontends.cli", ["tree_sitter", "jedi", "networkx", "anthropic", "pygls", "codehop.index.store"]),
    ("codehop.index.store", ["tree_sitter", "jedi", "networkx", "anthropic", "pygls", "click"]),
    ("codehop.index.chunking", ["codehop.index.store", "jedi", "networkx", "anthropic", "pygls", "click"]),
    ("codehop.answer.orchestrator", ["tree_sitter", "jedi", "anthropic", "pygls", "click", "networkx"]),
    ("codehop.app", ["jedi", "anthropic", "pygls", "click", "networkx", "lsp_bridge"]),
    ("graphs", ["codehop", "jedi", "pygls", "tree_sitter"]),
    ("lsp_bridge.client", ["codehop", "jedi", "tree_sitter", "networkx"]),
]


@pytest.mark.parametrize(("module", "forbidden"), CASES, ids=[c[0] for c in CASES])
def test_import_loads_only_its_layer(module, forbidden):
    probe = (
        f"import sys, {module}; "
        f"print([m for m in {forbidden!r} if m in sys.modules or any(k.startswith(m + '.') for k in sys.modules)])"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", f"importing {module} loaded {out.stdout.strip()}"


# what a command loads, in the style of click's tests/test_imports.py: a fresh interpreter runs the
# command as a user does and lists the heavy libraries it pulled in (each costs 0.1-0.4 s to import)
HEAVY = ["anthropic", "mcp", "numpy", "scipy", "rich", "networkx", "pygls", "lsprotocol", "jedi"]
COMMANDS = [
    # command (after `codehop`), libraries it may load
    (["index", "{repo}", "--index-dir", "{idx}"], ["tree_sitter"]),
    (["ask", "Where is `Cart` defined?", "--repo", "{repo}", "--index-dir", "{idx}", "--json"], []),
    (["ask", "What does `checkout` do?", "--repo", "{repo}", "--index-dir", "{idx}"], ["rich"]),
    (["resolve", "app.py:7:11", "--repo", "{repo}", "--index-dir", "{idx}"], []),
    # the collaborators are ranked by personalized PageRank (numpy/scipy, via the networkx graph)
    (
        ["context", "Where is `Cart` defined?", "--repo", "{repo}", "--index-dir", "{idx}"],
        ["numpy", "scipy", "networkx"],
    ),
]
_RUN_CLI = """
import sys
from codehop.frontends.cli import main
heavy = sys.argv.pop(1).split(",")
sys.argv[0] = "codehop"
try:
    main()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
loaded = [m for m in heavy if m in sys.modules or any(k.startswith(m + ".") for k in sys.modules)]
print("LOADED", code, ",".join(loaded), file=sys.stderr)
"""


@pytest.fixture(scope="module")
def indexed_fixture(tmp_path_factory):  # type: ignore[no-untyped-def]
    import shutil
    from pathlib import Path

    base = tmp_path_factory.mktemp("imports")
    repo = base / "repo"
    shutil.copytree(Path(__file__).resolve().parents[1] / "fixtures_repos" / "reexport_chain", repo)
    idx = base / "index"
    subprocess.run(
        [sys.executable, "-m", "codehop", "index", str(repo), "--index-dir", str(idx)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return str(repo), str(idx)


@pytest.mark.parametrize(("command", "allowed"), COMMANDS, ids=[" ".join(c[0][:1] + c[0][-1:]) for c in COMMANDS])
def test_command_loads_only_what_it_uses(command, allowed, indexed_fixture):  # type: ignore[no-untyped-def]
    repo, idx = indexed_fixture
    args = [a.format(repo=repo, idx=idx) for a in command]
    heavy = [m for m in HEAVY + ["tree_sitter"] if m not in allowed]
    out = subprocess.run(
        [sys.executable, "-c", _RUN_CLI, ",".join(heavy), *args], capture_output=True, text=True, timeout=120
    )
    line = [ln for ln in out.stderr.splitlines() if ln.startswith("LOADED ")][-1].split(" ")
    assert line[1] == "0", f"codehop {' '.join(args)} failed: {out.stderr[-1500:]}"
    assert line[2] == "", f"codehop {args[0]} loaded {line[2]} (it does not use them)"
