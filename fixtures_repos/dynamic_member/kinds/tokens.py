class _Kind(tuple):
    parent = None

    def __getattr__(self, name):
        new = _Kind(self + (name,))
        setattr(self, name, new)
        new.parent = self
        return new


Kind = _Kind()
Word = Kind.Word
