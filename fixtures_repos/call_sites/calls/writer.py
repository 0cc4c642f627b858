"""A writer: every kind of call site in `Writer.write`."""

import os

from calls.convert import Convertor, default_convertor
from calls.sink import Sink


class Base:
    def flush(self):
        return None


class Writer(Base):
    convertors: dict[str, Convertor]

    def __init__(self):
        self.convertors = {"s": default_convertor()}

    def log(self, text):
        return text

    def flush(self):
        return None

    def write(self, key, out: Sink):
        self.log("start")
        out.start(key)
        handler = Sink()
        handler.end()
        value = self.convertors[key].convert(1)
        default_convertor().convert(2)
        super().flush()
        path = os.path.join("a", key)
        return len(path), value

    @property
    def size(self):
        return 1

    def report(self):
        return self.size + len(self.convertors)

    def joined(self, key):
        from os.path import join as pjoin

        return pjoin("a", key)
