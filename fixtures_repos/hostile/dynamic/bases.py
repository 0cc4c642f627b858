"""Classes whose bases are expressions, not names."""

from typing import Generic, TypeVar

T = TypeVar("T")


def make_base():
    class Made:
        def made_method(self):
            return "made"

    return Made


MIXINS = (object,)
BASES = [dict, list]


class Meta(type):
    pass


class FromCall(make_base()):
    """Base is a call."""

    def own(self):
        return "own"


class FromSubscript(BASES[0]):
    pass


class FromStar(*MIXINS):
    pass


class FromGeneric(Generic[T]):
    pass


class FromType(type("Dynamic", (object,), {"dyn": 1})):
    pass


class FromConditional(dict if BASES else list, metaclass=Meta):
    pass


class FromLambda((lambda: object)()):
    pass
