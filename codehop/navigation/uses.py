"""What uses a symbol, for the front-ends' `dependents` (CLI, MCP): the symbol's declaration in
the repository (`declaration`, UsageError saying why there is none) and every site the
dependents engine finds for it, transitively (`SymbolDependents`, with its JSON).

May import: records, errors, symbols, dependents, sites, stdlib.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from codehop.kernel.errors import UsageError
from codehop.kernel.records import RefType, Resolution
from codehop.navigation.sites import Relation, Site

if TYPE_CHECKING:
    from codehop.index.symbols import SymbolTable
    from codehop.navigation.dependents import DependentsFinder


def declaration(table: SymbolTable, symbol: str) -> Resolution:
    """The in-repository declaration of a dotted symbol, or UsageError saying why not."""
    if not symbol or not all(part.isidentifier() for part in symbol.split(".")):
        raise UsageError(f"not a dotted symbol: {symbol!r} (expected pkg.mod.Class.member)", symbol=symbol)
    res = table.resolve(symbol)
    if res is None:
        raise UsageError(
            f"symbol not found in the index: {symbol} (use the module-absolute dotted name, e.g. pkg.mod.Class.member)",
            symbol=symbol,
        )
    if res.is_external:
        raise UsageError(f"symbol {symbol} resolves outside the repository (to {res.external})", symbol=symbol)
    return res


@dataclass(frozen=True, slots=True, kw_only=True)
class SymbolDependents:
    """What uses a symbol (codehop.navigation.dependents does the walk): importers, re-exporters, aliases,
    callers through all of those, subclasses, overriders, uses of an inherited member on a
    subclass, reads; in path/line order."""

    symbol: str
    declaration: Resolution
    sites: tuple[Site, ...]

    def to_dict(self) -> dict[str, Any]:
        """{symbol, declaration, dependents: [{path, line, ref_type, anchor_text, scope, relation,
        col, code, is_test}]}"""
        return {
            "symbol": self.symbol,
            "declaration": self.declaration.target.to_dict(),
            "dependents": [
                {
                    "path": s.rel_path,
                    "line": s.line,
                    "ref_type": _REF_TYPE.get(s.relation, RefType.OTHER).value,
                    "anchor_text": s.anchor_text,
                    "scope": s.scope,
                    "relation": str(s.relation),
                    "col": s.col,
                    "code": s.code,
                    "is_test": s.is_test,
                }
                for s in self.sites
            ],
        }


def dependents(finder: DependentsFinder, table: SymbolTable, symbol: str) -> SymbolDependents:
    """What uses `symbol` (UsageError when it names no declaration of the repository)."""
    res = declaration(table, symbol)
    found = finder.dependents(res.target, transitive=True)
    return SymbolDependents(symbol=symbol, declaration=res, sites=tuple(found.sites))


# the reference type a dependent site reports (the JSON contract's `ref_type`); the rest `other`
_REF_TYPE = {
    Relation.IMPORTS: RefType.IMPORT,
    Relation.REEXPORTS: RefType.REEXPORT,
    Relation.ALIASES: RefType.ALIAS,
    Relation.INHERITS: RefType.BASE_CLASS,
    Relation.DECORATES: RefType.DECORATOR,
    Relation.ANNOTATES: RefType.TYPE_ANNOTATION,
    Relation.CALLS: RefType.CALL,
    Relation.USES_INHERITED: RefType.INHERITED_MEMBER,
}
