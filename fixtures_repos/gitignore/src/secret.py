"""Ignored by src/.gitignore; must not be indexed."""

API_KEY = "not-a-real-key"
