class FormatRegistry:
    def __init__(self, names):
        self.names = names


strict_formats = FormatRegistry(["date", "email"])
loose_formats = FormatRegistry([])
