"""Sample package for the LSP client tests."""

from .core import Engine

__all__ = ["Engine"]
