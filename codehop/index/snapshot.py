"""An in-memory copy of the index's symbol tables, for resolution without SQL round trips.

The symbol table asks five questions (a binding, a module's file, its star
imports, its `__all__`, a class's bases); a snapshot answers them from dicts
loaded in one pass. It is rebuilt when the index's generation changes.
May import: records, store, stdlib.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from codehop.index.store import Mount, SqliteStore
from codehop.kernel.records import Binding, BindingKind, ClassInfo

_KINDS = {k.value: k for k in BindingKind}  # a dict lookup is several times cheaper than BindingKind(v)


class SymbolSnapshot:
    def __init__(self, store: SqliteStore) -> None:
        conn = store.conn
        self.version = store.data_version()
        self.mro: dict[str, tuple[str, ...]] = {}
        self.prefixes: dict[str, tuple[str, int]] = {}  # dotted -> (longest module prefix, its length)
        # rows kept as SQLite returns them and made records on first lookup: a question looks up a
        # few hundred of Django's 22k bindings, and building them all cost most of a cold ask
        self._binding_rows: dict[tuple[str, str], tuple[Any, ...]] = {}
        self._bindings: dict[tuple[str, str], Binding | None] = {}
        # ascending line order: the last binding in source order wins, as at run time
        rows = self._binding_rows
        for r in conn.execute(
            "SELECT scope, name, kind, rel_path, line, col, end_line, target, value FROM bindings ORDER BY line"
        ):
            rows[(r[0], r[1])] = r
        self._modules: dict[str, str] = {}
        self._all: dict[str, tuple[str, ...] | None] = {}
        for module, rel, _is_package, all_names in conn.execute(
            "SELECT module, rel_path, is_package, all_names FROM files ORDER BY is_package, rel_path DESC"
        ):
            self._modules[module] = rel  # packages sort last, so `pkg/__init__.py` wins over `pkg.py`
            self._all[module] = tuple(json.loads(all_names)) if all_names is not None else None
        self._stars: dict[str, list[tuple[str, int]]] = {}
        for module, target, line in conn.execute("SELECT module, target, line FROM stars ORDER BY line"):
            self._stars.setdefault(module, []).append((target, line))
        self._class_rows: dict[str, tuple[Any, ...]] = {}
        self._classes: dict[str, ClassInfo | None] = {}
        for row in conn.execute("SELECT qualname, rel_path, line, bases FROM classes ORDER BY line"):
            self._class_rows[row[0]] = row

    def binding(self, scope: str, name: str) -> Binding | None:
        key = (scope, name)
        try:
            return self._bindings[key]
        except KeyError:
            r = self._binding_rows.get(key)
            b = (
                None
                if r is None
                else Binding(
                    scope=r[0],
                    name=r[1],
                    kind=_KINDS[r[2]],
                    rel_path=r[3],
                    line=r[4],
                    col=r[5],
                    end_line=r[6],
                    target=r[7],
                    value=r[8],
                )
            )
            self._bindings[key] = b  # racing threads build equal records: either may stay
            return b

    def module_path(self, module: str) -> str | None:
        return self._modules.get(module)

    def stars(self, module: str) -> list[tuple[str, int]]:
        return self._stars.get(module, [])

    def all_names(self, module: str) -> tuple[str, ...] | None:
        return self._all.get(module)

    def class_info(self, qualname: str) -> ClassInfo | None:
        try:
            return self._classes[qualname]
        except KeyError:
            r = self._class_rows.get(qualname)
            info = (
                None if r is None else ClassInfo(qualname=r[0], rel_path=r[1], line=r[2], bases=tuple(json.loads(r[3])))
            )
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
        self.prefixes: dict[str, tuple[str, int]] = {}
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

    def stars(self, module: str) -> list[tuple[str, int]]:
        return self._get("s", module, "", lambda: self.store.query_stars(module))  # type: ignore[no-any-return]

    def all_names(self, module: str) -> tuple[str, ...] | None:
        return self._get("a", module, "", lambda: self.store.query_all_names(module))  # type: ignore[no-any-return]

    def class_info(self, qualname: str) -> ClassInfo | None:
        return self._get("c", qualname, "", lambda: self.store.query_class_info(qualname))  # type: ignore[no-any-return]


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
