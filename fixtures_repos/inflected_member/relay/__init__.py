from relay.pool import Pool

__all__ = ["Pool"]
