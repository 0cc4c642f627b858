"""Small serialisation helpers."""

from .encoders import Encoder as DefaultEncoder
import codecs_lib.encoders as enc

__all__ = ["DefaultEncoder", "enc"]
