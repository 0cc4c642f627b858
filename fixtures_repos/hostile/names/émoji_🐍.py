"""A file name with an astral-plane character."""


def snake_emoji():
    return "🐍"
