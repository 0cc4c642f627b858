from netpool.backends import SyncBackend
from netpool.state import PoolState


class Pool:
    def __init__(self, network_backend: SyncBackend | None = None, max_idle_connections: int | None = None) -> None:
        self._backend = SyncBackend() if network_backend is None else network_backend
        self._max_idle = 8 if max_idle_connections is None else max_idle_connections
        self._state = PoolState()

    def connections(self) -> list[str]:
        return list(self._state.idle)
