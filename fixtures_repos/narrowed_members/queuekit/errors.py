class QueueFull(Exception):
    """No room is left."""


class QueueEmpty(Exception):
    """Nothing is waiting."""
