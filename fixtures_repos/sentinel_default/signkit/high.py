"""What callers use: a client that hands its work to a Signer."""

from . import keys
from .low import _UNSET, Signer


class Client:
    def __init__(self):
        self._signer = Signer()

    def sign(
        self,
        payload,
        key,
        scheme=_UNSET,  # type: ignore[assignment]
        headers=None,
    ):
        return self._signer.sign(payload, key, scheme)


class ECKey:
    """An elliptic-curve key."""


def encode(payload):
    return str(payload).encode()


def verify(token, leeway=_UNSET):
    return Client().sign(token, leeway)


def remember(store, key=keys.make_key):
    """Memoize results in a store, under a key built from the arguments."""
    return store, key
