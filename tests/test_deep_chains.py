"""Chains as deep as a repository likes (issue 29 item 6): a repository generated into tmp_path with
250 chained aliases (`a1 = a0`, `a2 = a1`, ...), a 1000-class inheritance chain, a 100-module
re-export chain, a 300-module star-import chain and alias and inheritance cycles, beside an
ordinary class (`pkg/ok.py:1 Cart`).

It indexes (a real `codehop index` process), answers its ordinary question `complete`, and answers
the deep ones `give_up_partial` without a traceback: the symbol table follows links up to its
step bound and walks MROs without recursion, so the stack never grows with the repository.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from codehop.index.indexer import index_repo
from codehop.index.symbols import MAX_MRO, SymbolTable

pytestmark = pytest.mark.timeout(300)

ALIASES = 250
CLASSES = 1000
REEXPORTS = 100
STARS = 300


def make_deep_repo(root: Path) -> Path:
    pkg = root / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "ok.py").write_text('class Cart:\n    """A cart."""\n\n    def total(self):\n        return 0\n')
    (pkg / "aliases.py").write_text("a0 = 1\n" + "".join(f"a{i} = a{i - 1}\n" for i in range(1, ALIASES + 1)))
    (pkg / "chain.py").write_text(
        "class C0:\n    def hello(self):\n        return 1\n\n\n"
        + "".join(f"class C{i}(C{i - 1}):\n    pass\n\n\n" for i in range(1, CLASSES + 1))
    )
    (pkg / "cycles.py").write_text("a = b\nb = a\n\n\nclass A(B):\n    pass\n\n\nclass B(A):\n    pass\n")
    (pkg / "r0.py").write_text("class Target:\n    def go(self):\n        return 1\n")
    for i in range(1, REEXPORTS):
        (pkg / f"r{i}.py").write_text(f"from pkg.r{i - 1} import Target\n")
    st = root / "st"
    st.mkdir()
    (st / "__init__.py").write_text("")
    (st / "s0.py").write_text("def starred():\n    return 2\n")
    for i in range(1, STARS):
        (st / f"s{i}.py").write_text(f"from st.s{i - 1} import *\n")
    return root


def run_cli(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    return subprocess.run(
        [sys.executable, "-m", "codehop", *args],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )


def test_deep_chains_index_and_answer(tmp_path: Path) -> None:
    """A real `codehop index` then `ask`, `context` and `map` processes on the generated repository."""
    repo = make_deep_repo(tmp_path / "deep")
    built = run_cli(repo, "index", str(repo))
    assert built.returncode == 0, built.stderr[-2000:]
    assert "Traceback" not in built.stderr

    ok = run_cli(repo, "ask", "where is Cart", "--json")
    assert ok.returncode == 0, ok.stderr[-2000:]
    assert json.loads(ok.stdout)["state"] == "complete"

    for question in (
        f"what is a{ALIASES}",
        f"what does C{CLASSES}.hello return",
        f"where is Target in pkg.r{REEXPORTS - 1}",
    ):
        deep = run_cli(repo, "ask", question, "--json")
        assert deep.returncode == 0, (question, deep.stderr[-2000:])
        assert "Traceback" not in deep.stderr
        assert json.loads(deep.stdout)["state"] == "give_up_partial", question

    for args in (("context", f"C{CLASSES} hello", "--budget-tokens", "500"), ("map",)):
        out = run_cli(repo, *args)
        assert out.returncode == 0, (args, out.stderr[-2000:])
        assert "Traceback" not in out.stderr


def test_symbol_table_bounds(tmp_path: Path) -> None:
    """The table in process: short chains resolve with every link; deep ones give up; the MRO of the
    1000-class chain is cut at MAX_MRO classes; cycles end."""
    repo = make_deep_repo(tmp_path / "deep")
    store, _ = index_repo(repo)
    try:
        table = SymbolTable(store)
        short = table.resolve("pkg.aliases.a10")
        assert short is not None and short.target.qualname == "pkg.aliases.a0" and len(short.steps) == 10
        assert table.resolve(f"pkg.aliases.a{ALIASES}") is None
        assert table.resolve(f"pkg.r{REEXPORTS - 1}.Target") is None
        assert table.resolve("pkg.cycles.a") is None
        near = table.resolve("pkg.chain.C20.hello")
        assert near is not None and near.target.qualname == "pkg.chain.C0.hello"
        deep = table.mro(f"pkg.chain.C{CLASSES}")
        assert MAX_MRO <= len(deep) <= MAX_MRO + 1 and deep[0] == f"pkg.chain.C{CLASSES}"
        assert table.mro("pkg.chain.C3") == tuple(f"pkg.chain.C{i}" for i in (3, 2, 1, 0))
        assert set(table.mro("pkg.cycles.A")) == {"pkg.cycles.A", "pkg.cycles.B"}
        assert table.mro_partial(f"pkg.chain.C{CLASSES}") and table.mro_partial("pkg.cycles.A")
        assert not table.mro_partial("pkg.chain.C3") and not table.mro_partial("pkg.ok.Cart")
    finally:
        store.close()


LATTICE = 22  # levels of two modules, each star-importing both modules of the next level


def test_star_import_lattice_is_searched_once(tmp_path: Path) -> None:
    """`lat/top.py` star-imports a lattice of 2 x 22 modules (2^22 paths to `lat/m21a.py:1 leaf`):
    a name the lattice lacks is searched through each module once, not once per path (82 s of a
    46-file `codehop index` before, most of it on `x = missing_name`)."""
    root = tmp_path / "lattice"
    pkg = root / "lat"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    for i in range(LATTICE):
        for side in "ab":
            body = (
                f"from lat.m{i + 1}a import *\nfrom lat.m{i + 1}b import *\n"
                if i + 1 < LATTICE
                else "def leaf():\n    return 1\n"
            )
            (pkg / f"m{i}{side}.py").write_text(body)
    (pkg / "top.py").write_text("from lat.m0a import *\nfrom lat.m0b import *\n\nx = missing_name\ny = leaf\n")
    started = time.process_time()
    store, _ = index_repo(root)
    try:
        table = SymbolTable(store)
        assert table.resolve("lat.top.missing_name") is None
        found = table.resolve("lat.top.leaf")
        assert found is not None and found.target.rel_path == f"lat/m{LATTICE - 1}a.py"
    finally:
        store.close()
    assert time.process_time() - started < 5.0
