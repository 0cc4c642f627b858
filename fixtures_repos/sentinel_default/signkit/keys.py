"""How stored results are keyed."""


def make_key(*args):
    """Return a key for the arguments."""
    return tuple(args)
