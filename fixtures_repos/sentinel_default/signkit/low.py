"""The signer that does the work."""

_UNSET = object()


class SpecialKey:
    """A key that carries its own scheme."""

    def __init__(self, scheme):
        self.scheme = scheme


class Signer:
    def sign(self, payload, key, scheme=_UNSET):
        if scheme is _UNSET:
            if isinstance(key, SpecialKey):
                chosen = key.scheme
            else:
                chosen = "plain-sha"
        else:
            chosen = scheme
        return f"{chosen}:{payload}:{key}"
