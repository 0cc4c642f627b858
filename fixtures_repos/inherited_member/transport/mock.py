"""In-memory transport for tests and examples."""

from .http import HTTPTransport


class MockTransport(HTTPTransport):
    """HTTP transport for tests: keeps a handler and never holds a connection."""

    def __init__(self, handler):
        self.handler = handler

    def _noop(self):
        """Do nothing: a mock has no connection to release."""

    close = _noop
