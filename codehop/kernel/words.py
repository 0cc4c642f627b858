"""Words for lexical search: identifiers split on snake_case and camelCase (stdlib only)."""

from __future__ import annotations

import keyword
import re
from functools import lru_cache

# what a name in an expression can be that is no declaration: Python's keywords (`None`, `not`,
# `lambda`, ...: the language's own list) and the receivers `self` and `cls`
CODE_LITERALS = frozenset(keyword.kwlist) | {"self", "cls"}
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
# unicode61 would not split out, with patterns that start on a rare character (a fast scan): a run
# with an uppercase letter, found at its first one (`_UPPER_TAIL` takes the rest of the run) and
# widened back over what precedes it; a run whose identifier has no letter (`_1`, digits after
# underscores), found at an underscore before a digit (rare)
_UPPER_TAIL = re.compile(r"[A-Z][A-Za-z0-9_]*+")
_UNDERSCORE_DIGIT = re.compile(r"_[0-9]")
_RUN_END = re.compile(r"[A-Za-z0-9_]*+")
_RUN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
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
    runs: set[str] = set()
    chars = _RUN_CHARS
    for m in _UPPER_TAIL.finditer(text):
        start = m.start() - 1
        if start < 0 or text[start] not in chars:
            runs.add(m.group())
            continue
        while start > 0 and text[start - 1] in chars:
            start -= 1
        runs.add(text[start : m.end()])
    if "_" in text:
        for m in _UNDERSCORE_DIGIT.finditer(text):
            start = m.start()
            while start > 0 and text[start - 1] in chars:
                start -= 1
            runs.add(text[start : _RUN_END.match(text, m.start()).end()])  # type: ignore[union-attr]
    return runs


def index_words(text: str) -> str:
    """What FTS5 indexes for a chunk: its text (unicode61 lowercases it and splits snake_case,
    keeping term frequencies), then the camelCase parts it would not split (`HTTPTransport` ->
    http transport), once each."""
    extra = index_extra(text)
    return f"{text} {extra}" if extra else text


def index_extra(text: str) -> str:
    """The part of `index_words(text)` after the text: the camelCase parts, once each, sorted
    ('' when none). A parse worker sends this, not the text a second time."""
    return " ".join(sorted(set().union(*map(_extra_parts, _cased_runs(text)))))
