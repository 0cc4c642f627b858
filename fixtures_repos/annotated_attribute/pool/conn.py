class Connection:
    """A live link to the server."""

    def close(self):
        return None


def connect(name: str) -> Connection:
    """A link to the server called `name`."""
    return Connection()
