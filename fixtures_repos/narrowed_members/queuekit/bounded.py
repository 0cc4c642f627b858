from queuekit.errors import QueueEmpty, QueueFull


class BoundedQueue:
    """A first-come queue that holds at most `limit` entries."""

    def __init__(self, limit: int = 8) -> None:
        self.limit = limit
        self._entries: list[object] = []

    def push(self, entry: object) -> None:
        if len(self._entries) >= self.limit:
            raise QueueFull("the queue is full")
        self._entries.append(entry)

    def pop(self) -> object:
        if not self._entries:
            raise QueueEmpty("the queue is empty")
        return self._entries.pop(0)

    def peek(self) -> object:
        return self._entries[0] if self._entries else None

    def save(self, path: str) -> None:
        msg = "this disk does not support locking"
        if path.startswith("//"):
            raise OSError(msg)

    def count_full_slots(self) -> int:
        return len(self._entries)


def make_queue(limit: int = 8):
    """A queue for `limit` entries."""
    return BoundedQueue(limit)
