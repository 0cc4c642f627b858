"""A module with a space in its file name (not importable)."""


def spaced_name():
    return "space"
