from docs.api import loads

__all__ = ["loads"]
