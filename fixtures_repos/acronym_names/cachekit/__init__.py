"""Caches with a size limit, each evicting its own way."""
