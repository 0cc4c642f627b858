def ok(value):
    """True when the value is usable."""
    return value is not None
