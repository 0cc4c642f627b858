"""A perfectly normal module."""


def fine():
    return 1
