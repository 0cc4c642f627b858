"""How the indexer may start worker processes, wherever the Python API is called from.

`fork` copies this process and imports nothing; it is safe only while this process runs one
thread (a fork can inherit a lock another thread holds). With other threads running (a Jedi
worker, an editor or MCP server, a caller's own threads) the pool needs `forkserver`, whose
workers import the caller's `__main__` again as `__mp_main__`: a plain script without an
`if __name__ == "__main__":` guard would run a second time in every worker, and die there
("an attempt has been made to start a new process before the current process has finished its
bootstrapping phase"). Such a caller gets no pool: the files are parsed in this process.
May import: stdlib.
"""

from __future__ import annotations

import sys
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import ast

__all__ = ["main_reimport_safe", "start_method"]

# a main module larger than this is not read to look for its guard (and gets no forkserver)
_MAX_MAIN_BYTES = 2_000_000


def start_method() -> str | None:
    """`fork` when this process runs one thread; `forkserver` when other threads run and the
    workers may import `__main__` again; None (parse in this process) otherwise."""
    if threading.active_count() == 1:
        return "fork"
    return "forkserver" if main_reimport_safe() else None


def main_reimport_safe() -> bool:
    """Whether a spawned or forkserver worker can import this process's `__main__` without
    running the caller's code: there is nothing to import (a notebook, `python -c`, an
    interactive session), multiprocessing skips it (a package's `__main__`, as `python -m
    codehop` runs), or its source keeps its work under an `if __name__ == "__main__":` guard.
    Mirrors `multiprocessing.spawn.get_preparation_data`."""
    import ast  # only beside other threads: a no-change `codehop index` never pays for it

    main = sys.modules.get("__main__")
    if main is None:
        return True
    spec = getattr(main, "__spec__", None)
    name = getattr(spec, "name", None)
    if name is not None:
        if name == "__main__" or name.endswith(".__main__"):
            return True  # multiprocessing never re-imports these (`_fixup_main_from_name`)
        path = getattr(spec, "origin", None)
    else:
        path = getattr(main, "__file__", None)
    if not path:
        return True
    try:
        with open(path, "rb") as fh:
            source = fh.read(_MAX_MAIN_BYTES + 1)
    except OSError:
        return False
    if len(source) > _MAX_MAIN_BYTES:
        return False
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return any(isinstance(stmt, ast.If) and _is_main_guard(stmt.test) for stmt in tree.body)


def _is_main_guard(test: ast.expr) -> bool:
    """`__name__ == "__main__"` (either way round)."""
    import ast

    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = (test.left, test.comparators[0])
    names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
    consts = [s for s in sides if isinstance(s, ast.Constant) and s.value == "__main__"]
    return len(names) == 1 and len(consts) == 1
