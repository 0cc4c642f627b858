"""A small HTTP-ish library whose pointers need inference."""

from .client import Client
from .connection import HTTPConnection, WebSocket


def __getattr__(name: str) -> object:
    if name == "OldClient":
        from .client import Client as _Client

        return _Client
    raise AttributeError(name)
