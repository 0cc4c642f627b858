"""What Python's own reference says about each special method: the words that describe it.

Read at first use from what ships with Python: the language reference (`pydoc_data.topics`: each
`object.__x__(...)` entry of "Special method names", its section heading, the first sentence of a
paragraph of another topic that names it), the runtime's one-line docstrings of the slot methods
(`int.__floordiv__`: "Return self//value."), and the methods' names. `derive` groups the methods
into operations (the caller gives the groups Python's lookup order makes) and returns, for each
cue (code, one stem, a phrase of two stems), the operation it names, with the rules in
`datamodel.py`'s docstring. Nothing here is typed vocabulary.

May import: stdlib, question_words (STOP), index.terms.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from codehop.index.terms import stem
from codehop.reading.question_words import STOP


@dataclass(frozen=True, slots=True)
class Operation:
    name: str
    methods: tuple[str, ...]  # the special methods, in Python's lookup order
    every: bool = False  # True: every method present answers (both sides of a protocol)


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


def _groups(order: list[str], lookup: Sequence[tuple[str, ...]]) -> list[tuple[str, ...]]:
    known = {g[0] for g in lookup}
    groups: list[tuple[str, ...]] = list(lookup)
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


@dataclass(frozen=True, slots=True, kw_only=True)
class Derived:
    """The reference's cues, each with the operation it names."""

    operations: tuple[Operation, ...]
    owner: Mapping[str, Operation]  # a special method -> the operation its words name
    code: Mapping[str, Operation]  # dunder names, operator symbols, built-ins written as code
    words: Mapping[str, Operation]  # one stem
    phrases: Mapping[tuple[str, ...], Operation]  # two stems
    jargon: frozenset[str]  # method names the reference never writes as plain words (repr, init)
    headings: Mapping[str, str]  # a special method -> its section heading


def derive(lookup: Sequence[tuple[str, ...]], every: tuple[str, ...], sides: frozenset[str]) -> Derived:
    """The operations (`lookup`'s groups first, every other special method of the reference an
    operation of its own), and their cues. `every`: the group whose methods all answer (a
    protocol's sides); `sides`: methods whose words name no operation (a context manager's)."""
    sentences, order, heading, general, plain = _reference()
    ops = [Operation(g[0].strip("_"), g, every=g == every) for g in _groups(order, [*lookup, every])]
    owner: dict[str, Operation] = {op.methods[0]: op for op in ops}
    for op in ops:  # a variant's words name the operation that lists it first
        for m in op.methods:
            owner.setdefault(m, op)
    cores = [m[2:-2] for m in owner]
    cues = _Cues()
    for m, op in owner.items():
        if m not in sides:
            _method_cues(cues, m, op, cores, sentences.get(m, ()))
    headed = _heading_cues(cues, heading, owner)
    rank = {m: i for i, m in enumerate(order)}

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
    return Derived(
        operations=tuple(ops),
        owner=owner,
        code=code,
        words=words,
        phrases=phrases,
        jargon=frozenset(stem(c) for c in cores if plain.get(c, 0) == 0),
        headings=heading,
    )


def _method_cues(cues: _Cues, m: str, op: Operation, cores: list[str], sentences: Iterable[tuple[int, str]]) -> None:
    cues.name(m, op, cores)
    slot_code, slot_prose = _slot_cues(_slot_doc(m))
    for c in slot_code:
        cues._put(cues.code, c, op, _NAME)  # the runtime says which method: "Return self//value."
    # the slot docstring's last word is what the operation works on ("Helper for pickle.",
    # "Default object formatter.", "Initialize self.")
    cues.sentence(next((w for w in reversed(_WORD.findall(slot_prose)) if w.lower() not in STOP), ""), op, _FIRST)
    for strength, text in sentences:
        if op.every:  # a protocol's sides are named by the protocol ("descriptor") and their dunders
            cues.sentence(text, op, _REST, phrases=False)
            continue
        # a variant's statement ("Called unconditionally to implement attribute accesses") names
        # its operation by phrases only
        cues.sentence(text, op, strength if m == op.methods[0] else _SECOND, phrases=strength <= _FIRST)


def _heading_cues(cues: _Cues, heading: Mapping[str, str], owner: Mapping[str, Operation]) -> set[str]:
    """A section heading that holds one operation ("Implementing Descriptors", "Emulating callable
    objects") names it; a section of a variant alone ("Emulating generic types") does not. The
    stems the headings give."""
    by_title: dict[str, set[Operation]] = {}
    firsts: set[str] = set()
    for m, title in heading.items():
        by_title.setdefault(title, set()).add(owner[m])
        if m == owner[m].methods[0]:
            firsts.add(title)
    headed: set[str] = set()
    for title, held in by_title.items():
        if len(held) == 1 and title in firsts:
            cues.sentence(title, next(iter(held)), _FIRST)
            headed.update(_stems(title))
    return headed
