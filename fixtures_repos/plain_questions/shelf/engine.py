from .pool import QueuePool


def create_engine(url, echo=False, **kw):
    pool_class = QueuePool
    return pool_class(url, **kw)
