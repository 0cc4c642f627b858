"""The words of a question: tokens with how each was written, and the reader's word lists.

`tokenize()` is one regex without nested repetition plus O(1) checks per token
(backtick parity, quotes, a call's parenthesis, a possessive), so reading a
question is linear in its length. `STOP` (English function words) and
`VOCABULARY` (the words of the questions the reader answers) place the
intent, never the subject; neither hides a real member of a class the
question names (question.py looks every word up first). `STOP` is the
`stopwords` package's English list and the few words of asking it lacks, and
the search's stop words too (retrieval drops them); the cue lists (`Cues`) hold stems, matched
through the index's stemmer. May import: kernel.words, records (Intent), index.terms, stopwords, stdlib.
"""

from __future__ import annotations

import ast
import keyword
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from codehop.index.terms import abbreviates, is_word, stem
from codehop.kernel.records import ChunkKind, Intent
from codehop.kernel.words import CODE_LITERALS

# one alternative per token kind, none nested: no backtracking, linear in the text
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:[./][A-Za-z_][A-Za-z0-9_]*)*|==|!=|<=|>=|\+=|[-+*/|&<>]")


class Cues:
    """A cue list matched by stem, through the normalisation the index's terms use (Snowball
    English, `codehop.index.terms.stem`): one entry stands for its inflections ("call" matches
    calls, called, calling; not "caller", a word of its own). A phrase matches word by word.
    `words & cues` and `cues & words` are the words that match. Where one inflection reads
    differently from the others ("the implementations of X" are its overrides; "the implementation
    of X" is X), that word is given `exact`: matched as written only. The words given
    `abbreviated` also match a prefix of theirs that is no dictionary word, the index's rule for
    identifier parts (`terms.abbreviates`): "arg", "params", "async"."""

    __slots__ = ("abbreviated", "exact", "stems")

    def __init__(self, words: Iterable[str], *, exact: Iterable[str] = (), abbreviated: bool = False) -> None:
        words = tuple(words)
        self.stems = frozenset(_stem_phrase(w) for w in words)
        self.exact = frozenset(exact)
        self.abbreviated = frozenset(words) if abbreviated else frozenset()

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        if word in self.exact or _stem_phrase(word) in self.stems:
            return True
        return bool(self.abbreviated) and _abbreviates_one(word, self.abbreviated)

    def __and__(self, words: Iterable[str]) -> set[str]:
        return {w for w in words if w in self}

    __rand__ = __and__

    def __or__(self, other: Cues) -> Cues:
        out = Cues(())
        out.stems = self.stems | other.stems
        out.exact = self.exact | other.exact
        out.abbreviated = self.abbreviated | other.abbreviated
        return out


@lru_cache(maxsize=4096)
def _abbreviates_one(word: str, spelt: frozenset[str]) -> bool:
    low = word.lower()
    if not low.isalpha() or is_word(low):
        return False
    short = stem(low)  # ("params": the plural of "param")
    # a prefix, the first of the index's two rules (`terms.abbreviates`): a consonant skeleton of a
    # question's word is too loose ("asc" is no "asynchronous")
    return len(short) >= 3 and any(w.startswith(short) and abbreviates(short, w) for w in spelt)


# British -ise spelt as -ize before stemming ("specialise", "serialised", "initialising"), for cues
# and the words matched against them alike
_SPELT_IZE = re.compile(r"(?<=[a-z]{4})is(?=(?:e|ed|es|ing|ation|ations)$)")


@lru_cache(maxsize=65536)
def _stem_phrase(text: str) -> str:
    return " ".join(stem(_SPELT_IZE.sub("iz", w)) for w in text.lower().split())


def _library_stop() -> tuple[str, ...]:
    """The English stop words of the `stopwords` package: the classic 174-word list."""
    from stopwords import get_stopwords

    return tuple(get_stopwords("english"))


_LIBRARY_STOP = _library_stop()
# English function words: never a subject by themselves (they can still be a member's name), and
# never a search term (retrieval drops them). The library's list, each contraction also cut where
# the tokenizer cuts it ("don't" -> don, t) and its `'s` and `'m` forms as people type them without
# the apostrophe ("whats", "wheres", "im"); then the requests, adverbs, modals and fillers it lacks
# (each measured: without it an answer changes)
REQUESTS = frozenset("show tell give".split())  # a request's verb: "show me the callers of X"
# adverbs a question adds to a verb ("where is X actually defined", "X ends up calling")
ADVERBS = frozenset("ever actually really still directly all also eventually ultimately exactly currently".split())
MODALS = frozenset("can will may might must shall".split())  # (they open a question: "can I", "will it")
_UNLISTED = REQUESTS | ADVERBS | MODALS | frozenset("whose just supposed".split())
# the auxiliaries: the verbs English negates with "n't" ("isn't", "doesn't", "couldn't"), as the
# library spells them: are could did do does had has have is should was were would
_NEGATED = tuple(w for w in _LIBRARY_STOP if w.endswith("n't"))  # the library's n't forms
AUXILIARIES = frozenset(w[:-3] for w in _NEGATED if w[:-3] in _LIBRARY_STOP)
STOP = (
    frozenset(p for w in _LIBRARY_STOP for p in w.split("'") if p)
    | frozenset(w.replace("'", "") for w in _LIBRARY_STOP if w.endswith(("'s", "'m")))
    | _UNLISTED
)
# the words a question opens with: the wh-words and "how" ("what's", "whats", "whose" too), and the
# auxiliaries and modals that open one ("does it", "can I"; not "have", which opens a request too)
INTERROGATIVES = (
    frozenset(w for w in STOP if w.startswith(("wh", "how")) and w != "while")
    | (AUXILIARIES - {"had", "has", "have"})
    | MODALS
)
ARTICLES = frozenset({"a", "an", "the"})
# the kinds a question names its subject by ("the method that ...", "which classes ...", "the
# timeout setting"): the kinds of chunk the index stores, the kinds of member it tells apart, and
# the words that name one of them (a kind's own name names it; `reading.intent.KIND_WORDS` stems them)
KIND_NAMES: dict[str, tuple[str, ...]] = {
    **{k.value: () for k in ChunkKind},
    ChunkKind.FUNCTION.value: ("helper", "decorator"),
    "attribute": ("property", "flag", "setting", "constant"),
    "test": (),
    "exception": ("error",),
}
# the words that name a kind of member: a function or an attribute ("the send helper", "the
# timeout setting")
MEMBER_KIND_WORDS = frozenset(w for kind in (ChunkKind.FUNCTION.value, "attribute") for w in (kind, *KIND_NAMES[kind]))
# the words a question names any declaration by ("the name X", "the member X"), and any value
# ("X object", "what kind of object is X")
NAME_WORDS = frozenset({"name", "member"})
VALUE_WORDS = frozenset({"object", "kind"})
BE = frozenset("be is are was were".split())  # the forms of "be" a question asks with
KEYWORDS = CODE_LITERALS  # Python's keywords (`await`, `async` among them), `self` and `cls`
# a question that asks for a default ("the default timeout", "what does it default to")
DEFAULT_WORDS = Cues(["default"])
_RETURN = Cues(["return"])
_USE = Cues(["use"])
# what uses a name: "where is X used", "what reads X", "the references to X"
USE_WORDS = _USE | Cues(["refer", "read"])
# The words that ask for an intent besides the intent's own name ("raises", "value", "type", "how"),
# by stem: `reading.intent.INTENTS` reads them, in its order.
ASKS: dict[Intent, Cues] = {
    Intent.RAISES: Cues(["throw"]),
    Intent.INHERITED: Cues(["superclass", "mro"]),
    Intent.VALUE: DEFAULT_WORDS | Cues(["constant", "set"]),
    Intent.TYPE: _RETURN | Cues(["annotation"]),
    Intent.CALLEES: Cues(["call"]) | _USE,
    Intent.HOW: Cues(["happen", "work"]),
    Intent.DEFINITION: Cues(["define", "declare", "locate", "live", "implement"]),
}


def asks(intent: Intent) -> Cues:
    """The words that ask for `intent`: its name and `ASKS`."""
    return Cues([intent.value]) | ASKS.get(intent, Cues(()))


def _names(*intents: Intent) -> Cues:
    """The intents' own names, by stem ("subclasses", "inherited", "overrides")."""
    return Cues(i.value for i in intents)


# a class's words: its kind, its bases and subclasses ("the base class of X", "what X inherits")
CLASS_WORDS = Cues([ChunkKind.CLASS.value, "base", "parent"]) | _names(Intent.SUBCLASSES) | asks(Intent.INHERITED)
CONTEXT_WORDS = Cues([ChunkKind.MODULE.value, "package", "file", "submodule"])
ORIGIN_WORDS = Cues(["come", "import"])  # where a name comes from: "where does X come from", "imported"
# a question about what a callable takes: of a class, its constructor's parameters are asked
# ("arg" and "params" abbreviate its nouns)
SIGNATURE_WORDS = Cues("signature take accept".split()) | Cues(["argument", "parameter"], abbreviated=True)
# an override, its irregular participle too ("where is X overridden")
OVERRIDE_WORDS = _names(Intent.OVERRIDES) | Cues(["overridden"])
# what only a callable, a class or a value has: a module alone does not answer them ("what does
# tenacity retry on by default?" is not answered by the module `tenacity.retry`)
MEMBER_ASPECTS = (
    DEFAULT_WORDS
    | _RETURN
    | OVERRIDE_WORDS
    | _names(Intent.RAISES, Intent.INHERITED, Intent.SUBCLASSES)
    | SIGNATURE_WORDS
)
ASYNC_WORDS = Cues(["asynchronous"], abbreviated=True) | Cues(["await"])  # ("async" abbreviates it)
# The words of the questions the reader answers (where is X declared, what is its signature,
# its default, its base class, what happens when it runs): they place the intent, never the
# subject. The cue lists above, and the words of asking they leave out (by stem).
VOCABULARY = (
    Cues("get source behind point hold expose export write keep behave want need".split())
    | Cues(NAME_WORDS | VALUE_WORDS)
    | USE_WORDS
    | Cues(k.value for k in ChunkKind)
    # (a member's kind by what Python calls it; not the words of a role, "flag", "setting",
    # "helper", which describe a subject: "the debug flag")
    | Cues(["attribute", "property"])
    | ORIGIN_WORDS
    | Cues(REQUESTS)
    | CLASS_WORDS
    | CONTEXT_WORDS
    | MEMBER_ASPECTS  # (the default and the signature words among them)
    | asks(Intent.DEFINITION)
    | asks(Intent.VALUE)
    | asks(Intent.TYPE)
    | asks(Intent.RAISES)
    | ASKS[Intent.CALLEES]
    | ASKS[Intent.HOW]
)


@dataclass(slots=True)
class Token:
    text: str  # as written; a path `pkg/mod.py` becomes `pkg.mod`
    low: str
    index: int  # position among the question's words
    quoted: bool = False  # inside backticks or quotes
    call: bool = False  # followed by `(`
    possessive: bool = False  # followed by `'s`
    path: bool = False
    result_member: bool = False  # written after a call or a subscript (`get_console().print_json`)
    argument: bool = False  # inside the parentheses of a call written in the question (`decode(self.content)`)
    splat: bool = False  # written `*args` / `**kwargs`: a packing of arguments, not a name asked about
    keyword: bool = False  # written `name=` (a keyword argument), not `name ==`
    bound: bool = False  # assigned in quoted code (`render_options = self.options.update(...)`)
    operand: bool = False  # a bare name in a quoted expression with an operator (`key in cache`): a placeholder
    receiver: bool = False  # called, and a member of its result is named (`get_width(x).normalize()`)
    callee: int = -1  # for an argument: the index of the call token whose parentheses hold it
    initial: bool = False  # the first word of the question or of a sentence in it ("Where ...", "... ? Show")
    span: int = -1  # which backtick span holds it (-1: none)
    negated: bool = False  # a name whose call the question says is not made ("if I never call configure()")

    @property
    def named(self) -> bool:
        """Capitalised inside a sentence ("compare two Origin objects"): written as a name, so a word
        the reader's lists hold ("origin", "type") is still looked up, case and all."""
        return self.text[0].isupper() and not self.initial and "." not in self.text

    @property
    def code(self) -> bool:
        """Written the way code is: quoted, dotted, snake_case, camelCase, or called."""
        t = self.text
        return (
            self.quoted
            or self.call
            or self.path
            or self.result_member
            or "." in t
            or "_" in t
            or any(c.isupper() for c in t[1:])
            and any(c.islower() for c in t)
        )

    @property
    def word(self) -> bool:
        return self.text[0].isalpha() or self.text[0] == "_"


def tokenize(question: str) -> list[Token]:
    """The question's words, in order, each with how it was written. Linear in the length."""
    ticks = [i for i, c in enumerate(question) if c == "`"]
    in_args, closing = _call_arguments(question)
    opened: list[tuple[int, int]] = []  # (position of a call's `(`, index of its callee token)
    out: list[Token] = []
    k = 0
    n = len(question)
    for m in _TOKEN.finditer(question):
        start, end = m.start(), m.end()
        while k < len(ticks) and ticks[k] < start:
            k += 1
        text = m.group()
        before = question[start - 1] if start > 0 else ""
        after = question[end] if end < n else ""
        # `name`, 'name', "name", and a name given alone in parentheses ("an overlay (overlayed)")
        quoted = (
            k % 2 == 1
            or (before in "'\"" and before != "" and after == before)
            or (before == "(" and after == ")" and not in_args[start])
        )
        if not (text[0].isalpha() or text[0] == "_"):
            # an operator symbol stands alone (`+`, "a | b", "with &?"), never inside a literal
            # ('>=1') or a word ("ByteStream - what", a dash, is never an operator unquoted)
            alone = before in " `(" and (after in " `)?.,;:!" or after == "")
            if not alone or (text == "-" and not quoted):
                continue
        path = False
        if "/" in text:
            path = True
            text = text[:-3] if text.endswith(".py") else text
            text = text.replace("/", ".")
        elif text.endswith(".py") and text.count(".") >= 1 and end < n and question[end : end + 1] in " ,?;:)":
            text, path = text[:-3], True
        rest = question[end : end + 3]
        while opened and closing.get(opened[-1][0], n) < start:
            opened.pop()
        callee = opened[-1][1] if opened and in_args[start] else -1
        if rest.startswith("(") and end in closing:
            opened.append((end, len(out)))
        out.append(
            Token(
                text=text,
                low=text.lower(),
                index=len(out),
                quoted=quoted,
                call=rest.startswith("("),
                path=path,
                result_member=start >= 2 and question[start - 1] == "." and question[start - 2] in ")]",
                possessive=rest[:2] in ("'s", "\u2019s"),
                argument=in_args[start],
                splat=before == "*",
                keyword=rest[:1] == "=" and rest[1:2] != "=",
                bound=_assigned(question, end),
                callee=callee,
                initial=not out or _mark_before(question, start) in ".?!:;\"'`(-",
                span=k // 2 if k % 2 == 1 else -1,
                receiver=rest.startswith("(")
                and closing.get(end, n) + 2 < n
                and question[closing.get(end, n) + 1] == "."
                and (question[closing[end] + 2].isalpha() or question[closing[end] + 2] == "_"),
            )
        )
    # the lowercase names of a quoted expression built with an operator (`key in cache`, `del table[key]`,
    # `a == b`) stand for values, not for declarations the question asks about (a class name stays one)
    with_operator = {t.span for t in out if t.span >= 0 and (t.low in _OPERATOR_WORDS or not t.word)}
    for t in out:
        if (
            t.span in with_operator
            and t.word
            and "." not in t.text
            and not t.call
            and not t.text[0].isupper()
            and t.low not in _OPERATOR_WORDS
        ):
            t.operand = True
    # "if I never call configure()", "without calling setup": the call is a condition the question
    # rules out, so the name says what does not happen, not what is asked
    for t in out:
        j = t.index - 1
        while j >= 0 and out[j].low in ARTICLES:
            j -= 1
        if t.word and t.code and j >= 1 and out[j].low in _CALL_VERBS:
            t.negated = any(u.low in NEGATIONS for u in out[max(0, j - 3) : j])
    return out


# Python's keywords that stand inside an expression: the operators (`in`, `not`, `is`, `and`, `or`)
# and the expressions and contexts written with a keyword (`await`, `del`, `lambda`, `yield`)
_OPERATOR_WORDS = frozenset(
    k
    for k in keyword.kwlist
    if any(
        k == c.__name__.lower()
        for base in (ast.boolop, ast.unaryop, ast.cmpop, ast.expr, ast.expr_context)
        for c in base.__subclasses__()
    )
)
_CALL_VERBS = ASKS[Intent.CALLEES] | Cues(["invoke", "run"])
# "never", "without", and the negated auxiliaries as the tokenizer cuts them ("don't" -> don; a
# part that is a word of its own, "can" of "can't", says nothing by itself)
NEGATIONS = frozenset({"never", "not", "no", "without"}) | frozenset(
    w.split("'")[0] for w in _NEGATED if w.split("'")[0] not in _UNLISTED
)


def _mark_before(question: str, start: int) -> str:
    """The last non-blank character before `start`: scans only the gap since the previous token."""
    j = start - 1
    while j >= 0 and question[j].isspace():
        j -= 1
    return question[j] if j >= 0 else ""


def _assigned(question: str, end: int) -> bool:
    """`name = value` (one space each side, as code is written), not `name == value` nor `name=`."""
    return question[end : end + 3] == " = " and question[end + 3 : end + 4] not in ("=", "")


def _call_arguments(question: str) -> tuple[list[bool], dict[int, int]]:
    """For each character: inside the (matched) parentheses of a call, `name(...)`; and for each
    call's opening parenthesis, where it closes. Linear."""
    n = len(question)
    depth = [0] * (n + 1)
    closing: dict[int, int] = {}
    stack: list[tuple[int, bool]] = []
    for i, c in enumerate(question):
        if c == "(":
            j = i - 1
            stack.append((i, j >= 0 and (question[j].isalnum() or question[j] in "_)]")))
        elif c == ")" and stack:
            start, call = stack.pop()
            closing[start] = i
            if call:
                depth[start + 1] += 1
                depth[i] -= 1
    out: list[bool] = []
    level = 0
    for i in range(n):
        level += depth[i]
        out.append(level > 0)
    out.append(False)
    return out, closing
