"""JSON encoders and tagging helpers."""

import json


class JSONEncoder:
    """Encode Python objects as JSON text."""

    def encode(self, obj):
        """Return ``obj`` serialised as a JSON string."""
        return json.dumps(obj, sort_keys=True)


def encode_json(obj):
    """Encode ``obj`` with a default :class:`JSONEncoder`."""
    return JSONEncoder().encode(obj)


Encoder = JSONEncoder
dumps = encode_json


class Tag:
    """A named tag that can serialise a tagged value."""

    def __init__(self, name):
        self.name = name

    def to_json(self, value):
        """Return ``{name: value}`` as JSON."""
        return encode_json({self.name: value})

    tag = to_json

    def _fail(self, *args):
        """Refuse operations a tag does not support."""
        raise TypeError(f"tag {self.name!r} is not callable or indexable")

    __call__ = __getitem__ = _fail
