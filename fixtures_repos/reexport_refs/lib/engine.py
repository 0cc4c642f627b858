"""The engine."""


def start_engine(power):
    """Start the engine at `power`."""
    return power * 2
