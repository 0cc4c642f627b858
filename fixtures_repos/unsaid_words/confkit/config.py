"""Configs and the keys that address them."""


class Config:
    """Settings kept by key."""

    def __init__(self, data):
        self.keys = dict(data)


class LayeredConfig(Config):
    """A config whose values may be configs too."""

    def lookup(self, key):
        node = self
        for name in NestedKey(key).parts():
            node = node.keys[name]
        return node


class NestedKey:
    """A key such as `db.host` that walks into nested configs."""

    separator = "."

    def __init__(self, text):
        self.text = text

    def parts(self):
        return self.text.split(self.separator)
