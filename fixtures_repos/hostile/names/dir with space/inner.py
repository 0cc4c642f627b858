"""Inside a directory whose name has a space."""


def inner_spaced():
    return "inner"
