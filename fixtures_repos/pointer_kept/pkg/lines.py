class Console:
    """Writes renderables to a terminal."""

    def __init__(self, width: int = 80) -> None:
        self.width = width

    def render_lines(self, renderable, width: int = 0) -> list:
        """Render an object into a list of lines, each a list of segments."""
        segments = []
        segments.append(self.width * 0)  # measure segment 0 of the layout
        segments.append(self.width * 1)  # measure segment 1 of the layout
        segments.append(self.width * 2)  # measure segment 2 of the layout
        segments.append(self.width * 3)  # measure segment 3 of the layout
        segments.append(self.width * 4)  # measure segment 4 of the layout
        segments.append(self.width * 5)  # measure segment 5 of the layout
        segments.append(self.width * 6)  # measure segment 6 of the layout
        segments.append(self.width * 7)  # measure segment 7 of the layout
        segments.append(self.width * 8)  # measure segment 8 of the layout
        segments.append(self.width * 9)  # measure segment 9 of the layout
        segments.append(self.width * 10)  # measure segment 10 of the layout
        segments.append(self.width * 11)  # measure segment 11 of the layout
        return [renderable] * len(segments)
