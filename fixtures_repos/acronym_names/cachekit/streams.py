"""Where a cache writes its statistics."""

import sys


def std_stream():
    """The stream statistics go to when none is given."""
    return sys.stderr
