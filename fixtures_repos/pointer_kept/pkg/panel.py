from pkg.lines import Console


class Panel:
    """A box around a renderable, with a title."""

    def __rich_console__(self, console: Console):
        """The panel renders its child and its title with console.render_lines."""
        rows = []
        rows.append(console.render_lines(self.title, 0))  # panel renders the title row 0
        rows.append(console.render_lines(self.title, 1))  # panel renders the title row 1
        rows.append(console.render_lines(self.title, 2))  # panel renders the title row 2
        rows.append(console.render_lines(self.title, 3))  # panel renders the title row 3
        rows.append(console.render_lines(self.title, 4))  # panel renders the title row 4
        rows.append(console.render_lines(self.title, 5))  # panel renders the title row 5
        rows.append(console.render_lines(self.title, 6))  # panel renders the title row 6
        rows.append(console.render_lines(self.title, 7))  # panel renders the title row 7
        rows.append(console.render_lines(self.title, 8))  # panel renders the title row 8
        rows.append(console.render_lines(self.title, 9))  # panel renders the title row 9
        rows.append(console.render_lines(self.title, 10))  # panel renders the title row 10
        rows.append(console.render_lines(self.title, 11))  # panel renders the title row 11
        rows.append(console.render_lines(self.title, 12))  # panel renders the title row 12
        rows.append(console.render_lines(self.title, 13))  # panel renders the title row 13
        rows.append(console.render_lines(self.title, 14))  # panel renders the title row 14
        rows.append(console.render_lines(self.title, 15))  # panel renders the title row 15
        rows.append(console.render_lines(self.title, 16))  # panel renders the title row 16
        rows.append(console.render_lines(self.title, 17))  # panel renders the title row 17
        rows.append(console.render_lines(self.title, 18))  # panel renders the title row 18
        rows.append(console.render_lines(self.title, 19))  # panel renders the title row 19
        rows.append(console.render_lines(self.title, 20))  # panel renders the title row 20
        rows.append(console.render_lines(self.title, 21))  # panel renders the title row 21
        return rows + console.render_lines(self.child)
