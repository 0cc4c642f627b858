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
statement, its slot docstring's last word, or a section heading that holds its operation alone;
a word that more than one operation's sentences use, or more than 18 paragraphs of the whole
reference (`_GENERAL`: "called", "object", "required"), names none. A phrase of two such general
words needs two sentences of its operation ("attribute access"). Where operations share a cue the
stronger source wins (the name and the runtime's docstring, then code, then the statement), then
the reference's order. A variant (`__new__`, `__getattribute__`) and a side of a protocol
(`__get__`) are named by their dunder only, and by their operation's words.

What is typed here is Python's semantics, not vocabulary: which special methods implement one
operation, in the order Python looks for them (`print(x)` runs `__str__`, which falls back to
`__repr__`; `iter()` falls back to `__getitem__`; `in` to `__iter__`), plus the few words the
reference never uses for an operation people name that way (`_TYPED_*`, `_ENTER`, `_EXIT`,
`_PRONOUNS`, `_KEYWORDS`: 81 words, "make", "square brackets", "sort", ...).

Matching is one pass over the question's words (each stemmed once):

- code and phrases name the operation wherever they stand ("what does `==` do", "how does
  attribute access work on a Crate"); a two-word phrase also the other way round ("access an
  attribute");
- one word names it beside the object the question is about (`objects`): the object follows it,
  across function words and then up to two qualifiers ("iterate over an httpx Client", "the length
  of a Crate", "compare two Origin objects"), or stands just before it as a possessive ("a Crate's
  repr") or before a participle, an adjective or a noun ("a Crate printed", "is a Crate hashable",
  "the Lazy descriptor", "when it's called"; not "a Client builds"): "make" alone means nothing.
  A noun made of the cue's own stem ("membership", "iteration") names it wherever it stands. A cue
  of four letters or more also names a word it begins ("hashable" ~ hash, "representation" ~ repr).

Context managers have two sides: a `with` (or `async with`) phrase says which protocol, a direction
word says which side (the methods' own names "enter" / "exit" and `_ENTER` / `_EXIT`, in either
order); no direction names both sides.

Matching is linear in the question's length. May import: stdlib, kernel.words, index.terms.
"""

from __future__ import annotations

import keyword
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

from codehop.index.terms import stem
from codehop.kernel.words import STOP


@dataclass(frozen=True, slots=True)
class Operation:
    name: str
    methods: tuple[str, ...]  # the special methods, in Python's lookup order
    every: bool = False  # True: every method present answers (both sides of a protocol)


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
_TYPED_WORDS: tuple[tuple[list[str], str], ...] = (
    ("make made build built create construct instantiate".split(), "__init__"),
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
    ("for loop", "__iter__"),
    ("async for", "__aiter__"),
    ("square brackets", "__getitem__"),
    ("item access", "__getitem__"),
    ("look up a missing key", "__missing__"),
    ("is in", "__contains__"),
    ("are in", "__contains__"),
    ("be in", "__contains__"),
    ("less than", "__lt__"),
    ("greater than", "__lt__"),
    ("dict key", "__hash__"),
    ("missing attribute", "__getattr__"),
    ("garbage collected", "__del__"),
)
_TYPED_FORMS: tuple[tuple[list[str], str], ...] = (("ordering ordered".split(), "__lt__"),)  # as spelt
_PARTICIPLES = frozenset({"made", "built"})  # irregular: "how is a URL made"
_WITH_TYPED = ("with block", "the block")  # the protocol, beside the reference's own names
_ENTER = frozenset("entry start begin open way_in".split())
_EXIT = frozenset("leave left finish end close done way_out".split())
# words that stand for the object the question is about (the first two also just before a word)
_PRONOUNS = ("it", "them", *"this that one instance instances object objects".split())
_ARTICLES = frozenset({"a", "an", "the"})  # may stand inside a phrase ("assign a key")
_ENDINGS = frozenset({"abl", "ibl", "i"})  # stems' adjective endings: hashabl(e), truthi(ness)
_DETERMINERS = frozenset({"its", "their", "this", "that"})
_SIDES = frozenset({"__enter__", "__exit__", "__aenter__", "__aexit__"})
_ACROSS = frozenset({"over", "through"})  # prepositions the kernel's stop words lack ("loop over")
_MAX_N = 4
_NOMINAL = ("ship", "tion", "sion", "ment", "ness", "ity", "able", "ible")
_NOUN_FORMS = (*_NOMINAL, "ed", "or", "er", "al")


@dataclass(frozen=True, slots=True)
class Match:
    operation: Operation
    start: int  # index of the first word of the phrase
    end: int  # one past its last word
    words: tuple[str, ...]


# ---- derived: the reference's words ---------------------------------------------------------------

_HEADER = re.compile(r"^(?:classmethod |staticmethod )?object\.(__\w+__)\(", re.M)
_DUNDER = re.compile(r"__[a-z][a-z0-9_]*?__")
_QUOTED = re.compile(r"\"([^\"]+)\"")
_SUBSCRIPT = re.compile(r"\"self\[(\w+)\]\"")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
_SENTENCE = re.compile(r"(?<=[.;])\s+(?=[A-Z\"*(])")
_SYMBOL = re.compile(r"^[^\w\s\[\]().,'\"]{1,3}$")
_SLOT_OWNERS = (object, int, float, complex, list, dict, set, str, bytes, type)

# strength of a cue's source: lower wins
_NAME, _CODE, _FIRST, _SECOND, _REST = 0, 1, 2, 3, 4
# a word more than this many paragraphs of the reference use is general English ("have", "after",
# "statement"), not the name of one operation
_GENERAL = 18


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


def _stems(text: str) -> list[str]:
    """The content words of a sentence, stemmed, in order; a function word or punctuation between
    two words is kept as "" (phrases do not cross it)."""
    out: list[str] = []
    pos = 0
    for m in _WORD.finditer(text):
        if re.search(r"[^\s*]", text[pos : m.start()]):
            out.append("")
        pos = m.end()
        w = m.group().lower().strip("'-")
        out.append("" if w in STOP or len(w) < 3 else stem(w))
    return out


def _pairs(text: str) -> list[tuple[str, str]]:
    """Two content words of a sentence, stemmed, adjacent or one function word apart ("attribute
    access", "assignment to key"); punctuation between them breaks the pair."""
    out: list[tuple[str, str]] = []
    last, gap, pos = "", 0, 0
    for m in _WORD.finditer(text):
        if re.search(r"[^\s*]", text[pos : m.start()]):
            last = ""
        pos = m.end()
        w = m.group().lower().strip("'-")
        if w in STOP or len(w) < 3:
            gap += 1
            continue
        s = stem(w)
        if last and gap <= 1:
            out.append((last, s))
        last, gap = s, 0
    return out


def _is_method(name: str) -> bool:
    """A special method some class of the runtime defines (`__aiter__`, `__next__`), not a special
    attribute (`__doc__`) or a function (`__import__`)."""
    import collections.abc
    import contextlib

    owners = (*_SLOT_OWNERS, *vars(collections.abc).values(), contextlib.AbstractAsyncContextManager)
    return any(isinstance(o, type) and callable(getattr(o, name, None)) for o in owners)


def _reference() -> tuple[dict[str, list[tuple[int, str]]], list[str], dict[str, str], set[str], dict[str, int]]:
    """special method -> [(strength, sentence)], the methods in the reference's order, each
    method's section heading, the general stems (`_GENERAL`) and how often each word is written
    as a plain word. A method's entry gives its first two sentences; another topic, the first
    sentence of a paragraph that names methods of one operation only (with the sentence before
    when it says "This operation ...")."""
    from pydoc_data.topics import topics

    sentences: dict[str, list[tuple[int, str]]] = {}
    order: list[str] = []
    heading: dict[str, str] = {}
    lines = topics["specialnames"].split("\n")
    title = ""
    pending: list[str] = []
    for k, line in enumerate(lines):
        if k + 1 < len(lines) and line and re.fullmatch(r"[=-]{3,}", lines[k + 1]):
            title = line
        m = _HEADER.match(line)
        if m:
            pending.append(m.group(1))
            continue
        if pending and line.startswith("   ") and line.strip():
            body = []
            for rest in lines[k:]:
                if rest and not rest.startswith(" "):
                    break
                body.append(rest.strip())
            parts = _SENTENCE.split(" ".join(body))
            for name in pending:
                order.append(name)
                heading[name] = title
                sentences[name] = [(_FIRST, parts[0]), *((_SECOND, part) for part in parts[1:2])]
            pending = []
    used: dict[str, int] = {}
    for key, topic in topics.items():
        paragraphs = re.split(r"\n\s*\n", topic)
        for para in paragraphs:
            for w in set(para.lower().split()):
                used[w] = used.get(w, 0) + 1
        if key == "specialnames":
            continue
        for k, para in enumerate(paragraphs):
            named = {n for n in _DUNDER.findall(para) if n in sentences or f'"{n}()"' in para}
            if not named or para.startswith("   ") or not para.lstrip()[:1].isalpha():
                continue  # an example, a grammar rule, a list item
            first = _SENTENCE.split(" ".join(para.split()))[0]
            if first.startswith(("This ", "The operation")) and k:  # "This operation can be customized ..."
                first = _SENTENCE.split(" ".join(paragraphs[k - 1].split()))[0] + " " + first
            for name in named:
                if name in sentences or _is_method(name):
                    sentences.setdefault(name, []).append((_REST, first))
                    if name not in order:
                        order.append(name)
    general: dict[str, int] = {}  # a stem's paragraphs, summed over its spellings
    for w, n in used.items():
        w = w.strip(".,;:()\"'*")
        if w.isalpha():
            s = stem(w)
            general[s] = general.get(s, 0) + n
    plain = {w: n for w, n in used.items() if w.isalpha()}  # words written as words, not as code
    return sentences, order, heading, {s for s, n in general.items() if n > _GENERAL}, plain


def _slot_doc(name: str) -> str:
    """The first sentence of the runtime's docstring of a slot method ("Return self+value.")."""
    for owner in _SLOT_OWNERS:
        doc = getattr(getattr(owner, name, None), "__doc__", None)
        if isinstance(doc, str) and doc.strip():
            return _SENTENCE.split(doc.strip().split("\n")[0])[0]
    return ""


def _code_cues(sentence: str) -> list[str]:
    """The built-ins and operators a sentence names in code: "len()", "str(object)", "+", "x<y"."""
    out: list[str] = []
    for q in _QUOTED.findall(sentence):
        if _DUNDER.search(q):
            continue
        call = re.fullmatch(r"([a-z_][a-z_.]*)\(.*\)", q)
        if call:
            out.append(call.group(1).rpartition(".")[2])
        elif _SYMBOL.match(q):
            out.append(q)
    if sum(1 for c in out if _SYMBOL.match(c)) > 2:
        # a family's list ("the binary arithmetic operations (+, -, ...)"): the slot docstrings say
        # which member implements which
        out = [c for c in out if not _SYMBOL.match(c)]
    return [c for c in out if not keyword.iskeyword(c)]


def _slot_cues(doc: str) -> tuple[list[str], str]:
    """A slot docstring's operator ("Return self+value." -> +, "Return len(self)." -> len) and its
    prose ("Helper for pickle.")."""
    expr = re.search(r"(?:self|value|key)\s*([^\w\s().,]{1,3})\s*(?:self|value)", doc)
    call = re.search(r"\b([a-z]+)\((?:self|value)", doc)
    code = [c.group(1) for c in (expr, call) if c is not None]
    return code, re.sub(r"\w*\(.*?\)|\S*self\S*", " ", doc)


def _groups(order: list[str]) -> list[tuple[str, ...]]:
    known = {g[0] for g in _LOOKUP} | {_EVERY[0]}
    groups: list[tuple[str, ...]] = [*_LOOKUP, _EVERY]
    inside = {m for g in groups for m in g}
    names = set(order)
    for m in order:
        core = m[2:-2]
        if m in known or m in inside or (core[:1] in "ri" and f"__{core[1:]}__" in names):
            continue  # a variant inside its operation; reflected and in-place twins join their operator
        twins = tuple(t for t in (f"__r{core}__", f"__i{core}__") if t in names)
        groups.append((m, *twins))
        known.add(m)
    return groups


def _split_core(core: str, cores: Iterable[str]) -> tuple[str, ...]:
    """A name made of another method's name: "deepcopy" -> (deep, copy), "length_hint" -> (length,
    hint)."""
    if "_" in core:
        return tuple(p for p in core.split("_") if p)
    for other in cores:
        if len(other) >= 4 and core.endswith(other) and len(core) - len(other) >= 3:
            return (core[: -len(other)], other)
    return (core,)


class _Cues:
    """cue -> {operation: strength of its best source}, for code, single words and phrases."""

    def __init__(self) -> None:
        self.code: dict[str, dict[Operation, int]] = {}
        self.words: dict[str, dict[Operation, int]] = {}
        self.phrases: dict[tuple[str, ...], dict[Operation, int]] = {}
        self.seen: dict[str, set[Operation]] = {}  # every stem a sentence uses, with its operations
        self.sentences: dict[tuple[tuple[str, str], Operation], int] = {}  # a phrase's sentences

    @staticmethod
    def _put(table: dict[Any, dict[Operation, int]], cue: Any, op: Operation, strength: int) -> None:
        slot = table.setdefault(cue, {})
        slot[op] = min(slot.get(op, strength), strength)

    def name(self, method: str, op: Operation, cores: list[str]) -> None:
        core = method[2:-2]
        self._put(self.code, method, op, _NAME)
        if method != op.methods[0] or op.every:
            return  # a variant (`__new__`) or a side of a protocol (`__get__`) is named by its dunder only
        self._put(self.code, core, op, _NAME)
        parts = _split_core(core, cores)
        self._put(self.words, stem(core.replace("_", "")), op, _NAME)
        if len(parts) > 1:
            self._put(self.phrases, tuple(stem(p) for p in parts), op, _NAME)

    def sentence(self, text: str, op: Operation, strength: int, phrases: bool = True) -> None:
        for c in _code_cues(text):
            if strength == _REST and c.isalpha():
                continue  # another topic's built-ins are examples ("dict.get()"); its operators are not
            self._put(self.code, c, op, _CODE)
            if c.isalpha() and len(c) >= 3:
                self._put(self.words, stem(c), op, _CODE)
        if strength <= _FIRST:
            # "Called to implement assignment to self[key]": the statement's word for what it does
            # to the key names the operation, however general both words are ("assign a key")
            for m in _SUBSCRIPT.finditer(text):
                before = [p for p in _pairs(text[: m.start()] + " " + m.group(1)) if p[1] == stem(m.group(1))]
                if before and before[-1][0] != "implement":
                    self._put(self.phrases, before[-1], op, _CODE)
        text = _SUBSCRIPT.sub(r" \1 ", text)
        stems = _stems(_QUOTED.sub(" , ", text))
        for s in stems:
            if s:
                self.seen.setdefault(s, set()).add(op)
        if strength <= _FIRST:
            # one word names the operation from the statement's first clause ("Called to implement
            # membership test operators"; not "... for operations on members of hashed collections")
            clause = re.split(r"[,;:]| and ", re.sub(r"\([^)]*\)", "", _QUOTED.sub(" ", text)))[0]
            for s in _stems(clause):
                if s:
                    self._put(self.words, s, op, strength)
        elif strength == _SECOND:
            # an agent noun of the next sentence ("also called a finalizer or a destructor", "the
            # class constructor expression")
            for w in _WORD.findall(_QUOTED.sub(" ", text)):
                if w.lower().endswith("or") and w.lower() not in STOP:
                    self._put(self.words, stem(w.lower()), op, strength)
        if phrases:
            for pair in dict.fromkeys(_pairs(_QUOTED.sub(" , ", text))):
                if pair[0] != pair[1]:
                    self._put(self.phrases, pair, op, strength)
                    key = (pair, op)
                    self.sentences[key] = self.sentences.get(key, 0) + 1


@cache
def tables() -> _Tables:
    """The cue tables, built from the reference at first use."""
    sentences, order, heading, general, plain = _reference()
    groups = _groups(order)
    ops = [Operation(g[0].strip("_"), g, every=g == _EVERY) for g in groups]
    owner: dict[str, Operation] = {op.methods[0]: op for op in ops}
    for op in ops:  # a variant's words name the operation that lists it first
        for m in op.methods:
            owner.setdefault(m, op)
    rank = {m: i for i, m in enumerate(order)}
    cores = [m[2:-2] for m in owner]
    cues = _Cues()
    for m, op in owner.items():
        if m in _SIDES:
            continue  # a context manager's side is read from its `with` phrase and a direction word
        cues.name(m, op, cores)
        slot_code, slot_prose = _slot_cues(_slot_doc(m))
        for c in slot_code:
            cues._put(cues.code, c, op, _NAME)  # the runtime says which method: "Return self//value."
        # the slot docstring's last word is what the operation works on ("Helper for pickle.",
        # "Default object formatter.", "Initialize self.")
        cues.sentence(next((w for w in reversed(_WORD.findall(slot_prose)) if w.lower() not in STOP), ""), op, _FIRST)
        for strength, text in sentences.get(m, ()):
            # a variant's statement ("Called unconditionally to implement attribute accesses")
            # names its operation by phrases only
            if op.every:  # a protocol's sides are named by the protocol ("descriptor") and their dunders
                cues.sentence(text, op, _REST, phrases=False)
                continue
            cues.sentence(text, op, strength if m == op.methods[0] else _SECOND, phrases=strength <= _FIRST)
    # a section heading that holds one operation ("Implementing Descriptors", "Emulating callable
    # objects") names it
    by_title: dict[str, set[Operation]] = {}
    firsts: set[str] = set()  # sections that hold an operation's first method, not only a variant
    for m, title in heading.items():
        by_title.setdefault(title, set()).add(owner[m])
        if m == owner[m].methods[0]:
            firsts.add(title)
    headed: set[str] = set()
    for title, held in by_title.items():
        if len(held) == 1 and title in firsts:
            cues.sentence(title, next(iter(held)), _FIRST)
            headed.update(_stems(title))

    def best(cue: Any, slot: dict[Operation, int]) -> Operation | None:
        users = len(cues.seen.get(cue, ())) if isinstance(cue, str) else 0
        if min(slot.values()) > _CODE and (len(slot) > 2 or users > 2):
            return None  # the sentences of many operations use it: it describes none
        if isinstance(cue, str) and min(slot.values()) > _CODE and users > 1 and cue not in headed:
            return None  # one word names one operation only
        return min(slot, key=lambda o: (slot[o], rank.get(o.methods[0], len(rank))))

    words: dict[str, Operation] = {}
    for s, slot in cues.words.items():
        chosen = best(s, slot)
        if chosen is not None and (min(slot.values()) <= _CODE or (len(s) >= 5 and (s not in general or s in headed))):
            words[s] = chosen
    words.update({stem(w): owner[m] for spelt, m in _TYPED_WORDS for w in spelt})
    anywhere = {stem(w): owner[m] for spelt, m in _TYPED_NOUNS for w in spelt}
    forms = {w: owner[m] for spelt, m in _TYPED_FORMS for w in spelt}
    code: dict[str, Operation] = {}
    for c, slot in cues.code.items():
        chosen = best("", slot)
        if chosen is not None and (not c.isalpha() or len(c) > 1):
            code[c] = chosen
    phrases: dict[tuple[str, ...], Operation] = {}
    for words_of, slot in cues.phrases.items():
        chosen = best(words_of, slot)
        # two general words ("class attribute", "should return") name an operation only when
        # two of its sentences say them ("attribute access": `__getattr__`, `__getattribute__`)
        if chosen is not None and (
            min(slot.values()) <= _CODE
            or not set(words_of) <= general
            or cues.sentences.get((cast(tuple[str, str], words_of), chosen), 0) >= 2
        ):
            phrases[words_of] = chosen
    phrases.update({tuple(stem(w) for w in spelt.split()): owner[m] for spelt, m in _TYPED_PHRASES})
    phrase_table: dict[str, list[tuple[tuple[str, ...], Operation]]] = {}
    for words_of, chosen in phrases.items():
        phrase_table.setdefault(words_of[0], []).append((words_of, chosen))
    for v in phrase_table.values():
        v.sort(key=lambda e: -len(e[0]))
    turned: dict[str, list[tuple[str, Operation]]] = {}
    for words_of, chosen in phrases.items():
        if len(words_of) == 2:
            turned.setdefault(words_of[1], []).append((words_of[0], chosen))
    # the protocol's heading ("With Statement Context Managers"): its two terms
    cm_title = [stem(w.lower()) for w in _WORD.findall(heading.get("__enter__", ""))]
    with_phrases = [tuple(cm_title[k : k + 2]) for k in range(0, len(cm_title) - 1, 2)]
    with_phrases += [tuple(stem(w) for w in p.split()) for p in _WITH_TYPED]
    names = {op.name for op in ops}
    return _Tables(
        operations=tuple(ops),
        code=code,
        phrases=phrase_table,
        reversed=turned,
        words=words,
        anywhere=anywhere,
        jargon=frozenset(stem(c) for c in cores if plain.get(c, 0) == 0),
        forms=forms,
        keywords={k: owner[m] for k, m in _KEYWORDS.items()},
        with_phrases=tuple(dict.fromkeys(with_phrases)),
        enter=frozenset(stem(w) if "_" not in w else w for w in ("enter", *_ENTER)),
        exit=frozenset(stem(w) if "_" not in w else w for w in ("exit", *_EXIT)),
        twin={op.name[1:]: op for op in ops if op.name.startswith("a") and op.name[1:] in names},
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
        while j < min(i + 3, len(words)) and words[j] in _ARTICLES:
            j += 1
        if j < len(stems) and stems[j] == head and j not in obj:
            return j + 1, op
    return None


def _spans(words: Sequence[str], stems: Sequence[str], i: int, phrase: tuple[str, ...]) -> int:
    """One past the phrase's last word when it starts at `i`, a function word allowed between two
    of its words ("assign a key"); else 0."""
    j = i
    for k, s in enumerate(phrase):
        if k and j < len(stems) and stems[j] != s and words[j] in _ARTICLES:
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
        if j in objects or words[j] in _PRONOUNS:
            return True
        if words[j] not in STOP and words[j] not in _ACROSS:
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
