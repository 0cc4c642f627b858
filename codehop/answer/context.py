"""Context for a task: what an agent should read, ready to paste; and what uses a symbol.

`build_context` is the one context builder of every front-end (CLI, MCP,
LSP). It runs the navigator (the same loop as `ask`), reads the task
(codehop.answer.task: the files and declarations it names, whether an interface
changes), lists the blast radius of its subjects as one-line sites
(codehop.answer.manifest, on the dependents engine), ranks their collaborators by
personalized PageRank, adds the declarations the focus files import and the
re-export lines of what is sent, and packs all of it to the budget: every
token sent is counted, each item carries its text (and `truncated` when cut),
and what did not fit is named. Only structure chooses what is added; chunk
text never does. `render_markdown` turns it into a prompt section;
`dependents` lists the sites that use a declaration.

May import: app (wiring), orchestrator, records, retrieval, store, task,
manifest, graph_context, dependents, errors, stdlib.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from codehop.kernel.errors import UsageError
from codehop.kernel.records import Answer, Chunk, Completeness, ContextItem, Resolution, State, Via

if TYPE_CHECKING:
    from codehop.answer.manifest import Site
    from codehop.answer.task import Subject
    from codehop.app import App

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
    def stats(self) -> dict[str, float]:
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


def build_context(app: App, query: str, *, budget_tokens: int = 2000, max_loops: int = 1) -> TaskContext:
    """The loop's context for `query`, the blast radius of its subjects and their collaborators,
    packed to `budget_tokens` (every token sent is counted; what did not fit is named).

    Order of claims on the budget: the loop's first item (what the task is about), the first
    site of every file the change reaches (one line each), the subjects' declarations, the
    loop's other items and the subjects' collaborators by rank, then the remaining sites.
    """
    from codehop.answer.manifest import blast_radius, imported_sites, reexport_sites
    from codehop.answer.orchestrator import Limits
    from codehop.answer.task import read_task

    answer = app.navigator().ask(query, Limits(max_loops=max_loops, budget_tokens=budget_tokens))
    reading = read_task(app.store, query, app.table.resolve)
    loop_items = list(answer.context)
    subjects = reading.subjects or _implicit_subjects(app, loop_items)
    # tests come by default when behaviour changes; a question about the code does not need them
    manifest = blast_radius(app, subjects, tests=not reading.is_question or reading.mentions_tests)
    named = _declarations(app, subjects, budget_tokens)
    collab = _collaborators(
        app, [s.qualname for s in subjects] + [c.chunk.qualname for c in loop_items[:2]], budget_tokens
    )
    in_manifest = {(s.rel_path, s.line) for s in manifest.sites}
    tops = [_top_level(app, c.chunk) for c in loop_items + named + collab]
    public = [
        s
        for s in reexport_sites(app, list(dict.fromkeys(t for t in tops if t)))
        if (s.rel_path, s.line) not in in_manifest
    ]
    in_manifest |= {(s.rel_path, s.line) for s in public}
    focus_files = list(dict.fromkeys([s.rel_path for s in subjects] + [c.chunk.rel_path for c in loop_items[:3]]))
    imported = [s for s in imported_sites(app, focus_files[:3]) if (s.rel_path, s.line) not in in_manifest]
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
    stats = dict(answer.stats)
    stats["context_tokens"] = sum(c.tokens for c in order)
    stats["sites"] = sum(1 for c in order if c.relation)
    answer = dataclasses.replace(answer, context=tuple(order), stats=stats)
    answer = _recheck(app, query, answer)
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
    kept: list[ContextItem] = []
    left: list[LeftOut] = []
    have: set[object] = set()
    used = 0
    for item, cap in plan:
        c = item.chunk
        keys = (
            {("site", c.rel_path, c.start_line)}
            if item.relation
            else {c.chunk_id, (c.rel_path, c.start_line, c.end_line), c.qualname}
        )
        if keys & have or _covered(kept, c):
            continue
        if used + item.tokens <= min(cap, budget_tokens):
            kept.append(item)
            have |= keys
            used += item.tokens
        else:
            name = f"{c.rel_path}:{c.start_line}" if item.relation else c.qualname
            left.append(LeftOut(name=name, tokens=item.tokens))
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


def _covered(kept: list[ContextItem], c: Chunk) -> bool:
    """Lines a kept body already holds (a site inside a body sent, or a smaller body)."""
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


def _recheck(app: App, query: str, answer: Answer) -> Answer:
    """Honesty holds for the context handed over: a `complete` whose declaration was pushed out
    becomes what the offline reader says of the packed context."""
    from codehop.kernel.records import Completeness, State

    if answer.completeness is not Completeness.COMPLETE:
        return answer
    bodies = [c for c in answer.context if not c.relation]
    recheck = app.generator("offline").generate(query, bodies, {})
    if recheck.completeness is Completeness.COMPLETE:
        return answer
    return dataclasses.replace(
        answer, completeness=Completeness.PARTIAL, state=State.GIVE_UP_PARTIAL, stopped_by=answer.stopped_by or "budget"
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


def _top_level(app: App, chunk: Chunk) -> str:
    """The module-level declaration that holds a chunk (a method's class), or '' for a module."""
    module = app.store.module_of(chunk.rel_path)
    if module is None or not chunk.qualname.startswith(module + "."):
        return ""
    return f"{module}.{chunk.qualname[len(module) + 1 :].split('.')[0]}"


def _implicit_subjects(app: App, items: list[ContextItem]) -> tuple[Subject, ...]:
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


def _declarations(app: App, subjects: tuple[Subject, ...], budget_tokens: int) -> list[ContextItem]:
    from codehop.answer.orchestrator import fit
    from codehop.answer.retrieval import count_tokens

    out = []
    for s in subjects:
        if s.kind == "module":
            continue
        for chunk in app.store.chunks_named(s.qualname)[:1]:
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


def _collaborators(app: App, seeds: list[str], budget_tokens: int) -> list[ContextItem]:
    """Declarations ranked by personalized PageRank from the seeds (callees, types, services)."""
    from codehop.answer.graph_context import GraphContext
    from codehop.answer.orchestrator import fit
    from codehop.answer.retrieval import count_tokens

    seeds = [s for s in dict.fromkeys(seeds) if s]
    if not seeds:
        return []
    gc = GraphContext(app.store, app.table)
    graph = gc.local_graph(seeds)
    present = {s: 1.0 for s in seeds if s in graph}
    if not present:
        return []
    out = []
    for n in graph.related(present, limit=COLLABORATORS * 3, method="ppr"):
        chunks = app.store.chunks_named(n.id)
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


# ---- render_markdown ----------------------------------------------------------------
def render_markdown(answer: TaskContext | Answer | Mapping[str, Any]) -> str:
    """A prompt section: a header with state and completeness, each code item as a fenced block,
    the blast-radius manifest one line a site, and what was left out by name.

    A dict (the JSON contract) renders the same, from each item's `text`.
    """
    data = answer.to_dict() if isinstance(answer, (TaskContext, Answer)) else dict(answer)
    items = data.get("context", [])
    tokens = data.get("stats", {}).get("context_tokens", "?")
    lines = [
        f"## codehop context — state: {data.get('state', '?')}, "
        f"completeness: {data.get('answer_completeness', '?')} ({len(items)} items, {tokens} tokens)",
        "",
        f"Query: {data.get('question', '')}",
    ]
    if data.get("answer"):
        lines += ["", data["answer"]]
    pending = data.get("pending_references", [])
    if pending:
        lines += ["", "Unresolved references (not in this context):"]
        lines += [
            f"- `{p['anchor_text']}` ({p['ref_type']} -> {p['ref_target']}) at "
            f"{p['origin']['path']}:{p['origin']['line']}"
            for p in pending
        ]
    for item in items:
        if item.get("relation"):
            continue
        cut = ", truncated" if item.get("truncated") else ""
        lines += [
            "",
            f"### {_pin(item)}{item['path']}:{item['start_line']}-{item['end_line']} — {item['qualname']} "
            f"({item['via']}, {item['provenance']}, hop {item['hop']}{cut})",
        ]
        text = item.get("text")
        if text is not None:
            fence = _fence(text)
            lines += [f"{fence}python", text.rstrip("\n"), fence]
    sites = [i for i in items if i.get("relation")]
    manifest = data.get("manifest")
    if sites:
        state = ""
        if manifest:
            state = (
                " (complete)"
                if manifest.get("complete")
                else f" ({manifest.get('left_out_sites', 0)} more sites left out)"
            )
        block = "\n".join(str(i.get("provenance", "")).removeprefix("site: ") for i in sites)
        fence = _fence(block)
        lines += [
            "",
            f"Sites the change may have to touch{state}, `path:line  source  [relation subject]`:",
            fence,
            block,
            fence,
        ]
    left = data.get("left_out")
    if left and left.get("items"):
        names = ", ".join(left["names"][:40]) + (" ..." if len(left["names"]) > 40 else "")
        lines += ["", f"Left out: {left['items']} items, {left['tokens']:,} tokens: {names}"]
    return "\n".join(lines) + "\n"


def _fence(text: str) -> str:
    """A backtick fence longer than any run of backticks in the text, so it cannot be closed early."""
    longest = run = 0
    for ch in text:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    return "`" * max(3, longest + 1)


# ---- dependents -----------------------------------------------------------------------
def declaration(app: App, symbol: str) -> Resolution:
    """The in-repository declaration of a dotted symbol, or UsageError saying why not."""
    if not symbol or not all(part.isidentifier() for part in symbol.split(".")):
        raise UsageError(f"not a dotted symbol: {symbol!r} (expected pkg.mod.Class.member)", symbol=symbol)
    res = app.table.resolve(symbol)
    if res is None:
        raise UsageError(
            f"symbol not found in the index: {symbol} (use the module-absolute dotted name, e.g. pkg.mod.Class.member)",
            symbol=symbol,
        )
    if res.is_external:
        raise UsageError(f"symbol {symbol} resolves outside the repository (to {res.external})", symbol=symbol)
    return res


def dependents(app: App, symbol: str) -> list[dict[str, Any]]:
    """What uses `symbol` (codehop.answer.dependents does the walk): importers, re-exporters, aliases,
    callers through all of those, subclasses, overriders, uses of an inherited member on a
    subclass, reads. Each item: {path, line, ref_type, anchor_text, scope, relation, col, code,
    is_test}, in path/line order."""
    from codehop.answer.dependents import DependentsFinder

    target = declaration(app, symbol).target
    found = DependentsFinder(app.store, app.table, app.root).dependents(target, transitive=True)
    return [
        {
            "path": s.rel_path,
            "line": s.line,
            "ref_type": _REF_TYPE.get(str(s.relation), "other"),
            "anchor_text": s.anchor_text,
            "scope": s.scope,
            "relation": str(s.relation),
            "col": s.col,
            "code": s.code,
            "is_test": s.is_test,
        }
        for s in found.sites
    ]


_REF_TYPE = {
    "imports": "import",
    "reexports": "reexport",
    "aliases": "alias",
    "inherits": "base_class",
    "decorates": "decorator",
    "annotates": "type_annotation",
    "calls": "call",
    "uses_inherited": "inherited_member",
    "reads": "other",
    "overrides": "other",
}


def _pin(item: dict[str, Any]) -> str:
    """An installed package's item is headed by its pin (`requests==2.34.2 requests/sessions.py:...`)."""
    return f"{item['package']} " if item.get("source") == "environment" and item.get("package") else ""
