"""Indentation that Python rejects: an unexpected indent and a bad dedent."""


def first():
    return 8
        unexpected = 9


def second():
      a = 1
    b = 2
    return a + b
