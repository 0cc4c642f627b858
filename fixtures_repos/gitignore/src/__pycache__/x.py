"""Inside __pycache__; must not be indexed."""


def cached():
    return "pycache"
