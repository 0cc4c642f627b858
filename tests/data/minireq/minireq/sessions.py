from .adapters import HTTPAdapter
from .models import Response


class SessionRedirectMixin:
    def resolve_redirects(self, resp: Response) -> list[Response]:
        """Follow redirects from a response."""
        return [resp]


class Session(SessionRedirectMixin):
    def __init__(self) -> None:
        self.adapters: dict[str, HTTPAdapter] = {}
        self.mount("https://", HTTPAdapter())

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *args: object) -> None:
        self.close()

    def mount(self, prefix: str, adapter: HTTPAdapter) -> None:
        """Register a connection adapter to a prefix."""
        self.adapters[prefix] = adapter

    def get(self, url: str, **kwargs: object) -> Response:
        """Send a GET request."""
        return Response()

    def close(self) -> None:
        for a in self.adapters.values():
            a.close()
