"""The door: one session object (`App`) per repository, with every operation a front-end needs.
Over 500 lines (~740) because the door is the one list of what a front-end may ask and reads best
whole: each operation is a few lines that hand the engines to a module below (editor navigation
to codehop.navigation.engine) and return its record.

`App` wires the engines from configuration (the only place that names concrete classes: the
store, the symbol table, the ladder's rungs, the generators, the dependents engine) and keeps
them warm across queries. Its operations (ask, context, map, resolve_at, resolve_symbol,
dependents, definition, references, hover, hierarchy, lenses, ...) take plain values and
return records; the modules below never see the App: the door hands each one what it reads
(a store, a symbol table, a ladder, a root).

May import every layer below (kernel, index, resolve, navigation, reading, answer) and the libraries
(graphs, lsp_bridge); the front-ends (cli, mcp_server, lsp_server) import only this module,
api, records, errors and their render module. Engines load lazily, inside the operations.

What would split off (the wiring of the engines) is what every operation shares.
"""

from __future__ import annotations

import os
import shlex
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
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
from codehop.kernel.records import PackageIndexed
from codehop.resolve.ladder import Boundary, Ladder, RegexResolver, SymbolTableResolver

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from codehop.answer.context import TaskContext
    from codehop.answer.repomap import RepoMap
    from codehop.kernel.records import (
        Answer,
        Chunk,
        ContextItem,
        Location,
        PendingReference,
        Question,
        Resolution,
        XRef,
    )
    from codehop.navigation.cursor import Lander, Sources
    from codehop.navigation.dependents import DependentsFinder
    from codehop.navigation.engine import Navigation
    from codehop.navigation.hierarchy import Item as Item
    from codehop.navigation.hierarchy import Outline as Outline
    from codehop.navigation.land_worker import LandWorkers, WorkerStatus
    from codehop.navigation.sites import Site as Site  # the records the door returns, named for front-ends
    from codehop.navigation.uses import SymbolDependents
    from codehop.resolve.jedi_bridge import BridgeWorkers
    from codehop.resolve.ladder import LadderResult
    from codehop.resolve.sites import SiteResolution

RESOLVER_NAMES = ("symbol_table", "jedi", "lsp", "regex", "llm")
DEFAULT_RESOLVERS = ("symbol_table", "jedi", "lsp", "regex")
HITS_PER_TOKENS = 2000  # a context gets `retrieve_k` retrieval hits for each this many tokens of budget
GROUNDED_K = 8  # declarations the question's words ground that lead retrieval


def parse_site(target: str) -> tuple[str, int, int | None] | None:
    """(path, line, col or None) of a `PATH:LINE[:COL]` target, None for a symbol: the one reading
    of a target for every front-end."""
    from codehop.resolve.sites import parse_site as parse

    return parse(target)


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


@dataclass(frozen=True, slots=True, kw_only=True)
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
    retrieve_k: int = 30  # BM25 hits considered before packing (a context: this many per 2000 tokens)
    index_dir: str | None = None
    python: str | None = None  # the interpreter whose packages the repository uses (else found)
    use_env: bool = field(default_factory=lambda: os.environ.get("CODEHOP_NO_ENV", "") in ("", "0"))
    # resolve an installed package's inferred pointers once, in a Jedi worker after it is indexed:
    # long-running servers only (`Config.for_server`), never a command (no process outlives it)
    bridge_packages: bool = False
    # Jedi's landings at every call site computed ahead of the call hierarchy, in a worker process
    # (codehop.navigation.land_worker): long-running servers only, like bridging
    precompute_landings: bool = False
    # told of slow work (an installed distribution being indexed); the CLI prints it on a terminal
    progress: Callable[[str], None] | None = None

    @classmethod
    def for_server(cls) -> Config:
        """A server's configuration: bridging on unless CODEHOP_BRIDGE=0."""
        return cls(
            bridge_packages=os.environ.get("CODEHOP_BRIDGE", "") in ("", "1"),
            precompute_landings=os.environ.get("CODEHOP_PRECOMPUTE", "") in ("", "1"),
        )


class App:
    """One repository: its index, symbol table, graph and ladder, kept warm across queries."""

    def __init__(self, repo: str | os.PathLike[str], config: Config | None = None) -> None:
        self.config = config or Config()
        self.store, self.report = index_repo(repo, index_dir=self.config.index_dir)
        self.root = Path(self.report.root)
        self._index_id: tuple[int, int] | None = _file_id(self.store.path)
        self._bridge: BridgeWorkers | None = None
        self._land_workers: LandWorkers | None = None
        self.env, self.packages = self._environment()
        self.table = SymbolTable(self.store, packages=self.packages)
        self._graph: object = None
        self._lock = threading.RLock()
        self._resolvers: dict[str, Resolver] = {}
        self._generators: dict[str, Generator] = {}  # built once per session, closed with it
        self._finder: object = None
        self._symbols: object = None

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
                self._close_generators()
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
                self._close_generators()
            else:
                forget = getattr(self._resolvers.get("jedi"), "forget", None)
                if forget is not None:  # what Jedi inferred from the files that changed is stale
                    forget()
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
        if self._bridge is not None:
            self._bridge.close()
            self._bridge = None
        if self.config.bridge_packages and {"jedi", "lsp"} & set(self.config.resolvers):
            # the rows it writes are read before a position-based rung is asked
            from codehop.resolve.jedi_bridge import BridgeWorkers

            self._bridge = BridgeWorkers(python=env.interpreter, sys_path=env.search_paths)
        return env, PackageIndexes(env, self.store, bridge=self._bridge, progress=self.config.progress)

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
        from codehop.navigation.graph_context import GraphContext

        if self._graph is None:
            self._graph = GraphContext(self.store, self.table)
        graph = self._graph
        assert isinstance(graph, GraphContext)
        return graph.neighbours

    def resolver(self, name: str) -> Resolver:
        """The session's resolver of that name, built once: a server's threads ask at the same
        moment (its build warms Jedi as the first request arrives), and two JediResolvers would
        run Jedi on two threads (issue 27: a probe read another's lines, a wrong callee)."""
        with self._lock:
            if name not in self._resolvers:
                self._resolvers[name] = self._make_resolver(name)
            return self._resolvers[name]

    def _make_resolver(self, name: str) -> Resolver:
        if name == "symbol_table":
            return SymbolTableResolver(self.table)
        if name == "jedi":
            from codehop.index.landings import LandingCache
            from codehop.resolve.jedi_resolver import JediResolver

            python = self.env.interpreter if self.env is not None else None
            sys_path = self.env.search_paths if self.env is not None else None
            return JediResolver(
                str(self.root),
                self.table,
                timeout_s=self.config.resolver_timeout_s,
                python=python,
                sys_path=sys_path,
                boundary=self.boundary(),
                cache=LandingCache.beside(self.store, self.root, python, sys_path),
            )
        if name == "lsp":
            from codehop.resolve.lsp_resolver import LspResolver, environment_init_options, environment_settings

            # never the repository's interpreter: one the user chose outside it, else codehop's own
            python = self.env.interpreter if self.env is not None else None
            extra = self.env.extra_paths if self.env is not None else ()
            return LspResolver(
                str(self.root),
                self.table,
                server=self.config.language_server,
                command=self.config.language_server_command,
                timeout_s=self.config.resolver_timeout_s,
                boundary=self.boundary(),
                settings=environment_settings(python, extra),
                init_options=environment_init_options(python, extra),
            )
        if name == "regex":
            return RegexResolver(self.table, str(self.root))
        if name == "llm":
            from codehop.answer.anthropic_generator import AnthropicGenerator, AnthropicResolver

            gen = self.generator("anthropic")  # the session's client, not a second one
            assert isinstance(gen, AnthropicGenerator)
            return AnthropicResolver.from_generator(gen, str(self.root))
        raise UsageError(f"unknown resolver {name!r}; choose from {', '.join(RESOLVER_NAMES)}")

    def ladder(self, names: tuple[str, ...] | None = None) -> Ladder:
        return Ladder([self.resolver(n) for n in (names or self.config.resolvers)], self.table)

    def generator(self, name: str | None = None) -> Generator:
        """The session's generator of that name, built on first use (an Anthropic client is
        opened once, not per query) and closed with the session or when the index is reopened."""
        name = name or self.config.generator
        with self._lock:
            gen = self._generators.get(name)
            if gen is None:
                gen = self._generators[name] = self._make_generator(name)
            return gen

    def _make_generator(self, name: str) -> Generator:
        if name == "offline":
            from codehop.answer.offline import OfflineGenerator

            return OfflineGenerator(self.table)
        if name == "anthropic":
            from codehop.answer.anthropic_generator import AnthropicGenerator

            return AnthropicGenerator.from_env(self.table)
        raise UsageError(f"unknown generator {name!r}; choose offline or anthropic")

    def retrieve(self, asked: Question, *, k: int | None = None) -> list[ContextItem]:
        """The ranked hits for a question: BM25 and the graph; for a question that names no code,
        the declarations its words describe lead (a question that names its subject in code is
        found by that name)."""
        from codehop.navigation.excerpt import grounded_chunks
        from codehop.reading.grounding import ground

        store = self.store
        lead = [] if asked.mentions else grounded_chunks(store, ground(asked, store).ranked[:GROUNDED_K])
        k_all = (k or self.config.retrieve_k) + len(lead)  # (a described class's members on top of the hits)
        return retrieve(store, asked.text, k=k_all, graph=self.graph_neighbours(), grounded=lead)

    def navigator(self, generator: str | None = None, resolvers: Sequence[str] | None = None) -> Navigator:
        gen = self.generator(generator)
        # the model's own rung only ever follows the deterministic ones, and only with the model
        names = tuple(resolvers or self.config.resolvers)
        names += ("llm",) if gen.name == "anthropic" and "llm" not in names else ()
        return Navigator(self.store, self.retrieve, gen, self.ladder(names), navigate=self.navigation_answerer())

    def navigation_answerer(self) -> Callable[[str, int], Answer | None]:
        """Navigation questions ("what calls X") answered from the dependents engine."""
        from codehop.answer.navquestion import NavigationAnswerer

        return NavigationAnswerer(self.store, self.table, self.dependents_finder()).answer

    def dependents_finder(self) -> DependentsFinder:
        """The dependents engine over the current index (kept: it caches file tokens by stat)."""
        from codehop.navigation.dependents import DependentsFinder

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

    # ---- the door: questions -------------------------------------------------------
    def ask(
        self,
        question: str,
        *,
        max_loops: int = 1,
        budget_tokens: int = 2000,
        generator: str | None = None,
        resolvers: Sequence[str] | None = None,
    ) -> Answer:
        """Answer a question: retrieval, graph context, then bounded hops through the ladder."""
        from codehop.answer.orchestrator import Limits

        limits = Limits(max_loops=max_loops, budget_tokens=budget_tokens)
        if self.packages is not None:
            self.packages.take_indexed()
        answer = self.navigator(generator, resolvers).ask(question, limits)
        if self.packages is None:
            return answer
        # what this question had indexed (a first question into a distribution pays for it)
        indexed = tuple(
            PackageIndexed(package=p.dist.pin, files=p.files, seconds=round(p.seconds, 2))
            for p in self.packages.take_indexed()
        )
        return replace(answer, stats=replace(answer.stats, packages_indexed=indexed)) if indexed else answer

    def context(self, query: str, *, budget_tokens: int = 2000, max_loops: int = 1) -> TaskContext:
        """What an agent should read for a question or a task, packed to the budget (the same
        loop as `ask`, then the blast radius of its subjects and their collaborators)."""
        from codehop.answer.context import build_context

        answer = self.ask(query, max_loops=max_loops, budget_tokens=budget_tokens)
        # every retrieval hit reaches the context's one plan, not only what the loop packed (the
        # loop's own items, the grounded lead among them, come first in it)
        # (a bigger budget reaches further down the ranking: retrieve_k hits per 2000 tokens)
        k = self.config.retrieve_k * max(1, budget_tokens // HITS_PER_TOKENS)
        hits = retrieve(self.store, query, k=k, graph=self.graph_neighbours())
        return build_context(
            query,
            answer,
            store=self.store,
            table=self.table,
            root=self.root,
            recheck=self.generator("offline"),
            budget_tokens=budget_tokens,
            hits=hits,
        )

    def map(self, *, budget_tokens: int = 1000, focus: str = "") -> RepoMap:
        """The most central declarations as signatures, grouped by file (PageRank over the graph)."""
        from codehop.answer.repomap import build_map

        return build_map(self.store, self.table, budget_tokens=budget_tokens, focus=focus)

    def search(self, query: str, k: int = 10) -> list[tuple[Chunk, float]]:
        """BM25 over the chunks (for debugging retrieval)."""
        from codehop.answer.retrieval import bm25

        return bm25(self.store, query, k)

    def xrefs(self, *, rel_path: str | None = None, ref_type: str | None = None, limit: int = 200) -> list[XRef]:
        return self.store.xrefs(rel_path=rel_path, ref_type=ref_type, limit=limit)

    def xref_total(self, *, rel_path: str | None = None, ref_type: str | None = None) -> int:
        """How many rows `xrefs` would give without its limit."""
        if rel_path is not None:
            return len(self.store.xrefs(rel_path=rel_path, ref_type=ref_type))
        if ref_type is not None:
            return self.store.xref_type_counts().get(ref_type, (0, 0))[0]
        return self.store.counts()["xrefs"]

    def xref_stats(self) -> dict[str, Any]:
        """Rows per reference type, rebuilds per query, and how hops were served (table vs resolver);
        the installed packages' indexes too when an environment is in use."""
        counters = self.store.counters()
        queries = counters.get("queries", 0)
        rebuilds = counters.get("rebuilds", 0)
        data: dict[str, Any] = {
            "by_type": {
                k: {"rows": v[0], "resolved_at_index_time": v[1]}
                for k, v in sorted(self.store.xref_type_counts().items())
            },
            "rebuilds": rebuilds,
            "queries": queries,
            "rebuild_to_query_ratio": round(rebuilds / queries, 4) if queries else None,
            "hops_from_table": counters.get("hops_from_table", 0),
            "hops_from_resolver": counters.get("hops_from_resolver", 0),
            # hops read from rows an installed package's index bridged (Jedi) when it was indexed
            "hops_from_index": counters.get("hops_from_index", 0),
        }
        if self.env is not None:  # the installed side: indexed once, never rebuilt while installed
            from codehop.index.packages import cached_stats

            data["packages"] = cached_stats(self.env)
        return data

    # ---- the door: resolving ---------------------------------------------------------
    def rel_path(self, path: str) -> str:
        """`path` (relative to the root, or absolute) as repo-relative; OutsideRepoError when it
        leaves the repository (absolute elsewhere, `..` out, a symlink out)."""
        from codehop.index.walk import confine

        return confine(self.root, path).relative_to(self.root).as_posix()

    def refs_at(self, path: str, line: int, col: int) -> list[PendingReference]:
        """The references indexed at PATH:LINE (those under COL when col >= 0 and some are);
        UsageError naming what is wrong with the site."""
        from codehop.resolve.sites import refs_at

        return refs_at(self.store, self.root, path, line, col)

    def resolve_ref(
        self, ref: PendingReference, *, via: str | None = None, resolvers: Sequence[str] | None = None
    ) -> LadderResult:
        """One reference through the ladder (or through the one rung `via`)."""
        return self.ladder(tuple(resolvers) if resolvers else None).resolve(ref, via=via)

    def resolve_symbol(self, symbol: str) -> Resolution:
        """The in-repository declaration of a symbol (dotted, or a short name `qualify` settles),
        or UsageError saying why not."""
        from codehop.navigation.uses import declaration

        return declaration(self.table, self.qualify(symbol))

    def qualify(self, symbol: str) -> str:
        """A symbol as its module-absolute dotted name: itself when the table resolves it, else the
        one repository declaration whose qualified name ends with it (`Cart`, `cart.Cart`);
        UsageError listing them when several do. Unchanged when none does (the caller says so)."""
        symbol = symbol.strip()
        parts = symbol.split(".")
        if not symbol or not all(p.isidentifier() for p in parts) or self.table.resolve(symbol) is not None:
            return symbol
        found = sorted(
            {
                f"{d.scope}.{d.name}"
                for d in self.store.declarations_named(parts[-1], limit=200)
                if not d.rel_path.startswith("/") and f".{d.scope}.{d.name}".endswith(f".{symbol}")
            }
        )
        if len(found) == 1:
            return found[0]
        if found:
            shown = found[:12] + ([f"... {len(found) - 12} more"] if len(found) > 12 else [])
            raise UsageError(
                f"{symbol!r} names {len(found)} declarations; give one of:\n  " + "\n  ".join(shown), symbol=symbol
            )
        return symbol

    def resolve(self, target: str) -> SiteResolution:
        """A symbol (`pkg.mod.Class.member`, or a short name) or a site (`PATH:LINE[:COL]`) to its
        declaration."""
        from codehop.resolve.sites import SiteResolution, parse_site

        target = target.strip()
        site = parse_site(target)
        if site is None:
            return SiteResolution(target=target, kind="symbol", resolution=self.resolve_symbol(target))
        return self.resolve_at(*site, target=target)

    def resolve_at(self, path: str, line: int, col: int | None = None, *, target: str = "") -> SiteResolution:
        """The declaration the reference at PATH:LINE[:COL] leads to, the chain starting at that
        reference (a declaration line points at itself); UsageError when nothing resolves."""
        from codehop.kernel.records import Location, Provenance, Resolution, Step
        from codehop.resolve.sites import SiteResolution, check_site, pending, pick

        target = target or f"{path}:{line}" + (f":{col}" if col is not None else "")
        rel_path = self.rel_path(path)
        if self.store.module_of(rel_path) is None:
            raise UsageError(f"not an indexed Python file: {rel_path}", path=rel_path)
        if line < 1:
            raise UsageError(f"line numbers start at 1: {target}", path=rel_path)
        check_site(self.store, self.root / rel_path, rel_path, line, -1 if col is None else col)
        xrefs = self.store.xrefs(rel_path=rel_path, line=line)
        if not xrefs:
            decl = [c for c in self.store.chunks_at(rel_path, line) if c.start_line == line and c.kind != "module"]
            if not decl:
                raise UsageError(f"no reference or declaration at {rel_path}:{line}", path=rel_path)
            c = decl[0]
            here = Location(rel_path=rel_path, line=line, qualname=c.qualname, end_line=c.end_line)
            itself = Resolution(target=here, provenance=Provenance.SYMBOL_TABLE)
            return SiteResolution(target=target, kind="declaration", resolution=itself)
        x = pick(xrefs, col)
        result = self.ladder().resolve(pending(x))
        res = result.resolution
        if res is None:
            tried = "; ".join(f"{f.resolver}: {f.reason}" for f in result.failures)
            what = f"`{x.anchor_text}` at {rel_path}:{line} ({x.ref_type} of {x.target})"
            raise UsageError(f"{what} did not resolve" + (f" ({tried})" if tried else ""), path=rel_path)
        site = Location(rel_path=rel_path, line=line, qualname=x.scope)
        first = res.steps[0].from_loc if res.steps else res.target
        if not res.is_external and first != site:  # the chain starts at the reference asked about
            step = Step(from_loc=site, to_loc=first, resolver=res.provenance, note=x.ref_type)
            res = Resolution(
                target=res.target, provenance=res.provenance, external=res.external, steps=(step, *res.steps)
            )
        return SiteResolution(
            target=target,
            kind="reference",
            resolution=res,
            reference=x,
            others=tuple(o for o in xrefs if o != x),
            failures=tuple(result.failures),
        )

    def dependents(self, symbol: str) -> SymbolDependents:
        """The sites that use a symbol, dotted or short (importers, re-exporters, callers, subclasses, ...)."""
        from codehop.navigation.uses import dependents

        return dependents(self.dependents_finder(), self.table, self.qualify(symbol))

    # ---- the door: editor navigation (1-based lines, code-point columns) ---------------
    def sources(self) -> Sources:
        """What navigation reads: the index, the table, the ladder (recording nothing), the engine."""
        from codehop.navigation.cursor import Sources

        def ladder() -> Ladder:
            # editor navigation only reads the index, it never writes to it
            return Ladder([self.resolver(n) for n in self.config.resolvers], self.table, record=False)

        env = self.env
        return Sources(
            root=self.root,
            store=self.store,
            table=self.table,
            ladder=ladder,
            finder=self.dependents_finder,
            installed=(lambda path: env.contains(path)) if env is not None else (lambda path: False),
            land=self._land_at_sites(),
            defer=self._defer_landings(),
        )

    def _defer_landings(self) -> Callable[[str, Sequence[tuple[int, int]]], None] | None:
        """Where a request sends the sites it could not place, while the land worker runs."""
        workers = self._land_workers
        if workers is None or workers.running is None:
            return None

        def defer(rel_path: str, positions: Sequence[tuple[int, int]]) -> None:
            workers.ask(rel_path, positions)

        return defer

    def _land_at_sites(self) -> Lander | None:
        """Jedi asked at many sites of one file at once, or by dotted name, when the ladder has it."""
        if "jedi" not in self.config.resolvers:
            return None
        from codehop.resolve.jedi_resolver import JediResolver

        jedi = self.resolver("jedi")
        assert isinstance(jedi, JediResolver)  # what _make_resolver builds for "jedi"
        return jedi

    def navigation(self) -> Navigation:
        """The navigation engine over the current index: the one entry point of every operation below."""
        from codehop.navigation.engine import Navigation

        return Navigation(self.sources())

    def warm_calls(self) -> None:
        """Start Jedi for the call hierarchy in the background, when the ladder has it (a server
        calls this once its index is ready)."""
        lander = self._land_at_sites()
        warm = getattr(lander, "warm", None)
        if warm is not None:
            warm()

    def precompute_calls(self, first: Sequence[str] = ()) -> bool:
        """Compute Jedi's landings at every call site into the landing cache, in a worker process
        at low priority started now (`first`: repository files to do first, the open ones), when
        the configuration asks for it and Jedi is on the ladder. While it runs, a call hierarchy
        request hands the sites neither the cache nor its own Jedi (within its deadline) placed to
        the worker (`sources().defer`), ahead of the worker's pass. Never waits; False when it will
        not run."""
        lander = self._land_at_sites()
        if not self.config.precompute_landings or lander is None:
            return False
        from codehop.navigation.land_worker import LandWorkers

        with self._lock:
            if self._land_workers is not None:
                return False
            self._land_workers = workers = LandWorkers(self.root, Path(self.store.path))
        started = workers.start(first)
        open_cache = getattr(lander, "open_cache", None)
        if started and open_cache is not None:
            open_cache()
        return started

    def document_opened(self, rel_path: str) -> None:
        """An editor opened a repository file: the land worker places its call sites before the
        rest of its pass, once the requests pause (a call hierarchy asked there later reads them
        from the cache). Never waits."""
        workers = self._land_workers
        if workers is not None and rel_path:
            workers.ask(rel_path, ())

    def landing_status(self) -> WorkerStatus | None:
        """The land worker's state (None: none was started)."""
        workers = self._land_workers
        return workers.status() if workers is not None else None

    def source_line(self, rel_path: str, line: int) -> str | None:
        """Line `line` of a repository file (or of an installed package's file, by absolute path)."""
        return self.navigation().source_line(rel_path, line)

    def name_at(self, loc: Location) -> tuple[str, int, int]:
        """(the text of `loc`'s line, the code-point columns of the name it declares there)."""
        return self.navigation().name_at(loc)

    def site_span(self, site: Site, target_name: str) -> tuple[str, int, int]:
        """(the text of a dependent site's line, the code-point columns of the name used there)."""
        return self.navigation().site_span(site, target_name)

    def definition(self, rel_path: str, line: int, col: int, buffer: str | None = None) -> Resolution | None:
        """The real declaration under the cursor, through every pointer (`buffer`: unsaved text)."""
        return self.navigation().definition(rel_path, line, col, buffer)

    def declaration(self, rel_path: str, line: int, col: int, buffer: str | None = None) -> Location | None:
        """Where the name under the cursor is bound in its file (the import site, not the target)."""
        return self.navigation().declaration(rel_path, line, col, buffer)

    def hover(self, rel_path: str, line: int, col: int, buffer: str | None = None) -> str | None:
        """Markdown for the name under the cursor: declaration, signature or value, docstring, chain."""
        return self.navigation().hover(rel_path, line, col, buffer)

    def references(
        self, rel_path: str, line: int, col: int, buffer: str | None = None
    ) -> tuple[Location | None, list[Site]]:
        """The declaration under the cursor and every site that names it (re-export lines last)."""
        self._touch_workers()
        return self.navigation().references(rel_path, line, col, buffer)

    def _touch_workers(self) -> None:
        """A request is being answered: the land worker's pass waits (its sites still come first),
        and so does a Jedi start that waits for the server to be idle."""
        if self._land_workers is not None:
            self._land_workers.touch()
        busy = getattr(self._resolvers.get("jedi"), "busy", None)
        if busy is not None:
            busy()

    def item_at(self, rel_path: str, line: int, col: int, buffer: str | None = None) -> Item | None:
        """The declaration under the cursor as a hierarchy item."""
        return self.navigation().item_at(rel_path, line, col, buffer)

    def hierarchy(self, direction: str, qualname: str) -> list[tuple[Item, list[Site]]]:
        """`incoming` (callers) or `outgoing` (callees) calls grouped by declaration, each with its
        call sites; `supertypes` (MRO order) or `subtypes` (across files), without sites."""
        self._touch_workers()
        return self.navigation().hierarchy(direction, qualname)

    def outline(self, rel_path: str) -> list[Outline]:
        """The file's classes, functions, methods and values, nested by span."""
        return self.navigation().outline(rel_path)

    def lenses(self, rel_path: str) -> list[tuple[Location, int, int]]:
        """(class statement, inherited members, their files) for each class of a file that inherits any."""
        return self.navigation().lenses(rel_path)

    def symbols(self, query: str) -> list[Any]:
        """Declarations matching `query` (exact name, prefix, subsequence; dotted qualnames)."""
        from codehop.navigation.symbol_search import SymbolSearch

        with self._lock:
            search = self._symbols
            if not isinstance(search, SymbolSearch) or search.store is not self.store:
                search = self._symbols = SymbolSearch(self.store)
        return search.search(query)

    # ---- the door: the graph -----------------------------------------------------------
    def _pictures(self) -> Any:
        from codehop.navigation.graph_context import GraphContext

        return GraphContext(self.store, self.table)

    def graph_stats(self) -> dict[str, int]:
        """Node and edge counts of the dependency graph."""
        return dict(self._pictures().stats())

    def graph_node(self, symbol: str) -> str:
        """The graph node a symbol names (UsageError listing the candidates of a short name)."""
        from codehop.navigation.picture import find_node

        return find_node(self._pictures(), self.table, symbol)

    def neighbourhood(self, node: str, depth: int) -> list[dict[str, Any]]:
        """The edges around `node`, `depth` steps out: {direction, type, other, path, line}."""
        return list(self._pictures().neighbourhood(node, depth))

    def picture(self, node: str, depth: int) -> str:
        """DOT of `node`'s neighbourhood."""
        return str(self._pictures().picture(node, depth))

    def answer_picture(self, answer: Answer) -> str:
        """DOT of the neighbourhood of what `answer` is about, what it followed highlighted."""
        from codehop.navigation.picture import answer_picture

        return answer_picture(self._pictures(), answer)

    def svg(self, dot: str) -> bytes:
        """DOT rendered by Graphviz, with a deadline (CodehopError / UsageError when it cannot be)."""
        from codehop.navigation.picture import svg

        return svg(self._pictures(), dot)

    def repair(self) -> str | None:
        """A damaged index moved aside and rebuilt (why, or None when it was not damaged)."""
        from codehop.index.indexer import repair_index

        why = repair_index(self.root, self.config.index_dir)
        if why is not None:
            self.reopen()
        return why

    def close(self) -> None:
        """Shut down what this App started (the language server, Jedi's workers), then the index."""
        if self._bridge is not None:
            self._bridge.close()
        if self._land_workers is not None:
            self._land_workers.close()
        self._close_resolvers()
        self._close_generators()
        self.store.close()

    def _close_generators(self) -> None:
        generators, self._generators = self._generators, {}
        for g in generators.values():
            close = getattr(g, "close", None)
            if close is not None:
                close()

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
