"""The parse workers' job (chunking.parse_rows) and the FTS words of a chunk (kernel.words.index_words):
the rows they give, written out by hand, and index_words against its plain definition."""

from __future__ import annotations

import random
import re

from shared import FIXTURES

from codehop.index.chunking import parse_rows
from codehop.kernel.words import _word_parts, index_words

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _plain_index_words(text: str) -> str:
    """index_words as first written: every identifier, then the parts of each in neither one case."""
    extra: set[str] = set()
    for ident in set(_IDENT.findall(text)):
        if not ident.islower() and not ident.isupper():
            extra.update(p for p in _word_parts(ident) if "_" not in p)
    return f"{text} {' '.join(sorted(extra))}" if extra else text


def test_index_words_is_its_plain_definition_on_random_text():
    """Runs of letters in both cases, digits first (`9fooBar`), underscores and digits only (`_1`,
    `1_000`), non-ASCII letters between runs, at the start and the end of the text."""
    rng = random.Random(19)
    alphabet = "aAbBzZ09_ .é(\n\tß"
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16)))
        assert index_words(text) == _plain_index_words(text), repr(text)


def test_index_words_is_its_plain_definition_on_source():
    texts = [p.read_text("utf-8", "replace") for p in sorted(FIXTURES.rglob("*.py"))]
    texts += [
        "class HTTPTransport(BaseHTTPTransport): _Private = get_FOO_display(x_1, __2__, 1_000, 0x1F)",
        "fooBarBaz __init__ self.assertEqual ALL_CAPS _ __ _9 a_1 9fooBar Ünïcode_Name xÜy",
    ]
    assert len(texts) > 20
    for text in texts:
        assert index_words(text) == _plain_index_words(text)


def test_index_words_adds_camel_parts_once():
    assert index_words("HTTPTransport(x)") == "HTTPTransport(x) http httptransport transport"
    assert index_words("plain_snake = 1") == "plain_snake = 1"


_MODULE = """\
'''The module's docstring.'''
import os.path
from . import sibling as sib
from .base import Base, Mixin as Mixin
from typing import *

try:
    from fast import speedup
except ImportError:
    def speedup(x):
        return x

CONST = {"Lazy": ".impl"}
alias = os.path.join
__all__ = ["Thing", "helper"]


@sib.register(kind="x")
class Thing(Base, Mixin, Generic[T], metaclass=Meta):
    '''A thing: café.'''

    size: int = 3
    other = size

    def method(self, a: Base, b: "str" = "é") -> Mixin:
        self.helper_call(a)
        return helper(b)

    @property
    def prop(self):
        return self.method(1, 2)


def helper(x):
    \"\"\"Help.\"\"\"
    return os.path.join(x, "é")  # café


def __getattr__(name):
    if name == "Late":
        from .late import Later
        return Later
    raise AttributeError(name)


if __name__ == "__main__":
    helper(1)
"""


def test_rows_of_a_module():
    """Every kind of row parse_rows gives, on a file with non-ASCII text (columns count characters)."""
    rel, module, is_package, all_names, has_error, chunks, bindings, classes, stars, xrefs = parse_rows(
        "pkg/mod.py", _MODULE.encode()
    )
    assert (rel, module, is_package, all_names, has_error) == (
        "pkg/mod.py",
        "pkg.mod",
        False,
        ("Thing", "helper"),
        False,
    )
    assert [c[1:8] for c in chunks] == [
        (10, 11, "function", "pkg.mod.speedup", "speedup", "def speedup(x)", ""),
        (25, 27, "method", "pkg.mod.Thing.method", "method", 'def method(self, a: Base, b: "str" = "é") -> Mixin', ""),
        (29, 31, "method", "pkg.mod.Thing.prop", "prop", "def prop(self)", ""),
        (
            18,
            23,
            "class",
            "pkg.mod.Thing",
            "Thing",
            "class Thing(Base, Mixin, Generic[T], metaclass=Meta)",
            "A thing: café.",
        ),
        (34, 36, "function", "pkg.mod.helper", "helper", "def helper(x)", "Help."),
        (39, 43, "function", "pkg.mod.__getattr__", "__getattr__", "def __getattr__(name)", ""),
        (1, 9, "module", "pkg.mod", "mod", "", "The module's docstring."),
        (13, 15, "module", "pkg.mod", "mod", "", ""),
        (46, 47, "module", "pkg.mod", "mod", "", ""),
    ]
    lines = _MODULE.splitlines()
    prop = chunks[2]
    assert prop[8] == "\n".join(lines[28:31])
    assert prop[9] == ""  # no identifier in two cases: nothing beyond the text
    assert chunks[3][9] == "base generic meta mixin thing"  # the camelCase parts only (the text goes once)
    assert [b[:3] + b[4:] for b in bindings] == [
        ("pkg.mod", "os", "module", 2, 7, 2, "os", ""),
        ("pkg.mod", "sib", "import", 3, 14, 3, "pkg.sibling", ""),
        ("pkg.mod", "Base", "import", 4, 18, 4, "pkg.base.Base", ""),
        ("pkg.mod", "Mixin", "import", 4, 24, 4, "pkg.base.Mixin", ""),
        ("pkg.mod", "speedup", "import", 8, 21, 8, "fast.speedup", ""),
        ("pkg.mod", "CONST", "value", 13, 0, 13, "", '{"Lazy": ".impl"}'),
        ("pkg.mod", "alias", "alias", 14, 0, 14, "pkg.mod.os.path.join", "os.path.join"),
        ("pkg.mod", "__all__", "value", 15, 0, 15, "", '["Thing", "helper"]'),
        ("pkg.mod", "Thing", "class", 19, 0, 31, "", ""),
        ("pkg.mod.Thing", "size", "value", 22, 4, 22, "", "3"),
        ("pkg.mod.Thing", "other", "alias", 23, 4, 23, "pkg.mod.Thing.size", "size"),
        ("pkg.mod.Thing", "method", "function", 25, 4, 27, "", ""),
        ("pkg.mod.Thing", "prop", "function", 30, 4, 31, "", ""),
        ("pkg.mod", "helper", "function", 34, 0, 36, "", ""),
        ("pkg.mod", "__getattr__", "function", 39, 0, 43, "", ""),
        ("pkg.mod", "Late", "import", 41, 26, 41, "pkg.late.Later", ""),
    ]
    assert classes == [("pkg.mod.Thing", "pkg/mod.py", 19, ("pkg.mod.Base", "pkg.mod.Mixin", "pkg.mod.Generic"))]
    assert stars == [("typing", 5)]
    # the try body's import stays `speedup`'s binding, the fallback def a pointer to it (line 10); a
    # decorator call is both a call and a decorator; `property` is not bound here, `__main__`'s call is
    assert sorted(x[1:] for x in xrefs) == [
        (2, 7, "os.path", "import", "os.path", "pkg.mod"),
        (3, 14, "sib", "import", "pkg.sibling", "pkg.mod"),
        (4, 18, "Base", "import", "pkg.base.Base", "pkg.mod"),
        (4, 24, "Mixin", "reexport", "pkg.base.Mixin", "pkg.mod"),
        (5, 0, "from typing import *", "star_import", "typing", "pkg.mod"),
        (8, 21, "speedup", "import", "fast.speedup", "pkg.mod"),
        (10, 4, "speedup", "other", "fast.speedup", "pkg.mod"),
        (14, 0, "alias", "alias", "pkg.mod.os.path.join", "pkg.mod"),
        (18, 1, "sib.register", "call", "pkg.mod.sib.register", "pkg.mod.Thing"),
        (18, 1, "sib.register", "decorator", "pkg.mod.sib.register", "pkg.mod.Thing"),
        (19, 12, "Base", "base_class", "pkg.mod.Base", "pkg.mod.Thing"),
        (19, 18, "Mixin", "base_class", "pkg.mod.Mixin", "pkg.mod.Thing"),
        (19, 25, "Generic", "base_class", "pkg.mod.Generic", "pkg.mod.Thing"),
        (23, 4, "other", "alias", "pkg.mod.Thing.size", "pkg.mod.Thing"),
        (25, 24, "Base", "type_annotation", "pkg.mod.Base", "pkg.mod.Thing.method"),
        (25, 49, "Mixin", "type_annotation", "pkg.mod.Mixin", "pkg.mod.Thing.method"),
        (26, 8, "self.helper_call", "call", "pkg.mod.Thing.helper_call", "pkg.mod.Thing.method"),
        (27, 15, "helper", "call", "pkg.mod.helper", "pkg.mod.Thing.method"),
        (31, 15, "self.method", "call", "pkg.mod.Thing.method", "pkg.mod.Thing.prop"),
        (36, 11, "os.path.join", "call", "pkg.mod.os.path.join", "pkg.mod.helper"),
        (41, 26, "Late", "import", "pkg.late.Later", "pkg.mod"),
        (47, 4, "helper", "call", "pkg.mod.helper", "pkg.mod"),
    ]


def test_columns_count_characters_on_a_non_ascii_line():
    src = "import m\nx = 'é'; y = m.f('ü', m.g)\n".encode()
    rows = parse_rows("a.py", src)
    assert [(b[1], b[4], b[5], b[8]) for b in rows[6]] == [
        ("m", 1, 7, ""),
        ("x", 2, 0, "'é'"),
        ("y", 2, 9, "m.f('ü', m.g)"),
    ]
    assert sorted(x[1:4] for x in rows[9]) == [(1, 7, "m"), (2, 13, "m.f")]
