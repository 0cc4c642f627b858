class MalformedHeader(ValueError):
    """A header line without a colon."""
