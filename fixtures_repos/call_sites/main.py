"""Runs the writer."""

from calls.sink import Sink
from calls.writer import Writer

if __name__ == "__main__":
    print(Writer().write("s", Sink()))
