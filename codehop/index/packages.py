"""Installed distributions, indexed lazily into a shared per-user cache and served across the boundary.

The first time a chain reaches a top-level module the repository lacks but the chosen
environment provides, that distribution (only its own top-level packages) is indexed by the
same indexer as a repository into `package_cache_dir(dist)`, outside the environment, and
mounted on the repository's store: its chunks and bindings come back with absolute paths, and
the symbol table walks chains and MROs into it. Every repository using the same name, version
and RECORD shares that index. A distribution above `max_files` Python files is skipped with a
warning (its names stay external); a broken one gives a warning, never a traceback.

A name the repository never declares, looked up by name (`HTTPAdapter` asked about in an app
that imports minireq), is looked for in the distributions the repository imports; only those
that declare it are indexed then (one already in the shared cache is mounted as it is). Whether
a distribution declares a name is read from its files as text (a file holding the word, then a
`def`, `class`, assignment or import binding it: a superset of what the indexer binds; about
0.1 s for 12 MB of sources): a first question indexes what it reaches, never every dependency
up front. An indexing that takes over a second is reported through `progress`.
May import: records, errors, environment, indexer, store, snapshot, stdlib.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from codehop.index.environment import (
    Distribution,
    PythonEnvironment,
    distributions,
    package_cache_dir,
    stdlib_module,
)
from codehop.index.indexer import index_repo
from codehop.index.snapshot import SymbolSnapshot
from codehop.index.store.sqlite import MOUNT_SPAN, Mount, SqliteStore
from codehop.kernel.records import register_package

MAX_FILES = 5000

# Given a mounted package's index, its import root and top-level modules: start the index-time
# bridging of its inferred pointers (a Jedi worker; wired by the door, never waited for).
Bridge = Callable[[SqliteStore, str, frozenset[str]], object]


@dataclass(frozen=True, slots=True, kw_only=True)
class IndexedPackage:
    dist: Distribution
    mount: Mount
    symbols: SymbolSnapshot
    seconds: float  # what indexing cost (0 when the shared cache already held it)
    files: int


# an indexing still running after this long is reported (CODEHOP_PROGRESS_AFTER_S: tests set 0)
PROGRESS_AFTER_S = float(os.environ.get("CODEHOP_PROGRESS_AFTER_S", "") or 1.0)

# what binds a name in a module or class namespace, read as text (a superset of the indexer's
# bindings); anchored on a newline (a literal the engine scans for) and possessive, so a
# distribution of 8 MB reads in about 0.2 s
_BINDS = re.compile(
    rb"\n[ \t]*+(?:(?:async[ \t]++)?(?:def|class)[ \t]++(\w++)"
    rb"|(\w++(?:[ \t]*+,[ \t]*+\w++)*+)[ \t]*+(?::[^=\n]*+)?=(?!=)"
    rb"|(?:from[ \t]++[\w.]++[ \t]++)?import[ \t]++(\([^)]*+\)|[^\n#;]*+))"
)
_WORD = re.compile(rb"[A-Za-z_]\w*")


class PackageIndexes:
    """The environment's distributions, each indexed once on first use and mounted on `store`."""

    def __init__(
        self,
        env: PythonEnvironment,
        store: SqliteStore,
        *,
        max_files: int = MAX_FILES,
        environ: dict[str, str] | None = None,
        bridge: Bridge | None = None,
        progress: Callable[[str], None] | None = None,
    ) -> None:
        self.env = env
        self.store = store
        self.max_files = max_files
        self.environ = environ
        self.bridge = bridge
        self.progress = progress  # told of an indexing that takes over PROGRESS_AFTER_S
        self.warnings: list[str] = []
        self._lock = threading.RLock()
        self._by_top: dict[str, Distribution] | None = None
        self._stdlib: dict[str, Distribution | None] = {}
        self._done: dict[str, IndexedPackage | None] = {}  # dist key -> indexed, or None (skipped)
        self._files: dict[str, list[Path]] = {}  # dist key -> its Python files
        self._asked: set[str] = set()  # names already looked for in the imported distributions
        self._fresh: list[IndexedPackage] = []  # indexed (not found in the cache) since `take_indexed`
        store.mount_named = self.mount_named
        store.mount_top = self._mount_top
        self._stamp = self._site_stamp()

    def _site_stamp(self) -> tuple[tuple[str, int], ...]:
        # installing, upgrading or removing a distribution adds or removes a *.dist-info directory,
        # which changes its package directory's mtime
        out = []
        for site in self.env.site_dirs:
            try:
                out.append((site, os.stat(site).st_mtime_ns))
            except OSError:
                out.append((site, -1))
        return tuple(out)

    def stale(self) -> bool:
        """True once a distribution was installed, upgraded or removed since these were read."""
        return self._site_stamp() != self._stamp

    def mount_named(self, name: str) -> None:
        """Mount the distributions the repository imports directly that may declare `name` (a name
        it never binds is looked up there: `HTTPAdapter` asked about in an app that imports
        minireq): one already in the shared cache as it is, another only when its files bind the
        name (indexing it then)."""
        with self._lock:
            if name in self._asked:
                return
            self._asked.add(name)
            tops = [t for t in self.store.imported_tops() if self.store.module_path(t) is None]
        for top in tops:
            # installed distributions only: the standard library is indexed per module a chain reaches
            dist = self.distribution(top, stdlib=False)
            if dist is None or dist.key in self._done:
                continue
            if (package_cache_dir(dist, self.environ) / "index.db").is_file() or self.declares(dist, name):
                self.package(top)

    def declares(self, dist: Distribution, name: str) -> bool:
        """Whether the distribution's files bind `name`, read as text (stops at the first that does)."""
        with self._lock:
            files = self._files.get(dist.key)
            if files is None:
                files = self._files[dist.key] = _python_files(Path(dist.site_dir), dist.top_level, self.max_files)
        if len(files) > self.max_files:
            return False  # never indexed (see _index): its names stay external
        word = name.encode()
        for path in files:
            try:
                text = path.read_bytes()
            except OSError:
                continue
            if word in text and _binds(text, word):
                return True
        return False

    def take_indexed(self) -> list[IndexedPackage]:
        """The distributions indexed (not found in the shared cache) since the last call."""
        with self._lock:
            fresh, self._fresh = self._fresh, []
            return fresh

    def _mount_top(self, top: str) -> Mount | None:
        pkg = self.package(top)
        return pkg.mount if pkg is not None else None

    def rebind(self, store: SqliteStore) -> None:
        """The repository's index was rebuilt: mount what is indexed on the new store."""
        with self._lock:
            self.store = store
            store.mount_named = self.mount_named
            store.mount_top = self._mount_top
            for pkg in self._done.values():
                if pkg is not None:
                    store.mount(pkg.mount)

    def distribution(self, top: str, *, stdlib: bool = True) -> Distribution | None:
        """The installed distribution providing top-level module `top`, else (with `stdlib`) the
        interpreter's standard-library module of that name."""
        with self._lock:
            if self._by_top is None:
                self._by_top = {}
                for d in distributions(self.env):
                    for t in d.top_level:
                        had = self._by_top.setdefault(t, d)
                        if had is not d and had.site_dir == d.site_dir:
                            self.warnings.append(
                                f"{t}: claimed by both {had.pin} and {d.pin} in {d.site_dir} "
                                f"(a stale dist-info?); {had.pin} is used"
                            )
                # a stub-only distribution (`types-requests`: `requests-stubs/`, PEP 561) serves its
                # module when no distribution installs the module's code (code is preferred)
                for d in distributions(self.env):
                    for t in d.top_level:
                        if t.endswith("-stubs"):
                            self._by_top.setdefault(t.removesuffix("-stubs"), d)
            found = self._by_top.get(top)
            if found is None and stdlib:
                if top not in self._stdlib:
                    self._stdlib[top] = stdlib_module(self.env, top)
                found = self._stdlib[top]
            return found

    def indexed(self) -> list[IndexedPackage]:
        return [p for p in self._done.values() if p is not None]

    def __call__(self, top: str) -> tuple[Mount, SymbolSnapshot] | None:
        """The symbol table's provider: the mounted index serving top-level module `top`, or None."""
        pkg = self.package(top)
        return (pkg.mount, pkg.symbols) if pkg is not None else None

    def package(self, top: str) -> IndexedPackage | None:
        dist = self.distribution(top)
        return self._package_of(dist) if dist is not None else None

    def _package_of(self, dist: Distribution) -> IndexedPackage | None:
        with self._lock:
            if dist.key not in self._done:
                self._done[dist.key] = self._index(dist)
            return self._done[dist.key]

    def for_path(self, path: str) -> IndexedPackage | None:
        """The indexed distribution a file of the environment belongs to (indexing it if needed)."""
        p = Path(path).resolve()
        for site in self.env.site_dirs:
            root = Path(site).resolve()
            if root in p.parents:
                top = p.relative_to(root).parts[0].removesuffix(".py").removesuffix(".pyi")
                return self.package(top)
        for lib in self.env.stdlib_dirs:  # after the package dirs, which may lie inside it
            root = Path(lib).resolve()
            if root in p.parents:
                top = p.relative_to(root).parts[0].removesuffix(".py")
                dist = stdlib_module(self.env, top)
                return self._package_of(dist) if dist is not None else None
        return None

    def _index(self, dist: Distribution) -> IndexedPackage | None:
        site = Path(dist.site_dir).resolve()
        tops = frozenset(t for t in dist.top_level if (site / t).is_dir() or (site / f"{t}.py").is_file())
        if not tops:
            self.warnings.append(
                f"{dist.pin}: none of its top-level modules ({', '.join(dist.top_level) or 'none'}) "
                f"is installed in {site}; a broken or half-installed distribution, not indexed"
            )
            return None
        files = 0
        for t in tops:
            if (site / f"{t}.py").is_file():
                files += 1
            for _dir, sub, names in os.walk(site / t):
                sub[:] = [x for x in sub if x != "tests"]  # not indexed (walk.py)
                files += sum(n.endswith((".py", ".pyi")) for n in names)
                if files > self.max_files:
                    self.warnings.append(
                        f"{dist.pin}: more than {self.max_files:,} Python files; not indexed (its names stay external)"
                    )
                    return None
        t0 = time.perf_counter()
        told: list[str] = []

        # told from the indexer's own progress calls (each file parsed, each phase), not from a
        # timer thread: a second thread would make the indexer's parse pool start by forkserver
        def tell(phase: str, done: int, total: int) -> None:
            if self.progress is not None and not told and time.perf_counter() - t0 >= PROGRESS_AFTER_S:
                told.append(phase)
                self.progress(f"indexing {dist.pin} ({files:,} files) into the shared package cache")

        try:
            store, report = index_repo(
                site, index_dir=package_cache_dir(dist, self.environ), include=tops, progress=tell
            )
        except Exception as exc:  # a package the indexer cannot read: an honest partial, not a traceback
            self.warnings.append(f"{dist.pin}: could not be indexed ({type(exc).__name__}: {exc})")
            return None
        seconds = time.perf_counter() - t0 if report.parsed else 0.0
        if told and self.progress is not None:
            self.progress(f"indexed {dist.pin} in {seconds:.1f} s")
        self.warnings.extend(f"{dist.pin}: {w}" for w in report.warnings)
        # a stub package's folder (`requests-stubs`) serves the module it types (`requests`)
        serves = tops | {t.removesuffix("-stubs") for t in tops if t.endswith("-stubs")}
        mount = Mount(root=str(site), tops=serves, store=store, offset=MOUNT_SPAN * (len(self._done) + 1))
        for t in tops:
            register_package(f"{site}/{t}", dist.pin, str(site))
        self.store.mount(mount)
        if self.bridge is not None:
            try:
                self.bridge(store, str(site), tops)
            except Exception as exc:  # the bridge is an optimisation: the loop still resolves these sites
                self.warnings.append(f"{dist.pin}: index-time bridging not started ({type(exc).__name__}: {exc})")
        pkg = IndexedPackage(dist=dist, mount=mount, symbols=SymbolSnapshot(store), seconds=seconds, files=files)
        if report.parsed:
            self._fresh.append(pkg)
        return pkg


def _python_files(site: Path, tops: tuple[str, ...], max_files: int) -> list[Path]:
    """The distribution's Python files (one past `max_files` at most)."""
    out: list[Path] = []
    for t in tops:
        out += [p for p in (site / f"{t}.py", site / f"{t}.pyi") if p.is_file()]
        for d, sub, names in os.walk(site / t):
            sub[:] = [x for x in sub if x != "tests"]  # not indexed (walk.py)
            out += [Path(d, n) for n in names if n.endswith((".py", ".pyi"))]
            if len(out) > max_files:
                return out
    return out


def _binds(text: bytes, word: bytes) -> bool:
    """Whether a `def`, `class`, assignment or import in `text` binds `word`."""
    for m in _BINDS.finditer(b"\n" + text):
        if m[1] is not None:
            if m[1] == word:
                return True
        elif word in _WORD.findall(m[2] if m[2] is not None else m[3]):
            return True
    return False


def cached_stats(env: PythonEnvironment) -> dict[str, dict[str, object]]:
    """For each distribution of `env` already indexed in the shared cache (none is indexed here):
    its xref rows, how many were resolved when the package was indexed (by the symbol table, and
    bridged by Jedi after it), and how far the bridge got (sites found, asked, done)."""
    out: dict[str, dict[str, object]] = {}
    for dist in distributions(env):
        db = package_cache_dir(dist) / "index.db"
        if not db.is_file():
            continue
        store = SqliteStore(db)
        try:
            counts = store.xref_type_counts()
            counters = store.counters()
        finally:
            store.close()
        out[dist.pin] = {
            "rows": sum(v[0] for v in counts.values()),
            "resolved_at_index_time": sum(v[1] or 0 for v in counts.values()),
            "bridged_at_index_time": counters.get("bridged_rows", 0),
            "bridge_sites": counters.get("bridge_candidates", 0),
            "bridge_asked": counters.get("bridge_next", 0),
            "bridge_complete": bool(counters.get("bridge_complete", 0)),
            "bridge_seconds": round(counters.get("bridge_ms", 0) / 1000, 2),
            "index": str(db),
        }
    return out
