"""Context for a task: what an agent should read, ready to paste; and what uses a symbol.

`build_context` is the one context builder of every front-end (CLI, MCP,
LSP). It starts from the navigator's answer (the same loop as `ask`), reads the task
(codehop.answer.task: the files and declarations it names, whether an interface
changes), lists the blast radius of its subjects as one-line sites
(codehop.answer.manifest, on the dependents engine), ranks their collaborators by
personalized PageRank, adds the declarations the focus files import and the
re-export lines of what is sent, and packs all of it to the budget: every
token sent is counted, each item carries its text (and `truncated` when cut),
and what did not fit is named. Only structure chooses what is added; chunk
text never does. `dependents` lists the sites that use a declaration; the
front-ends' render module turns a context into a prompt section.

May import: orchestrator, records, retrieval, store, symbols, task, manifest,
graph_context, dependents, errors, stdlib; the door runs the navigator and hands
over its answer and what is read (store, symbol table, root, the offline reader).
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import TYPE_CHECKING, Any

from codehop.answer.dependents import Relation
from codehop.kernel.errors import UsageError
from codehop.kernel.records import Answer, Chunk, Completeness, ContextItem, RefType, Resolution, State, Stats, Via

if TYPE_CHECKING:
    from pathlib import Path

    from codehop.answer.dependents import DependentsFinder
    from codehop.answer.dependents import Site as DependentSite
    from codehop.answer.manifest import Site
    from codehop.answer.task import Subject
    from codehop.index.store.sqlite import SqliteStore
    from codehop.index.symbols import SymbolTable
    from codehop.kernel.protocols import Generator

# ---- build_context ---------------------------------------------------------------
SITE_SHARE = 0.30  # of the budget, for the first site of each file the change reaches
SITE_SHARE_INTERFACE = 0.45  # when the task changes an interface every dependent must follow
EXTRA_SHARE = 0.15  # on top: one line for each file the focus files import from, or that re-exports them
BODY_SHARE = 0.34  # the most one code body may take before it is cut (and marked truncated)
COLLABORATORS = 12


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class LeftOut:
    name: str  # qualname of a body, or path:line of a site
    tokens: int


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class TaskContext:
    """What an agent reads for a task: the packed Answer plus the manifest's honesty and what did not fit."""

    answer: Answer
    subjects: tuple[str, ...]
    sites_total: int
    sites_sent: int  # as manifest lines or inside bodies sent
    manifest_complete: bool  # every edge kind walked for every subject, nothing capped
    left_out: tuple[LeftOut, ...]

    @property
    def context(self) -> tuple[ContextItem, ...]:
        return self.answer.context

    @property
    def state(self) -> State:
        return self.answer.state

    @property
    def completeness(self) -> Completeness:
        return self.answer.completeness

    @property
    def stats(self) -> Stats:
        return self.answer.stats

    def to_dict(self) -> dict[str, Any]:
        data = self.answer.to_dict()
        sent = self.sites_sent
        data["manifest"] = {
            "subjects": list(self.subjects),
            "sites": self.sites_total,
            "sites_sent": sent,
            # nothing named and nothing found is not a complete blast radius
            "complete": bool(self.subjects) and self.manifest_complete and sent == self.sites_total,
            "left_out_sites": self.sites_total - sent,
        }
        data["left_out"] = {
            "items": len(self.left_out),
            "tokens": sum(x.tokens for x in self.left_out),
            "names": [x.name for x in self.left_out],
        }
        return data


def build_context(
    query: str,
    answer: Answer,
    *,
    store: SqliteStore,
    table: SymbolTable,
    root: Path,
    recheck: Generator,
    budget_tokens: int = 2000,
) -> TaskContext:
    """The loop's context for `query` (`answer`, the navigator's answer to it within the same
    budget), the blast radius of its subjects and their collaborators, packed to `budget_tokens`
    (every token sent is counted; what did not fit is named). `recheck` (the offline reader)
    says whether a `complete` still holds for the packed context.

    Order of claims on the budget: the loop's first item (what the task is about), the first
    site of every file the change reaches (one line each), the subjects' declarations, the
    loop's other items and the subjects' collaborators by rank, then the remaining sites.
    """
    from codehop.answer.manifest import blast_radius, imported_sites, reexport_sites
    from codehop.answer.task import read_task

    reading = read_task(store, query, table.resolve)
    loop_items = list(answer.context)
    subjects = reading.subjects or _implicit_subjects(loop_items)
    # tests come by default when behaviour changes; a question about the code does not need them
    manifest = blast_radius(store, table, root, subjects, tests=not reading.is_question or reading.mentions_tests)
    named = _declarations(store, subjects, budget_tokens)
    collab = _collaborators(
        store, table, [s.qualname for s in subjects] + [c.chunk.qualname for c in loop_items[:2]], budget_tokens
    )
    in_manifest = {(s.rel_path, s.line) for s in manifest.sites}
    tops = [_top_level(store, c.chunk) for c in loop_items + named + collab]
    public = [
        s
        for s in reexport_sites(store, table, root, list(dict.fromkeys(t for t in tops if t)))
        if (s.rel_path, s.line) not in in_manifest
    ]
    in_manifest |= {(s.rel_path, s.line) for s in public}
    focus_files = list(dict.fromkeys([s.rel_path for s in subjects] + [c.chunk.rel_path for c in loop_items[:3]]))
    imported = [s for s in imported_sites(store, root, focus_files[:3]) if (s.rel_path, s.line) not in in_manifest]
    direct = [_site_item(s) for s in manifest.sites]
    extra = [_site_item(s) for s in public + imported]
    share = SITE_SHARE_INTERFACE if reading.interface_change else SITE_SHARE
    bodies = _interleave(loop_items[1:], named, collab)
    first_direct, rest_direct = _first_per_file(direct, set())
    first_extra, rest_extra = _first_per_file(extra, {c.chunk.rel_path for c in first_direct})
    if reading.subjects and reading.interface_change:
        # the task named what changes and says its users must follow: every direct site first
        # (type annotations after: they name the type, they rarely call it)
        first_direct = [it for it in direct if it in first_direct or it.relation != "annotates"]
        rest_direct = [it for it in direct if it not in first_direct]
    # a question the loop answered keeps the context that answered it; a task keeps its first item
    head = loop_items if reading.is_question and answer.completeness is Completeness.COMPLETE else loop_items[:1]
    base = sum(it.tokens for it in head)
    cap = base + int(budget_tokens * share)
    plan: list[tuple[ContextItem, int]] = []  # (item, cap on the tokens used when it is considered)
    plan += [(it, budget_tokens) for it in head]
    plan += [(it, cap) for it in first_direct]
    plan += [(it, cap + int(budget_tokens * EXTRA_SHARE)) for it in first_extra]
    plan += [(it, budget_tokens) for it in bodies]
    plan += [(it, budget_tokens) for it in rest_direct + rest_extra]
    kept, left = _pack(plan, budget_tokens)
    order = [c for c in kept if not c.relation] + [c for c in kept if c.relation]
    stats = dataclasses.replace(
        answer.stats, context_tokens=sum(c.tokens for c in order), sites=sum(1 for c in order if c.relation)
    )
    answer = dataclasses.replace(answer, context=tuple(order), stats=stats)
    answer = _recheck(recheck, query, answer)
    return TaskContext(
        answer=answer,
        subjects=tuple(s.qualname for s in subjects),
        sites_total=len(direct),
        sites_sent=_sites_sent(answer.context, direct),
        manifest_complete=manifest.complete,
        left_out=tuple(left),
    )


def _first_per_file(items: list[ContextItem], files: set[str]) -> tuple[list[ContextItem], list[ContextItem]]:
    """The first site of each file not in `files`, and the rest, each in order."""
    first: list[ContextItem] = []
    rest: list[ContextItem] = []
    seen = set(files)
    for it in items:
        if it.chunk.rel_path in seen:
            rest.append(it)
        else:
            seen.add(it.chunk.rel_path)
            first.append(it)
    return first, rest


def _pack(plan: list[tuple[ContextItem, int]], budget_tokens: int) -> tuple[list[ContextItem], list[LeftOut]]:
    """retrieval's packer over the plan: a site is one per line, a body one per chunk, span or
    name, and nothing a kept body already holds; what did not fit is named once."""
    from codehop.answer.retrieval import pack_plan

    kept, over = pack_plan(plan, budget_tokens, keys=_keys, skip=_covered)
    left = [
        LeftOut(
            name=f"{it.chunk.rel_path}:{it.chunk.start_line}" if it.relation else it.chunk.qualname, tokens=it.tokens
        )
        for it in over
    ]
    # a left-out item that was later kept in another form is not left out
    names = {c.chunk.qualname for c in kept if not c.relation} | {
        f"{c.chunk.rel_path}:{c.chunk.start_line}" for c in kept if c.relation
    }
    seen: set[str] = set()
    out = []
    for x in left:
        if x.name not in names and x.name not in seen:
            seen.add(x.name)
            out.append(x)
    return kept, out


def _keys(item: ContextItem) -> set[object]:
    c = item.chunk
    if item.relation:
        return {("site", c.rel_path, c.start_line)}
    return {c.key, (c.rel_path, c.start_line, c.end_line), c.qualname}


def _covered(kept: list[ContextItem], item: ContextItem) -> bool:
    """Lines a kept body already holds (a site inside a body sent, or a smaller body)."""
    c = item.chunk
    return any(
        not k.relation
        and k.chunk.rel_path == c.rel_path
        and k.chunk.start_line <= c.start_line
        and c.end_line <= k.chunk.end_line
        for k in kept
    )


def _sites_sent(items: tuple[ContextItem, ...], sites: list[ContextItem]) -> int:
    """Sites the agent sees: as a manifest line, or inside a body it was sent."""
    return sum(
        1
        for s in sites
        if any(
            k.chunk.rel_path == s.chunk.rel_path and k.chunk.start_line <= s.chunk.start_line <= k.chunk.end_line
            for k in items
        )
    )


def _recheck(offline: Generator, query: str, answer: Answer) -> Answer:
    """Honesty holds for the context handed over: a `complete` whose declaration was pushed out
    becomes what the offline reader says of the packed context."""
    from codehop.kernel.records import Completeness, State, StopReason
    from codehop.reading.intent import read_question

    if answer.completeness is not Completeness.COMPLETE:
        return answer
    bodies = [c for c in answer.context if not c.relation]
    recheck = offline.generate(read_question(query), bodies, {})
    if recheck.completeness is Completeness.COMPLETE:
        return answer
    return dataclasses.replace(
        answer,
        completeness=Completeness.PARTIAL,
        state=State.GIVE_UP_PARTIAL,
        stopped_by=answer.stopped_by or StopReason.BUDGET,
    )


def _site_item(site: Site) -> ContextItem:
    return ContextItem(
        chunk=site.chunk(),
        hop=0,
        via=Via.GRAPH,
        provenance=f"site: {site.render()}",
        tokens=site.tokens,
        relation=site.relation,
    )


def _top_level(store: SqliteStore, chunk: Chunk) -> str:
    """The module-level declaration that holds a chunk (a method's class), or '' for a module."""
    module = store.module_of(chunk.rel_path)
    if module is None or not chunk.qualname.startswith(module + "."):
        return ""
    return f"{module}.{chunk.qualname[len(module) + 1 :].split('.')[0]}"


def _implicit_subjects(items: list[ContextItem]) -> tuple[Subject, ...]:
    """When the task names nothing the index declares: the declarations the loop ranked first."""
    from codehop.answer.task import Subject

    out: list[Subject] = []
    ranked = [c for c in items if c.via is Via.RESOLVED] + [c for c in items if c.via is not Via.RESOLVED]
    for c in ranked[:2]:
        kind = "module" if str(c.chunk.kind) == "module" else str(c.chunk.kind)
        out.append(
            Subject(
                qualname=c.chunk.qualname, rel_path=c.chunk.rel_path, line=c.chunk.start_line, kind=kind, named_as=""
            )
        )
    return tuple(out)


def _declarations(store: SqliteStore, subjects: tuple[Subject, ...], budget_tokens: int) -> list[ContextItem]:
    from codehop.answer.excerpt import fit
    from codehop.answer.retrieval import count_tokens

    out = []
    for s in subjects:
        if s.kind == "module":
            continue
        for chunk in store.chunks_named(s.qualname)[:1]:
            kept = fit(chunk, max(64, int(budget_tokens * BODY_SHARE)))
            out.append(
                ContextItem(
                    chunk=kept,
                    hop=0,
                    via=Via.GRAPH,
                    provenance=f"subject: named as {s.named_as}",
                    tokens=count_tokens(kept.text),
                    truncated=kept is not chunk,
                )
            )
    return out


def _collaborators(store: SqliteStore, table: SymbolTable, seeds: list[str], budget_tokens: int) -> list[ContextItem]:
    """Declarations ranked by personalized PageRank from the seeds (callees, types, services)."""
    from codehop.answer.excerpt import fit
    from codehop.answer.graph_context import GraphContext
    from codehop.answer.retrieval import count_tokens

    seeds = [s for s in dict.fromkeys(seeds) if s]
    if not seeds:
        return []
    gc = GraphContext(store, table)
    graph = gc.local_graph(seeds)
    present = {s: 1.0 for s in seeds if s in graph}
    if not present:
        return []
    out = []
    for n in graph.related(present, limit=COLLABORATORS * 3, method="ppr"):
        chunks = store.chunks_named(n.id)
        if not chunks or str(chunks[0].kind) == "module":
            continue
        chunk = chunks[0]
        kept = fit(chunk, max(64, budget_tokens // 4))
        why = "; ".join(f"{e.src} -{e.type}-> {e.dst}" for e in n.path)
        out.append(
            ContextItem(
                chunk=kept,
                hop=0,
                via=Via.GRAPH,
                provenance=f"graph: {why}",
                score=n.score,
                tokens=count_tokens(kept.text),
                truncated=kept is not chunk,
            )
        )
        if len(out) >= COLLABORATORS:
            break
    return out


def _interleave(*lists: list[ContextItem]) -> list[ContextItem]:
    """Round-robin over ranked lists, so no one source takes the whole budget."""
    out: list[ContextItem] = []
    for row in itertools.zip_longest(*lists):
        out.extend(x for x in row if x is not None)
    return out


# ---- dependents -----------------------------------------------------------------------
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


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Dependents:
    """What uses a symbol (codehop.answer.dependents does the walk): importers, re-exporters, aliases,
    callers through all of those, subclasses, overriders, uses of an inherited member on a
    subclass, reads; in path/line order."""

    symbol: str
    declaration: Resolution
    sites: tuple[DependentSite, ...]

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


def dependents(finder: DependentsFinder, table: SymbolTable, symbol: str) -> Dependents:
    """What uses `symbol` (UsageError when it names no declaration of the repository)."""
    res = declaration(table, symbol)
    found = finder.dependents(res.target, transitive=True)
    return Dependents(symbol=symbol, declaration=res, sites=tuple(found.sites))


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


def _pin(item: dict[str, Any]) -> str:
    """An installed package's item is headed by its pin (`requests==2.34.2 requests/sessions.py:...`)."""
    return f"{item['package']} " if item.get("source") == "environment" and item.get("package") else ""
