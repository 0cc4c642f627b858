from typing import Generic, TypeVar

StateT = TypeVar("StateT")


class HTTPConnection(Generic[StateT]):
    """A connection whose state type is a parameter."""

    def __init__(self, scope: dict) -> None:
        self.scope = scope

    @property
    def url(self) -> str:
        return self.scope["path"]


class WebSocket(HTTPConnection[StateT]):
    """Inherits `url` through a subscripted base."""

    def accept(self) -> None:
        self.scope["accepted"] = True
