"""Index-time resolution: fill the cross-reference table and the graph's edges.

Runs inside the indexer's write transaction. Every reference whose dotted
target the symbol table can resolve gets target_path/target_line and
provenance `symbol_table`; targets outside the repository are marked
`external`; the rest stay empty for the loop-time resolvers. Edges for the
dependency graph are derived from the same rows. A full build resolves the
rows it holds in memory, with no SQL (`resolve_fresh`: its connection is busy
in another thread meanwhile); an update resolves rows of the table
(`resolve_static`). May import: records, store, symbols, stdlib.
"""

from __future__ import annotations

import sqlite3

from codehop.index.store.sqlite import SqliteStore
from codehop.index.store.write import (
    LoadedRows,
    class_qualnames,
    declaration_rows,
    delete_edges,
    insert_edges,
    modules_by_path,
    paths_referring_into,
    set_xref_targets,
    stamp_edges,
    symbol_rows_of,
    xref_sites,
    xref_targets,
)
from codehop.index.symbols import SymbolTable
from codehop.kernel.records import BindingKind, RefType
from graphs import EdgeType

# the graph's edge for each kind of reference (the one map: navquestion derives a site's edge from it)
EDGE_TYPE: dict[RefType, EdgeType] = {
    RefType.IMPORT: EdgeType.IMPORTS,
    RefType.REEXPORT: EdgeType.REEXPORTS,
    RefType.STAR_IMPORT: EdgeType.REEXPORTS,
    RefType.ALIAS: EdgeType.REFERENCES,
    RefType.BASE_CLASS: EdgeType.INHERITS,
    RefType.DECORATOR: EdgeType.DECORATES,
    RefType.CALL: EdgeType.CALLS,
    RefType.TYPE_ANNOTATION: EdgeType.REFERENCES,
}
# the same as plain strings, for the rows inserted: sqlite3 binds a str subclass through its adapter
# lookup, about twice the cost of binding a str (Django: 25k edge rows)
_EDGE_NAME: dict[str, str] = {str(k): str(v) for k, v in EDGE_TYPE.items()}
_INSTANTIATES = str(EdgeType.INSTANTIATES)

# (changed paths, paths whose referrers are redone: gone or with a new interface, modules whose names changed)
Scope = tuple[list[str], list[str], list[str]] | None


def resolve_static(store: SqliteStore, conn: sqlite3.Connection, scope: Scope) -> None:
    """Resolve the xrefs already in the table (of the files `scope` names; None: all) and rebuild
    their files' edges. A full build resolves in memory instead (`fresh_table`, `resolve_fresh`)."""
    store.invalidate()
    table = SymbolTable(store)
    table.pin(lazy=scope is not None)  # this transaction's own writes: all at once when all are redone
    paths: list[str] | None
    if scope is None:
        rows = xref_sites(conn)
        paths = None
    else:
        rows, paths = _affected(conn, scope)
    targets = list(dict.fromkeys(r[4] for r in rows))
    memo = _resolve_all(table, targets)
    updates: list[tuple[str, int, str, int]] = []
    edges: list[tuple[str, str, str, str, int, int]] = []
    for xid, rel, line, ref_type, target, src in rows:
        t_path, t_line, prov, qual = memo[target]
        updates.append((t_path, t_line, prov, xid))
        etype = _EDGE_NAME.get(ref_type)
        if etype is None:
            continue
        if prov == "symbol_table":
            if ref_type == RefType.CALL and table.class_binding(qual) is not None:
                etype = _INSTANTIATES
            edges.append((src, qual, etype, rel, line, 1))
        else:
            edges.append((src, "?" + target, etype, rel, line, 0))
    set_xref_targets(conn, updates)
    file_list = delete_edges(conn, paths)
    edges.extend(_structural_edges(store, table, conn, file_list, paths is None))
    insert_edges(conn, edges)
    stamp_edges(conn, file_list)


def fresh_table(store: SqliteStore, loaded: LoadedRows) -> SymbolTable:
    """A full build's symbol table, pinned to the rows it has just written (read back from SQL only
    when their order there is SQLite's to choose). After this, `resolve_fresh` reads no SQL."""
    store.invalidate()
    table = SymbolTable(store)
    table.pin(rows=symbol_rows_of(loaded))
    return table


def resolve_fresh(
    table: SymbolTable,
    fresh: list[tuple],  # type: ignore[type-arg]
    loaded: LoadedRows,
) -> tuple[list[tuple], list[tuple[str, str, str, str, int, int]]]:  # type: ignore[type-arg]
    """A full build's resolution, in memory and without SQL (its connection may be busy in another
    thread meanwhile): the xref rows `fresh` with target path, line and provenance appended, and every
    edge, in the order `resolve_static` inserts them."""
    memo = _resolve_all(table, list(dict.fromkeys(r[5] for r in fresh)))
    rows: list[tuple] = []  # type: ignore[type-arg]
    edges: list[tuple[str, str, str, str, int, int]] = []
    is_class: dict[str, bool] = {}
    for x in fresh:
        rel, line, _, _, ref_type, target, src = x
        hit = memo[target]
        rows.append((*x, *hit[:3]))
        prov, qual = hit[2], hit[3]
        etype = _EDGE_NAME.get(ref_type)
        if etype is None:
            continue
        if prov == "symbol_table":
            if ref_type == RefType.CALL:
                known = is_class.get(qual)
                if known is None:
                    known = is_class[qual] = table.class_binding(qual) is not None
                if known:
                    etype = _INSTANTIATES
            edges.append((src, qual, etype, rel, line, 1))
        else:
            edges.append((src, "?" + target, etype, rel, line, 0))
    kinds = {str(k) for k in (BindingKind.CLASS, BindingKind.FUNCTION, BindingKind.VALUE, BindingKind.ALIAS)}
    declarations = [(b[0], b[1], b[2], b[4], b[3]) for b in loaded.bindings if b[2] in kinds]  # `declaration_rows`
    edges.extend(_structural_rows(table, declarations, {c[0] for c in loaded.classes}, None))
    return rows, edges


Hit = tuple[str, int, str, str]  # (target path, line, provenance, qualname)


def _resolve_all(table: SymbolTable, targets: list[str]) -> dict[str, Hit]:
    out: dict[str, Hit] = {}
    resolve = table.resolve_flat
    for target in targets:
        res = resolve(target)
        if res is None:
            out[target] = ("", 0, "", "")
        elif res[3]:
            out[target] = ("", 0, "external", res[3])
        else:
            out[target] = (res[0], res[1], "symbol_table", res[2])
    return out


def _affected(conn: sqlite3.Connection, scope: tuple[list[str], list[str], list[str]]) -> tuple[list[tuple], list[str]]:  # type: ignore[type-arg]
    """Rows whose meaning may have changed: in changed files, pointing into files whose
    interface changed or that are gone (`scope[1]`), or naming a module whose interface changed
    (`scope[2]`), directly or through modules that re-export it. Each affected file is redone
    whole (its edges are rebuilt whole)."""
    changed, redo_into, dirty = scope
    deleted = [p for p in redo_into if p not in set(changed)]
    touched = sorted(set(redo_into))
    paths = set(changed)
    if touched:  # (an empty IN-list placeholder would match every unresolved row's '' path)
        paths |= paths_referring_into(conn, touched)
    if dirty:
        all_rows = xref_targets(conn)
        module_of = modules_by_path(conn)
        known = set(module_of.values()) | set(dirty)
        affected = set(dirty)

        def names_affected(target: str) -> bool:
            """Resolution of `target` starts in its longest module prefix: is that module affected?"""
            parts = target.split(".")
            for i in range(len(parts), 0, -1):
                mod = ".".join(parts[:i])
                if mod in known:
                    return mod in affected
            return False

        pointer_types = {"import", "reexport", "star_import", "alias"}
        for _ in range(4):  # modules that re-export an affected module's names are affected too
            grown = {module_of.get(r[0], "") for r in all_rows if r[1] in pointer_types and names_affected(r[2])}
            grown.discard("")
            if grown <= affected:
                break
            affected |= grown
        paths |= {r[0] for r in all_rows if names_affected(r[2])}
    paths -= set(deleted)
    ordered = sorted(paths)
    rows: list[tuple] = []  # type: ignore[type-arg]
    for i in range(0, len(ordered), 400):
        part = ordered[i : i + 400]
        rows += xref_sites(conn, part)
    return rows, ordered


def _structural_edges(
    store: SqliteStore, table: SymbolTable, conn: sqlite3.Connection, paths: list[str], full: bool
) -> list[tuple[str, str, str, str, int, int]]:
    """contains (module/class -> member) and overrides (method -> the base method it replaces)."""
    if full:
        rows = declaration_rows(conn)
    else:
        rows = []
        for i in range(0, len(paths), 400):
            part = paths[i : i + 400]
            rows += declaration_rows(conn, part)
    return _structural_rows(table, rows, class_qualnames(conn), set(paths))


def _structural_rows(
    table: SymbolTable,
    rows: list[tuple],  # type: ignore[type-arg]
    classes: set[str],
    wanted: set[str] | None,
) -> list[tuple[str, str, str, str, int, int]]:
    """The structural edges of declaration rows (scope, name, kind, line, rel_path) of `wanted` files
    (None: all)."""
    out: list[tuple[str, str, str, str, int, int]] = []
    src = table.src
    for scope, name, kind, line, rel in rows:
        if wanted is not None and rel not in wanted:
            continue
        out.append((scope, f"{scope}.{name}", "contains", rel, line, 1))
        # a method, or a class-body assignment (`close = _noop`), replaces the base's method
        if kind not in (BindingKind.FUNCTION, BindingKind.ALIAS) or scope not in classes:
            continue
        for base in table.mro(scope)[1:]:
            b = src.binding(base, name)
            if b is not None and b.kind is BindingKind.FUNCTION:
                out.append((f"{scope}.{name}", f"{base}.{name}", "overrides", rel, line, 1))
                break
    return out
