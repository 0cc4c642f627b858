"""Navigation questions: "what calls X", "where is X used", "what subclasses X", "what overrides
X.m", "what imports X", "what does X call" — read from the question's grammar, answered from
codehop.navigation.dependents. Over 500 lines (~800): its reading half moves to reading/ with
the reader of issue 25; the answering half is what stays here.

Reading: the question is cut into clauses; a clause asks a navigation question when it has one
of three shapes around a *relation word* (a verb or noun from `RELATIONS`, a table of the
relations the index holds, keyed by lemma) and a *subject* (a noun phrase the repository
declares):

  asker  [generic noun]  VERB  [fillers]  SUBJECT        what calls X · which classes extend X
  asker  be  SUBJECT  PARTICIPLE                          where is X used · where are X's subclasses defined? (no)
  asker  [be]  [the]  NOUN  of|to|for  SUBJECT            callers of X · what are the subclasses of X
  asker  [generic noun]  do  SUBJECT  VERB                what does X call       (outgoing: callees)
  asker  [generic noun]  be  PARTICIPLE  by  SUBJECT      what is called by X    (outgoing: callees)

An *asker* opens the clause: a wh-word or an imperative (list, find, show, give). Between the
asker and the relation word only generic nouns stand (functions, classes, code, places): a
specific name there ("which decode() does Response.text call") asks for one declaration, not a
list, and is left to the ordinary loop. Anything else returns None and the loop answers.

Answering: the sites (path:line and the line of code) in the answer text, their enclosing
chunks as context items after the declaration's own chunk; `complete` only when the engine
walked every relation the question needs and reports nothing cut or hidden (dynamic dispatch,
unresolved sites named like the subject, a value passed around that may be called later, the
budget); otherwise `partial` with the reason. May import: dependents, records, retrieval,
excerpt (declaration_chunk, fit), store, symbols, stdlib.

Why this module is over 500 lines: it holds the two halves above, reading (the clause shapes
and the `RELATIONS` table they are written against, most of the file) and answering
(`NavigationAnswerer`, about 200 lines). That is its seam: answering can move to its own module
now that the edge names it uses come from the index's one map (`xref_resolve.EDGE_TYPE`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from codehop.answer.orchestrator import MAX_QUESTION_CHARS
from codehop.index.xref_resolve import EDGE_TYPE
from codehop.kernel.records import (
    Answer,
    BindingKind,
    ChunkKind,
    Completeness,
    ContextItem,
    Intent,
    Location,
    State,
    Stats,
    StopReason,
    Via,
    shown_path,
)
from codehop.kernel.tokens import count_tokens
from codehop.navigation.dependents import DependentsFinder
from codehop.navigation.excerpt import declaration_chunk, fit
from codehop.navigation.sites import RELATION_OF, Dependents, Relation, Site
from codehop.reading.question_words import (
    ADVERBS,
    ARTICLES,
    BE,
    CONTEXT_WORDS,
    INTERROGATIVES,
    MEMBER_KIND_WORDS,
    NAME_WORDS,
    OVERRIDE_WORDS,
    REQUESTS,
    STOP,
    USE_WORDS,
    VALUE_WORDS,
    Cues,
)
from graphs import EdgeType

if TYPE_CHECKING:
    from codehop.index.store.sqlite import SqliteStore
    from codehop.index.symbols import SymbolTable

MAX_SUBJECTS = 3  # declarations answered for one ambiguous name


# The relations the index holds: the verb and the nouns that name the same relation, by stem (one
# entry stands for its inflections). Outgoing forms (X calls ...) map to the intent in the second slot.
@dataclass(frozen=True, slots=True)
class _Rel:
    incoming: Intent
    outgoing: Intent | None
    verbs: Cues
    nouns: Cues
    preposition: str = ""  # "inherit from X", "depend on X"
    outgoing_nouns: Cues = Cues(())
    participle: bool = True  # "where is X <verb>ed" asks for the relation


_NONE = Cues(())


def _rel(
    incoming: Intent,
    outgoing: Intent | None,
    verbs: Cues,
    nouns: Cues = _NONE,
    outgoing_nouns: Cues = _NONE,
    *,
    preposition: str = "",
    participle: bool = True,
) -> _Rel:
    """A relation row: an intent's own name is a noun of it ("the callers of X", "X's subclasses",
    "the importers of X"), beside the nouns given."""
    return _Rel(
        incoming,
        outgoing,
        verbs,
        Cues([incoming.value]) | nouns,
        preposition,
        Cues([outgoing.value]) | outgoing_nouns if outgoing else outgoing_nouns,
        participle,
    )


_CALL = Cues(["call"])
_DEPEND = Cues(["depend", "rely"])
_USE = USE_WORDS | Cues(["access"])
_OVERRIDE = OVERRIDE_WORDS | Cues("overriden reimplement overwrite redefine".split())
RELATIONS: tuple[_Rel, ...] = (
    _rel(
        Intent.CALLERS,
        Intent.CALLEES,
        _CALL | Cues(["invoke", "instantiate"]),
        Cues(["call site", "invocation"]),
        outgoing_nouns=_CALL,
    ),
    _rel(Intent.USERS, None, _USE, _USE | Cues(["usage", "consumer"])),
    # ("the dependents of X": the verb's stem)
    _rel(Intent.USERS, None, _DEPEND, _DEPEND, preposition="on", participle=False),
    _rel(Intent.IMPORTERS, None, Cues([Intent.IMPORTERS.value, "reexport"])),  # ("importers": import)
    _rel(
        Intent.SUBCLASSES,
        None,
        Cues([Intent.SUBCLASSES.value, "extend", "specialize"]),  # ("specialise": Cues reads -ise as -ize)
        Cues(["subtype", "descendant", "derived class", "child class", "children"]),
    ),
    _rel(Intent.SUBCLASSES, None, Cues("inherit derive".split()), preposition="from"),
    _rel(Intent.OVERRIDES, None, _OVERRIDE, _OVERRIDE),
    # "where is X implemented?" asks for X's own definition; "the implementations of X" for its overrides
    _rel(Intent.OVERRIDES, None, Cues(["implement"]), Cues((), exact=["implementations"]), participle=False),
)

# the kinds of declaration the index stores ("which functions call X", "the send method on X")
_KINDS = tuple(k.value for k in ChunkKind)
# a wh-word that asks for a thing or a place ("whats" too; not a reason or a time), or an
# imperative: "where is X used", "who calls X", "list the callers of X"
_ASKERS = (
    Cues(w for w in INTERROGATIVES if w.startswith("wh") and not w.startswith(("why", "when")))
    | Cues(["list", "find", "enumerate"])
    | Cues(REQUESTS)
)
_BE = BE | {"gets", "get", "'s", "s"}
_DO = frozenset({"does", "do", "did"})
# words that may stand between the asker and the relation word or around a subject: generic nouns
# and adverbs by stem, and the function words (the reader's stop words, as written) less the
# auxiliaries the shapes read
# where to look ("in the codebase", "anywhere else in the repo"), by stem
_PLACES = CONTEXT_WORDS | Cues("code codebase repo repository project test else".split())
_ADVERBS = ADVERBS  # before the relation word or after the subject ("X actually calls")
_GENERIC = (
    Cues(
        [
            *_KINDS,
            *VALUE_WORDS,
            Intent.TYPE.value,
            *"place part thing everything anything something site us every".split(),
        ],
        exact=STOP - _BE - _DO,
    )
    | _PLACES
    | Cues(_ADVERBS)
)
# the words of a noun phrase around the subject's name: articles, then the kinds it is named by
# (the kinds and the words that name a function or an attribute: "the send method", "the timeout
# setting", "the name X", "the value X")
_FILLERS = ARTICLES | MEMBER_KIND_WORDS | frozenset(_KINDS) | NAME_WORDS | {Intent.VALUE.value, "variable", "symbol"}
_INSIDE = frozenset({"in", "inside", "within"})
_NOUN_LINKS = frozenset({"of", "to", "for", "on"})  # a relation's noun and its subject: "the callers of X"
_QUALIFIERS = _INSIDE | {"on", "of", "from"}
_TOKEN = re.compile(r"`[^`\n]{1,300}`|[A-Za-z_][\w.]*(?:\(\))?|'s\b|[?;!]|\.(?=\s|$)|,")


@dataclass(frozen=True, slots=True, kw_only=True)
class NavQuestion:
    intent: Intent
    subject_words: tuple[str, ...]  # the subject as written, then its qualifiers ("send", "BaseTransport")


def read_question(question: str) -> NavQuestion | None:
    """The navigation question a sentence asks, from its shape; None when it asks something else."""
    words = [w for w in _TOKEN.findall(question[:MAX_QUESTION_CHARS])]
    clauses: list[list[str]] = [[]]
    for w in words:
        if w in ("?", ";", "!", ".", ","):
            clauses.append([])
        elif w.lower() in ("and", "but", "then") and clauses[-1] and clauses[-1][0].lower() in _ASKERS:
            clauses.append([])
        else:
            clauses[-1].append(w)
    for clause in clauses:
        found = _read_clause(clause)
        if found is not None:
            return found
    return None


def _read_clause(words: list[str]) -> NavQuestion | None:
    low = [w.lower().strip("`") for w in words]
    if not low:
        return None
    if low[0] not in _ASKERS:  # a bare noun phrase: "callers of X?"
        return _noun_form(words, low, 0)
    i = 1
    while i < len(low) and low[i] in _GENERIC:  # "which functions ...", "show me all ..."
        i += 1
    if i >= len(low):
        return None
    # asker [generic] VERB [prep] SUBJECT: "what calls X", "which classes inherit from X"
    for rel in RELATIONS:
        if low[i] in rel.verbs and not words[i].startswith("`"):
            j = i + 1
            if rel.preposition and j < len(low) and low[j] == rel.preposition:
                j += 1
            subject = _noun_phrase(words, j)
            if subject:
                return NavQuestion(intent=rel.incoming, subject_words=subject)
    # asker [generic] be|do ...
    if low[i] in _BE or low[i] in _DO:
        aux = low[i]
        j = i + 1
        # noun form: "what are the callers of X", "what are X's subclasses"
        k = j
        while k < len(low) and low[k] in ("the", "all", "its"):
            k += 1
        for rel in RELATIONS:
            noun = _noun_at(low, k, rel.nouns)
            if noun and k + noun < len(low) and low[k + noun] in _NOUN_LINKS:
                subject = _noun_phrase(words, k + noun + 1)
                if subject:
                    return NavQuestion(intent=rel.incoming, subject_words=subject)
        # passive with "by": "what is called by X" (outgoing)
        for rel in RELATIONS:
            if j + 1 < len(low) and rel.participle and low[j] in rel.verbs and low[j + 1] == "by" and rel.outgoing:
                subject = _noun_phrase(words, j + 2)
                if subject:
                    return NavQuestion(intent=rel.outgoing, subject_words=subject)
        subject_end = _phrase_end(words, j)
        if subject_end > j:
            subject = _noun_phrase(words, j)
            at = subject_end
            while at < len(low) and low[at] in _ADVERBS:
                at += 1
            rest = low[at:]
            for rel in RELATIONS:
                if aux in _BE and rest and rel.participle and rest[0] in rel.verbs and _ends_clause(words[at + 1 :]):
                    # "where is X used", "where is X called in the codebase"
                    if subject:
                        return NavQuestion(intent=rel.incoming, subject_words=subject)
                if aux in _DO and rest and rest[0] in rel.verbs and rel.outgoing and len(rest) == 1:
                    # "what does X call" (nothing after the verb: X is the caller)
                    if subject:
                        return NavQuestion(intent=rel.outgoing, subject_words=subject)
        if aux in _DO:
            return _outgoing(words, low, j)
        return None
    # noun form without a verb: "list the callers of X", "find usages of X"
    return _noun_form(words, low, i)


# a verb that takes the relation verb after it: "X ends up calling", "X goes on to call"
_CATENATIVES = Cues(["end up", "go on to", "goes on to"])


def _catenative(low: list[str], k: int) -> int:
    """How many words at `k` form a catenative (0 when none)."""
    return next((n for n in (2, 3) if k + n <= len(low) and " ".join(low[k : k + n]) in _CATENATIVES), 0)


def _outgoing(words: list[str], low: list[str], j: int) -> NavQuestion | None:
    """The outgoing shapes the plain one ("what does X call") leaves out: a subject written as a
    compound ("the werkzeug test Client.get": the last name is the head, the ones before qualify
    it), adverbs or a catenative before the verb ("X actually calls", "X ends up calling") and a
    purpose clause after it ("X calls to build the logger"). Still nothing that names what is
    called ("what does X call Y with" asks about one call, not a list)."""
    k = j
    names: list[str] = []
    while k < len(low) and (low[k] in _FILLERS or low[k] in _GENERIC or _is_name(words[k])):
        if _is_name(words[k]) and low[k] not in _FILLERS and low[k] not in _GENERIC and low[k] not in _ADVERBS:
            if any(low[k] in rel.verbs for rel in RELATIONS) or _catenative(low, k):
                break
            names.append(words[k])
        k += 1
    while k < len(low) and low[k] in _ADVERBS:
        k += 1
    k += _catenative(low, k)
    if not names or not _code_like(names[-1]) or k >= len(low):
        return None  # a plain word as the subject ("what does the client end up calling") stays prose
    names = [_clean(n) for n in names]
    if not all(names):
        return None
    for rel in RELATIONS:
        if rel.outgoing is None or low[k] not in rel.verbs:
            continue
        after = low[k + 1 :]
        # "to build the logger": a verb in prose, not a name written as code
        purpose = len(after) >= 2 and after[0] == "to" and re.fullmatch(r"[a-z]+", words[k + 2]) is not None
        if all(w in _ADVERBS for w in after) or purpose:
            head, *quals = reversed(names)
            return NavQuestion(intent=rel.outgoing, subject_words=(head, *quals))
    return None


def _code_like(word: str) -> bool:
    """Written as code: backticks, a dotted or snake_case name, a capital, a call's `()`."""
    return word.startswith("`") or word.endswith("()") or any(c in word for c in "._") or word != word.lower()


def _noun_form(words: list[str], low: list[str], k: int) -> NavQuestion | None:
    for rel in RELATIONS:
        noun = _noun_at(low, k, rel.outgoing_nouns)
        if noun and rel.outgoing and k + noun < len(low) and low[k + noun] in ("of", "from", "in", "made"):
            subject = _noun_phrase(
                words,
                k + noun + 1 + (low[k + noun] == "made" and k + noun + 1 < len(low) and low[k + noun + 1] == "by"),
            )
            if subject:
                return NavQuestion(intent=rel.outgoing, subject_words=subject)
    for rel in RELATIONS:
        noun = _noun_at(low, k, rel.nouns)
        if noun and k + noun < len(low) and low[k + noun] in _NOUN_LINKS:
            subject = _noun_phrase(words, k + noun + 1)
            if subject:
                return NavQuestion(intent=rel.incoming, subject_words=subject)
    return None


# what may follow "where is X used": prepositions of place, a determiner, where to look
_WHERE = (
    # (an adverb, "all", is dropped before: `_ends_clause`)
    Cues("across throughout anywhere outside elsewhere at".split(), exact=ARTICLES | {"this", "our", "my"})
    | Cues(_INSIDE)
    | _PLACES
)


def _ends_clause(rest: list[str]) -> bool:
    """After "where is X used": nothing more, or only where to look ("in the codebase", "in httpx")."""
    rest = [w for w in rest if w.lower() not in _ADVERBS]
    if not rest:
        return True
    if rest[0].lower() not in _WHERE:
        return False
    return all(w.lower() in _WHERE or (_is_name(w) and i == len(rest) - 1) for i, w in enumerate(rest))


def _noun_at(low: list[str], k: int, nouns: Cues) -> int:
    """How many words at `k` form one of `nouns` (0 when none)."""
    if k + 1 < len(low) and f"{low[k]} {low[k + 1]}" in nouns:
        return 2
    return 1 if k < len(low) and low[k] in nouns else 0


def _phrase_end(words: list[str], j: int) -> int:
    """End of the noun phrase at `j`: fillers, one name, its `'s` and qualifiers."""
    k = j
    while k < len(words) and words[k].lower() in _FILLERS:
        k += 1
    if k >= len(words) or not _is_name(words[k]):
        return j
    k += 1
    while True:
        m = k
        while m < len(words) and words[m].lower() in _FILLERS - ARTICLES:
            m += 1  # "the send method on BaseTransport"
        if not (m + 1 < len(words) and (words[m] == "'s" or words[m].lower() in _QUALIFIERS)):
            break
        n = m + 1
        while n < len(words) and words[n].lower() in _FILLERS and n + 1 < len(words):
            n += 1
        if not _is_name(words[n]):
            break
        k = n + 1
    while k < len(words) and words[k].lower() in _FILLERS - ARTICLES:
        k += 1
    return k


def _noun_phrase(words: list[str], j: int) -> tuple[str, ...]:
    """The subject at `j` and its qualifiers, as written: ("send", "BaseTransport") for
    "the send method on BaseTransport"; () when no name stands there."""
    end = _phrase_end(words, j)
    if end == j:
        return ()
    names: list[str] = []
    possessive = False
    k = j
    while k < end:
        if words[k] == "'s":
            possessive = True
        elif (_is_name(words[k]) and words[k].lower() not in _FILLERS) or words[k].startswith("`"):
            name = _clean(words[k])
            if possessive and names:  # "Shape's describe": the member, then its owner
                names.insert(len(names) - 1, name)
                possessive = False
            elif name:
                names.append(name)
        k += 1
    return tuple(n for n in names if n)


def _is_name(word: str) -> bool:
    if word.startswith("`"):
        return bool(_clean(word))
    return (
        bool(re.fullmatch(r"[A-Za-z_][\w.]*(\(\))?", word))
        and word.lower() not in _QUALIFIERS
        and word.lower() not in STOP  # a function word is never the subject's name ("by", "it", "with")
    )


def _clean(word: str) -> str:
    w = word.strip("`").strip()
    w = re.sub(r"\(.*\)$", "", w).rstrip(".")
    return w if re.fullmatch(r"[A-Za-z_][\w]*(\.[A-Za-z_]\w*)*", w) else ""


# ---- answering ------------------------------------------------------------------------------
MAX_HANDED_ON = 4  # callees read for the base's namesake they hand on to
_NEEDS: dict[Intent, tuple[Relation, ...]] = {
    Intent.CALLERS: (Relation.CALLS, Relation.USES_INHERITED),
    Intent.USERS: tuple(r for r in Relation if r is not Relation.CALLEE),
    Intent.IMPORTERS: (Relation.IMPORTS, Relation.REEXPORTS),
    Intent.SUBCLASSES: (Relation.INHERITS,),
    Intent.OVERRIDES: (Relation.OVERRIDES,),
}
# a site's edge in the graph: the edge of the reference it was read from (the index's one map),
# and the two relations no single reference gives
_EDGE: dict[Relation, EdgeType] = {
    **{rel: EDGE_TYPE[ref] for ref, rel in RELATION_OF.items()},
    Relation.USES_INHERITED: EdgeType.CALLS,
    Relation.OVERRIDES: EdgeType.OVERRIDES,
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
        from codehop.kernel.paths import is_test_path

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
        from codehop.kernel.paths import is_test_path

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
                results.append(self.finder.callees(loc, infer=True))
            else:
                results.append(
                    self.finder.dependents(
                        loc, relations=_NEEDS[nav.intent], transitive=nav.intent is not Intent.IMPORTERS, infer=True
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
            where = f"{shown_path(loc.rel_path)}:{loc.line}"
            lines.append(f"{nav.intent.value.capitalize()} of `{loc.qualname}` ({where}): {_count(found.sites)}.")
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
            # what is called: each callee's declaration, found once for its line and its chunk
            callees = {id(s): self._resolve(s.via) for s in found.sites} if nav.intent is Intent.CALLEES else {}
            if nav.intent is Intent.CALLEES:
                found = replace(found, sites=(*found.sites, *self._handed_on(found.sites, callees)))
                callees.update({id(s): self._resolve(s.via) for s in found.sites if id(s) not in callees})
            for site in found.sites:
                line = _site_line(site)
                if (callee := callees.get(id(site))) is not None:
                    line += f", declared at {callee.rel_path}:{callee.line}"
                if used + count_tokens(line) > budget_tokens:
                    listed_all = False
                    break
                lines.append(line)
                used += count_tokens(line)
            for site in found.sites:
                chunk = self._site_chunk(site)
                if nav.intent is Intent.CALLEES:  # what is called: the callee's declaration
                    callee = callees[id(site)]
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
        head = nav.subject_words[0]
        plain = head.islower() and head.isalpha() and f"`{head}" not in question and f"{head}(" not in question
        if not any(r.sites for r in results) and plain:
            # (an ordinary word matched one name: with nothing found, nothing says it was the subject)
            reasons.append(f"the subject was read from the plain word '{head}', and nothing was found for it")
        completeness = Completeness.PARTIAL if reasons else Completeness.COMPLETE
        if reasons:
            lines.append("Partial: " + "; ".join(reasons) + ".")
        state = State.COMPLETE if completeness is Completeness.COMPLETE else State.GIVE_UP_PARTIAL
        stats = Stats(loops=0, context_tokens=sum(c.tokens for c in context), sites=sum(len(f.sites) for f in results))
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

    def _handed_on(self, sites: Sequence[Site], callees: dict[int, Location | None]) -> list[Site]:
        """The base's namesake a callee hands its work on to (`super().m(...)` in an override of
        `m`): what is called ends up there too ("what does `info` end up calling": its
        `_proxy_to_logger`, and the base's `_proxy_to_logger` that one calls)."""
        out: list[Site] = []
        seen = {s.via for s in sites}
        for site in sites[:MAX_HANDED_ON]:
            callee = callees.get(id(site))
            if callee is None or self.table.class_binding(callee.qualname.rpartition(".")[0]) is None:
                continue
            name = callee.qualname.rpartition(".")[2]
            for s in self.finder.callees(callee, infer=True).sites:
                if s.via.rpartition(".")[2] == name and s.via != callee.qualname and s.via not in seen:
                    seen.add(s.via)
                    out.append(s)
        return out

    def _edge(self, site: Site, loc: Location) -> str:
        """The provenance of a site's chunk, as graph_context writes it: `graph: src -type-> dst`."""
        if site.relation is Relation.CALLEE:
            kind = EdgeType.INSTANTIATES if self.table.class_binding(site.via) is not None else EdgeType.CALLS
            return f"graph: {loc.qualname} -{kind}-> {site.via}"
        kind = _EDGE.get(site.relation, EdgeType.REFERENCES)
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
