class BaseResult:
    """What a read gives back."""

    def __init__(self, tokens: list[str]) -> None:
        self.tokens = tokens


class TokenResult(BaseResult):
    """The tokens of one read, in order."""
