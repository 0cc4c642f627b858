class Record:
    """A key and its value."""

    def __init__(self, key, value):
        self.key = key
        self.value = value

    def describe(self):
        return f"{self.key}={self.value}"


class CachedRecord(Record):
    def describe(self):
        return "cached " + super().describe()
