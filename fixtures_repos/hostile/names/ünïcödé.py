"""A module with accents in its file name."""


def accented_name():
    return "ünïcödé"
