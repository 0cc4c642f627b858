"""Answering a navigation question ("what calls X", read by navquestion.py) from the
dependents engine: the sites (path:line and the line of code) in the answer text, their
enclosing chunks as context items after the declaration's own chunk; `complete` only when the
engine walked every relation the question needs and reports nothing cut or hidden (dynamic
dispatch, unresolved sites named like the subject, a value passed around that may be called
later, the budget); otherwise `partial` with the reason.

May import: navquestion, dependents, records, retrieval, excerpt, store, symbols, stdlib.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from codehop.answer.dependents import Dependents, DependentsFinder, Relation, Site
from codehop.answer.excerpt import declaration_chunk, fit
from codehop.answer.navquestion import MAX_SUBJECTS, Intent, NavQuestion, read_question
from codehop.answer.retrieval import count_tokens
from codehop.kernel.records import (
    Answer,
    BindingKind,
    Completeness,
    ContextItem,
    Location,
    State,
    Stats,
    StopReason,
    Via,
)

if TYPE_CHECKING:
    from codehop.index.store import SqliteStore
    from codehop.index.symbols import SymbolTable

# ---- answering ------------------------------------------------------------------------------
_NEEDS: dict[Intent, tuple[Relation, ...]] = {
    Intent.CALLERS: (Relation.CALLS, Relation.USES_INHERITED),
    Intent.USERS: tuple(r for r in Relation if r is not Relation.CALLEE),
    Intent.IMPORTERS: (Relation.IMPORTS, Relation.REEXPORTS),
    Intent.SUBCLASSES: (Relation.INHERITS,),
    Intent.OVERRIDES: (Relation.OVERRIDES,),
}
_EDGE = {
    Relation.CALLS: "calls",
    Relation.USES_INHERITED: "calls",
    Relation.IMPORTS: "imports",
    Relation.REEXPORTS: "reexports",
    Relation.INHERITS: "inherits",
    Relation.OVERRIDES: "overrides",
    Relation.DECORATES: "decorates",
}
_TITLE = {
    Intent.CALLERS: "Callers of",
    Intent.USERS: "Uses of",
    Intent.IMPORTERS: "Importers of",
    Intent.SUBCLASSES: "Subclasses of",
    Intent.OVERRIDES: "Overrides of",
    Intent.CALLEES: "Calls made by",
}


class NavigationAnswerer:
    """Answers navigation questions over one index; `answer` returns None for any other question."""

    def __init__(self, store: SqliteStore, table: SymbolTable, finder: DependentsFinder) -> None:
        self.store = store
        self.table = table
        self.finder = finder

    def answer(self, question: str, budget_tokens: int) -> Answer | None:
        nav = read_question(question)
        if nav is None:
            return None
        subjects = self.subjects(nav)
        if not subjects:
            return None  # the words name nothing here: the ordinary loop reads the question
        return self._answer(question, nav, subjects, budget_tokens)

    # ---- subjects -----------------------------------------------------------------------
    def subjects(self, nav: NavQuestion) -> list[Location]:
        """Declarations the subject words name, best first: `Class.member`, a member of a
        qualifying class or module ("send on BaseTransport"), a dotted qualname, a plain name
        (module-level declarations before class members, library code before tests)."""
        head, *quals = nav.subject_words
        for qual in quals:
            for owner in self._named(qual, classes_or_modules=True):
                hit = self._resolve(f"{owner}.{head}")
                if hit is not None:
                    return [hit]
        found = self._named(head)
        if nav.intent is Intent.OVERRIDES:
            found = [q for q in found if self.table.class_binding(q.rpartition(".")[0]) is not None] or found
        if nav.intent is Intent.SUBCLASSES:
            found = [q for q in found if self.table.class_binding(q) is not None] or found
        out: list[Location] = []
        for q in found:
            loc = self._resolve(q)
            if loc is not None and loc not in out:
                out.append(loc)
        if not out:
            return []
        # a plain name means the best kind of declaration so named: a module-level one before a
        # class member, library code before tests; several of the best kind stay ambiguous
        best = min(self._tier(loc) for loc in out)
        return [loc for loc in out if self._tier(loc) == best][:MAX_SUBJECTS]

    def _tier(self, loc: Location) -> tuple[int, int]:
        from codehop.answer.dependents import is_test_path

        owner = loc.qualname.rpartition(".")[0]
        return int(is_test_path(loc.rel_path)), int(self.table.class_binding(owner) is not None)

    def _named(self, word: str, classes_or_modules: bool = False) -> list[str]:
        """Qualnames the word may name: itself when it resolves, else declarations so named."""
        if "." in word and self._resolve(word) is not None:
            return [word]
        if self.store.module_path(word) is not None:
            return [word]
        head, _, rest = word.partition(".")
        kinds = (
            {BindingKind.CLASS}
            if classes_or_modules
            else {BindingKind.CLASS, BindingKind.FUNCTION, BindingKind.VALUE, BindingKind.ALIAS}
        )
        names = []
        for b in self.store.bindings_named(head, limit=200):
            if b.kind not in kinds:
                continue
            names.append((self._rank(b.scope, b.rel_path), f"{b.scope}.{b.name}"))
        names.sort()
        out = [q if not rest else f"{q}.{rest}" for _r, q in names]
        if classes_or_modules:
            out += [m for m in self.store.modules() if m == word or m.endswith("." + word)]
        return list(dict.fromkeys(out))

    def _rank(self, scope: str, rel_path: str) -> tuple[int, int, int]:
        from codehop.answer.dependents import is_test_path

        is_member = self.table.class_binding(scope) is not None
        return (int(is_test_path(rel_path)), int(is_member), scope.count("."))

    def _resolve(self, dotted: str) -> Location | None:
        res = self.table.resolve(dotted)
        if res is None or res.is_external or not res.target.rel_path:
            return None
        return res.target

    # ---- the answer ---------------------------------------------------------------------------
    def _answer(self, question: str, nav: NavQuestion, subjects: Sequence[Location], budget_tokens: int) -> Answer:
        reasons: list[str] = []
        if len(subjects) > 1:
            reasons.append("the name is ambiguous: " + ", ".join(f"`{s.qualname}`" for s in subjects))
        results: list[Dependents] = []
        for loc in subjects:
            if nav.intent is Intent.CALLEES:
                results.append(self.finder.callees(loc))
            else:
                results.append(
                    self.finder.dependents(
                        loc, relations=_NEEDS[nav.intent], transitive=nav.intent is not Intent.IMPORTERS
                    )
                )
        lines: list[str] = []
        context: list[ContextItem] = []
        used = 0
        have: set[tuple[str, int]] = set()
        listed_all = True
        for loc, found in zip(subjects, results, strict=True):
            decl = declaration_chunk(self.store, loc)
            if decl is not None and (decl.rel_path, decl.start_line) not in have:
                decl = fit(decl, max(64, budget_tokens // 4))
                have.add((decl.rel_path, decl.start_line))
                context.append(
                    ContextItem(
                        chunk=decl, hop=0, via=Via.RESOLVED, provenance="symbol_table", tokens=count_tokens(decl.text)
                    )
                )
                used += count_tokens(decl.text)
            where = f"{loc.rel_path}:{loc.line}"
            lines.append(f"{_TITLE[nav.intent]} `{loc.qualname}` ({where}): {_count(found.sites)}.")
            reasons += [n for n in found.notes if n not in reasons]
            if found.cut:
                reasons.append(f"the list of sites for `{loc.qualname}` was cut at {len(found.sites)}")
            if nav.intent is Intent.CALLERS and not found.sites:
                exported = self.finder.dependents(loc, relations=(Relation.REEXPORTS, Relation.IMPORTS)).sites
                if exported:
                    lines.append(
                        "No calls in the repository; it is imported or re-exported at "
                        + ", ".join(f"{s.rel_path}:{s.line}" for s in exported[:8])
                        + (" …" if len(exported) > 8 else "")
                        + " (callers outside the repository are not seen)."
                    )
            if nav.intent is Intent.CALLERS:
                passed = [s for s in self.finder.dependents(loc, relations=(Relation.READS,)).sites]
                if passed:
                    reasons.append(
                        f"`{loc.qualname.rpartition('.')[2]}` is also passed around as a value "
                        f"({passed[0].rel_path}:{passed[0].line}); calls through it are not traced"
                    )
            for site in found.sites:
                line = _site_line(site)
                if used + count_tokens(line) > budget_tokens:
                    listed_all = False
                    break
                lines.append(line)
                used += count_tokens(line)
            for site in found.sites:
                chunk = self._site_chunk(site)
                if nav.intent is Intent.CALLEES:  # what is called: the callee's declaration
                    callee = self._resolve(site.via)
                    chunk = declaration_chunk(self.store, callee) if callee is not None else None
                if chunk is None or (chunk.rel_path, chunk.start_line) in have:
                    continue
                chunk = fit(chunk, max(48, budget_tokens // 10))
                if used + count_tokens(chunk.text) > budget_tokens:
                    continue
                have.add((chunk.rel_path, chunk.start_line))
                context.append(
                    ContextItem(
                        chunk=chunk,
                        hop=0,
                        via=Via.GRAPH,
                        provenance=self._edge(site, loc),
                        tokens=count_tokens(chunk.text),
                    )
                )
                used += count_tokens(chunk.text)
        if not listed_all:
            reasons.append("the list was cut by the token budget")
        completeness = Completeness.PARTIAL if reasons else Completeness.COMPLETE
        if reasons:
            lines.append("Partial: " + "; ".join(reasons) + ".")
        state = State.COMPLETE if completeness is Completeness.COMPLETE else State.GIVE_UP_PARTIAL
        stats = Stats(
            loops=0, context_tokens=sum(c.tokens for c in context), sites=sum(len(f.sites) for f in results)
        )
        return Answer(
            question=question,
            answer="\n".join(lines),
            completeness=completeness,
            state=state,
            pending=(),
            context=tuple(context),
            hops=(),
            stats=stats,
            stopped_by=StopReason.NONE if state is State.COMPLETE else StopReason.PARTIAL,
        )

    def _edge(self, site: Site, loc: Location) -> str:
        """The provenance of a site's chunk, as graph_context writes it: `graph: src -type-> dst`."""
        if site.relation is Relation.CALLEE:
            kind = "instantiates" if self.table.class_binding(site.via) is not None else "calls"
            return f"graph: {loc.qualname} -{kind}-> {site.via}"
        kind = _EDGE.get(site.relation, "references")
        return f"graph: {site.via or site.scope} -{kind}-> {loc.qualname}"

    def _site_chunk(self, site: Site):  # type: ignore[no-untyped-def]
        chunks = self.store.chunks_at(site.rel_path, site.line)
        return chunks[0] if chunks else None


def _count(sites: Sequence[Site]) -> str:
    if not sites:
        return "no sites found"
    return f"{len(sites)} site{'s' if len(sites) != 1 else ''}"


def _site_line(site: Site) -> str:
    scope = f" in {site.scope}" if site.scope else ""
    via = f" (via {site.via})" if site.via else ""
    test = " [test]" if site.is_test else ""
    return f"- {site.rel_path}:{site.line}: `{site.code}` — {site.relation}{scope}{via}{test}"
