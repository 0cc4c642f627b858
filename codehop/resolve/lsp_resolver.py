"""LspResolver: a real language server's `textDocument/definition`, through lsp_bridge.

A dotted target is asked through a probe file (`import mod` / `mod.rest`)
written to the repository's `.codehop/` folder (the one folder codehop writes
in a user's tree, wherever the index itself lives), so the server does the
attribute lookup itself. A reference that carries its site (the wanted name
stands at its origin line and column) is asked there first.
Positions become LSP's (0-based lines, UTF-16 columns) here for the servers
this rung asks (codehop's own server converts for its clients in its
front-end, codehop.frontends.lsp_server). A server
that fails raises; the ladder records it and moves on. May import: records,
errors, symbols, lsp_bridge.client, stdlib.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codehop.index.symbols import SymbolTable
from codehop.kernel.errors import LanguageServerError, UsageError
from codehop.kernel.records import Location, PendingReference, Provenance, Resolution, Step, StepNote
from codehop.resolve.ladder import Boundary, names_the_target, site_of
from lsp_bridge.servers import SERVERS

if TYPE_CHECKING:  # pygls and lsprotocol cost ~0.4 s to import: loaded when a question reaches this rung
    from lsp_bridge.client import LanguageServerClient
    from lsp_bridge.client import Location as Location_


class LspResolver:
    name = Provenance.LSP

    def __init__(
        self,
        root: str,
        table: SymbolTable,
        *,
        server: str = "basedpyright",
        command: tuple[str, ...] = (),
        timeout_s: float = 5.0,
        probe_dir: str | None = None,
        boundary: Boundary | None = None,
        settings: dict[str, Any] | None = None,
        init_options: dict[str, Any] | None = None,
    ) -> None:
        if not command:
            if server not in SERVERS:
                raise UsageError(f"unknown language server {server!r}; choose {', '.join(SERVERS)}")
            command = tuple(SERVERS[server])
        self.root = Path(root).resolve()
        self.table = table
        self.boundary = boundary or Boundary(self.root)
        # errors name what really ran: the configured command when it is not the stock one
        self.server = server if tuple(command) == tuple(SERVERS.get(server, ())) else os.path.basename(command[0])
        # started on the first question that needs it (the client is lazy), reused after;
        # a cold start and its first answer get longer deadlines than warm requests
        self._command, self._timeout_s, self._settings = list(command), timeout_s, settings
        self._init_options = init_options
        self._client: LanguageServerClient | None = None
        self.probe_dir = Path(probe_dir) if probe_dir else self.root / ".codehop"
        self._lock = threading.Lock()

    @property
    def client(self) -> LanguageServerClient:
        """The bridge's client, made (not started: it starts on its first request) on first use."""
        if self._client is None:
            from lsp_bridge.client import LanguageServerClient

            timeout_s = self._timeout_s
            self._client = LanguageServerClient(
                self._command,
                str(self.root),
                timeout_s=timeout_s,
                start_timeout_s=max(20.0, timeout_s),
                first_timeout_s=max(20.0, 4 * timeout_s),
                settings=self._settings,
                init_options=self._init_options,
            )
        return self._client

    def resolve(self, ref: PendingReference) -> Resolution | None:
        try:
            return self._resolve(ref)
        except Exception as exc:  # the bridge's own errors become ours at this boundary
            if type(exc).__module__.startswith("lsp_bridge"):
                raise LanguageServerError(f"{self.server}: {exc}", resolver="lsp") from exc
            raise

    def _resolve(self, ref: PendingReference) -> Resolution | None:
        from lsp_bridge.client import utf16_col

        site = site_of(self.root, ref)
        locations: list[Location_] = []
        order = ("site", "probe") if names_the_target(ref) else ("probe", "site")
        with self._lock:
            for how in order:
                if how == "site" and site is not None:  # ask where the name stands, as an editor would
                    locations = self._first_answer(
                        str(site.path), ref.origin_line - 1, utf16_col(site.line_text, site.col)
                    )
                elif how == "probe" and (found := self.table.find_module(ref.ref_target)) is not None:
                    mod, rest = found  # a dotted absolute target: through a probe file
                    expr = ".".join([mod, *rest])
                    self.probe_dir.mkdir(parents=True, exist_ok=True)
                    probe = self.probe_dir / "lsp_probe.py"
                    probe.write_text(f"import {mod}\n{expr}\n", encoding="utf-8")
                    locations = self._first_answer(str(probe), 1, utf16_col(expr, max(0, len(expr) - 1)))
                if locations:
                    break
        locations = [loc for loc in locations if not loc.path.endswith("lsp_probe.py")]
        if not locations:
            return None
        loc = locations[0]
        target_path = Path(loc.path).resolve()
        origin = Location(rel_path=ref.origin_path, line=ref.origin_line, qualname=ref.anchor_text)
        rel = self.boundary.place(target_path)
        if rel is None:
            ext = _module_name_of(target_path)
            return Resolution(target=Location(rel_path="", line=0, qualname=ext), provenance=self.name, external=ext)
        target = Location(rel_path=rel, line=loc.line + 1, qualname=_qualname_at(self.table, rel, loc.line + 1))
        return Resolution(
            target=target,
            provenance=self.name,
            steps=(Step(from_loc=origin, to_loc=target, resolver=self.name, note=StepNote.DEFINITION),),
        )

    def _first_answer(self, path: str, line0: int, col: int) -> list[Location_]:
        """definition, then typeDefinition and implementation where the server has them
        (the client answers [] for a capability the server lacks)."""
        for ask in (self.client.definition, self.client.type_definition, self.client.implementation):
            found = [loc for loc in ask(path, line0, col) if not loc.path.endswith("lsp_probe.py")]
            if found:
                return found
        return []

    def close(self) -> None:
        if self._client is not None:
            self._client.close()


def environment_settings(interpreter: str | None, extra_paths: Sequence[str]) -> dict[str, Any]:
    """What a language server is told about the environment, so that it never picks (and runs) an
    interpreter of the repository's by itself (basedpyright runs a `.venv/bin/python` it finds in
    the root to read its paths): the interpreter is one outside the repository (the user's choice,
    else codehop's own) and the environment's package directories, read, are search paths.
    For basedpyright/pyright (the `python` and `basedpyright` settings sections)."""
    analysis = {"extraPaths": list(extra_paths)}
    return {
        "python": {"pythonPath": interpreter or sys.executable, "analysis": analysis},
        "basedpyright": {"analysis": analysis},
    }


def environment_init_options(interpreter: str | None, extra_paths: Sequence[str]) -> dict[str, Any]:
    """The same for jedi-language-server, which reads its environment from `initializationOptions`
    (else Jedi's default, `$VIRTUAL_ENV`, which may point into the repository)."""
    return {"workspace": {"environmentPath": interpreter or sys.executable, "extraPaths": list(extra_paths)}}


def _qualname_at(table: SymbolTable, rel_path: str, line: int) -> str:
    here = table.store.bindings_at(rel_path, line)
    return f"{here[0].scope}.{here[0].name}" if here else ""


def _module_name_of(path: Path) -> str:
    parts = list(path.with_suffix("").parts)
    for marker in ("site-packages", "dist-packages", "typeshed", "stdlib"):
        if marker in parts:
            parts = parts[len(parts) - parts[::-1].index(marker) :]
            break
    else:
        parts = parts[-1:]
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(p for p in parts if p and p != os.sep) or path.name
