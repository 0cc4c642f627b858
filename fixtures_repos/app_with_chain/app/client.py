"""An application that imports only miniauth; miniauth is built on minireq (both in .venv, built by the tests)."""

import miniauth


class TokenSession(miniauth.AuthSession):
    retries = 5


def fetch(url: str) -> object:
    s = TokenSession("t0k3n")
    return s.get(url)
