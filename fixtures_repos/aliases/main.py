"""Example using the aliased names."""

from codecs_lib import DefaultEncoder, enc
from codecs_lib.encoders import Tag, dumps


def main():
    print(DefaultEncoder().encode({"a": 1}))
    print(enc.dumps([1, 2]))
    print(dumps("x"))
    print(Tag("user").tag("ada"))


if __name__ == "__main__":
    main()
