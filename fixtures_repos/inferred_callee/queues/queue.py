class Queue:
    def __init__(self) -> None:
        self._items: list[str] = []

    def push(self, item: str) -> None:
        self._items.append(item)
        self.log(item)

    def log(self, item: str) -> None:
        print(item)
