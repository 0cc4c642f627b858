"""The language servers codehop knows by name; stdlib only, so naming one does not load pygls."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

SERVERS: Final[Mapping[str, list[str]]] = {
    "basedpyright": ["basedpyright-langserver", "--stdio"],
    "jedi": ["jedi-language-server"],
}
