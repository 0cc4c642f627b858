"""BOM and CRLF line endings together."""


def bom_crlf():
    return "bom+crlf"
