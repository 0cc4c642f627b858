"""Ping side of a mutually recursive pair."""

from graphpkg import b


def ping(n):
    """Bounce ``n`` to :func:`graphpkg.b.pong` until it reaches zero."""
    return b.pong(n - 1) if n else 0
