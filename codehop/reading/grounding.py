"""Grounding a question's words in the code: which declarations they describe, by evidence.

A declaration's terms are derived from its code at index time (`index/terms.py`: its name split
and stemmed, its qualname path, its parameters, its docstring's first sentence, the names it
assigns); the question's words are normalised the same way, and a short identifier part the
repository uses stands for a word it abbreviates by rule (`delim` for "delimiter", `nl` for
"newline"). The store ranks declarations by those terms (`SqliteStore.term_hits`); here the
ranking is weighed by the evidence a subject needs:

- its *name* must be matched (a docstring or a path alone suggests, it does not name);
- the more of its name the question spells, the better (`got_registered_once` for "registered
  once" beats a `register` that matches one word of many);
- a kind the question names ("the method that ...") must agree, and a possessive owner narrows;
- only the repository's own index is searched (installed code is reached by the hop);
- it is a subject only with a clear margin over the next candidate, and when it explains most of
  what the question says (each word weighed by how much it tells in this repository); otherwise
  the candidates that came close are kept, for the answer to name;
- a class the words name is narrowed to the member the rest of its words ask of, when one member
  clearly explains them (by its name, or by what its body raises and says then).

An ordinary word never becomes a subject by matching one global name alone: one matched word is
evidence only when it is the declaration's whole name and another word of the question is
explained by the declaration too.
May import: records, index.terms, store, stdlib.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from codehop.index.terms import abbreviates, name_parts, name_terms, stem, text_terms
from codehop.kernel.paths import is_test_path
from codehop.kernel.records import BindingKind, ChunkKind, Intent, Question, TermHit
from codehop.reading.intent import KIND_WORDS, cue_stems
from codehop.reading.question_words import STOP, tokenize
from codehop.reading.signatures import raised_text

if TYPE_CHECKING:
    from codehop.index.store.sqlite import SqliteStore

MAX_TERMS = 16  # a question's terms, in units of the store's query cap (it asks the rarest 16)
MARGIN = 1.4  # a subject's weight over the next candidate's
MAX_WORD = 32  # a longer "word" is not split into words (reading stays linear)
MAX_MENTIONS = 64  # mentions looked up to tell whether the question names this repository's code
COVER = 0.5  # share of the describing words a subject's name must explain
CLOSE = 0.6  # a candidate within this share of the best "came close"
MAX_RAISE_READ = 60  # members of a class whose raise statements are read to narrow it
HOW_CANDIDATES = 8  # candidates whose callees are read for a "how" question
_KIND_STEMS = frozenset(KIND_WORDS)  # (keyed by stem)
# the kinds of hit a kind the question names admits: the index's kinds by their enums (`TermHit.kind`)
_C, _B = ChunkKind, BindingKind
_KIND_OF_HIT: dict[str, frozenset[str]] = {
    _C.CLASS: frozenset({_C.CLASS}),
    _C.METHOD: frozenset({_C.METHOD, _C.FUNCTION}),
    _C.FUNCTION: frozenset({_C.FUNCTION, _C.METHOD}),
    "attribute": frozenset({_B.VALUE, _B.ALIAS, "attribute", _C.METHOD}),  # a property is a method
    _C.MODULE: frozenset({_C.MODULE}),
    "exception": frozenset({_C.CLASS}),
}
# stems an exception class is named by: the words that name the kind ("error", "exception"), and warnings
_EXCEPTION_TERMS = frozenset(s for s, kind in KIND_WORDS.items() if kind == "exception") | {stem("warning")}


@dataclass(frozen=True, slots=True, kw_only=True)
class Grounded:
    hit: TermHit
    weight: float
    spelt: float  # share of its name terms the question matched
    explained: frozenset[str] = frozenset()  # the question's words its name, path (or callees) explain


@dataclass(frozen=True, slots=True, kw_only=True)
class Grounding:
    subjects: tuple[Grounded, ...] = ()  # declarations the words name, with a clear margin
    close: tuple[Grounded, ...] = ()  # what came close, best first (subjects included)
    candidates: tuple[Grounded, ...] = ()  # every declaration the words matched by name, best first
    terms: tuple[str, ...] = ()
    unexplained: tuple[str, ...] = ()  # describing words the best candidate's name does not explain
    words: tuple[_Word, ...] = ()  # the question's describing words, as `question_terms` read them

    @property
    def ranked(self) -> tuple[TermHit, ...]:
        return tuple(g.hit for g in self.candidates)


@dataclass(frozen=True, slots=True)
class _Word:
    """A describing word and the terms that stand for it: its forms (stem, the stems of the words
    it runs together, the index's other forms of the same word) and the repository's abbreviations
    of it (weaker evidence)."""

    text: str
    forms: frozenset[str]
    abbreviations: frozenset[str]
    counts: bool  # in the share a subject must explain (the intent's own words are not)
    acronym: bool = False  # written in capitals ("XML"): a name, even where the repository has none


def question_terms(q: Question, store: SqliteStore) -> tuple[_Word, ...]:
    cues = cue_stems()
    out: list[_Word] = []
    n = 0
    relation = _relation_verb(q.text)
    for written in q.words:
        w = written.lower()
        if w == relation:
            continue  # ("which function calls the helper ...": what is asked of the helper, not its name)
        if len(w) > MAX_WORD or n >= 3 * MAX_TERMS:
            continue  # (a "word" of 100 kB is no word: reading stays linear)
        s = stem(w)
        if s in _KIND_STEMS:
            continue
        forms = [s, *(stem(p) for p in name_parts(w) if p != w)]
        forms += [v for f in forms[:1] for v in store.term_variants(f)]
        abbrevs: list[str] = []
        if len(w) >= 4:
            abbrevs = [p for p in _initials(store).get(w[0], ()) if p != w and abbreviates(p, w)][:3]
            if any(len(p) == 2 for p in abbrevs) and store.term_rarity([s]).get(s):
                # two letters stand for a word only where the repository does not spell it out
                # (`nl` for "newline" where no name says "newline"; not `ec` for "encode" beside
                # an `encode`)
                abbrevs = [p for p in abbrevs if len(p) > 2]
        out.append(
            _Word(w, frozenset(forms), frozenset(abbrevs) - set(forms), counts=s not in cues, acronym=written.isupper())
        )
        n += len(forms) + len(abbrevs)
    for run, acronym in _acronyms(q.text, store):
        # "a least-recently-used cache": the words a name part of the repository abbreviates by
        # their initials (`lru`) are that part, one word, and no longer each a word of their own
        out = [w for w in out if w.text not in run]
        out.append(_Word(" ".join(run), frozenset({acronym}), frozenset(), counts=True, acronym=True))
    if q.intent is Intent.VALUE and not any("default" in w.forms for w in out):
        # (a value asked without the word, "what storage does it use if I don't pass one?": code
        # spells what applies then `default_...`; the cue matches, it explains nothing by itself)
        out.append(_Word("default", frozenset({"default"}), frozenset(), counts=False, acronym=False))
    return tuple(out)


def _relation_verb(text: str) -> str:
    """The verb right after "which/what <kind>" that opens a question ("which function calls ...",
    "what class uses ..."): the relation asked, no word of the subject's description."""
    tokens = [t for t in tokenize(text[:200]) if t.word][:3]
    if len(tokens) == 3 and tokens[0].low in ("which", "what") and stem(tokens[1].low) in _KIND_STEMS:
        if stem(tokens[2].low) in cue_stems():
            return tokens[2].low
    return ""


MAX_ACRONYM = 5  # words whose initials may spell one name part


def _acronyms(text: str, store: SqliteStore) -> list[tuple[tuple[str, ...], str]]:
    """Runs of three to five words, written one after another, whose initials spell a name part
    of the repository that is no dictionary word ("first-in-first-out" -> `fifo`, "time to live"
    -> `ttl`): (the run's words, the part), the longest run first, runs not overlapping. Linear in
    the question's length (a window of at most five words)."""
    words = [t.low for t in tokenize(text[:4096]) if t.word and "." not in t.text][: 3 * MAX_TERMS]
    parts = store.name_part_vocabulary()
    out: list[tuple[tuple[str, ...], str]] = []
    i = 0
    while i < len(words):
        for k in range(min(MAX_ACRONYM, len(words) - i), 2, -1):
            run = words[i : i + k]
            initials = "".join(w[0] for w in run)
            # (a run opens with a word of its own and holds no letter cut from a contraction: "what's
            # the default" is no `std`)
            if initials in parts and run[0] not in STOP and min(map(len, run)) > 1:
                out.append((tuple(words[i : i + k]), initials))
                i += k
                break
        else:
            i += 1
    return out


_BUCKETS: dict[tuple[int, object], dict[str, tuple[str, ...]]] = {}


def _initials(store: SqliteStore) -> dict[str, tuple[str, ...]]:
    """The repository's non-word name parts by first letter (an abbreviation keeps its first)."""
    key = (id(store), store.data_version())
    got = _BUCKETS.get(key)
    if got is None:
        _BUCKETS.clear()
        by: dict[str, list[str]] = {}
        for p in sorted(store.name_part_vocabulary()):
            by.setdefault(p[0], []).append(p)
        got = _BUCKETS[key] = {k: tuple(v) for k, v in by.items()}
    return got


_MEMO: dict[tuple[int, object, Question], Grounding] = {}
_MEMO_SIZE = 32


def ground(q: Question, store: SqliteStore) -> Grounding:
    """The question grounded once per index version: retrieval and the reader ask alike."""
    key = (id(store), store.data_version(), q)
    hit = _MEMO.get(key)
    if hit is None:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.pop(next(iter(_MEMO)))
        hit = _MEMO[key] = _ground(q, store)
    return hit


def _ground(q: Question, store: SqliteStore, *, limit: int = 40) -> Grounding:
    words = question_terms(q, store)
    terms = _terms_of(words)
    if not terms:
        return Grounding(words=words)
    hits = store.term_hits(terms, limit=limit)
    # how a body does something is told by its name and what it calls, not by its docstring
    behaviour = q.intent in (Intent.HOW, Intent.WHY, Intent.CALLEES)
    weighed = [_weigh(h, q, words, described=not behaviour) for h in hits]
    if behaviour:
        weighed = [_with_callees(g, words, store) if i < HOW_CANDIDATES else g for i, g in enumerate(weighed)]
    weighed = sorted((g for g in weighed if g.weight > 0), key=lambda g: -g.weight)
    if not weighed:
        return Grounding(terms=terms, words=words)
    best = _declared_first(store, weighed)
    lead = weighed[0].weight  # (the weight of what the words match best, whichever namesake answers)
    close = tuple(g for g in weighed if g.weight >= lead * CLOSE)[:8]
    second = next(
        (g for g in weighed[1:] if not _within(g.hit, best.hit) and not _extends(store, g.hit, best.hit)), None
    )
    tells, top = _tells(words, terms, store)
    # (a class declared twice, one per platform: the members of each)
    twins = [g.hit for g in weighed if g.hit.qualname == best.hit.qualname and g.hit.kind == "class"]
    narrowed = _narrowed(store, q, best, words, tells, twins)
    if narrowed is None and behaviour:
        narrowed = _narrowed_callee(store, best, words, tells)
    if narrowed is not None:
        # (the member's words add to the class's evidence, as callees do: `_with_callees`)
        lead *= 1 + 0.25 * len(narrowed.explained - best.explained)
    clear = second is None or lead >= second.weight * MARGIN
    # one matched word is a name only when it is all of the name (an exception asked for, and one
    # named `...Error`: the kind word is a part of the name too)
    kind_part = "exception" in q.qualifiers and bool(_EXCEPTION_TERMS & set(best.hit.name_terms))
    # or it is all of the name and another word of the question is explained by the declaration too
    # (its class, its docstring, its callees): one word matching one name alone is no evidence
    # (or what the words narrow it to: its member, its callee)
    said = (narrowed or best).explained
    named = len(set(best.hit.matched)) + kind_part >= 2 or (best.spelt >= 1.0 and len(said) >= 2)
    # and the subject explains most of what the question says of it ("shake an XML document" is not
    # answered by a `shake` that knows nothing of XML)
    # weighed by how much each word tells here: a word every declaration has ("get", "use") adds
    # little, a word only the subject has adds much; a word the repository never uses tells nothing
    # of it ("passed", "pick": the question's own words), unless it is a name in capitals ("XML")
    if narrowed is not None:
        best = narrowed  # (its margin and its name were the class's: the words named the class)
    # a word none of the candidates explains is the question's framing ("passed", "smallest"), not
    # evidence against the best: only what some declaration here explains is asked of the best
    explainable = {e for g in weighed for e in g.explained} | {w.text for w in words if w.acronym}
    # and, at half its weight, a word any declaration the words found holds in its terms though no
    # name they matched says it ("registered", "entry point" of the code; "passed" may be framing)
    found = {t for h in hits for t in h.explained}
    weight = {w.text: tells[w.text] * (1.0 if w.text in explainable else 0.5) for w in words}
    explainable |= {w.text for w in words if (w.forms | w.abbreviations) & found}
    counted = [w.text for w in words if w.counts and w.text in explainable]
    unexplained = tuple(w for w in counted if w not in best.explained)
    # (the answer names every describing word the best leaves unexplained, framing words too)
    # most telling first (a word the repository never uses tells most of what is missing)
    unsaid = tuple(
        sorted(
            (w.text for w in words if w.counts and w.text not in best.explained),
            key=lambda w: -(tells[w] or 2 * top),
        )
    )
    # a word the repository never uses, written where the others describe the subject ("wires",
    # "marked"), is framing or a description the code does not share: it counts against the best
    # at half the least a word here tells (`_unknown`)
    unknown = _unknown(words, tells, best)
    told = sum(weight[w] for w in counted) + unknown
    covers = told > 0 and told - sum(weight[w] for w in unexplained) - unknown >= COVER * told
    subjects = (best,) if clear and named and covers else ()
    # (what the words narrow the best to is read right after it, a subject or not: the context holds it)
    candidates = weighed[:16]
    if narrowed is not None and all(_at(g.hit) != _at(narrowed.hit) for g in candidates):
        candidates.insert(1, narrowed)
    return Grounding(
        subjects=subjects, close=close, candidates=tuple(candidates), terms=terms, unexplained=unsaid, words=words
    )


def _unknown(words: tuple[_Word, ...], tells: dict[str, float], best: Grounded) -> float:
    """The weight of the describing words the repository never uses and the best does not explain:
    each at half the least a known word tells."""
    known = [t for t in tells.values() if t > 0]
    if not known:
        return 0.0
    n = sum(1 for w in words if w.counts and not w.acronym and not tells[w.text] and w.text not in best.explained)
    return n * min(known) / 2


def _narrowed(
    store: SqliteStore,
    q: Question,
    best: Grounded,
    words: tuple[_Word, ...],
    tells: dict[str, float],
    twins: Sequence[TermHit] = (),
) -> Grounded | None:
    """A class the words name, narrowed to the one member the rest of its words ask of ("what
    is raised when you evict an item from an empty first-in-first-out cache": `FIFOCache`, then
    its `popitem`, named by "item" and raising "... is empty"): the member's name, or what its
    body raises and the messages it says then ("doesn't support flock"), must explain one of
    those words, and it must tell clearly more of them than any other member. A class declared
    once per platform (`twins`) is narrowed through the members of each."""
    if best.hit.kind != "class":
        return None
    # (the words its name does not say: a word the class holds only through a member's name, its
    # `separator = "."`, asks of that member)
    names = set(best.hit.name_terms) or {t for w in words if w.text in best.explained for t in w.forms}
    left = [w for w in words if w.counts and not (w.forms | w.abbreviations) & names]
    if not left:
        return None
    # (a word no declaration's terms hold, said by a raise statement's message, tells as much as any)
    weight = {w.text: tells.get(w.text, 0.0) or max(tells.values(), default=1.0) for w in left}
    members = [m for c in (twins or [best.hit]) for m in store.member_terms(c.qualname, c.rel_path, c.line, c.end_line)]
    # (a raise statement says when the member gives up, and with what: "doesn't support flock")
    raised = {_at(m): _raise_terms(store, m) for m in members[:MAX_RAISE_READ]}
    if q.intent is Intent.RAISES and any(raised.values()):
        members = [m for m in members if raised.get(_at(m))]  # (what is raised is asked: a member that raises)
    return _best_named(members, left, weight, best, more=raised)


MAX_REACH = 40  # callees (transitively, in this repository) read to narrow a function to one


def _narrowed_callee(
    store: SqliteStore, best: Grounded, words: tuple[_Word, ...], tells: dict[str, float]
) -> Grounded | None:
    """A function the words name, narrowed to what it calls (directly or through its callees)
    that the rest of the words ask of ("how does decoding check the audience claim": `decode`,
    then the `_validate_aud` it reaches): the callee's name must explain one of those words, and
    it must tell clearly more of them than any other callee."""
    if best.hit.kind not in ("function", "method"):
        return None
    left = [w for w in words if w.counts and w.text not in best.explained]
    if not left:
        return None
    caller = _reach(store, best.hit.qualname)
    if not caller:
        return None

    def passes_on(a: str, b: str) -> bool:  # (whether `a` reaches `b` through its callees)
        while b in caller:
            b = caller[b]
            if b == a:
                return True
        return False

    weight = {w.text: tells.get(w.text, 0.0) for w in left}
    return _best_named(store.terms_named(list(caller)), left, weight, best, passes_on=passes_on)


def _reach(store: SqliteStore, qualname: str) -> dict[str, str]:
    """What a function calls in this repository, directly or through its callees, nearest first
    (at most MAX_REACH): each with the function that calls it on the way."""
    caller: dict[str, str] = {}
    frontier = [qualname]
    while frontier and len(caller) < MAX_REACH:
        nxt = []
        for src in frontier:
            for e in store.edges_out_of(src, ("calls",)):
                if e.dst.startswith("?") or e.dst in caller or e.dst == qualname:
                    continue
                caller[e.dst] = src
                nxt.append(e.dst)
        frontier = nxt
    return dict(list(caller.items())[:MAX_REACH])


def _best_named(
    members: Sequence[TermHit],
    left: Sequence[_Word],
    weight: dict[str, float],
    best: Grounded,
    *,
    more: dict[tuple[str, int], set[str]] | None = None,
    passes_on: Callable[[str, str], bool] | None = None,
) -> Grounded | None:
    """Of `members`, the one whose name (and what `more` says of it) explains one of the `left`
    words and which tells clearly more of them (those counting twice) than any other. A member
    that passes the work on to the best (`passes_on(member, best)`) is no rival when the best
    explains all it does."""
    scored: list[tuple[float, TermHit, frozenset[str]]] = []
    for m in members:
        names = set(m.name_terms) | (more or {}).get(_at(m), set())
        held = names | set(m.explained)
        named = {w.text for w in left if (w.forms | w.abbreviations) & names}
        if not named:
            continue
        got = named | {w.text for w in left if (w.forms | w.abbreviations) & held}
        scored.append((sum(weight[w] for w in got) + sum(weight[w] for w in named), m, frozenset(got)))
    scored.sort(key=lambda x: -x[0])
    if not scored or scored[0][0] <= 0:
        return None
    top, member, told = scored[0]
    rivals = [
        x for x in scored[1:] if passes_on is None or not (passes_on(x[1].qualname, member.qualname) and x[2] <= told)
    ]
    if rivals and top < MARGIN * rivals[0][0]:
        return None
    return Grounded(hit=member, weight=best.weight, spelt=best.spelt, explained=best.explained | told)


def narrow(q: Question, store: SqliteStore, cls: str, rel_path: str, line: int, end_line: int) -> TermHit | None:
    """The member of class `cls` (declared at `rel_path:line-end_line`) the question's words ask
    of, when the class was named and nothing of it was asked by name (`_narrowed`)."""
    words = question_terms(q, store)
    held = store.declaration_terms(rel_path, line) | set(name_terms(cls.rpartition(".")[2]))
    explained = frozenset(w.text for w in words if (w.forms | w.abbreviations) & held)
    hit = TermHit(
        qualname=cls,
        rel_path=rel_path,
        line=line,
        end_line=end_line,
        kind="class",
        score=0.0,
        name_terms=(),
        matched=(),
    )
    tells, _ = _tells(words, _terms_of(words), store)
    got = _narrowed(store, q, Grounded(hit=hit, weight=1.0, spelt=1.0, explained=explained), words, tells)
    return got.hit if got is not None else None


def _at(m: TermHit) -> tuple[str, int]:
    return m.rel_path, m.line


def _raise_terms(store: SqliteStore, m: TermHit) -> set[str]:
    """The terms of what a member's body raises and the messages it says then."""
    chunk = next((c for c in store.chunks_at(m.rel_path, m.line) if c.qualname == m.qualname), None)
    if chunk is None or "raise" not in chunk.text:  # (most bodies: no parse)
        return set()
    return set(text_terms(raised_text(chunk.text)))


def _terms_of(words: Sequence[_Word]) -> tuple[str, ...]:
    """The stems the words stand for (their forms, then their abbreviations), each once."""
    return tuple(dict.fromkeys(t for w in words for t in (*sorted(w.forms), *sorted(w.abbreviations))))


def _tells(words: tuple[_Word, ...], terms: tuple[str, ...], store: SqliteStore) -> tuple[dict[str, float], float]:
    """How much each describing word tells in this repository (its own stem's rarity, else its
    rarest other form's, else half its abbreviation's; a name in capitals the repository never
    uses tells most), and the most any term tells."""
    rarity = store.term_rarity([*terms, *(stem(w.text) for w in words)])
    top = max(rarity.values(), default=1.0) or 1.0
    tells = {
        # the word's own stem where the index holds it (a rare compound of it, `lockfile`, does not
        # make "lock" telling), else its rarest other form or abbreviation
        w.text: rarity.get(stem(w.text), 0.0)
        or max((rarity.get(f, 0.0) for f in w.forms), default=0.0)
        # (known here only by an abbreviation, `int` for "input": weaker evidence, as in `_weigh`)
        or 0.5 * max((rarity.get(f, 0.0) for f in w.abbreviations), default=0.0)
        or (2 * top if w.acronym else 0.0)
        for w in words
    }
    return tells, top


def unexplained_by(q: Question, store: SqliteStore, held: frozenset[str], read: frozenset[str]) -> tuple[str, ...]:
    """The describing words a reading leaves unsaid, most telling first, when they are more than
    a grounded subject may leave (`COVER`); () when the terms `held` (what the reading's
    declarations, `read`, and the words it read them from say) explain enough. The rule a subject
    grounded by its terms passes, asked of a reading made another way (a plain word read as a
    member of a class the words named)."""
    grounding = ground(q, store)  # (read once per question and index version: its words too)
    words = grounding.words
    terms = _terms_of(words)
    if not terms:
        return ()
    explained = {w.text for w in words if (w.forms | w.abbreviations) & held}
    candidates = [g for g in grounding.candidates if g.hit.qualname not in read]
    # (a word no declaration here explains is the question's framing, as in `_ground`)
    explainable = {e for g in candidates for e in g.explained} | explained | {w.text for w in words if w.acronym}
    tells, _ = _tells(words, terms, store)
    counted = [w.text for w in words if w.counts and w.text in explainable]
    missing = [w for w in counted if w not in explained]
    told = sum(tells[w] for w in counted)
    if not missing or told - sum(tells[w] for w in missing) >= COVER * told:
        return ()
    return tuple(sorted(missing, key=lambda w: -tells[w]))


def came_close(q: Question, store: SqliteStore, left: Sequence[str], read: frozenset[str]) -> tuple[str, ...]:
    """The declarations outside a reading (`read`) that the words it `left` unexplained name best:
    most of what those words tell, then the grounding's order."""
    grounding = ground(q, store)
    words = tuple(w for w in grounding.words if w.text in left)
    tells, _ = _tells(words, _terms_of(words), store)
    scored = [
        (sum(tells[w] for w in g.explained if w in tells), g.hit.qualname)
        for g in grounding.candidates
        if g.hit.qualname not in read
    ]
    return tuple(name for score, name in sorted((x for x in scored if x[0] > 0), key=lambda x: -x[0])[:3])


def _weigh(h: TermHit, q: Question, words: tuple[_Word, ...], *, described: bool = True) -> Grounded:
    names = set(h.name_terms)
    path = {t for part in h.qualname.split(".")[:-1] for t in name_terms(part)}
    told = set(h.explained) if described else set()
    explained: set[str] = set()
    strength = 0.0
    for w in words:
        if w.forms & names:
            strength += 1.0
        elif w.abbreviations & names:
            strength += 0.5  # an abbreviation is weaker evidence than the word
        if (w.forms | w.abbreviations) & (names | path | told):
            explained.add(w.text)  # (its docstring, parameters or assigned names may explain a word)
    if not strength:
        return Grounded(hit=h, weight=0.0, spelt=0.0)
    if q.intent is Intent.VALUE and set(h.params) - names:
        # a value asked of a callable the words name, by one of its parameters ("which scheme does
        # sign use if I don't pick one": `sign(..., scheme=...)`): the parameter names it
        if any(w.forms & set(h.params) and not w.forms & names for w in words):
            strength += 1.0
    spelt = len(set(h.matched)) / max(1, len(names))
    w8 = h.score * (0.5 + spelt) * (0.5 + 0.5 * strength)
    kinds = [k for k in q.qualifiers if k in _KIND_OF_HIT]
    if kinds and not any(h.kind in _KIND_OF_HIT[k] for k in kinds):
        w8 *= 0.5
    if "exception" in q.qualifiers and not _EXCEPTION_TERMS & names:
        w8 *= 0.5
    if "test" not in q.qualifiers and is_test_path(h.rel_path):
        w8 *= 0.6
    # "a transition's conditions": what the possessive names holds the subject
    holder = h.qualname.split(".")[-2] if "." in h.qualname else ""
    if q.owners and {stem(o) for o in q.owners} & set(name_terms(holder)):
        w8 *= 2.0
    return Grounded(hit=h, weight=w8, spelt=spelt, explained=frozenset(explained))


def _with_callees(g: Grounded, words: tuple[_Word, ...], store: SqliteStore) -> Grounded:
    """How a body does something is told by what it calls: the words its callees' names explain
    count for it ("how does a table choose the id of a new document": `insert` calls `_get_next_id`)."""
    if g.weight <= 0 or g.hit.kind not in ("function", "method"):
        return g
    # (a callee outside the repository tells by its name too: `hmac.compare_digest` for "compared")
    callees = {
        t
        for e in store.edges_out_of(g.hit.qualname, ("calls", "instantiates"))
        for t in name_terms(e.dst.rpartition(".")[2])
    }
    more = {w.text for w in words if w.text not in g.explained and (w.forms | w.abbreviations) & callees}
    if not more:
        return g
    return Grounded(hit=g.hit, weight=g.weight * (1 + 0.25 * len(more)), spelt=g.spelt, explained=g.explained | more)


def names_code(q: Question, store: SqliteStore) -> bool:
    """Whether the question names code of this repository (a mention whose module, or whose first
    or last name, the index binds), or rules out a call: its words are then not what finds the
    subject. A builtin or an outside name (`AssertionError`) names nothing here."""
    if q.conditions:
        return True
    for m in q.mentions[:MAX_MENTIONS]:  # (a question of 16,000 names is read in bounded time)
        head, _, last = m.partition(".")
        last = m.rpartition(".")[2]
        if (
            store.module_path(m) is not None
            or store.bindings_named(head, limit=1)
            or store.bindings_named(last, limit=1)
        ):
            if not _builtin_only(store, last):
                return True
    return False


def _builtin_only(store: SqliteStore, name: str) -> bool:
    """A name the repository binds only as an import of something outside it."""
    return all(b.kind.value in ("import", "module") for b in store.bindings_named(name, limit=20))


def _declared_first(store: SqliteStore, weighed: list[Grounded]) -> Grounded:
    """The best candidate, or the namesake in a class it inherits from when the words explain
    nothing more of the override ("the gear an engine shifts to": `Engine.shift`, not
    each subclass's `shift` that extends it); the override stays when the words name its class
    ("an async machine")."""
    best = weighed[0]
    owner, _, name = best.hit.qualname.rpartition(".")
    for g in weighed[1:]:
        if g.weight < best.weight * CLOSE:
            break
        base, _, other = g.hit.qualname.rpartition(".")
        if other != name or g.explained != best.explained or not base or not owner:
            continue
        if _inherits(store, owner, base):
            return g
    return best


def _inherits(store: SqliteStore, sub: str, base: str) -> bool:
    """Whether class `sub` inherits from `base`, directly or through one class between."""
    bases = {e.dst for e in store.edges_out_of(sub, ("inherits",))}
    return base in bases or any(base in {e.dst for e in store.edges_out_of(b, ("inherits",))} for b in list(bases)[:8])


def _extends(store: SqliteStore, sub: TermHit, base: TermHit) -> bool:
    """A class that inherits from the best (directly or through one class between) and is named by
    no more of the words: it extends what the words describe, it is no rival to it ("the
    thread-safe runner" is `GuardedRunner`, not each class that mixes it in)."""
    if sub.kind != "class" or base.kind != "class" or len(set(sub.matched)) > len(set(base.matched)):
        return False
    return _inherits(store, sub.qualname, base.qualname)


def _within(inner: TermHit, outer: TermHit) -> bool:
    """Not rivals: one is the other's member (a class and its method match the same words), or both
    are one name in two classes (an override: the words cannot tell them apart)."""
    a, b = inner.qualname, outer.qualname
    return a.startswith(b + ".") or b.startswith(a + ".") or a.rpartition(".")[2] == b.rpartition(".")[2]
