from vault.errors import MalformedHeader

DEFAULT_WHITE_CHARS = " \t\r"


def split_fields(line: str, delim: str = ",", stripnl: bool = True, tabsize: int = 8) -> list[str]:
    """Split one line into its fields."""
    if stripnl:
        line = line.rstrip("\n")
    return [f.strip(DEFAULT_WHITE_CHARS) for f in line.expandtabs(tabsize).split(delim)]


def parse_header(value: str) -> tuple[str, str]:
    """Parse a `Name: value` header line."""
    name, sep, rest = value.partition(":")
    if not sep:
        raise MalformedHeader(value)
    return name.strip(), rest.strip()
