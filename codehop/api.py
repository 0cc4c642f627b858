"""The Python API, and the door's functions that need no session: `codehop.ask(...)`; indexing,
repairing a damaged index, finding a repository's root, and the doctor's checks.

A front-end imports this module and codehop.app (the session, `App`), nothing below them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from codehop.doctor import Check
    from codehop.index.many import ManyReport, TaskResult
    from codehop.index.survey import IndexReport
    from codehop.kernel.records import Answer

__all__ = [
    "ask",
    "current_index",
    "discover_root",
    "doctor",
    "index",
    "index_many",
    "repair_index",
    "repo_root",
]

# (the session is imported where it is used: `codehop index` loads the index layer only, not the
# answering stack behind the door)


def ask(
    question: str,
    repo: str | os.PathLike[str] = ".",
    *,
    max_loops: int = 1,
    generator: str = "offline",
    budget_tokens: int = 2000,
    index_dir: str | None = None,
    resolvers: str | Sequence[str] | None = None,
) -> Answer:
    """Answer a question about `repo`, indexing it on first use (incrementally after).

    `resolvers` chooses the ladder's rungs in order (default: symbol_table, jedi, lsp, regex);
    the language server starts on the first question that needs it and is reused after."""
    from codehop.app import Config, app_for, parse_resolvers

    names = parse_resolvers(resolvers)

    def run() -> Answer:
        app = app_for(repo, Config(index_dir=index_dir))
        return app.ask(question, max_loops=max_loops, budget_tokens=budget_tokens, generator=generator, resolvers=names)

    return _repairing(run, repo, index_dir)


T = TypeVar("T")


def _repairing(call: Callable[[], T], repo: str | os.PathLike[str], index_dir: str | None) -> T:
    """`call()`, repaired as the command line repairs it: a damaged index (IndexDamagedError) is
    moved aside (logged on the `codehop` logger) and `call` runs once more, rebuilding it. An index
    found sound keeps the error as it was."""
    from codehop.kernel.errors import IndexDamagedError, IndexSchemaError

    try:
        return call()
    except IndexDamagedError:
        why = repair_index(repo, index_dir)
        if why is None:
            raise
        import logging

        logging.getLogger("codehop").warning("codehop: %s", why)
    try:
        return call()
    except IndexDamagedError as exc:
        raise IndexSchemaError(f"the index could not be read even after a rebuild: {exc.reason}") from exc


def index(
    path: str | os.PathLike[str],
    *,
    index_dir: str | None = None,
    max_file_bytes: int = 1_000_000,
    progress: Callable[[str, int, int], None] | None = None,
    verify: bool = False,
) -> IndexReport:
    """Index (or incrementally update) the repository at `path`; the report of what was done."""
    from codehop.index.indexer import index_repo

    def run() -> IndexReport:
        store, report = index_repo(
            path, index_dir=index_dir, max_file_bytes=max_file_bytes, progress=progress, verify=verify
        )
        store.close()
        return report

    return _repairing(run, path, index_dir)


def current_index(path: str | os.PathLike[str], *, index_dir: str | None = None) -> IndexReport | None:
    """The report of `index(path, verify=True)` when it would find nothing to do, or None when it
    would do something (build, parse, remove, re-stamp, warn or repair): reads only, and loads
    neither the store's writers nor the records, so a no-change `codehop index` costs about a
    walk of the tree."""
    from codehop.index.survey import current_report

    return current_report(path, index_dir)


def repair_index(repo: str | os.PathLike[str], index_dir: str | None = None) -> str | None:
    """A damaged index moved aside (it is rebuilt on next use): why, or None when it was not damaged."""
    from codehop.index.indexer import repair_index

    return repair_index(repo, index_dir)


def discover_root(start: str | os.PathLike[str] = ".") -> Path:
    """The project `start` is in, found as git finds its root (RepoNotFoundError when none)."""
    from codehop.index.walk import discover_root

    return discover_root(start)


def repo_root(repo: str | os.PathLike[str]) -> Path:
    """The repository folder `repo` names (RepoNotFoundError when it does not exist)."""
    from codehop.index.walk import repo_root

    return repo_root(repo)


def doctor(repo: str, index_dir: str | None = None) -> list[Check]:
    """Checks of the index, the environment, the language servers and the Anthropic configuration."""
    from codehop.doctor import run_checks

    return run_checks(repo, index_dir)


def index_many(
    paths: Sequence[str],
    dists: Sequence[str] = (),
    *,
    out: str | None = None,
    jobs: int | None = None,
    ray: str | None = None,
    report: Callable[[TaskResult, int, int], None] | None = None,
) -> ManyReport:
    """Index many repositories and installed distributions, one index file each, on a local
    process pool (`jobs` at once) or as Ray tasks (`ray`: an address, `auto` or `local`)."""
    from codehop.index.many import index_many as run

    return run(paths, dists, out=out, jobs=jobs, ray=ray, report=report)
