"""A syntax error inside a nested function, inside a method."""


class Outer:
    def method(self):
        def inner():
            return [1, 2,, 3]
        return inner


def after_function_error():
    return 3
