"""Base class shared by all transports."""


class BaseTransport:
    """Abstract transport: sends requests and owns a connection."""

    def close(self):
        """Release the underlying connection."""
        self.closed = True

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        self.close()
        return False

    def send(self, request, *, timeout=5.0):
        """Send ``request`` and return a response."""
        raise NotImplementedError
