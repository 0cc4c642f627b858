"""Modules that do not parse, each broken at a different level."""
