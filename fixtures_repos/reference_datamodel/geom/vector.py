class Vector:
    def __init__(self, *parts):
        self.parts = list(parts)

    def __reversed__(self):
        return reversed(self.parts)

    def __abs__(self):
        return sum(p * p for p in self.parts) ** 0.5

    def __round__(self, ndigits=None):
        return Vector(*(round(p, ndigits) for p in self.parts))

    def __floordiv__(self, k):
        return Vector(*(p // k for p in self.parts))

    def __del__(self):
        self.parts = []

    def __length_hint__(self):
        return len(self.parts)
