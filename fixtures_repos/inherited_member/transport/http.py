"""HTTP transport."""

from .base import BaseTransport


class HTTPTransport(BaseTransport):
    """Transport that sends requests over HTTP."""

    def send(self, request, *, timeout=5.0):
        """Send ``request`` over HTTP and return the response."""
        return {"status": 200, "request": request, "timeout": timeout}
