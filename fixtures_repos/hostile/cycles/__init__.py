"""A package whose modules import each other."""

from .a import Alpha
from .b import Beta

__all__ = ["Alpha", "Beta"]
