import typing

T = typing.TypeVar("T")


class Bag(typing.Generic[T]):
    def __getitem__(self, index: int) -> T:
        raise IndexError(index)


class Sack(Bag[int]):
    size = 3


def add_repr(cls):
    cls.__repr__ = lambda self: type(self).__name__
    return cls


class Tin:
    def __init__(self, lid=True):
        self.lid = lid

    def open(self):
        self.lid = False


Tin = add_repr(Tin)


class Ledger(typing.MutableMapping[str, int]):
    def __getitem__(self, key):
        return 0

    def __setitem__(self, key, value):
        pass

    def __delitem__(self, key):
        pass

    def __iter__(self):
        return iter(())

    def __len__(self):
        return 0
