"""Layering: imports flow down only. Each layer is imported in a fresh interpreter and what got
loaded is checked (front-ends stay lazy; libraries know nothing of codehop)."""

from __future__ import annotations

import subprocess
import sys

import pytest

CASES = [
    # module imported, modules that must NOT be loaded as a result
    ("codehop", ["tree_sitter", "jedi", "networkx", "anthropic", "pygls", "click", "sqlite3"]),
    ("codehop.records", ["codehop.store", "codehop.chunking", "tree_sitter", "sqlite3"]),
    ("codehop.errors", ["codehop.records", "sqlite3"]),
    ("codehop.cli", ["tree_sitter", "jedi", "networkx", "anthropic", "pygls", "codehop.store"]),
    ("codehop.store", ["tree_sitter", "jedi", "networkx", "anthropic", "pygls", "click"]),
    ("codehop.chunking", ["codehop.store", "jedi", "networkx", "anthropic", "pygls", "click"]),
    ("codehop.orchestrator", ["tree_sitter", "jedi", "anthropic", "pygls", "click", "networkx"]),
    ("codehop.app", ["jedi", "anthropic", "pygls", "click", "networkx", "lsp_bridge"]),
    ("graphs", ["codehop", "jedi", "pygls", "tree_sitter"]),
    ("lsp_bridge.client", ["codehop", "jedi", "tree_sitter", "networkx"]),
]


@pytest.mark.parametrize(("module", "forbidden"), CASES, ids=[c[0] for c in CASES])
def test_import_loads_only_its_layer(module, forbidden):
    probe = (f"import sys, {module}; "
             f"print([m for m in {forbidden!r} if m in sys.modules or any(k.startswith(m + '.') for k in sys.modules)])")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", f"importing {module} loaded {out.stdout.strip()}"
