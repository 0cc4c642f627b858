"""`codehop doctor`: checks the index, the language servers and the Anthropic configuration,
and says what is wrong and how to fix it. Never prints a key."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from codehop.index.environment import PythonEnvironment


@dataclass(slots=True)
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""


def run_checks(repo: str, index_dir: str | None) -> list[Check]:
    from codehop.index.walk import repo_root
    from codehop.kernel.errors import CodehopError

    try:
        root = repo_root(repo)
    except CodehopError as exc:
        return [Check("repository", False, exc.message, "pass an existing directory with --repo")]
    checks = [Check("repository", True, str(root))]
    checks.append(_index(root, index_dir))
    check, env = _environment(root)
    checks.append(check)
    for server in ("basedpyright", "jedi"):
        checks.append(_language_server(root, server, env))
    checks.append(_anthropic())
    return checks


def _environment(root: Path) -> tuple[Check, PythonEnvironment | None]:
    """Which Python environment's packages the repository uses, and why (never an error: none is fine)."""
    from codehop.index.environment import distributions, find_environment
    from codehop.kernel.errors import CodehopError

    try:
        if os.environ.get("CODEHOP_NO_ENV", "") not in ("", "0"):
            return Check("environment", True, "off (--no-env): only the repository is trusted"), None
        env = find_environment(root)
    except CodehopError as exc:
        fix = "point CODEHOP_PYTHON at a working interpreter, or unset it"
        return Check("environment", False, exc.message, fix), None
    if env is None:
        why = "none: only the repository is trusted (no .venv, venv, $VIRTUAL_ENV or CODEHOP_PYTHON)"
        return Check("environment", True, why), None
    return Check("environment", True, f"{env.describe()}; {len(distributions(env))} distributions installed"), env


def _index(root: Path, index_dir: str | None) -> Check:
    from codehop.index.indexer import index_dir_for, locate_index
    from codehop.index.store.schema import damage
    from codehop.index.store.sqlite import SqliteStore
    from codehop.index.walk import walk_python_files
    from codehop.kernel.errors import CodehopError

    path = index_dir_for(root, index_dir) / "index.db"
    if not path.exists():  # not a fault: `ask` and the servers index on first use
        try:  # the advice must be what `codehop index` will then do
            folder, note = locate_index(root, index_dir)
        except CodehopError as exc:
            return Check("index", False, exc.message, "pass a writable folder with --index-dir")
        where = f" ({note.removeprefix('note: ')})" if note else ""
        return Check(
            "index",
            True,
            f"no index yet at {folder / 'index.db'}{where}; the first question builds it "
            f"(or run: codehop index {root})",
        )
    why = damage(path)
    if why is not None:
        return Check(
            "index",
            False,
            f"{path}: damaged: {why}",
            f"run: codehop index {root} (it moves the damaged file aside and rebuilds)",
        )
    store = SqliteStore(path)
    known = store.file_states()
    stale = sum(1 for sf in walk_python_files(root) if sf.rel_path not in known or known[sf.rel_path][1:] != sf.stamp)
    counts = store.counts()
    store.close()
    detail = f"{path}: {counts['files']} files, {counts['chunks']} chunks, {counts['xrefs']} xrefs"
    if stale:
        return Check("index", False, f"{detail}; {stale} files changed since", f"run: codehop index {root}")
    return Check("index", True, detail + "; up to date")


def _language_server(root: Path, server: str, env: PythonEnvironment | None) -> Check:
    from codehop.resolve.lsp_resolver import environment_init_options, environment_settings
    from lsp_bridge.client import SERVERS, LanguageServerClient, find_executable

    command = SERVERS[server]
    if find_executable(command[0]) is None:
        return Check(
            f"language server {server}",
            False,
            f"{command[0]} not found on PATH",
            f"pip install {'basedpyright' if server == 'basedpyright' else 'jedi-language-server'}",
        )
    t0 = time.perf_counter()
    try:
        # told the environment as the lsp rung tells it: never left to pick (and run) the repository's interpreter
        python, extra = (env.interpreter, env.extra_paths) if env is not None else (None, ())
        with LanguageServerClient(
            command,
            str(root),
            timeout_s=20,
            start_timeout_s=30,
            settings=environment_settings(python, extra),
            init_options=environment_init_options(python, extra),
        ) as client:
            client.start()
            elapsed = time.perf_counter() - t0
    except Exception as exc:
        return Check(
            f"language server {server}",
            False,
            f"failed to start: {exc}",
            "check the server's installation; codehop falls back to Jedi and its symbol table",
        )
    return Check(f"language server {server}", True, f"started, answered initialize and stopped ({elapsed:.1f} s)")


def _anthropic() -> Check:
    key = os.environ.get("ANTHROPIC_API_KEY", "")
    if not key:
        return Check(
            "anthropic",
            True,
            "ANTHROPIC_API_KEY not set: the offline generator is used (set it to enable --generator anthropic)",
        )
    model = os.environ.get("CODEHOP_ANTHROPIC_MODEL", "default model")
    base = os.environ.get("ANTHROPIC_BASE_URL") or os.environ.get("CODEHOP_ANTHROPIC_BASE_URL") or "api.anthropic.com"
    return Check("anthropic", True, f"key present ({len(key)} characters, not shown); model {model}; endpoint {base}")
