"""Members of base classes from Python itself (builtins and a few standard-library modules).

A repository class often inherits from `dict`, `Exception` or
`typing.MutableMapping`: the index holds none of their members, but Python
does, exactly. `members("typing.MutableMapping[str, str]")` names them, so a
question about `Cookies.pop` can say "inherited from `MutableMapping`, outside
the repository" instead of guessing. Only the standard library's public
modules are ever imported (`sys.stdlib_module_names`, less the few that act
when imported); anything else is unknown (None). May import: stdlib only.
"""

from __future__ import annotations

import builtins
import importlib
import sys
import warnings
from functools import lru_cache

# the standard library modules that act when imported (print, open a browser, start a program):
# never imported; a private module (`_socket`) or a `__main__` is not a base's home either
_ACTS_ON_IMPORT = frozenset({"this", "antigravity", "idlelib", "turtledemo"})


def safe_module(name: str) -> bool:
    """Whether `name` is a public module of Python's standard library (`sys.stdlib_module_names`)
    that only defines things when imported."""
    parts = name.split(".")
    return (
        parts[0] in sys.stdlib_module_names
        and parts[0] not in _ACTS_ON_IMPORT
        and not any(p.startswith("_") or not p.isidentifier() for p in parts)
    )


@lru_cache(maxsize=1024)
def overrides(written: str, name: str) -> bool | None:
    """Whether the base defines `name` itself, not only as `object`'s default (`dict.__repr__` yes,
    `dict.__reduce_ex__` no: pickling then falls through to `__getstate__`). None when unknown."""
    obj = _resolve(written)
    if obj is None:
        return None
    mine = getattr(obj, name, None)
    return mine is not None and mine is not getattr(object, name, None)


@lru_cache(maxsize=256)
def members(written: str) -> frozenset[str] | None:
    """The attribute names of a base written as `dict`, `typing.MutableMapping[str, str]`,
    `t.Mapping` (None when it is not a builtin or a class of a standard library module)."""
    obj = _resolve(written)
    if obj is None:
        return None
    try:
        return frozenset(dir(obj))
    except Exception:  # a hostile __dir__ cannot happen on these, but never let it escape
        return None


@lru_cache(maxsize=256)
def _resolve(written: str) -> type | None:
    name = written.split("[", 1)[0].strip()
    module, _, attr = name.rpartition(".")
    obj: object | None = None
    if not module:
        obj = getattr(builtins, attr, None)
        if obj is None:
            for mod in ("typing", "collections.abc", "abc"):
                obj = getattr(importlib.import_module(mod), attr, None)
                if obj is not None:
                    break
    else:
        aliases = {"t": "typing", "abc": "collections.abc", "cabc": "collections.abc"}
        for mod in (module, aliases.get(module, ""), module.rpartition(".")[2]):
            if mod and safe_module(mod):
                try:
                    with warnings.catch_warnings():  # a deprecated module (`cgi`) warns when imported
                        warnings.simplefilter("ignore")
                        obj = getattr(importlib.import_module(mod), attr, None)
                except ImportError:
                    obj = None
                if obj is not None:
                    break
    origin = getattr(obj, "__origin__", None)
    if isinstance(origin, type):
        obj = origin
    return obj if isinstance(obj, type) else None
