"""Queues with a bound."""
