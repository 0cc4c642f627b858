"""minireq: a session with mounted adapters (shaped like requests, much smaller)."""

from .adapters import HTTPAdapter
from .sessions import Session

__all__ = ["HTTPAdapter", "Session", "get"]


def get(url: str, **kwargs: object) -> "Response":
    """Send a GET request and return its Response."""
    with Session() as s:
        return s.get(url, **kwargs)


from .models import Response  # noqa: E402
