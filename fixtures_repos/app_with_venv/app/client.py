"""An application leaning on an installed package (minireq, in the repository's .venv, built by the tests)."""

import minireq


class RetrySession(minireq.Session):
    retries = 3


def fetch(url: str) -> dict:
    s = RetrySession()
    return s.get(url).json()
