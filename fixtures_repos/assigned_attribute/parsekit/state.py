class BlockState:
    """The cursor and tokens of one block parse."""

    def __init__(self) -> None:
        self.cursor = 0
        self.tokens: list[str] = []
