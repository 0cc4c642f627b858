"""A runner, a guarded runner and the runners that mix the guard in."""

from threading import Lock


def listify(obj):
    if obj is None:
        return []
    return list(obj) if isinstance(obj, (list, tuple)) else [obj]


class CopyableMutex:
    """A mutex that survives copying."""

    def __init__(self):
        self.mutex = Lock()


class Runner:
    def __init__(self, states=None):
        self.states = listify(states)


class GuardedRunner(Runner):
    """A runner safe to share between threads: its steps run under a mutex."""

    def __init__(self, states=None, contexts=None):
        self.contexts = listify(contexts) or [CopyableMutex()]
        super().__init__(states)


class GuardedDrawingRunner(GuardedRunner):
    """A thread-safe guarded runner that draws itself."""


class GuardedNestedRunner(GuardedRunner):
    """A thread-safe guarded runner with nested states."""



class Engine:
    """Turns the runners."""

    def shift(self, gear="neutral"):
        self.gear = gear


class TurboEngine(Engine):
    """An engine with a boost."""

    def shift(self, gear="neutral", boost=2):
        """Shift the engine's gear, then boost."""
        super().shift(gear)
        self.boost = boost
