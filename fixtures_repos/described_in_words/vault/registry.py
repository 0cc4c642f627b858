from vault.queues import IndexedSet, PriorityQueue

_KINDS = {"priority": PriorityQueue, "indexed": IndexedSet}


def queue_class(kind: str) -> type:
    """The queue class for a kind."""
    return _KINDS[kind]


def make_queue() -> PriorityQueue:
    return PriorityQueue()


_UNSET = object()
DEFAULT_KIND = "priority"


def pick_kind(kind: object = _UNSET) -> object:
    """The kind of queue to make."""
    return DEFAULT_KIND if kind is _UNSET else kind
