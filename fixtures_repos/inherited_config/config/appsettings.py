"""Class-based settings, one class per environment."""


class BaseSettings:
    """Defaults shared by every environment."""

    retries = 3
    timeout_s = 10.0
    verbose = False


class ProdSettings(BaseSettings):
    """Production overrides; everything else is inherited."""

    verbose = True
