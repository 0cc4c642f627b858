"""The Python API: `codehop.ask(...)` and `codehop.answer.context(...)`."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from codehop.answer.orchestrator import Limits
from codehop.app import Config, app_for, parse_resolvers
from codehop.kernel.records import Answer

if TYPE_CHECKING:
    from codehop.index.many import ManyReport, TaskResult


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
    names = parse_resolvers(resolvers)
    app = app_for(repo, Config(index_dir=index_dir))
    return app.navigator(generator, names).ask(question, Limits(max_loops=max_loops, budget_tokens=budget_tokens))


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
