class ParserElement:
    """Base class of every parser element."""

    DEFAULT_WHITE_CHARS = " \n\t\r"
    verbose_stacktrace = False

    def __init__(self, savelist=False):
        self.whiteChars = set(ParserElement.DEFAULT_WHITE_CHARS)
        self.mayReturnEmpty = False


def read_rows(source, stripnl=True, delim=","):
    """Split the source text into rows of fields."""
    lines = source.splitlines()
    if stripnl:
        lines = [line.rstrip("\n") for line in lines]
    return [line.split(delim) for line in lines]


def col(loc, strg):
    """Return the column of a location in a string."""
    return loc - strg.rfind("\n", 0, loc)
