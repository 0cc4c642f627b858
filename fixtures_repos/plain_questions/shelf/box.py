from .base import Container
from .descr import Lazy


class Box(Container):
    label = "box"
    weight = Lazy()
    max_items = 12

    def set(self, key, value, path="/"):
        self.items.append((key, value, path))


class Crate(Box):
    pass
