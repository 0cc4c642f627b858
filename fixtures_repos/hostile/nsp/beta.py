"""The other half of the namespace package."""


def helper():
    """Return the namespace package's answer."""
    return 41
