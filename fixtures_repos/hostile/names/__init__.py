"""Modules whose file names hold unicode and spaces."""
