"""Production settings: everything from base."""

from .base import *  # noqa: F403

DEBUG = False
