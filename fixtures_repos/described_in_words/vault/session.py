class Session:
    """A database session."""

    def add(self, row: object) -> None:
        self.rows = [*getattr(self, "rows", []), row]


session = Session()
