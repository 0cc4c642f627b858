"""Public API of the shop package."""

from .cart import Cart
from .flow import *
