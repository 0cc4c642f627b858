from pool.conn import Connection, connect


class Formatter:
    link: Connection

    def __init__(self, link: str = "local"):
        self.link = connect(link)
