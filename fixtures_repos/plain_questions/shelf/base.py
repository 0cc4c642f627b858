"""A container that implements most of Python's data model."""


class Container:
    def __init__(self, items=None):
        self.items = list(items or [])

    def __call__(self, item):
        return item in self.items

    def __repr__(self):
        return f"Container({self.items!r})"

    def __str__(self):
        return ", ".join(map(str, self.items))

    def __format__(self, spec):
        return format(str(self), spec)

    def __bytes__(self):
        return str(self).encode()

    def __len__(self):
        return len(self.items)

    def __iter__(self):
        return iter(self.items)

    def __aiter__(self):
        return self

    async def __anext__(self):
        raise StopAsyncIteration

    def __getitem__(self, index):
        return self.items[index]

    def __setitem__(self, index, value):
        self.items[index] = value

    def __delitem__(self, index):
        del self.items[index]

    def __contains__(self, item):
        return item in self.items

    def __eq__(self, other):
        return isinstance(other, Container) and other.items == self.items

    def __lt__(self, other):
        return len(self) < len(other)

    def __hash__(self):
        return hash(tuple(self.items))

    def __bool__(self):
        return bool(self.items)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.items.clear()

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        self.items.clear()

    def __await__(self):
        yield
        return self

    def __reduce__(self):
        return (type(self), (self.items,))

    def __copy__(self):
        return type(self)(self.items)

    def __deepcopy__(self, memo):
        return type(self)(list(self.items))

    def __getattr__(self, name):
        raise AttributeError(name)

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        object.__delattr__(self, name)

    def __add__(self, other):
        return type(self)(self.items + other.items)

    def __sub__(self, other):
        return type(self)([i for i in self.items if i not in other.items])

    def __mul__(self, times):
        return type(self)(self.items * times)

    def __truediv__(self, parts):
        return [self.items[i::parts] for i in range(parts)]

    def __or__(self, other):
        return self + other

    def __and__(self, other):
        return type(self)([i for i in self.items if i in other.items])

    def close(self):
        self.items.clear()

    async def aclose(self):
        self.close()
