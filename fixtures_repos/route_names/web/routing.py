"""A router that registers views by path and by route name."""

from collections.abc import Callable


class Router:
    def __init__(self) -> None:
        self.routes: dict[str, tuple[str, Callable[[], object]]] = {}

    def get(self, path: str, name: str) -> Callable[[Callable[[], object]], Callable[[], object]]:
        def register(view: Callable[[], object]) -> Callable[[], object]:
            self.routes[name] = (path, view)
            return view

        return register

    def url_path_for(self, name: str) -> str:
        return self.routes[name][0]


router = Router()
