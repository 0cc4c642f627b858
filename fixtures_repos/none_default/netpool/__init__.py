from netpool.pool import Pool

__all__ = ["Pool"]
