"""Context for a task: what an agent should read, ready to paste; and what uses a symbol.

`build_context` runs the navigator (the same loop as `ask`), then adds the
declarations the focus code depends on (the index's resolved edges out of the
top context items), so a task that touches `handle` also brings what `handle`
calls. Only structure chooses what is added: edges and cross-references the
indexer resolved inside the repository; chunk text never does.
`render_markdown` turns an Answer into a prompt section; `dependents` lists
the sites that use a declaration (importers, re-exporters, callers,
subclasses, overriders).

May import: app (wiring), orchestrator, records, retrieval, store, errors,
stdlib. SQL here is read-only and in store.py's style (moves there later).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from codehop.errors import UsageError
from codehop.records import Answer, ContextItem, Resolution, Via

if TYPE_CHECKING:
    from codehop.app import App
    from codehop.store import SqliteStore

FOCUS_ITEMS = 3  # the top context items whose dependencies are worth reading too
MAX_DEPENDENCIES = 8
MAX_USERS = 6  # callers / subclasses of the subject added for a task
# edge types that make a declaration a dependency of the code that holds the edge
DEPENDENCY_EDGES = ("calls", "instantiates", "inherits", "decorates", "references", "imports", "overrides")
# structural edges that are not uses (a module "contains" its classes)
_NOT_A_USE = ("contains",)


# ---- build_context ---------------------------------------------------------------
def build_context(app: App, query: str, *, budget_tokens: int = 2000, max_loops: int = 1) -> Answer:
    """The Answer for `query` (answer text may be empty for a task) with its dependencies added.

    Items the loop chose stay first and keep their provenance; each dependency
    follows the item it came from (`via: graph`, provenance `graph: <edge path>` as
    graph_context writes it), and
    low-ranked retrieval items make room for them within `budget_tokens`.
    """
    from codehop.orchestrator import Limits
    from codehop.records import Completeness

    answer = app.navigator().ask(query, Limits(max_loops=max_loops, budget_tokens=budget_tokens))
    context = with_dependencies(app, answer.context, budget_tokens)
    if context == list(answer.context):
        return answer
    if answer.completeness is Completeness.COMPLETE:
        # honesty holds for the context we hand over: if making room for dependencies pushed
        # out the declaration that answered, hand over the loop's own context instead
        recheck = app.generator("offline").generate(query, context, {})
        if recheck.completeness is not Completeness.COMPLETE:
            return answer
    stats = dict(answer.stats)
    stats["context_tokens"] = sum(c.tokens for c in context)
    stats["dependencies"] = sum(1 for c in context if c not in answer.context)
    return dataclasses.replace(answer, context=tuple(context), stats=stats)


def with_dependencies(app: App, items: Iterable[ContextItem], budget_tokens: int) -> list[ContextItem]:
    """`items` with the declarations their top entries depend on, fitted to the budget."""
    from codehop.orchestrator import declaration_chunk, fit
    from codehop.retrieval import count_tokens

    items = list(items)
    have: set[object] = {(c.chunk.rel_path, c.chunk.start_line) for c in items}
    have |= {c.chunk.chunk_id for c in items}
    focus = items[:FOCUS_ITEMS]
    added: dict[int, list[ContextItem]] = {}  # index of the source item -> its dependencies
    count = 0
    for i, item in enumerate(focus):
        for src, dst, etype in _edges_out(app.store, item.chunk.rel_path, item.chunk.start_line, item.chunk.end_line):
            if count >= MAX_DEPENDENCIES:
                break
            res = app.table.resolve(dst)
            if res is None or res.is_external:
                continue
            chunk = declaration_chunk(app.store, res.target)
            if chunk is None or chunk.chunk_id in have or (chunk.rel_path, chunk.start_line) in have:
                continue
            chunk = fit(chunk, max(64, budget_tokens // 4))
            have.update({chunk.chunk_id, (chunk.rel_path, chunk.start_line)})
            added.setdefault(i, []).append(
                ContextItem(
                    chunk=chunk,
                    hop=item.hop,
                    via=Via.GRAPH,
                    provenance=f"graph: {src} -{etype}-> {dst}",
                    tokens=count_tokens(chunk.text),
                )
            )
            count += 1
    # what uses the declaration the answer is about (callers, subclasses, overriders): the places
    # a change to it must also touch, the hidden dependency a task does not name
    subject = next((i for i, c in enumerate(items) if c.via is Via.RESOLVED), 0) if items else -1
    users = 0
    for src, etype, rel, line in (_edges_into(app.store, items[subject].chunk.qualname) if subject >= 0 else []):
        if users >= MAX_USERS:
            break
        at = app.store.chunks_at(rel, line)
        if not at or at[0].chunk_id in have or (at[0].rel_path, at[0].start_line) in have:
            continue
        chunk = fit(at[0], max(64, budget_tokens // 8))
        have.update({chunk.chunk_id, (chunk.rel_path, chunk.start_line)})
        added.setdefault(subject, []).append(
            ContextItem(chunk=chunk, hop=items[subject].hop, via=Via.GRAPH,
                        provenance=f"graph: {src} -{etype}-> {items[subject].chunk.qualname}",
                        tokens=count_tokens(chunk.text)))
        users += 1
    if not added:
        return items
    interleaved: list[ContextItem] = []
    for i, item in enumerate(items):
        interleaved.append(item)
        interleaved.extend(added.get(i, ()))
    # what the loop chose first, then its fetches, then dependencies, then the rest of retrieval
    deps = [c for i in sorted(added) for c in added[i]]
    fetched = [c for c in items[FOCUS_ITEMS:] if c.via is Via.RESOLVED]
    rest = [c for c in items[FOCUS_ITEMS:] if c.via is not Via.RESOLVED]
    kept: set[int] = set()
    used = 0
    for item in focus + fetched + deps + rest:
        if used + item.tokens <= budget_tokens:
            kept.add(id(item))
            used += item.tokens
    return [c for c in interleaved if id(c) in kept]


def _edges_out(store: SqliteStore, rel_path: str, start_line: int, end_line: int) -> list[tuple[str, str, str]]:
    """(src, dst, type) of resolved dependency edges whose site lies in the span, in source order."""
    marks = ",".join("?" * len(DEPENDENCY_EDGES))
    rows = store.conn.execute(
        f"SELECT src, dst, type FROM edges WHERE rel_path=? AND line BETWEEN ? AND ? AND resolved=1"
        f" AND type IN ({marks}) ORDER BY line",
        (rel_path, start_line, end_line, *DEPENDENCY_EDGES),
    ).fetchall()
    seen: set[str] = set()
    out = []
    for src, dst, etype in rows:
        if dst not in seen:
            seen.add(dst)
            out.append((src, dst, etype))
    return out


# ---- render_markdown ----------------------------------------------------------------
def render_markdown(answer: Answer | Mapping[str, Any]) -> str:
    """A prompt section: a header with state and completeness, then each item as a fenced block.

    Render from the Answer: its items carry the chunk text. A dict (the JSON
    contract) has no text, so its items get headers only, unless an item
    carries a `text` key.
    """
    if isinstance(answer, Answer):
        data = answer.to_dict()
        texts: list[str | None] = [c.chunk.text for c in answer.context]
    else:
        data = dict(answer)
        texts = [c.get("text") for c in data.get("context", [])]
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
    for item, text in zip(items, texts, strict=True):
        lines += [
            "",
            f"### {item['path']}:{item['start_line']}-{item['end_line']} — {item['qualname']} "
            f"({item['via']}, {item['provenance']}, hop {item['hop']})",
        ]
        if text is not None:
            fence = _fence(text)
            lines += [f"{fence}python", text.rstrip("\n"), fence]
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
    """What uses `symbol` (codehop.dependents does the walk): importers, re-exporters, aliases,
    callers through all of those, subclasses, overriders, uses of an inherited member on a
    subclass, reads. Each item: {path, line, ref_type, anchor_text, scope, relation, col, code,
    is_test}, in path/line order."""
    from codehop.dependents import DependentsFinder

    target = declaration(app, symbol).target
    found = DependentsFinder(app.store, app.table, app.root).dependents(target, transitive=True)
    return [
        {"path": s.rel_path, "line": s.line, "ref_type": _REF_TYPE.get(str(s.relation), "other"),
         "anchor_text": s.anchor_text, "scope": s.scope, "relation": str(s.relation), "col": s.col,
         "code": s.code, "is_test": s.is_test}
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


def _edges_into(store: SqliteStore, qualname: str) -> list[tuple[str, str, str, int]]:
    """(src, type, rel_path, line) of resolved edges into `qualname` that are uses (read-only)."""
    marks = ",".join("?" * len(_NOT_A_USE))
    return [
        (r[0], r[1], r[2], r[3])
        for r in store.conn.execute(
            "SELECT src, type, rel_path, line FROM edges WHERE dst=? AND resolved=1"
            f" AND type NOT IN ({marks}) ORDER BY rel_path, line",
            (qualname, *_NOT_A_USE),
        )
    ]
