"""Part of a namespace package: nsp/ has no __init__.py."""

from nsp.beta import helper


def use_helper():
    return helper() + 1
