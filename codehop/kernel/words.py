"""Words for lexical search: identifiers split on snake_case and camelCase (stdlib only)."""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import repeat
from operator import add, getitem

# English function words and the filler of a request ("show", "tell me", "actually"): never a
# search term (retrieval), and never a question's subject by itself (the reader adds the rest of
# the function words to these, in codehop.reading.question_words)
STOP = frozenset(
    """a an and are as at be by can do does did for from how i if in into is it its me my of on or so
    that the their them then there these this to was what when where which who why will with you your
    show tell give has have had any some actually really much many i'm im""".split()
)
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


@lru_cache(maxsize=65536)
def _word_parts(ident: str) -> tuple[str, ...]:
    parts = {ident.lower()}
    if "_" in ident or not ident.islower():
        for piece in ident.split("_"):
            parts.update(p.lower() for p in _CAMEL.findall(piece))
    return tuple(parts)


def word_parts(ident: str) -> tuple[str, ...]:
    """An identifier lowercased, with its snake_case and camelCase parts (`AsyncBaseTransport` ->
    asyncbasetransport, async, base, transport)."""
    return _word_parts(ident)


def split_identifiers(text: str) -> str:
    """Identifiers lowercased, each also split on snake_case and camelCase."""
    out: set[str] = set()
    for ident in set(_IDENT.findall(text)):
        out.update(_word_parts(ident))
    return " ".join(sorted(out))


# index_words finds only the identifier runs (maximal runs of [A-Za-z0-9_]) that can have parts
# unicode61 would not split out, with patterns that start on a rare character (a fast scan):
# - a run with an uppercase letter: from its first uppercase to its end (`_UPPER_TAIL`), and, in the
#   reversed text, its first uppercase with what precedes it in the run (`_UPPER_HEAD`), reversed;
#   one of each per such run, in order, so the k-th tail and the k-th head from the end make a run;
# - a run whose identifier has no letter, digits after underscores (`_1`): at an underscore before a
#   digit (`_UNDERSCORE_DIGIT`), rare, widened to its run.
_UPPER_TAIL = re.compile(r"[A-Z][A-Za-z0-9_]*+")
_UPPER_HEAD = re.compile(r"[A-Z][a-z0-9_]*+(?![A-Za-z0-9_])")
_UNDERSCORE_DIGIT = re.compile(r"_[0-9]")
_RUN_END = re.compile(r"[A-Za-z0-9_]*+")
_RUN_START = re.compile(r"[A-Za-z0-9_]*+")
_DIGITS = "0123456789"


@lru_cache(maxsize=65536)
def _extra_parts(run: str) -> tuple[str, ...]:
    """The parts of the identifier in a run (the run less its leading digits) that unicode61 would
    not split out: none for one in a single case."""
    ident = run.lstrip(_DIGITS)
    if not ident or ident.islower() or ident.isupper():
        return ()
    return tuple(p for p in _word_parts(ident) if "_" not in p)


def _cased_runs(text: str) -> set[str]:
    """The identifier runs of `text` with an uppercase letter, and those holding `_<digit>`."""
    tails = _UPPER_TAIL.findall(text)
    runs: set[str] = set()
    if tails:
        heads = _UPPER_HEAD.findall(text[::-1])
        heads.reverse()
        runs.update(map(add, map(getitem, heads, repeat(_BEFORE_FIRST)), tails))
    if "_" in text:
        for m in _UNDERSCORE_DIGIT.finditer(text):
            start = m.start()
            before = _RUN_START.match(text[start::-1]).end()  # type: ignore[union-attr]
            end = _RUN_END.match(text, start).end()  # type: ignore[union-attr]
            runs.add(text[start - before + 1 : end])
    return runs


_BEFORE_FIRST = slice(None, 0, -1)  # a reversed head, less its uppercase letter, back in order


def index_words(text: str) -> str:
    """What FTS5 indexes for a chunk: its text (unicode61 lowercases it and splits snake_case,
    keeping term frequencies), then the camelCase parts it would not split (`HTTPTransport` ->
    http transport), once each."""
    extra = set().union(*map(_extra_parts, _cased_runs(text)))
    return f"{text} {' '.join(sorted(extra))}" if extra else text
