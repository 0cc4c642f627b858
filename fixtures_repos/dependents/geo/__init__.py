"""Shapes package: re-exports the public names."""

from .core import area, Shape
from .core import area as surface

__all__ = ["area", "Shape", "surface"]
