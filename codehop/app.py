"""Wiring: builds a Navigator from configuration. The only module that names concrete classes.

May import every engine and logic module; front-ends import only this and api.
"""

from __future__ import annotations

import functools
import os
import shlex
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from codehop.answer.orchestrator import Navigator
from codehop.answer.retrieval import Neighbours, retrieve
from codehop.index.environment import PythonEnvironment, find_environment
from codehop.index.indexer import IndexReport, index_repo
from codehop.index.packages import PackageIndexes
from codehop.index.symbols import SymbolTable
from codehop.kernel.errors import UsageError
from codehop.kernel.protocols import Generator, Resolver
from codehop.resolve.ladder import Boundary, Ladder, RegexResolver, SymbolTableResolver

if TYPE_CHECKING:
    from collections.abc import Callable

    from codehop.answer.dependents import DependentsFinder
    from codehop.kernel.records import Answer, PendingReference, Resolution

RESOLVER_NAMES = ("symbol_table", "jedi", "lsp", "regex", "llm")
DEFAULT_RESOLVERS = ("symbol_table", "jedi", "lsp", "regex")


def parse_resolvers(spec: str | Sequence[str] | None) -> tuple[str, ...] | None:
    """`symbol_table,jedi` (or a sequence of names) -> the ladder's rungs, in order; checked."""
    if spec is None:
        return None
    names = [n.strip() for n in (spec.split(",") if isinstance(spec, str) else spec) if n.strip()]
    unknown = [n for n in names if n not in RESOLVER_NAMES]
    if unknown or not names:
        raise UsageError(
            f"unknown resolver {', '.join(unknown) or '(none)'!r}; choose from {', '.join(RESOLVER_NAMES)}"
        )
    return tuple(dict.fromkeys(names))


def _default_resolvers() -> tuple[str, ...]:
    # CODEHOP_RESOLVERS lets a server started by an editor or an agent choose its ladder
    return parse_resolvers(os.environ.get("CODEHOP_RESOLVERS") or None) or DEFAULT_RESOLVERS


@dataclass(slots=True, kw_only=True)
class Config:
    generator: str = "offline"
    resolvers: tuple[str, ...] = field(default_factory=_default_resolvers)
    language_server: str = field(default_factory=lambda: os.environ.get("CODEHOP_LANGUAGE_SERVER", "basedpyright"))
    # a server command of one's own (`CODEHOP_LANGUAGE_SERVER_COMMAND="/opt/bin/pyright-langserver --stdio"`)
    language_server_command: tuple[str, ...] = field(
        default_factory=lambda: tuple(shlex.split(os.environ.get("CODEHOP_LANGUAGE_SERVER_COMMAND", "")))
    )
    # a deadline per Jedi / language-server call; CODEHOP_RESOLVER_TIMEOUT_S raises it on a loaded machine
    resolver_timeout_s: float = field(default_factory=lambda: float(os.environ.get("CODEHOP_RESOLVER_TIMEOUT_S", "5")))
    use_graph: bool = True
    retrieve_k: int = 30  # BM25 hits considered before packing
    index_dir: str | None = None
    python: str | None = None  # the interpreter whose packages the repository uses (else found)
    use_env: bool = field(default_factory=lambda: os.environ.get("CODEHOP_NO_ENV", "") in ("", "0"))
    # resolve an installed package's inferred pointers once, in a Jedi worker after it is indexed
    bridge_packages: bool = field(default_factory=lambda: os.environ.get("CODEHOP_BRIDGE", "") in ("", "1"))


class App:
    """One repository: its index, symbol table, graph and ladder, kept warm across queries."""

    def __init__(self, repo: str | os.PathLike[str], config: Config | None = None) -> None:
        self.config = config or Config()
        self.store, self.report = index_repo(repo, index_dir=self.config.index_dir)
        self.root = Path(self.report.root)
        self._index_id: tuple[int, int] | None = _file_id(self.store.path)
        self.env, self.packages = self._environment()
        self.table = SymbolTable(self.store, packages=self.packages)
        self._graph: object = None
        self._lock = threading.RLock()
        self._resolvers: dict[str, Resolver] = {}
        self._finder: object = None

    def refresh(self) -> IndexReport:
        """Re-index what changed on disk (a few stat calls when nothing did)."""
        with self._lock:
            if self.packages is not None and self.packages.stale():
                # a package was installed, upgraded or removed: its old index must not answer
                self.store.unmount_all()
                self.env, self.packages = self._environment()
                self.table = SymbolTable(self.store, packages=self.packages)
                self._graph = None
                self._finder = None
                self._close_resolvers()
            stamp = self.report.stamp
            # an index file replaced or deleted under a long-running server: reopen, never read stale pages
            replaced = self.index_replaced()
            if stamp is not None and stamp.unchanged() and not replaced:
                return self.report
            store, report = index_repo(self.root, index_dir=self.config.index_dir, stamp=None if replaced else stamp)
            if store.path != self.store.path or replaced:
                self.store.close()
                self.store = store
                if self.packages is not None:
                    self.packages.rebind(store)
                self.table = SymbolTable(store, packages=self.packages)
                self._graph = None
                self._close_resolvers()  # they hold the old table; rebuilt on next use
            self._index_id = _file_id(store.path)
            self.report = report
            return report

    def _environment(self) -> tuple[PythonEnvironment | None, PackageIndexes | None]:
        """The repository's Python environment, found once (an explicit `--python` that fails is an
        error; a found one that fails is a warning: only the repository is trusted then)."""
        if not self.config.use_env:
            return None, None
        try:
            env = find_environment(self.root, self.config.python)
        except UsageError as exc:
            if self.config.python or os.environ.get("CODEHOP_PYTHON"):
                raise
            self.report.warnings.append(f"environment: {exc}; only the repository is read")
            return None, None
        if env is None:
            return None, None
        bridge = None
        if self.config.bridge_packages and {"jedi", "lsp"} & set(self.config.resolvers):
            # the rows it writes are read before a position-based rung is asked
            from codehop.resolve.jedi_bridge import spawn_bridge

            bridge = functools.partial(spawn_bridge, python=env.python)
        return env, PackageIndexes(env, self.store, bridge=bridge)

    def boundary(self) -> Boundary:
        """The trust boundary for position-based rungs: the repository plus the environment's package dirs."""
        if self.env is None or self.packages is None:
            return Boundary(self.root)
        return Boundary(self.root, environment=self.env.contains, mount=self.packages.for_path)

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
        from codehop.answer.graph_context import GraphContext

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
            from codehop.resolve.jedi_resolver import JediResolver

            return JediResolver(
                str(self.root),
                self.table,
                timeout_s=self.config.resolver_timeout_s,
                python=self.env.python if self.env is not None else None,
                boundary=self.boundary(),
            )
        if name == "lsp":
            from codehop.resolve.lsp_resolver import LspResolver

            return LspResolver(
                str(self.root),
                self.table,
                server=self.config.language_server,
                command=self.config.language_server_command,
                timeout_s=self.config.resolver_timeout_s,
                boundary=self.boundary(),
                # basedpyright/pyright read the interpreter from the `python` section
                settings={"python": {"pythonPath": self.env.python}} if self.env is not None else None,
            )
        if name == "regex":
            return RegexResolver(self.table, str(self.root))
        if name == "llm":
            from codehop.answer.anthropic_generator import AnthropicGenerator, AnthropicResolver

            return AnthropicResolver.from_generator(AnthropicGenerator.from_env(self.table), str(self.root))
        raise UsageError(f"unknown resolver {name!r}; choose from {', '.join(RESOLVER_NAMES)}")

    def ladder(self, names: tuple[str, ...] | None = None) -> Ladder:
        return Ladder([self.resolver(n) for n in (names or self.config.resolvers)], self.table)

    def generator(self, name: str | None = None) -> Generator:
        name = name or self.config.generator
        if name == "offline":
            from codehop.answer.offline import OfflineGenerator

            return OfflineGenerator(self.table)
        if name == "anthropic":
            from codehop.answer.anthropic_generator import AnthropicGenerator

            return AnthropicGenerator.from_env(self.table)
        raise UsageError(f"unknown generator {name!r}; choose offline or anthropic")

    def navigator(self, generator: str | None = None, resolvers: Sequence[str] | None = None) -> Navigator:
        graph = self.graph_neighbours()
        store = self.store
        k = self.config.retrieve_k

        def _retrieve(question: str):  # type: ignore[no-untyped-def]
            return retrieve(store, question, k=k, graph=graph)

        gen = self.generator(generator)
        # the model's own rung only ever follows the deterministic ones, and only with the model
        names = tuple(resolvers or self.config.resolvers)
        names += ("llm",) if gen.name == "anthropic" and "llm" not in names else ()
        return Navigator(self.store, _retrieve, gen, self.ladder(names), navigate=self.navigation_answerer())

    def navigation_answerer(self) -> Callable[[str, int], Answer | None]:
        """Navigation questions ("what calls X") answered from the dependents engine."""
        from codehop.answer.navquestion import NavigationAnswerer

        return NavigationAnswerer(self.store, self.table, self.dependents_finder()).answer

    def dependents_finder(self) -> DependentsFinder:
        """The dependents engine over the current index (kept: it caches file tokens by stat)."""
        from codehop.answer.dependents import DependentsFinder

        with self._lock:
            finder = self._finder
            if not isinstance(finder, DependentsFinder) or finder.store is not self.store:
                finder = self._finder = DependentsFinder(self.store, self.table, self.root, infer=self._infer_at_site())
            return finder

    def _infer_at_site(self) -> Callable[[PendingReference], Resolution | None] | None:
        """The ladder's inference rung asked at one site (Jedi, when the ladder has it), for uses
        through objects of unknown type; None without one."""
        if "jedi" not in self.config.resolvers:
            return None

        def infer(ref: PendingReference) -> Resolution | None:
            return self.ladder(("jedi",)).resolve(ref, via="jedi").resolution

        return infer

    def close(self) -> None:
        """Shut down what this App started (the language server, Jedi's worker), then the index."""
        self._close_resolvers()
        self.store.close()

    def _close_resolvers(self) -> None:
        resolvers, self._resolvers = self._resolvers, {}
        for r in resolvers.values():
            close = getattr(r, "close", None)
            if close is not None:
                close()


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
    from codehop.index.walk import repo_root

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
