"""A test that calls area."""

from geo.core import area
from geo.square import Square


def test_area():
    assert area(Square(3)) == 9
