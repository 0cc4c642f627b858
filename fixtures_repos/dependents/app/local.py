"""Imports inside a function: the index records none of them."""


def late(shape):
    from geo.core import area as a
    from geo import core

    return a(shape), core.area(shape)
