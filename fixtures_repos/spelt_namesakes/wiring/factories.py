class ConnectionFactory:
    """Makes connections for a pool."""

    def __call__(self):
        return object()
