"""Code that depends on names this repository does not define."""

from nonexistent_pkg import thing


def investigate():
    """Call a function that is defined nowhere."""
    return mystery_function(thing)
