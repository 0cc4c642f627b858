"""A syntax error at module level, between two good definitions."""


def before_module_error():
    return "before"


x = = 1


def after_module_error():
    return "after"
