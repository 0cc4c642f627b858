"""Wiring: builds a Navigator from configuration. The only module that names concrete classes.

May import every engine and logic module; front-ends import only this and api.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from pathlib import Path

from codehop.errors import UsageError
from codehop.indexer import IndexReport, index_repo
from codehop.orchestrator import Navigator
from codehop.protocols import Generator, Resolver
from codehop.resolve import Ladder, RegexResolver, SymbolTableResolver
from codehop.retrieval import Neighbours, retrieve
from codehop.symbols import SymbolTable

RESOLVER_NAMES = ("symbol_table", "jedi", "lsp", "regex")


@dataclass(slots=True, kw_only=True)
class Config:
    generator: str = "offline"
    resolvers: tuple[str, ...] = ("symbol_table", "jedi", "regex")
    language_server: str = field(default_factory=lambda: os.environ.get("CODEHOP_LANGUAGE_SERVER", "basedpyright"))
    language_server_command: tuple[str, ...] = ()
    # a deadline per Jedi / language-server call; CODEHOP_RESOLVER_TIMEOUT_S raises it on a loaded machine
    resolver_timeout_s: float = field(default_factory=lambda: float(os.environ.get("CODEHOP_RESOLVER_TIMEOUT_S", "5")))
    use_graph: bool = True
    retrieve_k: int = 30  # BM25 hits considered before packing
    index_dir: str | None = None


class App:
    """One repository: its index, symbol table, graph and ladder, kept warm across queries."""

    def __init__(self, repo: str | os.PathLike[str], config: Config | None = None) -> None:
        self.config = config or Config()
        self.store, self.report = index_repo(repo, index_dir=self.config.index_dir)
        self.root = Path(self.report.root)
        self._index_id: tuple[int, int] | None = _file_id(self.store.path)
        self.table = SymbolTable(self.store)
        self._graph: object = None
        self._lock = threading.RLock()
        self._resolvers: dict[str, Resolver] = {}

    def refresh(self) -> IndexReport:
        """Re-index what changed on disk (a few stat calls when nothing did)."""
        with self._lock:
            stamp = self.report.stamp
            # an index file replaced or deleted under a long-running server: reopen, never read stale pages
            replaced = self.index_replaced()
            if stamp is not None and stamp.unchanged() and not replaced:
                return self.report
            store, report = index_repo(self.root, index_dir=self.config.index_dir,
                                       stamp=None if replaced else stamp)
            if store.path != self.store.path or replaced:
                self.store.close()
                self.store = store
                self.table = SymbolTable(store)
                self._graph = None
                self._close_resolvers()
            self._index_id = _file_id(store.path)
            self.report = report
            return report

    def index_replaced(self) -> bool:
        """Is the index file gone or another one than this App opened? (one stat: a server asks it
        before every answer)"""
        return _file_id(self.store.path) != self._index_id

    def reopen(self) -> None:
        """After the index was repaired (moved aside): rebuild it and drop everything read from it."""
        with self._lock:
            self._index_id = (-1, -1)  # no file has this identity: the next refresh reopens
        self.refresh()

    # ---- engines -----------------------------------------------------------
    def graph_neighbours(self) -> Neighbours | None:
        if not self.config.use_graph:
            return None
        from codehop.graph_context import GraphContext

        if self._graph is None:
            self._graph = GraphContext(self.store, self.table)
        graph = self._graph
        assert isinstance(graph, GraphContext)
        return graph.neighbours

    def resolver(self, name: str) -> Resolver:
        if name not in self._resolvers:
            self._resolvers[name] = self._make_resolver(name)
        return self._resolvers[name]

    def _make_resolver(self, name: str) -> Resolver:
        if name == "symbol_table":
            return SymbolTableResolver(self.table)
        if name == "jedi":
            from codehop.jedi_resolver import JediResolver

            return JediResolver(str(self.root), self.table, timeout_s=self.config.resolver_timeout_s)
        if name == "lsp":
            from codehop.lsp_resolver import LspResolver

            return LspResolver(str(self.root), self.table, server=self.config.language_server,
                               command=self.config.language_server_command,
                               timeout_s=self.config.resolver_timeout_s)
        if name == "regex":
            return RegexResolver(self.table, str(self.root))
        if name == "llm":
            from codehop.anthropic_generator import AnthropicGenerator, AnthropicResolver

            return AnthropicResolver.from_generator(AnthropicGenerator.from_env(self.table), str(self.root))
        raise UsageError(f"unknown resolver {name!r}; choose from {', '.join(RESOLVER_NAMES)}")

    def ladder(self, names: tuple[str, ...] | None = None) -> Ladder:
        return Ladder([self.resolver(n) for n in (names or self.config.resolvers)], self.table)

    def generator(self, name: str | None = None) -> Generator:
        name = name or self.config.generator
        if name == "offline":
            from codehop.offline import OfflineGenerator

            return OfflineGenerator(self.table)
        if name == "anthropic":
            from codehop.anthropic_generator import AnthropicGenerator

            return AnthropicGenerator.from_env(self.table)
        raise UsageError(f"unknown generator {name!r}; choose offline or anthropic")

    def navigator(self, generator: str | None = None) -> Navigator:
        graph = self.graph_neighbours()
        store = self.store
        k = self.config.retrieve_k

        def _retrieve(question: str):  # type: ignore[no-untyped-def]
            return retrieve(store, question, k=k, graph=graph)

        gen = self.generator(generator)
        # the model's own rung only ever follows the deterministic ones, and only with the model
        names = self.config.resolvers + (("llm",) if gen.name == "anthropic" else ())
        return Navigator(self.store, _retrieve, gen, self.ladder(names))

    def _close_resolvers(self) -> None:
        for r in self._resolvers.values():
            close = getattr(r, "close", None)
            if close is not None:
                close()
        self._resolvers.clear()

    def close(self) -> None:
        self._close_resolvers()
        self.store.close()


def _file_id(path: Path) -> tuple[int, int] | None:
    """Which file is at `path` now (device, inode), or None when none is."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


_APPS: dict[tuple[str, str | None], App] = {}
_APPS_LOCK = threading.Lock()


def app_for(repo: str | os.PathLike[str], config: Config | None = None) -> App:
    """A warm App per repository in this process; refreshed (incrementally) on each use."""
    from codehop.walk import repo_root

    root = str(repo_root(repo))
    key = (root, (config or Config()).index_dir)
    with _APPS_LOCK:
        app = _APPS.get(key)
        if app is None:
            app = App(root, config)
            _APPS[key] = app
            return app
    app.refresh()
    return app
