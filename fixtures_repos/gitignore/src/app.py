"""The only module in this repository that should be indexed."""


def start():
    """Start the application."""
    return "started"
