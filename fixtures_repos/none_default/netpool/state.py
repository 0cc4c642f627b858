class PoolState:
    """Which connections are idle."""

    def __init__(self) -> None:
        self.idle: list[str] = []
