"""A module with a syntax error in the middle."""


class Survivor:
    """Declared before the syntax error; should still be found."""

    def alive(self):
        return True


def broken(:
    return None


def after_error():
    """Declared after the syntax error; should still be found."""
    return 2
