"""An opening bracket that is never closed runs to the end of the file."""


def before_unclosed():
    return 4


VALUES = [1, 2, (3,


def swallowed():
    return 5
