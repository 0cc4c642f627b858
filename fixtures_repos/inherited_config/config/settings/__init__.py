"""Module-based settings, one module per environment."""
