def add_repr(cls):
    cls.__repr__ = lambda self: f"<{type(self).__name__}>"
    return cls


def add_eq(cls):
    cls.__eq__ = lambda self, other: type(self) is type(other)
    return cls


class Square:
    """A class rebound after its body by hand-applied decorators."""

    def area(self) -> int:
        return 4


Square = add_eq(add_repr(Square))
