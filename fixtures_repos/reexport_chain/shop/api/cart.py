"""Shopping cart model."""


class Cart:
    """A shopping cart holding items and their quantities."""

    MAX_ITEMS = 50

    def __init__(self):
        self.items = {}

    def add(self, item, qty=1):
        """Add ``qty`` units of ``item`` to the cart."""
        if sum(self.items.values()) + qty > self.MAX_ITEMS:
            raise ValueError("cart is full")
        self.items[item] = self.items.get(item, 0) + qty
