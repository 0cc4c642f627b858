"""A machine, a locked machine and the machines that mix the lock in."""

from threading import Lock


def listify(obj):
    if obj is None:
        return []
    return list(obj) if isinstance(obj, (list, tuple)) else [obj]


class PicklableLock:
    """A lock that survives pickling."""

    def __init__(self):
        self.lock = Lock()


class Machine:
    def __init__(self, states=None):
        self.states = listify(states)


class LockedMachine(Machine):
    """A machine safe to share between threads: its events run under a lock."""

    def __init__(self, states=None, machine_context=None):
        self.machine_context = listify(machine_context) or [PicklableLock()]
        super().__init__(states)


class LockedGraphMachine(LockedMachine):
    """A thread-safe locked machine that draws itself."""


class LockedNestedMachine(LockedMachine):
    """A thread-safe locked machine with nested states."""



class Engine:
    """Turns the machines."""

    def shift(self, gear="neutral"):
        self.gear = gear


class TurboEngine(Engine):
    """An engine with a boost."""

    def shift(self, gear="neutral", boost=2):
        """Shift the engine's gear, then boost."""
        super().shift(gear)
        self.boost = boost
