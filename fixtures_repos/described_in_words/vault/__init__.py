"""A small account service whose questions are asked in words."""

from vault.registry import make_queue

__all__ = ["make_queue"]
