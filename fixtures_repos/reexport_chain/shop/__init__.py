"""Shop: a tiny shopping-cart library.

The public API is re-exported from ``shop.api``.
"""

from .api import Cart, checkout

__all__ = ["Cart", "checkout"]
