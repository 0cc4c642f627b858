"""Uses of start_engine through the package's re-exports."""

import lib
from lib import launch, start_engine


def main():
    a = start_engine(1)
    b = launch(2)
    c = lib.start_engine(3)
    return a + b + c


def later():
    from lib.engine import (
        start_engine as begin,
    )

    return begin(4)


if __name__ == "__main__":
    print(main(), later())
