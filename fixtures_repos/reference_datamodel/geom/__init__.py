from .vector import Vector

__all__ = ["Vector"]
