"""Production settings: start from the base settings and override a few."""

from .base import *

DEBUG = False
ALLOWED_HOSTS = ["example.com"]
