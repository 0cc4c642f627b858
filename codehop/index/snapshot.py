"""An in-memory copy of the index's symbol tables, for resolution without SQL round trips.

The symbol table asks five questions (a binding, a module's file, its star
imports, its `__all__`, a class's bases); a snapshot answers them from dicts
loaded in one pass. It is rebuilt when the index's generation changes.
May import: records, store, stdlib.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from codehop.index.store.rows import SymbolRows
from codehop.index.store.sqlite import Mount, SqliteStore
from codehop.kernel.records import Binding, ClassInfo


class SymbolSnapshot:
    def __init__(self, store: SqliteStore, rows: SymbolRows | None = None) -> None:
        """`rows`: the symbol rows the store holds, when the caller has them already (a full build)."""
        self.version = store.data_version()
        self.mro: dict[str, tuple[str, ...]] = {}
        self.prefixes: dict[str, tuple[str, tuple[str, ...]]] = {}  # dotted -> (longest module prefix, the rest)
        # rows made records on first lookup (and memoised here): building all 22k of Django's
        # bindings cost most of a cold ask
        self._rows = rows if rows is not None else store.symbol_rows()
        self._bindings: dict[tuple[str, str], Binding | None] = {}
        self._classes: dict[str, ClassInfo | None] = {}
        self._tops = {m.partition(".")[0] for m in self._rows.modules}  # a module's prefixes start with one

    def module_prefix(self, dotted: str) -> str:
        """The longest prefix of `dotted` (whole names) that is a module, or ''."""
        if dotted.partition(".")[0] not in self._tops:
            return ""  # most names the index meets are locals (`self.x`): no module starts them
        return longest_module(dotted, self._rows.modules.get)

    def binding(self, scope: str, name: str) -> Binding | None:
        key = (scope, name)
        try:
            return self._bindings[key]
        except KeyError:
            b = self._rows.binding(scope, name)
            self._bindings[key] = b  # racing threads build equal records: either may stay
            return b

    def module_path(self, module: str) -> str | None:
        return self._rows.modules.get(module)

    def stars(self, module: str) -> list[tuple[str, int]]:
        return self._rows.stars.get(module, [])

    def all_names(self, module: str) -> tuple[str, ...] | None:
        return self._rows.all_names.get(module)

    def class_info(self, qualname: str) -> ClassInfo | None:
        try:
            return self._classes[qualname]
        except KeyError:
            info = self._rows.class_info(qualname)
            self._classes[qualname] = info
            return info


class SqlSymbols:
    """The same five questions asked of SQL as needed and memoised in this object only: for an
    incremental update, where loading every binding of a large repository would cost more than
    the update, and where the store's shared memo may hold what other threads read before it."""

    def __init__(self, store: SqliteStore) -> None:
        self.store = store
        self.version = -1
        self.mro: dict[str, tuple[str, ...]] = {}
        self.prefixes: dict[str, tuple[str, tuple[str, ...]]] = {}
        self._memo: dict[tuple[str, str, str], Any] = {}

    def _get(self, kind: str, a: str, b: str, compute: Callable[[], Any]) -> Any:
        key = (kind, a, b)
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    def binding(self, scope: str, name: str) -> Binding | None:
        return self._get("b", scope, name, lambda: self.store.query_binding(scope, name))  # type: ignore[no-any-return]

    def module_path(self, module: str) -> str | None:
        return self._get("m", module, "", lambda: self.store.query_module_path(module))  # type: ignore[no-any-return]

    def module_prefix(self, dotted: str) -> str:
        return longest_module(dotted, self.module_path)

    def stars(self, module: str) -> list[tuple[str, int]]:
        return self._get("s", module, "", lambda: self.store.query_stars(module))  # type: ignore[no-any-return]

    def all_names(self, module: str) -> tuple[str, ...] | None:
        return self._get("a", module, "", lambda: self.store.query_all_names(module))  # type: ignore[no-any-return]

    def class_info(self, qualname: str) -> ClassInfo | None:
        return self._get("c", qualname, "", lambda: self.store.query_class_info(qualname))  # type: ignore[no-any-return]


def longest_module(dotted: str, module_path: Callable[[str], str | None]) -> str:
    """The longest prefix of `dotted` that `module_path` knows, trying whole names from the longest
    (`a..b`: `a..b`, `a.`, `a`, as splitting and joining would), or ''."""
    mod = dotted
    while mod and module_path(mod) is None:
        mod = mod.rpartition(".")[0]
    return mod


PackageProvider = Callable[[str], "tuple[Mount, SymbolSnapshot] | None"]


class LayeredSnapshot:
    """The repository's snapshot first; a name whose top-level module the repository lacks is
    looked up in the index of the installed distribution that provides it (indexed on first use by
    the provider), with its paths made absolute. The symbol table walks chains and MROs across."""

    def __init__(self, repo: SymbolSnapshot, provider: PackageProvider) -> None:
        self.repo = repo
        self.provider = provider
        self.version = repo.version
        self.mro = repo.mro
        self.prefixes = repo.prefixes

    def _package(self, dotted: str) -> tuple[Mount, SymbolSnapshot] | None:
        top = dotted.split(".", 1)[0]
        if not top or self.repo.module_path(top) is not None:
            return None  # a module of the repository shadows any installed one
        return self.provider(top)

    def binding(self, scope: str, name: str) -> Binding | None:
        b = self.repo.binding(scope, name)
        if b is None and (pkg := self._package(scope)) is not None:
            found = pkg[1].binding(scope, name)
            return pkg[0].binding(found) if found is not None else None
        return b

    def module_prefix(self, dotted: str) -> str:
        return longest_module(dotted, self.module_path)

    def module_path(self, module: str) -> str | None:
        path = self.repo.module_path(module)
        if path is None and (pkg := self._package(module)) is not None:
            rel = pkg[1].module_path(module)
            return f"{pkg[0].root}/{rel}" if rel is not None else None
        return path

    def stars(self, module: str) -> list[tuple[str, int]]:
        if (pkg := self._package(module)) is not None:
            return pkg[1].stars(module)
        return self.repo.stars(module)

    def all_names(self, module: str) -> tuple[str, ...] | None:
        if (pkg := self._package(module)) is not None:
            return pkg[1].all_names(module)
        return self.repo.all_names(module)

    def class_info(self, qualname: str) -> ClassInfo | None:
        info = self.repo.class_info(qualname)
        if info is None and (pkg := self._package(qualname)) is not None:
            found = pkg[1].class_info(qualname)
            return replace(found, rel_path=f"{pkg[0].root}/{found.rel_path}") if found is not None else None
        return info
