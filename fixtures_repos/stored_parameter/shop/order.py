from shop import settings
from shop.receipt import Receipt


class Order:
    def __init__(self, receipt: "Receipt", count: int = 1, most: int = settings.MAX_ITEMS):
        self.receipt = receipt
        self.count = count
        self.most = int(most)

    def paid(self):
        return self.receipt.total()
