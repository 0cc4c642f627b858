"""The one token count used everywhere: retrieval's packing, the context plan, navigation's
excerpts and sites, the map (stdlib only)."""

from __future__ import annotations

import math


def count_tokens(text: str) -> int:
    """About four characters a token (what every budget counts)."""
    return max(1, math.ceil(len(text) / 4))
