"""A package that only re-exports: its lines are uses of the names it passes on."""

from .engine import start_engine
from .engine import start_engine as launch

__all__ = ["start_engine", "launch"]
