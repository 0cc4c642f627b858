"""The engine."""


class Engine:
    """Runs steps."""

    def run(self, steps: int) -> int:
        return steps * 2
