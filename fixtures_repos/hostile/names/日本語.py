"""A module named in Japanese."""


def japanese_name():
    return "日本語"
