"""Words for lexical search: identifiers split on snake_case and camelCase (stdlib only)."""

from __future__ import annotations

import re
from functools import lru_cache

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


def index_words(text: str) -> str:
    """What FTS5 indexes for a chunk: its text (unicode61 lowercases it and splits snake_case,
    keeping term frequencies), then the camelCase parts it would not split (`HTTPTransport` ->
    http transport), once each."""
    extra: set[str] = set()
    for ident in set(_IDENT.findall(text)):
        if not ident.islower() and not ident.isupper():
            extra.update(p for p in _word_parts(ident) if "_" not in p)
    return f"{text} {' '.join(sorted(extra))}" if extra else text
