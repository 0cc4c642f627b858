"""Example reading the production configuration."""

from settings_pkg.prod import ProdConfig


def request_timeout():
    """Return the timeout used for outgoing requests in production."""
    return ProdConfig.TIMEOUT
