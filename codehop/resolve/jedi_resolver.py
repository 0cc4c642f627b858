"""JediResolver: Jedi's goto/infer, in process, with a deadline per call.

A reference that carries its site (the wanted name stands at its origin line
and column) is asked there, position-based, as an editor would; otherwise a
dotted absolute target is resolved through a two-line probe (`import mod`
then `mod.rest`), which lets Jedi follow re-exports, star imports and
attribute lookup through the MRO; a landing on `X = Y` goes through with
`infer()`.
Several targets are sorted, because Jedi's order changes between runs.
Owns the only use of `jedi`. May import: records, symbols, stdlib, jedi.
"""

from __future__ import annotations

import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import Any

from codehop.index.symbols import SymbolTable
from codehop.kernel.errors import CodehopError
from codehop.kernel.records import Location, PendingReference, Provenance, Resolution, Step, StepNote
from codehop.resolve.jedi_bridge import jedi_project
from codehop.resolve.ladder import Boundary, names_the_target, site_of


class JediTimeout(CodehopError):
    pass


class JediResolver:
    name = Provenance.JEDI

    def __init__(
        self,
        root: str,
        table: SymbolTable,
        *,
        timeout_s: float = 5.0,
        python: str | None = None,
        sys_path: tuple[str, ...] | None = None,
        boundary: Boundary | None = None,
    ) -> None:
        self.root = Path(root)
        # an interpreter outside the repository the user chose (else codehop's own: nothing of the
        # repository's ever runs) and the environment's import paths, read (see jedi_project)
        self.python = python
        self.sys_path = sys_path
        self.boundary = boundary or Boundary(self.root)
        self.table = table
        self.timeout_s = timeout_s
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="codehop-jedi")
        self._project: Any = None
        self._lock = threading.Lock()
        self._warm = False

    def _jedi(self) -> Any:
        # importing jedi raises the process-wide recursion limit to 3000; the indexer in the same
        # process relies on the default to refuse absurdly nested files, so it is put back (a
        # deeper Jedi recursion becomes this rung's failure, caught by the ladder)
        limit = sys.getrecursionlimit()
        import jedi

        sys.setrecursionlimit(limit)

        if self._project is None:
            # the indexed root comes first, so an installed copy of the same package never wins
            self._project = jedi_project(jedi, self.root, python=self.python, sys_path=self.sys_path)
        return jedi

    def resolve(self, ref: PendingReference) -> Resolution | None:
        # the first calls load the environment's modules: they get a longer deadline
        timeout_s = self.timeout_s if self._warm else max(20.0, 4 * self.timeout_s)
        fut = self._pool.submit(self._resolve, ref)
        try:
            res = fut.result(timeout=timeout_s)
        except FutureTimeout as exc:
            raise JediTimeout(f"jedi took longer than {timeout_s:g} s", ref=ref.ref_target) from exc
        self._warm = True
        return res

    def _resolve(self, ref: PendingReference) -> Resolution | None:
        jedi = self._jedi()
        names: list[Any] = []
        site = site_of(self.root, ref)
        # at the site when it names the declaration wanted, as an editor would; a dotted absolute
        # target (a member inherited through a base, a module's export) through a probe
        order = ("site", "probe") if names_the_target(ref) else ("probe", "site")
        for how in order:
            if how == "site" and site is not None:
                script = jedi.Script(path=str(site.path), project=self._project)
                names = self._goto(script, ref.origin_line, site.col)
            elif how == "probe" and (found := self.table.find_module(ref.ref_target)) is not None:
                mod, rest = found
                expr = ".".join([mod, *rest])
                script = jedi.Script(
                    code=f"import {mod}\n{expr}\n", path=str(self.root / "__codehop_probe__.py"), project=self._project
                )
                names = self._goto(script, 2, len(expr))
            if names:
                break
        if not names:
            return None
        n = names[0]
        mpath = Path(str(n.module_path)).resolve()
        origin = Location(rel_path=ref.origin_path, line=ref.origin_line, qualname=ref.anchor_text)
        rel = self.boundary.place(mpath)
        if rel is None:
            ext = n.module_name or mpath.stem
            return Resolution(target=Location(rel_path="", line=0, qualname=ext), provenance=self.name, external=ext)
        target = Location(rel_path=rel, line=n.line or 1, qualname=n.full_name or n.name)
        return Resolution(
            target=target,
            provenance=self.name,
            steps=(Step(from_loc=origin, to_loc=target, resolver=self.name, note=StepNote.GOTO),),
        )

    @staticmethod
    def _goto(script: Any, line: int, col: int) -> list[Any]:
        names = [n for n in script.goto(line, col, follow_imports=True) if n.module_path is not None]
        if any(n.type == "statement" for n in names):  # `X = Y`: only infer() goes through
            inferred = [n for n in script.infer(line, col) if n.module_path is not None]
            names = inferred or names
        names = [n for n in names if not str(n.module_path).endswith("__codehop_probe__.py")]
        return sorted(names, key=lambda n: (str(n.module_path), n.line or 0))

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
