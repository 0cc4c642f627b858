"""Uses of geo through every kind of pointer."""

import geo as g
from geo import area, surface
from geo.core import measure
from geo.square import Square
from app.cube import Cube
from conf import prod


def report(shapes):
    total = sum(area(s) for s in shapes)
    first = surface(shapes[0])
    second = g.area(shapes[1])
    third = measure(shapes[2])
    print(Square(2).describe())
    cube = Cube(1)
    print(cube.describe(), prod.TIMEOUT)
    return total, first, second, third


def pick(fn=area):
    return fn


def shadow(area):
    return area  # the parameter, not geo.core.area
