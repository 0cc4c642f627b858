"""Entry point that calls ping through an import alias."""

from graphpkg.a import ping as p


def run():
    return p(3)
