class Meter:
    """A reading that can be set."""

    def __init__(self):
        self._level = 0

    @property
    def level(self) -> int:
        """The current level, never below zero."""
        return max(self._level, 0)

    @level.setter
    def level(self, value: int) -> None:
        self._level = value
