class Connection:
    """A live link to the server."""

    def close(self):
        return None
