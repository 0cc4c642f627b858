class Container:
    def __init__(self, text: str) -> None:
        self.text = text

    def unwrap(self) -> dict[str, str]:
        return {"text": self.text}


class Document(Container):
    pass


class Proxy:
    def unwrap(self) -> str:
        return "proxy"


def show(p: Proxy) -> str:
    return p.unwrap()
