"""Name cycles that never reach a declaration."""

from .loops import Ping as Pong
from .loops import Pong as Ping

Tick = Tock
Tock = Tick


class Chicken(Egg):
    """Bases that form a cycle: Chicken(Egg), Egg(Chicken)."""

    clucks = 1


class Egg(Chicken):
    shell = 2


class Ouroboros(Ouroboros):
    """A class that names itself as its base."""

    tail = 3
