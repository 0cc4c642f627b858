"""Exports made lazily through a literal mapping read by the module's __getattr__."""

import importlib

_LAZY = {
    "Headers": ".models",
    "join": ("._pure", "join_parts"),
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        where = _LAZY[name]
        module, attr = (where, name) if isinstance(where, str) else where
        return getattr(importlib.import_module(module, "wire"), attr)
    raise AttributeError(name)
