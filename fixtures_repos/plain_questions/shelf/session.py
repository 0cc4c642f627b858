DEFAULT_BIND = "sqlite://"


class Session:
    expire_on_commit: bool

    def __init__(self, bind=DEFAULT_BIND, expire_on_commit=True):
        self.bind = bind
        self.expire_on_commit = expire_on_commit


class Transaction:
    isolation: str

    def __init__(self, session):
        self.session = session
        self.isolation = "serializable"


class Cursor:
    default_arraysize = 100

    def __init__(self, session, arraysize=None):
        self.session = session
        self.arraysize = arraysize or self.default_arraysize
        self.closed = False

    def fetch(  # type: ignore[override]
        self, size=None
    ):
        return []
