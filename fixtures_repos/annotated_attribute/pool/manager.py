from pool.conn import Connection


class Manager:
    current: Connection
    limit: int

    def __init__(self, server):
        self.current = server.connect()
        self.limit = 10

    @property
    def spare(self) -> Connection:
        return self.current
