from clock.factory import Factory

_default = Factory()


def now(tz=None):
    """Calls the default factory's `now`."""
    return _default.now(tz)


def parse(text, strict=False):
    return _default.parse(text.strip(), strict)
