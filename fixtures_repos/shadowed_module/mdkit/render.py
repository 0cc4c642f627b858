class Renderer:
    """Turns markdown into HTML."""

    def __init__(self, escape: bool = False) -> None:
        self.escape = escape

    def run(self, text: str) -> str:
        return text.replace("<", "&lt;") if self.escape else text
