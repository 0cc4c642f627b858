__all__ = ["peekable", "numeric_range"]


class peekable:
    def __init__(self, iterable):
        self._it = iter(iterable)
        self._cache = []

    def peek(self, default=None):
        if not self._cache:
            self._cache.append(next(self._it, default))
        return self._cache[0]

    def __getitem__(self, index):
        while len(self._cache) <= index:
            self._cache.append(next(self._it))
        return self._cache[index]


class numeric_range:
    def __init__(self, stop):
        self._stop = stop

    def index(self, value):
        return value


def default_window_size():
    return 3
