"""Half of an import cycle: imports b, which imports a."""

from . import b
from .b import Beta


class Alpha:
    """Alpha refers to Beta."""

    def partner(self):
        return Beta()

    def module(self):
        return b
