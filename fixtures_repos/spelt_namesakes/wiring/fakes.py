class ConnectionFactory:
    """Makes fake connections for tests."""

    def __call__(self):
        return None
