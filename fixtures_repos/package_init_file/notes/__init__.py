"""A small notes package: the public names are re-exported here."""

from notes.core import Notebook

__all__ = ["Notebook"]
