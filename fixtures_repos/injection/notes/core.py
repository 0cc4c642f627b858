"""Core processing for notes."""


class Processor:
    """Normalise and store a single note."""

    def process(self, item):
        """Strip whitespace from ``item`` and return it."""
        return item.strip()
