"""The Python data model as a table: operations people describe in words -> special methods.

The words come from Python's own reference, not from a list typed here (issue 25 item 2). At first
use (cached) each special method gets its cues from:

- the language reference that ships with Python (`pydoc_data.topics`): its entry in "Special method
  names" (`object.__len__(self)`: "Called to implement the built-in function len(). Should return
  the length of the object"), the heading of a section that holds one protocol ("Implementing
  Descriptors"), and the first sentence of a paragraph of another topic that names it ("The primary
  must evaluate to an object that supports subscription");
- the runtime's one-line docstrings of the slot methods (`int.__add__`: "Return self+value.",
  `object.__reduce__`: "Helper for pickle.");
- its name: `__getitem__`, "getitem", and a name made of another method's name ("deepcopy": "deep
  copy").

A cue is code (the dunder name, an operator symbol, a built-in written `len()`), a phrase (two
adjacent words of a statement: "membership test", "attribute access") or one word, stemmed as the
index stems (`codehop.index.terms.stem`). One word comes from the first clause of the method's
statement, an agent noun of its next sentence ("also called a finalizer or a destructor"), its slot
docstring's last word, or a section heading that holds its operation alone;
a word that more than one operation's sentences use, or more than 18 paragraphs of the whole
reference (`_GENERAL`: "called", "object", "required"), names none. A phrase of two such general
words needs two sentences of its operation ("attribute access"). Where operations share a cue the
stronger source wins (the name and the runtime's docstring, then code, then the statement), then
the reference's order. A variant (`__new__`, `__getattribute__`) gives its operation phrases
only; a side of a protocol (`__get__`) is named by its dunder and by the protocol ("descriptor").

What is typed here is Python's semantics, not vocabulary: which special methods implement one
operation, in the order Python looks for them (`print(x)` runs `__str__`, which falls back to
`__repr__`; `iter()` falls back to `__getitem__`; `in` to `__iter__`), plus the few words the
reference never uses for an operation people name that way and the few function words matching
needs (`_TYPED_*`, `_ENTER`, `_EXIT`, `_PRONOUNS`, `_KEYWORDS`, `_DETERMINERS`: 88
words, "make", "square brackets", "sort", ...; and 15 English endings, `_NOMINAL`, `_ENDINGS`).

Matching is one pass over the question's words (each stemmed once):

- code (a dunder, an operator, a word quoted or called: "len()", a standard module's function:
  `copy.deepcopy`) and phrases name the operation wherever they stand ("what does `==` do", "how
  does attribute access work on a Crate"); an article may stand inside a phrase ("assign a key",
  from "assignment to self[key]"), and a two-word phrase may be said the other way round ("access
  an attribute");
- one word names it beside the object the question is about (`objects`): the object follows it,
  across function words and then up to two qualifiers ("iterate over an httpx Client", "the length
  of a Crate", "compare two Origin objects"), or stands just before it as a possessive ("a Crate's
  repr", "its constructor") or before a participle, an adjective or a noun ("a Crate printed", "is
  a Crate hashable", "the Lazy descriptor", "when it's called"; not "a Client builds"): "make"
  alone means nothing. A noun made of the cue's own stem ("membership", "iteration") names it
  wherever it stands. A cue of four letters or more also names a word it begins with an adjective's
  ending ("hashable" ~ hash, "truthiness" ~ truth), or any word when the reference never writes
  the cue as a word ("representation" ~ repr); not "callbacks" ~ call.

Context managers have two sides: a `with` (or `async with`) phrase says which protocol, a direction
word says which side (the methods' own names "enter" / "exit" and `_ENTER` / `_EXIT`, in either
order); no direction names both sides.

The cues are derived in `reference.py`; this module holds the typed part and the matching.
Matching is linear in the question's length. May import: stdlib, question_words (STOP), index.terms,
reading.reference.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from codehop.index.terms import stem
from codehop.reading.question_words import ARTICLES, BE, STOP
from codehop.reading.reference import Operation as Operation  # the record callers name
from codehop.reading.reference import derive

# ---- typed: Python's semantics --------------------------------------------------------------------

# operations of several methods, in Python's lookup order; every other special method the reference
# describes is an operation of its own, its reflected and in-place twins (`__radd__`, `__iadd__`)
# after it
_LOOKUP: tuple[tuple[str, ...], ...] = (
    ("__init__", "__new__"),
    ("__repr__",),
    ("__len__",),
    ("__eq__",),
    ("__str__", "__repr__"),
    ("__format__", "__str__", "__repr__"),
    ("__iter__", "__getitem__"),
    ("__aiter__", "__anext__"),
    ("__getitem__", "__class_getitem__"),
    ("__missing__", "__getitem__"),
    ("__contains__", "__iter__", "__getitem__"),
    ("__ne__", "__eq__"),
    ("__lt__", "__le__", "__gt__", "__ge__"),
    ("__bool__", "__len__"),
    ("__reduce_ex__", "__reduce__", "__getstate__", "__setstate__"),
    ("__getattr__", "__getattribute__"),
    ("__copy__",),  # the copy module's hooks: not in the language reference
    ("__deepcopy__",),
    ("__await__",),
)
# both sides of a protocol answer together
_EVERY = ("__get__", "__set__", "__delete__", "__set_name__")
# a keyword written as code is the operator itself (`key in cache`, `del table[key]`, `await x`)
_KEYWORDS = {"in": "__contains__", "await": "__await__", "del": "__delitem__"}
# what the reference never says in these words: (words, the special method they name). A word
# names the operation beside the object, a noun wherever it stands, a phrase wherever it stands.
_PARTICIPLES = frozenset({"made", "built"})  # irregular: "how is a URL made"
_TYPED_WORDS: tuple[tuple[list[str], str], ...] = (
    (["make", "build", *_PARTICIPLES, "create", "construct", "instantiate"], "__init__"),
    ("length".split(), "__len__"),
    ("subscript index".split(), "__getitem__"),
    ("invoke".split(), "__call__"),
    ("loop".split(), "__iter__"),
)
_TYPED_NOUNS: tuple[tuple[list[str], str], ...] = (
    ("repl".split(), "__repr__"),
    ("equal compare".split(), "__eq__"),
    ("sort".split(), "__lt__"),
    ("falsy".split(), "__bool__"),
    ("plus".split(), "__add__"),
)
_TYPED_PHRASES: tuple[tuple[str, str], ...] = (
    ("async for", "__aiter__"),
    ("square brackets", "__getitem__"),
    ("item access", "__getitem__"),
    ("look up a missing key", "__missing__"),
    *((" ".join((be, "in")), "__contains__") for be in sorted(BE)),  # "is in", "are in"
    *((f"{side} than", "__lt__") for side in ("less", "greater")),
    ("dict key", "__hash__"),
    ("missing attribute", "__getattr__"),
    ("garbage collected", "__del__"),
)
_TYPED_FORMS: tuple[tuple[list[str], str], ...] = (("ordering ordered".split(), "__lt__"),)  # as spelt
_WITH_TYPED = ("with block", "the block")  # the protocol, beside the reference's own names
_ENTER = frozenset("entry start begin open way_in".split())
_EXIT = frozenset("leave left finish end close done way_out".split())
_DEMONSTRATIVES = ("this", "that")
# words that stand for the object the question is about (the first two also just before a word),
# and the nouns that do, by stem ("instances", "objects", "ones")
_PRONOUNS = ("it", "them", *_DEMONSTRATIVES)
_STAND_INS = frozenset(stem(w) for w in ("one", "instance", "object"))
_ENDINGS = frozenset({"abl", "ibl", "i"})  # stems' adjective endings: hashabl(e), truthi(ness)
_DETERMINERS = frozenset({"its", "their", *_DEMONSTRATIVES})
_SIDES = frozenset({"__enter__", "__exit__", "__aenter__", "__aexit__"})
_MAX_N = 4
_NOMINAL = ("ship", "tion", "sion", "ment", "ness", "ity", "able", "ible")
_NOUN_FORMS = (*_NOMINAL, "ed", "or", "er", "al")


@dataclass(frozen=True, slots=True)
class Match:
    operation: Operation
    start: int  # index of the first word of the phrase
    end: int  # one past its last word
    words: tuple[str, ...]


# ---- the tables: derived cues and the typed remainder ------------------------------------------


@dataclass(frozen=True, slots=True)
class _Tables:
    operations: tuple[Operation, ...]
    code: dict[str, Operation]  # dunder names, operator symbols, built-ins written as code
    phrases: dict[str, list[tuple[tuple[str, ...], Operation]]]  # first stem -> phrases, longest first
    reversed: dict[str, list[tuple[str, Operation]]]  # a two-word phrase's second stem -> its first
    words: dict[str, Operation]  # one stem -> its operation (beside the object)
    anywhere: dict[str, Operation]  # one stem that names its operation wherever it stands
    jargon: frozenset[str]  # method names the reference never writes as plain words (repr, init)
    forms: dict[str, Operation]  # one word, as spelt, that names its operation wherever it stands
    keywords: dict[str, Operation]
    with_phrases: tuple[tuple[str, ...], ...]
    enter: frozenset[str]
    exit: frozenset[str]
    twin: dict[str, Operation]  # a synchronous operation -> its asynchronous twin (iter -> aiter)


@cache
def tables() -> _Tables:
    """The cue tables: the reference's (`reference.derive`) and the typed remainder, built at first use."""
    d = derive(_LOOKUP, _EVERY, _SIDES)
    owner = d.owner
    words = {**d.words, **{stem(w): owner[m] for spelt, m in _TYPED_WORDS for w in spelt}}
    phrases = {
        **d.phrases,
        **{tuple(stem(w) for w in spelt.split()): owner[m] for spelt, m in _TYPED_PHRASES},
    }
    phrase_table: dict[str, list[tuple[tuple[str, ...], Operation]]] = {}
    turned: dict[str, list[tuple[str, Operation]]] = {}
    for words_of, chosen in phrases.items():
        phrase_table.setdefault(words_of[0], []).append((words_of, chosen))
        if len(words_of) == 2:
            turned.setdefault(words_of[1], []).append((words_of[0], chosen))
    for v in phrase_table.values():
        v.sort(key=lambda e: -len(e[0]))
    # the protocol's heading ("With Statement Context Managers"): its two terms
    cm_title = [stem(w.lower()) for w in re.findall(r"[A-Za-z]+", d.headings.get("__enter__", ""))]
    with_phrases = [tuple(cm_title[k : k + 2]) for k in range(0, len(cm_title) - 1, 2)]
    with_phrases += [tuple(stem(w) for w in p.split()) for p in _WITH_TYPED]
    names = {op.name for op in d.operations}
    return _Tables(
        operations=d.operations,
        code=dict(d.code),
        phrases=phrase_table,
        reversed=turned,
        words=words,
        anywhere={stem(w): owner[m] for spelt, m in _TYPED_NOUNS for w in spelt},
        jargon=d.jargon,
        forms={w: owner[m] for spelt, m in _TYPED_FORMS for w in spelt},
        keywords={k: owner[m] for k, m in _KEYWORDS.items()},
        with_phrases=tuple(dict.fromkeys(with_phrases)),
        enter=frozenset(stem(w) if "_" not in w else w for w in ("enter", *_ENTER)),
        exit=frozenset(stem(w) if "_" not in w else w for w in ("exit", *_EXIT)),
        twin={op.name[1:]: op for op in d.operations if op.name.startswith("a") and op.name[1:] in names},
    )


def operations() -> tuple[Operation, ...]:
    return tables().operations


# ---- matching -------------------------------------------------------------------------------------


def match(words: Sequence[str], objects: Sequence[int], quoted: Sequence[int] = ()) -> list[Match]:
    """The operations the words describe. `words` are lowercased; `objects` are the indexes
    of words that name the object the question is about (a single word needs one beside it);
    `quoted` the indexes of words written as code (a quoted `with` is the statement, a quoted
    `len` the built-in)."""
    t = tables()
    obj = set(objects)
    quoted_set = set(quoted)
    stems = [stem(w) if w.isalpha() else w for w in words]
    out: list[Match] = []
    i = 0
    n = len(words)
    while i < n:
        w = words[i]
        if i in quoted_set and w in t.keywords:  # `in`, `await`, `del` written as code: the operator itself
            out.append(Match(t.keywords[w], i, i + 1, (w,)))
            i += 1
            continue
        hit = _phrase_at(t, words, stems, i, obj)
        if hit is None and i not in obj:
            head, _, tail = w.rpartition(".")
            # a dunder, an operator symbol, a word written as code, or a function of the standard
            # library (`copy.deepcopy`)
            code = t.code.get(tail if head in sys.stdlib_module_names else w)
            if code is None and head in sys.stdlib_module_names:  # `pickle.dumps`: the module's word
                code = t.words.get(stem(head))
            if code is not None and (w.startswith("__") or not w[:1].isalpha() or i in quoted_set or head):
                hit = (i + 1, code)
            else:
                op = t.anywhere.get(stems[i]) or t.forms.get(w)
                if op is None and w.isalpha() and w not in STOP and i not in quoted_set:
                    op = t.words.get(stems[i])
                    # a noun made from a verb or an adjective of the cue's own stem ("membership",
                    # "iteration") names the operation wherever it stands; one that only begins
                    # with it ("hashable", "reversibility") beside the object
                    if op is None or not w.endswith(_NOMINAL):
                        op = _word(t, stems[i])
                        if op is not None and not _beside(words, stems, i, obj):
                            op = None
                if op is not None:
                    hit = (i + 1, op)
        if hit is not None:
            end, op = hit
            start = i
            twin = t.twin.get(op.name)
            if twin is not None and i > 0 and stems[i - 1].startswith("async"):
                # "async-iterate over it": the asynchronous side of the protocol
                op, start = twin, i - 1
            out.append(Match(op, start, end, tuple(words[start:end])))
            i = end
            continue
        i += 1
    out.extend(_context_manager(t, words, stems, quoted_set))
    return out


def _phrase_at(
    t: _Tables, words: Sequence[str], stems: Sequence[str], i: int, obj: set[int]
) -> tuple[int, Operation] | None:
    for phrase, op in t.phrases.get(stems[i], ()):
        end = _spans(words, stems, i, phrase)
        # a word that names the object itself ("a Length validator") is not an operation on it
        if end and not obj.intersection(range(i, end)):
            return end, op
    # a two-word phrase said the other way round, function words between: "access an attribute"
    for head, op in t.reversed.get(stems[i], ()):
        j = i + 1
        while j < min(i + 3, len(words)) and words[j] in ARTICLES:  # (one may stand inside a phrase: "assign a key")
            j += 1
        if j < len(stems) and stems[j] == head and j not in obj:
            return j + 1, op
    return None


def _spans(words: Sequence[str], stems: Sequence[str], i: int, phrase: tuple[str, ...]) -> int:
    """One past the phrase's last word when it starts at `i`, a function word allowed between two
    of its words ("assign a key"); else 0."""
    j = i
    for k, s in enumerate(phrase):
        if k and j < len(stems) and stems[j] != s and words[j] in ARTICLES:
            j += 1
        if j >= len(stems) or stems[j] != s:
            return 0
        j += 1
    return j


def _word(t: _Tables, s: str) -> Operation | None:
    op = t.words.get(s)
    if op is not None or len(s) < 4:
        return op
    for k in range(len(s) - 1, 3, -1):
        op = t.words.get(s[:k])
        # the cue and an adjective's ending ("hashable" ~ hash, "truthiness" ~ truth), or a name
        # the reference never uses as a word, abbreviating ("representation" ~ repr)
        if op is not None and (s[k:] in _ENDINGS or s[:k] in t.jargon):
            return op
    return None


def _beside(words: Sequence[str], stems: Sequence[str], i: int, objects: set[int]) -> bool:
    """Does the object the question is about follow word `i` (across function words, then up to
    two qualifiers: "over an httpx test Client"), or stand just before it: as a possessive ("a
    Crate's repr"), or when the word is no verb's base or -s form ("a Crate printed", "is a Crate
    hashable", "the Lazy descriptor", "when it's called"; not "a Client builds")?"""
    w = words[i]
    if i >= 2 and words[i - 1] == "s" and (i - 2 in objects or words[i - 2] in _PRONOUNS[:2]):
        return True
    if i >= 1 and words[i - 1] in _DETERMINERS:  # "its constructor", "that repr": standing for the object
        return True
    # a participle, an adjective or a noun made from a verb, not a verb's base or -s form
    noun = w.endswith(_NOUN_FORMS) or w in _PARTICIPLES
    if noun and any(j in objects or words[j] in _PRONOUNS[:2] for j in range(max(0, i - 2), i)):
        return True
    for j in range(i + 1, min(i + 2 + _MAX_N, len(words))):
        if j in objects or words[j] in _PRONOUNS or stems[j] in _STAND_INS:
            return True
        if words[j] not in STOP:  # (prepositions among them: "loop over")
            return j + 1 in objects or j + 2 in objects
    return False


def _context_manager(t: _Tables, words: Sequence[str], stems: Sequence[str], quoted: set[int]) -> list[Match]:
    """`with` / `async with` plus a direction word anywhere in the question (either order)."""
    found: tuple[bool, int, int] | None = None  # (async?, start, end)
    for i in range(len(words)):
        if words[i] == "async" and i + 1 < len(words) and words[i + 1] == "with":
            found = (True, i, i + 2)
            break
        if found is not None:
            continue
        for phrase in t.with_phrases:
            if tuple(stems[i : i + len(phrase)]) == phrase:
                # "an async context manager": the asynchronous protocol
                is_async = i > 0 and words[i - 1] == "async"
                found = (is_async, i - is_async, i + len(phrase))
                break
        else:
            if words[i] == "with" and i in quoted:  # a bare "with" in prose is a preposition
                found = (False, i, i + 1)
    if found is None:
        return []
    is_async, start, end = found
    text = set(stems) | {f"{a}_{b}" for a, b in zip(words, words[1:], strict=False)}
    enter = bool(text & t.enter)
    leave = bool(text & t.exit)
    ops = []
    by_name = {op.name: op for op in t.operations}
    if enter or not leave:
        ops.append(by_name["aenter" if is_async else "enter"])
    if leave or not enter:
        ops.append(by_name["aexit" if is_async else "exit"])
    return [Match(op, start, end, tuple(words[start:end])) for op in ops]
