"""The notebook itself."""


class Notebook:
    """An ordered collection of pages."""

    def __init__(self, title: str = "untitled") -> None:
        self.title = title
        self.pages: list[str] = []

    def add(self, page: str) -> None:
        self.pages.append(page)
