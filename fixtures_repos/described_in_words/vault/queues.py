class PriorityQueue:
    """Items served lowest priority first."""

    def add(self, item: object, priority: int = 0) -> None:
        self.items = sorted([*getattr(self, "items", []), (priority, item)], key=lambda p: p[0])


class IndexedSet:
    """A set that remembers insertion order."""

    def add(self, item: object) -> None:
        self.items = [*getattr(self, "items", []), item]
