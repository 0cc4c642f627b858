"""Layering: imports flow down only.

The rules are written down here and checked over the AST of every module of codehop, graphs and
lsp_bridge (`violations`): an allow-list per layer (kernel < index < resolve < navigation <
reading < answer < door < frontends; navigation reads no question, reading no navigation; graphs and lsp_bridge are libraries that import nothing of codehop), a front-end
imports only the door, the records it returns and the errors it raises, each third-party library
stays in its one home, and no layer folder imports another in a cycle. A test runs the checker on
a small synthetic tree to prove it catches what it should. Then each layer is imported in a fresh
interpreter and what got loaded is checked (front-ends stay lazy; libraries know nothing of
codehop), and each command is run to see which heavy libraries it loads."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

# ---- the written rules: an allow-list per layer, checked over the AST of every module ----------
# Layers, bottom to top; a module belongs to the longest prefix that names it. `lsp_bridge` and
# `graphs` are libraries: they import nothing of codehop, and codehop's layers may use them.
LAYER_OF = {
    "codehop.kernel": "kernel",
    "codehop.index": "index",
    "codehop.resolve": "resolve",
    "codehop.navigation": "navigation",
    "codehop.reading": "reading",
    "codehop.answer": "answer",
    "codehop.frontends": "frontends",
    "codehop.__main__": "frontends",  # `python -m codehop` is the CLI
    "graphs": "graphs",
    "lsp_bridge": "lsp_bridge",
}
_BELOW = ("kernel", "index", "resolve", "navigation", "reading", "answer", "door")
ALLOWED_LAYERS = {
    "kernel": {"kernel"},
    "index": {"kernel", "index", "graphs"},
    "resolve": {"kernel", "index", "resolve", "graphs", "lsp_bridge"},
    # the engine of who calls / uses / subclasses / overrides: below the answer layer, beside reading
    "navigation": {"kernel", "index", "resolve", "navigation", "graphs"},
    "reading": {"kernel", "index", "resolve", "reading", "graphs"},
    "answer": {"kernel", "index", "resolve", "navigation", "reading", "answer", "graphs"},
    "door": {"kernel", "index", "resolve", "navigation", "reading", "answer", "door", "graphs", "lsp_bridge"},
    "frontends": {"frontends"},  # and exactly the modules of FRONTEND_DOOR
    "graphs": {"graphs"},
    "lsp_bridge": {"lsp_bridge"},
}
# what a front-end may import of the layers below it: the door, the records it returns, the errors
# it raises (each front-end converts them in one place); nothing else
FRONTEND_DOOR = {"codehop", "codehop.app", "codehop.api", "codehop.kernel.records", "codehop.kernel.errors"}
# each third-party library lives inside one engine (or one front-end) and is translated there
LIBRARY_HOME = {
    "tree_sitter": ("codehop.index.chunking",),
    "tree_sitter_python": ("codehop.index.chunking",),
    # Jedi at loop time (the ladder's rung) and at index time (an installed package's bridge worker)
    "jedi": ("codehop.resolve.jedi_resolver", "codehop.resolve.jedi_bridge"),
    "anthropic": ("codehop.answer.anthropic_generator",),
    "networkx": ("graphs",),
    "numpy": ("graphs",),
    "scipy": ("graphs",),
    "pygls": ("lsp_bridge", "codehop.frontends.lsp_server", "codehop.frontends.lsp_wire"),
    "lsprotocol": ("lsp_bridge", "codehop.frontends.lsp_server", "codehop.frontends.lsp_wire"),
    "cattrs": ("lsp_bridge", "codehop.frontends.lsp_server", "codehop.frontends.lsp_wire"),
    "click": ("codehop.frontends.cli",),
    "rich": ("codehop.frontends",),
    "mcp": ("codehop.frontends.mcp_server",),
    "mcp_types": ("codehop.frontends.mcp_server",),
    "pydantic": ("codehop.frontends.mcp_server",),
    # SQLite's exceptions become codehop's in the store (`index.store.failures`): no layer above
    # the index catches, or names, a sqlite3 error
    "sqlite3": ("codehop.index",),
    "Stemmer": ("codehop.index.terms",),
    "wordninja": ("codehop.index.terms",),
    "wordsegment": ("codehop.index.terms",),
    "stopwords": ("codehop.reading.question_words",),
}
PACKAGES = ("codehop", "lsp_bridge", "graphs")


def _inside(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


# the door is four modules by name: any other module directly in codehop/ is in no layer
DOOR = {"codehop", "codehop.app", "codehop.api", "codehop.doctor"}


def layer_of(module: str) -> str | None:
    if module in DOOR:
        return "door"
    best = max((p for p in LAYER_OF if _inside(module, p)), key=len, default=None)
    return LAYER_OF[best] if best is not None else None


def modules_under(root: Path) -> dict[str, Path]:
    """Every module of the three packages under `root`, by dotted name."""
    out: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = path
    return out


def imports_of(module: str, path: Path, known: set[str]) -> list[tuple[int, str]]:
    """(line, imported module) for every import statement anywhere in the file (inside functions
    and `if TYPE_CHECKING:` too: a type named from above is an upward import as well)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.split(".")
                parts = parts if is_package else parts[:-1]
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join(parts + ([base] if base else []))
            for a in node.names:
                sub = f"{base}.{a.name}"
                out.append((node.lineno, sub if sub in known else base))
    return out


def violations(root: Path) -> list[str]:
    """Every import that breaks the rules, as `path:line: why` (empty when the tree keeps them)."""
    mods = modules_under(root)
    known = set(mods)
    problems: list[str] = []
    for module, path in mods.items():
        layer = layer_of(module)
        where = path.relative_to(root).as_posix()
        if layer is None:
            problems.append(f"{where}: module {module} is in no layer (put it in its layer's folder)")
            continue
        for line, imported in imports_of(module, path, known):
            top = imported.split(".")[0]
            if top in LIBRARY_HOME:
                if not any(_inside(module, home) for home in LIBRARY_HOME[top]):
                    problems.append(f"{where}:{line}: {top} is used only in {', '.join(LIBRARY_HOME[top])}")
                continue
            if top not in PACKAGES:
                continue  # stdlib and the small helpers (typing_extensions, ...)
            target = layer_of(imported)
            if target is None:
                problems.append(f"{where}:{line}: imports {imported}, which is in no layer")
            elif layer == "frontends" and target != "frontends":
                if imported not in FRONTEND_DOOR:
                    problems.append(
                        f"{where}:{line}: front-end {module} imports {imported}; "
                        f"front-ends import only {', '.join(sorted(FRONTEND_DOOR))}"
                    )
            elif target not in ALLOWED_LAYERS[layer]:
                problems.append(f"{where}:{line}: {layer} module {module} imports {imported} ({target})")
    return problems


def folder_graph(root: Path) -> dict[str, set[str]]:
    """Which layer folder imports which (self-imports left out)."""
    mods = modules_under(root)
    graph: dict[str, set[str]] = {}
    for module, path in mods.items():
        a = layer_of(module)
        if a is None:
            continue
        for _line, imported in imports_of(module, path, set(mods)):
            b = layer_of(imported) if imported.split(".")[0] in PACKAGES else None
            if b is not None and b != a:
                graph.setdefault(a, set()).add(b)
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of the graph (as a path that returns to its start), or []."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str) -> list[str]:
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m) :] + [m]
            if m not in state:
                found = visit(m)
                if found:
                    return found
        stack.pop()
        state[n] = 2
        return []

    for n in sorted(graph):
        if n not in state:
            found = visit(n)
            if found:
                return found
    return []


ROOT = Path(__file__).resolve().parents[1]


def test_every_import_keeps_the_layer_rules():
    assert violations(ROOT) == []


def test_no_import_cycle_between_layer_folders():
    assert cycle(folder_graph(ROOT)) == []


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    for package in PACKAGES:
        (tmp_path / package).mkdir(exist_ok=True)
    return tmp_path


def test_the_checker_catches_a_front_end_importing_an_engine(tmp_path):
    """A synthetic tree: a front-end that reaches past the door into the index, a kernel module that
    imports upward, a library that imports codehop, click outside the CLI; the real tree's checker
    names each one, and passes the same tree without them."""
    root = _tree(
        tmp_path,
        {
            "codehop/__init__.py": "",
            "codehop/app.py": "from codehop.index import store\n",
            "codehop/kernel/__init__.py": "",
            "codehop/kernel/records.py": "from codehop.answer import retrieval\n",
            "codehop/index/__init__.py": "",
            "codehop/index/store.py": "import sqlite3\n",
            "codehop/answer/__init__.py": "",
            "codehop/answer/retrieval.py": "import click\nfrom ..index.store import x\n",
            "codehop/frontends/__init__.py": "",
            "codehop/frontends/cli.py": (
                "import click\nfrom codehop.app import App\nfrom codehop.kernel.records import Answer\n"
                "def f():\n    from codehop.index.store import SqliteStore\n"
            ),
            "lsp_bridge/__init__.py": "",
            "lsp_bridge/client.py": "from codehop.kernel import records\n",
            "codehop/misc.py": "",
        },
    )
    found = violations(root)
    assert any("codehop/frontends/cli.py:5" in p and "codehop.index.store" in p for p in found), found
    assert any("codehop/kernel/records.py:1" in p and "codehop.answer.retrieval" in p for p in found), found
    assert any("codehop/answer/retrieval.py:1" in p and "click" in p for p in found), found
    assert any("lsp_bridge/client.py:1" in p for p in found), found
    assert any("codehop/misc.py" in p and "no layer" in p for p in found), found
    assert len(found) == 5, found  # the relative import down, the door's, the CLI's door imports pass


def test_the_checker_finds_a_folder_cycle():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": {"c"}}) == []


# ---- what importing a layer loads, in a fresh interpreter ------------------------------------
CASES = [
    # module imported, modules that must NOT be loaded as a result
    ("codehop", ["tree_sitter", "jedi", "networkx", "anthropic", "pygls", "click", "sqlite3"]),
    ("codehop.kernel.records", ["codehop.index.store", "codehop.index.chunking", "tree_sitter", "sqlite3"]),
    ("codehop.kernel.errors", ["codehop.kernel.records", "sqlite3"]),
    (
        "codehop.frontends.cli",
        # `codehop --help` loads click and the command definitions: no records, no JSON, no SQLite
        ["tree_sitter", "jedi", "networkx", "anthropic", "pygls", "codehop.index.store", "codehop.kernel.records"]
        + ["dataclasses", "json", "sqlite3"],
    ),
    # the entry point: its one quick path (a current index) loads the door when it runs, not before
    ("codehop.frontends.launch", ["click", "sqlite3", "dataclasses", "codehop.api", "codehop.kernel"]),
    # the MCP front-end loads the SDK and the door only when a server starts
    ("codehop.frontends.mcp_server", ["mcp", "codehop.app", "codehop.index", "codehop.answer", "tree_sitter"]),
    ("codehop.index.store", ["tree_sitter", "jedi", "networkx", "anthropic", "pygls", "click"]),
    # a parse worker: the rows' converters (store.rows, records only), never SQLite or the store itself
    (
        "codehop.index.chunking",
        ["codehop.index.store.sqlite", "codehop.index.store.write", "codehop.index.store.schema", "sqlite3"]
        + ["jedi", "networkx", "anthropic", "pygls", "click"],
    ),
    ("codehop.answer.orchestrator", ["tree_sitter", "jedi", "anthropic", "pygls", "click", "networkx"]),
    ("codehop.app", ["jedi", "anthropic", "pygls", "click", "networkx", "lsp_bridge"]),
    # `codehop index` goes through the api: the session and the answering stack load only when used
    ("codehop.api", ["codehop.app", "codehop.answer", "codehop.index.store", "tree_sitter", "sqlite3"]),
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
from codehop.frontends.launch import main
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


def test_a_no_change_index_loads_no_parser_and_no_answering_stack(indexed_fixture):  # type: ignore[no-untyped-def]
    """`codehop index` of an indexed, unchanged tree (the walk replayed, the page check remembered):
    no parser, no resolution, no session, no answering stack, no ignore-file matcher (the tree has
    no ignore file), no untrusted-text patterns."""
    repo, idx = indexed_fixture
    heavy = HEAVY + [
        "tree_sitter",
        "codehop.index.ignore",
        "codehop.index.chunking",
        "codehop.index.xref_resolve",
        "codehop.app",
        "codehop.answer",
        "codehop.navigation",
        "codehop.reading",
        "codehop.resolve",
        "codehop.kernel.untrusted",
    ]
    for _ in range(2):  # the first run may walk and check pages (a tree just made is not remembered)
        out = subprocess.run(
            [sys.executable, "-c", _RUN_CLI, ",".join(heavy), "index", repo, "--index-dir", idx],
            capture_output=True,
            text=True,
            timeout=120,
        )
    line = [ln for ln in out.stderr.splitlines() if ln.startswith("LOADED ")][-1].split(" ")
    assert line[1] == "0", out.stderr[-1500:]
    assert line[2] == "", f"a no-change codehop index loaded {line[2]}"
    assert "(0 parsed, 0 removed)" in out.stderr
