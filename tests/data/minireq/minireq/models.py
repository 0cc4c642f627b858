class Response:
    def __init__(self, status_code: int = 200) -> None:
        self.status_code = status_code

    def json(self) -> dict:
        """The body, decoded as JSON."""
        return {}
