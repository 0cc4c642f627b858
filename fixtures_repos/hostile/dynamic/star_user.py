"""Star-imports a module whose __all__ is only known at run time."""

from .exports import *  # noqa: F403


def use_star():
    return gamma() + delta()  # noqa: F405
