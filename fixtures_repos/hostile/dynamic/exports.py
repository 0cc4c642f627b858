"""`__all__` built dynamically: a comprehension, then += and extend."""

import sys

ALPHA = 1
BETA = 2
_PRIVATE = 3

__all__ = [name for name in dir() if name.isupper() and not name.startswith("_")]
__all__ += ["gamma"]
__all__.extend(["delta"])
if sys.version_info >= (3, 11):
    __all__.append("epsilon")


def gamma():
    return "gamma"


def delta():
    return "delta"


def epsilon():
    return "epsilon"
