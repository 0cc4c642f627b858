class QueuePool:
    def __init__(self, url, pool_size=5, max_overflow=10, timeout=30.0):
        self.url = url
        self.pool_size = pool_size
        self.max_overflow = max_overflow
        self.timeout = timeout
