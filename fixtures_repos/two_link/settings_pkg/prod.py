"""Production configuration."""

from .base import BaseConfig


class ProdConfig(BaseConfig):
    """Production overrides only the name; TIMEOUT is inherited."""

    NAME = "prod"
