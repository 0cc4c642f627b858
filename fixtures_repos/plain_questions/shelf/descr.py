class Lazy:
    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, objtype=None):
        return 0 if obj is None else len(obj.items)

    def __set__(self, obj, value):
        raise AttributeError("read-only")
