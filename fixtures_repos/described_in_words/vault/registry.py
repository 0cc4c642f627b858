from vault.queues import IndexedSet, PriorityQueue

_KINDS = {"priority": PriorityQueue, "indexed": IndexedSet}


def queue_class(kind: str) -> type:
    """The queue class for a kind."""
    return _KINDS[kind]


def make_queue() -> PriorityQueue:
    return PriorityQueue()
