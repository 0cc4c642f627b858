"""The root of the diamond."""


class Base:
    def greet(self):
        return "base"
