"""How stored results are keyed."""


def hashkey(*args):
    """Return a key for the arguments."""
    return tuple(args)
