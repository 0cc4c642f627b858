"""Transport layer: pluggable ways of sending requests."""

from .mock import MockTransport
from .http import HTTPTransport

__all__ = ["MockTransport", "HTTPTransport"]
