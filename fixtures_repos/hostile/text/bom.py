"""A module starting with a UTF-8 byte order mark."""


def with_bom():
    return "bom"
