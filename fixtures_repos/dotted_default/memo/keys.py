"""Key functions."""


def hashkey(*args: object) -> tuple[object, ...]:
    return tuple(args)
