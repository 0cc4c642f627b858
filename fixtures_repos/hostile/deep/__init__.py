"""Deeply nested expressions (tests generate deeper ones)."""
