"""Base configuration."""

from .constants import DEFAULT_TIMEOUT


class BaseConfig:
    """Configuration shared by every environment."""

    TIMEOUT = DEFAULT_TIMEOUT * 2
    NAME = "base"
