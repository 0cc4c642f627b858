"""What a declaration calls or instantiates (`callees`): the graph's outgoing call edges, the
calls on instances of the repository's classes read from the tokens of its body, and (with an
inference rung) the calls on objects of unknown type asked at their sites; what stays untraced
is counted from the call expressions of the body.

May import: records, store, symbols, callers, sites, source, stdlib.
"""

from __future__ import annotations

import builtins
import keyword
from typing import TYPE_CHECKING

from codehop.kernel.records import BindingKind, Location, Provenance, RefType
from codehop.navigation.callers import Infer, attribute_calls, land
from codehop.navigation.sites import DEFAULT_LIMIT, Dependents, Found, Relation

if TYPE_CHECKING:
    from codehop.index.symbols import SymbolTable
    from codehop.navigation.source import SourceScan

_CALL_EDGES = ("calls", "instantiates")
_BUILTINS = frozenset(dir(builtins))


def callees(
    scan: SourceScan, table: SymbolTable, target: Location, *, limit: int = DEFAULT_LIMIT, infer: Infer | None = None
) -> Dependents:
    """What the declaration calls or instantiates: the graph's outgoing call edges (a class's
    methods included), in source order. Calls outside the repository are listed with their
    dotted name; calls the index could not place (on a parameter, a call's result, a local)
    make a note, counted from the call expressions in the body."""
    found: Found = {}
    unresolved: list[tuple[str, str, int]] = []  # (callee, path, line)
    scopes = [target.qualname]
    if table.class_binding(target.qualname) is not None:
        scopes += [
            f"{b.scope}.{b.name}" for b in scan.store.bindings_in(target.qualname) if b.kind is BindingKind.FUNCTION
        ]
    external = {
        (x.rel_path, x.line, x.target.rpartition(".")[2])
        for x in scan.store.xrefs(rel_path=target.rel_path, ref_type=RefType.CALL.value)
        if x.provenance is Provenance.EXTERNAL
    }
    recorded = 0
    for scope in scopes:
        for edge in scan.store.edges_out_of(scope, _CALL_EDGES):
            dst, rel_path, line, ok = edge.dst, edge.rel_path, edge.line, edge.resolved
            recorded += 1
            short = dst.rpartition(".")[2]
            if not ok:
                if (rel_path, line, short) in external:
                    scan.add_site(
                        found,
                        rel_path,
                        line,
                        scan.col_of(rel_path, line, short),
                        Relation.CALLEE,
                        short,
                        scope,
                        via=dst.lstrip("?") + " (outside the repository)",
                    )
                else:
                    unresolved.append((dst.lstrip("?"), rel_path, line))
                continue
            scan.add_site(
                found, rel_path, line, scan.col_of(rel_path, line, short), Relation.CALLEE, short, scope, via=dst
            )
    for line, col, scope_cls, member in _instance_calls(scan, table, target):
        res = table.resolve(f"{scope_cls}.{member}")
        if res is None or res.is_external:
            continue
        recorded += 1
        scan.add_site(
            found, target.rel_path, line, col, Relation.CALLEE, member, target.qualname, via=res.target.qualname
        )
    if infer is not None:
        # calls on objects of unknown type (`get_console().print_json(...)`): asked at the site
        placed = {(k[1], k[2]) for k in found}
        end = target.end_line or target.line
        toks = scan.span_tokens(target.rel_path, target.line, end)
        asked = [c for c in attribute_calls(target.rel_path, toks, target.line, end) if (c.line, c.col) not in placed]
        for c, res in land(asked, infer):
            if res is None:
                continue
            recorded += 1
            via = res.target.qualname or res.target.rel_path
            if res.is_external:
                via = f"{via} (outside the repository)"
            scan.add_site(found, target.rel_path, c.line, c.col, Relation.CALLEE, c.name, target.qualname, via=via)
    sites = sorted(found.values(), key=lambda s: (s.rel_path, s.line, s.col))
    # a call the index could not place but inference at its site did is not a doubt
    placed_at = {(s.rel_path, s.line, s.anchor_text) for s in found.values()}
    missing = [
        callee for callee, rel_path, line in unresolved if (rel_path, line, callee.rpartition(".")[2]) not in placed_at
    ]
    notes = []
    if missing:
        shown = ", ".join(sorted(set(missing))[:5])
        notes.append(f"{len(missing)} call(s) not resolved in the repository ({shown})")
    untraced = _call_expressions(scan, target) - recorded
    if untraced > 0:
        notes.append(
            f"{untraced} call(s) on objects of unknown type (parameters, locals, call results) "
            "are not traced statically"
        )
    return Dependents(
        target=target,
        sites=tuple(sites[:limit]),
        walked=(Relation.CALLEE,),
        cut=len(sites) > limit,
        notes=tuple(notes),
    )


def _instance_calls(scan: SourceScan, table: SymbolTable, target: Location) -> list[tuple[int, int, str, str]]:
    """(line, col, class, member) of `C.m(`, `C(...).m(` and `v.m(` after `v = C(...)` or
    `with C(...) as v`, in the declaration's span, where C names a class of the repository."""
    end = target.end_line or target.line
    toks = scan.span_tokens(target.rel_path, target.line, end)
    module = scan.store.module_of(target.rel_path) or ""
    classes: dict[str, str | None] = {}

    def class_of(name: str) -> str | None:
        if name not in classes:
            res = table.resolve(f"{module}.{name}")
            ok = res is not None and not res.is_external and table.class_binding(res.target.qualname)
            classes[name] = res.target.qualname if ok and res is not None else None
        return classes[name]

    out: list[tuple[int, int, str, str]] = []
    instances: dict[str, str] = {}
    n = len(toks)
    for i, (_line, _col, text, kind) in enumerate(toks):
        if kind != 1 or (i and toks[i - 1][2] == "."):
            continue
        if text in instances and i + 3 < n and toks[i + 1][2] == "." and toks[i + 3][2] == "(":
            out.append((toks[i + 2][0], toks[i + 2][1], instances[text], toks[i + 2][2]))
            continue
        cls = class_of(text) if text[:1].isupper() or text in classes else None
        if cls is None:
            continue
        if i + 3 < n and toks[i + 1][2] == "." and toks[i + 3][2] == "(":
            out.append((toks[i + 2][0], toks[i + 2][1], cls, toks[i + 2][2]))
            continue
        if i + 1 < n and toks[i + 1][2] == "(":
            depth, k = 0, i + 1
            while k < n:
                if toks[k][3] == 0 and toks[k][2] in "([{":
                    depth += 1
                elif toks[k][3] == 0 and toks[k][2] in ")]}":
                    depth -= 1
                    if depth == 0:
                        break
                k += 1
            if k + 3 < n and toks[k + 1][2] == "." and toks[k + 3][2] == "(":
                out.append((toks[k + 2][0], toks[k + 2][1], cls, toks[k + 2][2]))
            elif i >= 2 and toks[i - 1][2] == "=" and toks[i - 2][3] == 1:
                instances[toks[i - 2][2]] = cls
            elif k + 2 < n and toks[k + 1][2] == "as" and toks[k + 2][3] == 1:
                instances[toks[k + 2][2]] = cls
    return out


def _call_expressions(scan: SourceScan, target: Location) -> int:
    """Call expressions in the declaration's span that are not builtins (`name(`, `x.m(`, `f()(`)."""
    end = target.end_line or target.line
    toks = scan.span_tokens(target.rel_path, target.line, end)
    count = 0
    for i in range(1, len(toks)):
        if toks[i][2] != "(" or toks[i][3] != 0:
            continue
        prev = toks[i - 1]
        if prev[3] == 1:
            before = toks[i - 2][2] if i >= 2 else ""
            if before in ("def", "class") or keyword.iskeyword(prev[2]):
                continue
            if before != "." and prev[2] in _BUILTINS:
                continue
            count += 1
        elif prev[2] in (")", "]"):
            count += 1
    return count
