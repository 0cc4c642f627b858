"""A syntax error in a class body."""


class Broken:
    """The class body holds a bad statement."""

    good = 1
    bad = )

    def still_here(self):
        return self.good


def after_class_error():
    return 2
