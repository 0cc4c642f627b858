"""The bottom of the diamond: Both -> Left -> Right -> Base."""

from .left import Left
from .right import Right


class Both(Left, Right):
    pass


def make():
    return Both().greet()
