"""Words for lexical search: identifiers split on snake_case and camelCase (stdlib only)."""

from __future__ import annotations

import re
from functools import lru_cache

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


@lru_cache(maxsize=65536)
def _word_parts(ident: str) -> tuple[str, ...]:
    parts = {ident.lower()}
    if "_" in ident or not ident.islower():
        for piece in ident.split("_"):
            parts.update(p.lower() for p in _CAMEL.findall(piece))
    return tuple(parts)


def split_identifiers(text: str) -> str:
    """Identifiers lowercased, each also split on snake_case and camelCase."""
    out: set[str] = set()
    for ident in set(_IDENT.findall(text)):
        out.update(_word_parts(ident))
    return " ".join(sorted(out))


_PARTS: dict[str, str] = {}


def index_words(text: str) -> str:
    """Every identifier occurrence, lowercased, followed by its snake/camel parts.

    Multiplicity is kept, so BM25 sees term frequencies; FTS5 indexes this
    instead of the raw text (unicode61 would not split camelCase).
    """
    parts = _PARTS
    out = []
    for ident in _IDENT.findall(text):
        words = parts.get(ident)
        if words is None:
            split = _word_parts(ident)
            low = ident.lower()
            words = " ".join([low, *sorted(w for w in split if w != low)])
            if len(parts) < 200_000:
                parts[ident] = words
        out.append(words)
    return " ".join(out)
