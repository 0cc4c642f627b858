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
