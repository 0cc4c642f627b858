"""Context for a task: what an agent should read, ready to paste. Over 500 lines (~580) because
the context is one plan packed once: the shares, the grouping of sites and the packing read each
other's entries, and a split would hand half-built plans between modules.

`build_context` is the one context builder of every front-end (CLI, MCP,
LSP). It starts from the navigator's answer (the same loop as `ask`) and every
retrieval hit ranked for the task (before any packing), reads the task
(codehop.answer.task: the files and declarations it names, whether an interface
changes), lists the blast radius of its subjects (codehop.navigation.manifest, on the
dependents engine) and the links code makes without imports (codehop.answer.links:
settings, string keys, role-named families), ranks their collaborators by
personalized PageRank and the values they and their callees read, adds the
declarations the focus files import and the re-export lines of what is sent, and
packs all of it once, as one plan, to the budget. Sites are grouped per file, one
compact entry each; a body bigger than its share is trimmed to its head and the
lines the task names (codehop.answer.trim), never dropped for its size; every token
sent is counted, and what did not fit is named with its reason. Only structure
chooses what is added; chunk text never does (it only chooses the lines a trimmed
body keeps). The front-ends' render module turns a context into a prompt section; what uses
a symbol is codehop.navigation.uses.

May import: orchestrator, records, retrieval, store, symbols, task, manifest, links,
trim, graph_context, sites, errors, stdlib; the door runs the navigator and hands
over its answer, the ranked hits and what is read (store, symbol table, root, the
offline reader).
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from codehop.answer.trim import Focus, trim
from codehop.kernel.records import Answer, Chunk, Completeness, ContextItem, State, Stats, Via
from codehop.kernel.tokens import count_tokens

if TYPE_CHECKING:
    from pathlib import Path

    from codehop.answer.task import Subject
    from codehop.index.store.sqlite import SqliteStore
    from codehop.index.symbols import SymbolTable
    from codehop.kernel.protocols import Generator
    from codehop.navigation.manifest import Site

# ---- build_context ---------------------------------------------------------------
SITE_SHARE = 0.30  # of the budget, for the first site of each file the change reaches
SITE_SHARE_INTERFACE = 0.45  # when the task changes an interface every dependent must follow
EXTRA_SHARE = 0.15  # on top: one line for each file the focus files import from, or that re-exports them
BODY_SHARE = 0.34  # the most one code body may take before it is trimmed (and marked truncated)
QUESTION_BODY_SHARE = 0.08  # the same, for a question (written with a question mark)
QUESTION_BODY_TOKENS = 200  # and at most this much: a bigger budget buys more declarations, not longer ones
HEAD_SHARE = 0.5  # the most the task's first item may take
MIN_TRIM_TOKENS = 48  # the least room in which a body is still sent trimmed rather than left out
COLLABORATORS = 12
COLLABORATOR_SHARE = 0.25
_CODE_WORD = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
MAX_GROUP_LINES = 12  # lines named in one file's manifest entry before "+N more"


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class LeftOut:
    name: str  # qualname of a body, or path:line of a site
    tokens: int
    reason: str = ""  # which source ranked it where, and the room it met


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
            "entries": [{"name": x.name, "tokens": x.tokens, "reason": x.reason} for x in self.left_out],
        }
        return data


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class _Entry:
    """One claim on the budget: the item, the cap on the tokens used when it is considered, the
    source that ranked it (named in the reason when it is left out), the whole chunk it may be
    trimmed from, and the sites a grouped manifest entry stands for."""

    item: ContextItem
    cap: int
    source: str
    whole: Chunk | None = None
    sites: int = 0


def build_context(
    query: str,
    answer: Answer,
    *,
    store: SqliteStore,
    table: SymbolTable,
    root: Path,
    recheck: Generator,
    budget_tokens: int = 2000,
    hits: Sequence[ContextItem] = (),
) -> TaskContext:
    """The loop's context for `query` (`answer`, the navigator's answer to it within the same
    budget), every retrieval hit (`hits`, ranked before any packing), the blast radius of its
    subjects and their collaborators, in one plan packed once to `budget_tokens` (every token
    sent is counted; a body too big for its share is trimmed to its head and the lines the task
    names; what did not fit is named with its reason). `recheck` (the offline reader) says
    whether a `complete` still holds for the packed context.

    Order of claims on the budget: the loop's first item (what the task is about), one manifest
    entry per file the change reaches (its lines grouped), the subjects' declarations, the
    loop's other items, the retrieval hits and the subjects' collaborators by rank, then tests
    (unless the task is about them) and the remaining entries.
    """
    from codehop.answer.task import read_task
    from codehop.navigation.manifest import blast_radius, imported_sites, reexport_sites

    reading = read_task(store, query, table.resolve)
    loop_items = list(answer.context)
    # what the task is about does not depend on the budget: read from the ranked hits, not the packing
    ranked = list(hits) or loop_items
    subjects = reading.subjects or _implicit_subjects(ranked)
    focus = _focus(query, subjects)
    about_tests = reading.mentions_tests
    # tests come by default when behaviour changes; a question about the code does not need them
    manifest = blast_radius(store, table, root, subjects, tests=not reading.is_question or about_tests)
    named = _declarations(store, subjects)
    seeds = [s.qualname for s in subjects] + [c.chunk.qualname for c in ranked[:2]]
    collab = _collaborators(store, table, seeds)
    collab += _callee_reads(store, seeds, {c.chunk.qualname for c in collab})
    in_manifest = {(s.rel_path, s.line) for s in manifest.sites}
    tops = [_top_level(store, c.chunk) for c in loop_items + named + collab]
    public = [
        s
        for s in reexport_sites(store, table, root, list(dict.fromkeys(t for t in tops if t)))
        if (s.rel_path, s.line) not in in_manifest
    ]
    in_manifest |= {(s.rel_path, s.line) for s in public}
    focus_files = list(dict.fromkeys([s.rel_path for s in subjects] + [c.chunk.rel_path for c in ranked[:3]]))
    imported = [s for s in imported_sites(store, root, focus_files[:3]) if (s.rel_path, s.line) not in in_manifest]
    direct = manifest.sites
    if reading.subjects and reading.interface_change:
        # the task named what changes and says its users must follow: every direct site counts
        # (type annotations after: they name the type, they rarely call it)
        direct = tuple(
            [s for s in direct if s.relation != "annotates"] + [s for s in direct if s.relation == "annotates"]
        )
    linked = [
        s
        for s in _linked(store, root, query, named + ranked[:3])
        if (s.rel_path, s.line) not in in_manifest and s.line > 0
    ]
    sent_later = [s for s in direct + tuple(linked) if s.is_test and not about_tests]
    direct_groups = _grouped([s for s in direct if not (s.is_test and not about_tests)])
    link_groups = _grouped([s for s in linked if not (s.is_test and not about_tests)], source="link")
    # what the focus code itself uses of its imports first: the code read is the code sent
    used = {w for c in named + ranked[:3] for w in _CODE_WORD.findall(c.chunk.text)}
    imported.sort(key=lambda s: s.subject.rpartition(".")[2] not in used)
    extra_groups = _grouped(
        list(public) + imported, skip={e.item.chunk.rel_path for e in direct_groups + link_groups}, source="import line"
    )
    test_groups = _grouped(sent_later, source="test site, after the code")
    share = SITE_SHARE_INTERFACE if reading.interface_change else SITE_SHARE
    # a question the loop answered keeps the context that answered it; a task keeps its first item
    complete_question = reading.is_question and answer.completeness is Completeness.COMPLETE
    asked = reading.is_question and query.rstrip().endswith("?")
    head = loop_items if complete_question else loop_items[:1]
    head_keys = {c.chunk.key for c in head}
    rest = [c for c in loop_items if c.chunk.key not in head_keys]
    seen_keys = head_keys | {c.chunk.key for c in rest}
    rest += [c for c in ranked if c.chunk.key not in seen_keys]
    base = sum(min(it.tokens, int(budget_tokens * HEAD_SHARE)) for it in head)
    cap = base + int(budget_tokens * share)
    # a question is answered from many declarations read in part before few read whole: each body
    # past its share keeps its head and the lines the question names
    body_cap = max(
        MIN_TRIM_TOKENS,
        min(int(budget_tokens * QUESTION_BODY_SHARE), QUESTION_BODY_TOKENS)
        if asked
        else int(budget_tokens * BODY_SHARE),
    )
    plan: list[_Entry] = []
    if complete_question:  # as the loop packed them: the answer was read from exactly these
        plan += [_Entry(item=it, cap=budget_tokens, source="the loop's answer") for it in head]
    else:
        plan += [
            _body(store, it, budget_tokens, "the first hit", focus, int(budget_tokens * HEAD_SHARE)) for it in head
        ]
    groups = [dataclasses.replace(g, cap=cap) for g in direct_groups]
    groups += [dataclasses.replace(g, cap=cap + int(budget_tokens * EXTRA_SHARE)) for g in link_groups + extra_groups]
    ranks = {id(it): i + 2 for i, it in enumerate(rest)}
    collab_cap = max(MIN_TRIM_TOKENS, int(budget_tokens * COLLABORATOR_SHARE))
    if asked:
        collab_cap = min(collab_cap, body_cap)  # (a question's collaborators are read in part, as its hits)
    bodies: list[_Entry] = []
    for it in _interleave(rest, named, collab):
        if id(it) in ranks:
            bodies.append(_body(store, it, budget_tokens, f"hit {ranks[id(it)]}", focus, body_cap))
        elif it.provenance.startswith("subject"):
            bodies.append(_body(store, it, budget_tokens, "subject", focus, body_cap))
        else:
            bodies.append(_body(store, it, budget_tokens, "collaborator", focus, collab_cap))
    # a change needs the sites it reaches early; a question about behaviour is answered by bodies,
    # whole, before one-line sites (the sites then take what is left)
    # (asked as a question: written with a question mark; "When X, let users ..." is a change)
    if asked and not complete_question:
        plan += bodies + [dataclasses.replace(g, cap=budget_tokens) for g in groups]
    else:
        plan += groups + bodies
    plan += [dataclasses.replace(g, cap=budget_tokens) for g in test_groups]
    kept, left = _pack(plan, budget_tokens, focus)
    order = [e.item for e in kept if not e.item.relation] + [e.item for e in kept if e.item.relation]
    stats = dataclasses.replace(
        answer.stats, context_tokens=sum(c.tokens for c in order), sites=sum(1 for c in order if c.relation)
    )
    answer = dataclasses.replace(answer, context=tuple(order), stats=stats)
    answer = _recheck(recheck, query, answer)
    return TaskContext(
        answer=answer,
        subjects=tuple(s.qualname for s in subjects),
        sites_total=len(direct),
        sites_sent=_sites_sent(kept, direct),
        manifest_complete=manifest.complete,
        left_out=tuple(left),
    )


def _linked(store: SqliteStore, root: Path, query: str, items: list[ContextItem]) -> list[Site]:
    """What the task and its focus code link to without an import: settings' definitions, the
    other spellings of a string key, the classes of a family named by role."""
    from codehop.answer.links import family_sites, key_sites, setting_sites

    chunks = [it.chunk for it in items if not it.relation]
    return (
        setting_sites(store, root, query, chunks)
        + key_sites(store, root, query, chunks)
        + family_sites(store, root, query)
    )


def _focus(query: str, subjects: tuple[Subject, ...]) -> Focus:
    """The names the task marks as code (its subjects, backticked and UPPER_CASE words) and its terms."""
    from codehop.answer.retrieval import query_terms

    names = {s.qualname.rpartition(".")[2] for s in subjects}
    names |= {w for w in _CODE_WORD.findall(query) if "_" in w or w.isupper() or any(c.isupper() for c in w[1:])}
    terms = set(query_terms(query))
    terms |= {t[:-1] for t in terms if t.endswith("s") and not t.endswith("ss") and len(t) > 3}  # returns: return
    return Focus(names=frozenset(n for n in names if n), terms=frozenset(terms))


def _body(store: SqliteStore, item: ContextItem, budget_tokens: int, source: str, focus: Focus, share: int) -> _Entry:
    """A body as a plan entry, trimmed to `share` when it is bigger (its head and matched lines)."""
    whole = _whole(store, item)
    if whole is None:
        return _Entry(item=item, cap=budget_tokens, source=source)
    cut = trim(whole, share, focus)
    if cut is not None:
        item = dataclasses.replace(
            item,
            chunk=cut.chunk,
            tokens=count_tokens(cut.chunk.text),
            truncated=True,
            provenance=f"{item.provenance}; {cut.stated(whole)}",
        )
    return _Entry(item=item, cap=budget_tokens, source=source, whole=whole)


def _whole(store: SqliteStore, item: ContextItem) -> Chunk | None:
    """The stored chunk an item holds, whole: itself, or the chunk a fitted copy was cut from."""
    c = item.chunk
    if not item.truncated:
        return c
    found = [
        k
        for k in store.chunks_at(c.rel_path, c.start_line)
        if k.start_line == c.start_line and k.qualname == c.qualname
    ]
    return found[0] if found else None


def _grouped(sites: list[Site], skip: set[str] | None = None, source: str = "site") -> list[_Entry]:
    """Sites grouped per file, in order of each file's first site: one compact manifest entry each
    (`path:5,12,40  <first line>  [calls fetch_record; imports Record]`)."""
    per_file: dict[str, list[Site]] = {}
    for s in sites:
        per_file.setdefault(s.rel_path, []).append(s)
    out = []
    for rel_path, group in per_file.items():
        if skip and rel_path in skip:
            continue
        out.append(_Entry(item=_group_item(group), cap=0, source=source, sites=len(group)))
    return out


def _group_item(group: list[Site]) -> ContextItem:
    first = group[0]
    if len(group) == 1:
        return _site_item(first)
    lines = [s.line for s in group]
    shown = ",".join(str(n) for n in lines[:MAX_GROUP_LINES]) + (
        f" +{len(lines) - MAX_GROUP_LINES} more" if len(lines) > MAX_GROUP_LINES else ""
    )
    kinds: dict[str, list[str]] = {}
    for s in group:
        names = kinds.setdefault(s.relation, [])
        name = s.subject.rpartition(".")[2]
        if name not in names:
            names.append(name)
    what = "; ".join(f"{rel} {', '.join(names)}" for rel, names in kinds.items())
    test = ", test" if first.is_test else ""
    render = f"{first.rel_path}:{shown}  {first.source}  [{what}{test}]"
    return ContextItem(
        chunk=first.chunk(),
        hop=0,
        via=Via.GRAPH,
        provenance=f"site: {render}",
        tokens=count_tokens(render),
        relation=first.relation,
    )


def _pack(plan: list[_Entry], budget_tokens: int, focus: Focus) -> tuple[list[_Entry], list[LeftOut]]:
    """The plan packed once, in order: an entry is kept when it is new (none of its keys kept,
    its lines not inside a kept body) and fits its cap and the budget; a body that does not fit
    is trimmed to the room left when there is some; the rest is named with its reason."""
    kept: list[_Entry] = []
    over: list[tuple[ContextItem, str]] = []
    have: set[object] = set()
    used = 0
    for e in plan:
        item = e.item
        if _keys(item) & have or _covered([k.item for k in kept], item):
            continue
        room = min(e.cap, budget_tokens) - used
        if item.tokens > room and not item.relation and e.whole is not None and room >= MIN_TRIM_TOKENS:
            cut = trim(e.whole, room, focus)
            if cut is not None and count_tokens(cut.chunk.text) <= room:
                prov = item.provenance.split("; trimmed: ")[0]
                item = dataclasses.replace(
                    item,
                    chunk=cut.chunk,
                    tokens=count_tokens(cut.chunk.text),
                    truncated=True,
                    provenance=f"{prov}; {cut.stated(e.whole)}",
                )
        if item.tokens <= room:
            kept.append(dataclasses.replace(e, item=item))
            have |= _keys(item)
            used += item.tokens
        else:
            over.append((item, f"{e.source}: {item.tokens} tokens, {max(0, room)} left"))
    # a left-out item that was later kept in another form is not left out
    names = {k.item.chunk.qualname for k in kept if not k.item.relation} | {
        f"{k.item.chunk.rel_path}:{k.item.chunk.start_line}" for k in kept if k.item.relation
    }
    seen: set[str] = set()
    out = []
    for it, reason in over:
        name = f"{it.chunk.rel_path}:{it.chunk.start_line}" if it.relation else it.chunk.qualname
        if name not in names and name not in seen:
            seen.add(name)
            out.append(LeftOut(name=name, tokens=it.tokens, reason=reason))
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
        and not (k.truncated and c.start_line > k.chunk.start_line)  # a trimmed body has gaps
        for k in kept
    )


def _sites_sent(kept: list[_Entry], sites: tuple[Site, ...]) -> int:
    """Sites the agent sees: in a manifest entry sent (all the lines it groups), or inside a body sent."""
    grouped = {(e.item.chunk.rel_path) for e in kept if e.item.relation}
    bodies = [e.item for e in kept if not e.item.relation]
    return sum(
        1
        for s in sites
        if s.rel_path in grouped
        or any(k.chunk.rel_path == s.rel_path and k.chunk.start_line <= s.line <= k.chunk.end_line for k in bodies)
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


def _declarations(store: SqliteStore, subjects: tuple[Subject, ...]) -> list[ContextItem]:
    """The subjects' declarations, whole (the plan trims what is bigger than its share)."""
    out = []
    for s in subjects:
        if s.kind == "module":
            continue
        for chunk in store.chunks_named(s.qualname)[:1]:
            out.append(_graph_item(chunk, f"subject: named as {s.named_as}"))
    return out


def _collaborators(store: SqliteStore, table: SymbolTable, seeds: list[str]) -> list[ContextItem]:
    """Declarations ranked by personalized PageRank from the seeds (callees, types, services), whole."""
    from codehop.navigation.graph_context import GraphContext

    seeds = [s for s in dict.fromkeys(seeds) if s]
    if not seeds:
        return []
    gc = GraphContext(store, table)
    graph = gc.local_graph(seeds, callees=True)
    present = {s: 1.0 for s in seeds if s in graph}
    if not present:
        return []
    out = []
    for n in graph.related(present, limit=COLLABORATORS * 3, method="ppr"):
        chunks = store.chunks_named(n.id)
        if not chunks or str(chunks[0].kind) == "module":
            continue
        chunk = chunks[0]
        why = "; ".join(f"{e.src} -{e.type}-> {e.dst}" for e in n.path)
        out.append(_graph_item(chunk, f"graph: {why}", score=n.score))
        if len(out) >= COLLABORATORS:
            break
    return out


def _callee_reads(store: SqliteStore, seeds: list[str], have: set[str]) -> list[ContextItem]:
    """The module-level values the seeds and their callees read (two steps out: `url_for` calls
    `url_path_for`, which reads `CONVERTOR_TYPES`): names their body uses that their module
    declares or imports from the repository. The index has no edge for such a read."""
    from codehop.kernel.records import BindingKind
    from codehop.navigation.excerpt import slice_chunk

    steps: list[tuple[str, str]] = [(s, "") for s in dict.fromkeys(seeds) if s]
    for seed, _ in list(steps):
        steps += [(e.dst, f"{seed} -{e.type}-> {e.dst}") for e in store.edges_out_of(seed, ("calls", "instantiates"))]
    out: list[ContextItem] = []
    seen = set(have)
    for qual, via in steps[:COLLABORATORS]:
        chunks = store.chunks_named(qual)
        if not chunks or str(chunks[0].kind) == "module":
            continue
        chunk = chunks[0]
        used = set(_CODE_WORD.findall(chunk.text))
        module = store.module_of(chunk.rel_path) or ""
        targets = [e.dst for e in store.edges_out_of(module, ("imports",)) if e.dst.rpartition(".")[2] in used]
        targets += [
            f"{d.scope}.{d.name}"
            for d in store.declarations(chunk.rel_path)
            if d.kind is BindingKind.VALUE and d.scope == module and d.name in used
        ]
        for target in dict.fromkeys(targets):
            if target in seen or target.startswith("?"):
                continue
            scope, _, name = target.rpartition(".")
            b = store.binding(scope, name)
            if b is None or b.kind is not BindingKind.VALUE:
                continue
            seen.add(target)
            held = store.chunks_at(b.rel_path, b.line)
            if not held:
                continue
            # the value's own lines, not the module block that holds them
            found = slice_chunk(held[0], b.line, max(b.line, b.end_line), target)
            path = "; ".join(x for x in (via, f"{qual} -reads-> {target}") if x)
            out.append(_graph_item(found, f"graph: {path}"))
    return out


def _graph_item(chunk: Chunk, provenance: str, score: float = 0.0) -> ContextItem:
    """A chunk the context brings by the graph or by name (not a retrieval hit), counted."""
    return ContextItem(
        chunk=chunk, hop=0, via=Via.GRAPH, provenance=provenance, score=score, tokens=count_tokens(chunk.text)
    )


def _interleave(*lists: list[ContextItem]) -> list[ContextItem]:
    """Round-robin over ranked lists, so no one source takes the whole budget."""
    out: list[ContextItem] = []
    for row in itertools.zip_longest(*lists):
        out.extend(x for x in row if x is not None)
    return out


def _pin(item: dict[str, Any]) -> str:
    """An installed package's item is headed by its pin (`requests==2.34.2 requests/sessions.py:...`)."""
    return f"{item['package']} " if item.get("source") == "environment" and item.get("package") else ""
