"""An authenticating session built on minireq (a package that depends on another package)."""

from minireq.adapters import HTTPAdapter
from minireq.sessions import Session


class AuthSession(Session):
    """A session that signs every request with a token."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token


def default_adapter() -> HTTPAdapter:
    return HTTPAdapter(max_retries=2)
