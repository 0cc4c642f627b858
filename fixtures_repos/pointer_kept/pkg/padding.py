from pkg.lines import Console


class Padding:
    """Space around a renderable."""

    def __rich_console__(self, console: Console):
        lines = console.render_lines(self.child, self.width)
        return [[" "] * self.left + line for line in lines]
