"""A registry and its module-level instance."""


class Registry:
    def populate(self, names):
        return list(names)


apps = Registry()
