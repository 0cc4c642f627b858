"""Raw constants used to build configuration classes."""

DEFAULT_TIMEOUT = 30
