class BaseAdapter:
    def close(self) -> None:
        """Release the adapter's connections."""


class HTTPAdapter(BaseAdapter):
    def __init__(self, pool_connections: int = 10, pool_maxsize: int = 10, max_retries: int = 0) -> None:
        self.pool_connections = pool_connections
        self.pool_maxsize = pool_maxsize
        self.max_retries = max_retries
