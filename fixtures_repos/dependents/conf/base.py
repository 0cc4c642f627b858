"""Base settings."""

TIMEOUT = 30
