"""A small text parser whose names abbreviate what they mean."""
