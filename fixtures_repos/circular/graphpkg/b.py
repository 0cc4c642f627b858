"""Pong side of a mutually recursive pair."""

from graphpkg import a


def pong(n):
    """Bounce ``n`` back to :func:`graphpkg.a.ping` until it reaches zero."""
    return a.ping(n - 1) if n else 1
