"""Where output goes."""


class Sink:
    def start(self, name):
        return name

    def end(self):
        return None
