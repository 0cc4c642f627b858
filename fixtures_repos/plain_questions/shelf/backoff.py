class Backoff:
    """When to try again."""

    def __init__(self, total: int = 3, status: int | None = None, timeout: float = 10.0, once: bool = False) -> None:
        self.total = total
        self.status = status
        self.timeout = timeout

    def is_retry(self, method: str, status_code: int) -> bool:
        return self.total > 0 and status_code >= 500


class Timeout:
    def __init__(self, connect: float = 1.0, read: float = 2.0) -> None:
        self._connect = connect
        self._read = read

    @property
    def read_timeout(self) -> float:
        return self._read


class GiveUp(Exception):
    """No tries left."""
