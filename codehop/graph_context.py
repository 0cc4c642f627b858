"""Placeholder replaced when graphs/ lands."""


class GraphContext:
    def __init__(self, store: object) -> None:
        pass

    def neighbours(self, seeds: dict[str, float], k: int) -> list[tuple[str, float, str]]:
        return []
