def make_box() -> list[str]:
    """A box that keeps every notice sent, in order."""
    return []
