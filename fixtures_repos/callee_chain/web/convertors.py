"""How each kind of path parameter is turned into text."""

CONVERTOR_TYPES = {"str": str, "int": int}
