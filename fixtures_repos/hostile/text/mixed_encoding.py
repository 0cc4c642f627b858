"""UTF-8 text with one stray Latin-1 byte."""


def mixed_encoding():
    """CafÃ© in UTF-8, then café in Latin-1."""
    return "menu"
