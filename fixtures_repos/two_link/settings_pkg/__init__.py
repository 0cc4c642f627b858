"""Layered configuration classes."""
