"""A normal module that lives inside the repository."""


def inside():
    """Return where this function lives."""
    return "inside"
