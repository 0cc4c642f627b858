class BaseLogger:
    """Sends events on, one line each."""

    def emit(self, level: str, event: str) -> tuple[str, str]:
        return (level, event)
