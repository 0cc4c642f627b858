class ErrorResponse:
    """What an API error sends back."""

    def __init__(self, detail: str) -> None:
        self.detail = detail
