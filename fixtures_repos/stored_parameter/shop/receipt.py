class Receipt:
    """What was paid, and when."""

    def total(self):
        return 0
