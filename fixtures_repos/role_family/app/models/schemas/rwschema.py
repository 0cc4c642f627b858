class RWSchema:
    """The base of every schema read from or written to the wire."""

    def to_json(self) -> dict[str, object]:
        return dict(vars(self))
