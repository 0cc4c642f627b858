"""A normal UTF-8 module."""


def greet(name):
    """Return a greeting for ``name``."""
    return f"hello {name}"
