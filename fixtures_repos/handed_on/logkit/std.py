from logkit.base import BaseLogger


class StdLogger(BaseLogger):
    """Formats positional arguments into the event first."""

    def emit(self, level: str, event: str, *args: object) -> tuple[str, str]:
        if args:
            event = event % args
        return super().emit(level, event)

    def info(self, event: str, *args: object) -> tuple[str, str]:
        return self.emit("info", event, *args)
