"""Members of base classes from Python itself (builtins and a few standard-library modules).

A repository class often inherits from `dict`, `Exception` or
`typing.MutableMapping`: the index holds none of their members, but Python
does, exactly. `members("typing.MutableMapping[str, str]")` names them, so a
question about `Cookies.pop` can say "inherited from `MutableMapping`, outside
the repository" instead of guessing. Only modules in `SAFE_MODULES` are ever
imported (standard library, no side effects on import); anything else is
unknown (None). May import: stdlib only.
"""

from __future__ import annotations

import builtins
import importlib
from functools import lru_cache

SAFE_MODULES = frozenset(
    {
        "typing",
        "collections",
        "collections.abc",
        "abc",
        "enum",
        "numbers",
        "io",
        "os",
        "pathlib",
        "contextlib",
        "threading",
        "json",
        "argparse",
        "logging",
        "datetime",
        "decimal",
        "fractions",
        "string",
        "types",
        "weakref",
        "queue",
        "dataclasses",
        "functools",
        "http.cookiejar",
        "http.client",
        "email.message",
        "urllib.parse",
        "unittest",
        "asyncio",
        "socket",
        "ssl",
        "re",
        "array",
        "codecs",
        "configparser",
    }
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
    `t.Mapping` (None when it is not a builtin or a class of `SAFE_MODULES`)."""
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
            if mod in SAFE_MODULES:
                try:
                    obj = getattr(importlib.import_module(mod), attr, None)
                except ImportError:
                    obj = None
                if obj is not None:
                    break
    origin = getattr(obj, "__origin__", None)
    if isinstance(origin, type):
        obj = origin
    return obj if isinstance(obj, type) else None
