class Emitter:
    def __init__(self):
        self._handlers = {}

    def _call_handlers(self, event):
        """Run each handler registered for the event."""
        return [h(event) for h in self._handlers.get(event, [])]

    def emit(self, event):
        return self._call_handlers(event)


def forward(source, target):
    """Patch `source` so that what it emits reaches `target` too."""
    source.emit = target.emit
