"""The data-model table derived from Python's own reference (codehop.reading.datamodel).

Fixture `reference_datamodel`: `geom.vector.Vector` (geom/vector.py:1) defines special methods the
old hand-typed table never listed: `__reversed__` :5, `__abs__` :8, `__round__` :11,
`__floordiv__` :14, `__del__` :17, `__length_hint__` :20. The words that name them come from
`pydoc_data.topics` and the runtime's slot docstrings, not from a list in codehop.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from codehop.app import App, Config
from codehop.reading import datamodel
from codehop.reading.question import SubjectFinder, tokenize


@pytest.fixture(scope="module")
def finder(tmp_path_factory):  # type: ignore[no-untyped-def]
    src = Path(__file__).resolve().parent.parent / "fixtures_repos" / "reference_datamodel"
    dest = tmp_path_factory.mktemp("rd") / "reference_datamodel"
    shutil.copytree(src, dest)
    app = App(dest, Config())
    yield SubjectFinder(app.table)
    app.close()


def operations(question: str, obj: str) -> list[str]:
    """The first special method of each operation the question describes about `obj`."""
    toks = tokenize(question)
    words = [t.low for t in toks]
    objects = [t.index for t in toks if t.low == obj]
    quoted = [t.index for t in toks if t.quoted or t.call]  # as the reader passes them
    return [m.operation.methods[0] for m in datamodel.match(words, objects, quoted)]


# phrasings the old table did not list; the reference says them ("Called to implement reverse
# iteration", "Called when the instance is about to be destroyed", "round()", "abs()", "//")
DERIVED = [
    ("__reversed__", "what happens when you reverse a Vector?"),
    ("__reversed__", "what does reversed() give for a Vector?"),
    ("__abs__", "what does abs() of a Vector return?"),
    ("__round__", "how is a Vector rounded?"),
    ("__del__", "what happens when a Vector is destroyed?"),
    ("__length_hint__", "what does operator.length_hint give for a Vector?"),
]


@pytest.mark.parametrize(("method", "question"), DERIVED, ids=[q for _, q in DERIVED])
def test_words_of_the_reference_name_the_special_method(finder, method, question):
    got = [s.dotted.rpartition(".")[2] for s in finder.read(question).subjects]
    assert got and got[0] == method, (question, got)


@pytest.mark.parametrize(
    ("symbol", "method"),
    [("//", "__floordiv__"), ("-", "__sub__"), ("%", "__mod__"), ("^", "__xor__"), ("~", "__invert__")],
)
def test_an_operator_is_the_method_the_runtime_names(symbol, method):
    """`int.__floordiv__.__doc__` is "Return self//value.": the operator is that method's, not
    its family's (the reference lists all binary operators in one sentence)."""
    op = datamodel.tables().code[symbol]
    assert op.methods[0] == method


def test_every_special_method_of_the_reference_is_an_operation():
    """The table is built from `pydoc_data`: each `object.__x__(...)` entry of "Special method
    names" is a method of some operation, none typed in codehop."""
    from pydoc_data.topics import topics

    entries = set(re.findall(r"^(?:classmethod )?object\.(__\w+__)\(", topics["specialnames"], re.M))
    covered = {m for op in datamodel.operations() for m in op.methods}
    assert len(entries) > 80 and entries <= covered
    source = Path(datamodel.__file__).read_text()
    assert "__length_hint__" not in source and "__reversed__" not in source  # derived, not typed
    assert operations("what does operator.length_hint give for a Vector?", "vector") == ["__length_hint__"]


@pytest.mark.parametrize(
    ("question", "methods"),
    [
        # "Called to implement assignment to self[key]" / "deletion of self[key]"
        ("what happens when you assign a key on a Vector with square brackets?", ["__setitem__", "__getitem__"]),
        ("what happens when I delete a key from a Vector?", ["__delitem__"]),
        ("Vector - what does its constructor accept?", ["__init__"]),  # "the class constructor expression"
        ("what does repr() of a geom Vector print?", ["__repr__"]),  # a built-in written as a call
        ("is a Vector hashable?", ["__hash__"]),  # the cue and an adjective's ending
        ("where is the Vector representation?", ["__repr__"]),  # repr: never a word in the reference
    ],
)
def test_the_reference_words_in_a_question(question, methods):
    assert operations(question, "vector") == methods, question


@pytest.mark.parametrize(
    "question",
    [
        "how does a Vector fire its callbacks?",  # call + backs: no adjective's ending
        "what does a Vector load from its builtin translations?",
        "what members does a Vector have?",
        "which subclasses does Vector have?",
        "who calls setdefault on a Vector?",
        "what is the generic one in a Vector?",
        "which function does Vector use to parse the requirement string?",
        "what does the owner class do with a Vector?",
    ],
)
def test_an_ordinary_word_beside_the_object_is_no_operation(question):
    assert operations(question, "vector") == [], question


def test_a_verb_of_the_reference_needs_the_object_after_it():
    assert operations("what does creating a Vector require?", "vector") == ["__init__"]
    assert operations("what does a Vector create?", "vector") == []
