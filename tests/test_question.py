"""Reading questions as people ask them (codehop.reading.question, codehop.reading.datamodel), on a real index.

Fixture `plain_questions`: `shelf.base.Container` (base.py:4) implements most of
the data model; `shelf.box.Box(Container)` and `Crate(Box)` inherit it, are
re-exported by `shelf/__init__.py`; `Jar(dict)`; `Session.expire_on_commit`
annotated at session.py:5 and defaulted by `__init__`; `create_engine(**kw)`
passes keywords on to `QueuePool(pool_size=5)`; `ok` is a one-word function.
"""

from __future__ import annotations

import gc
import itertools
import time

import pytest

from codehop.app import App, Config
from codehop.reading import datamodel
from codehop.reading.question import SubjectFinder, tokenize


@pytest.fixture(scope="module")
def finder(tmp_path_factory):  # type: ignore[no-untyped-def]
    import shutil
    from pathlib import Path

    src = Path(__file__).resolve().parent.parent / "fixtures_repos" / "plain_questions"
    dest = tmp_path_factory.mktemp("pq") / "plain_questions"
    shutil.copytree(src, dest)
    app = App(dest, Config())
    yield SubjectFinder(app.table)
    app.close()


def subjects(finder: SubjectFinder, question: str) -> list[str]:
    return [s.dotted.rpartition(".")[2] for s in finder.read(question).subjects]


# ---- tokens --------------------------------------------------------------------------------


def test_tokens_keep_how_a_name_was_written() -> None:
    toks = {t.text: t for t in tokenize("does `Box.set` in shelf/box.py call close() on the jar's Lazy (weight)?")}
    assert toks["Box.set"].quoted and toks["Box.set"].code
    assert toks["shelf.box"].path
    assert toks["close"].call
    assert toks["jar"].possessive
    assert toks["weight"].quoted  # a name alone in parentheses
    assert not toks["on"].code


# ---- subjects: members through the MRO, any case, stop words included ------------------------


@pytest.mark.parametrize(
    ("question", "member"),
    [
        ("what does set do on a shelf Crate?", "set"),  # a stop word that is a real member
        ("Crate.set in shelf - what path does it use?", "set"),
        ("what happens when I close a Crate?", "close"),
        ("what happens when I close a Crate asynchronously?", "aclose"),
        ("what is the max items of a Box?", "max_items"),  # a name of several words
        ("what is the max item of a Box?", "max_items"),  # its parts by stem
        ("is label set on a Crate?", "label"),
    ],
    ids=[
        "stopword-member",
        "partial-dotted",
        "plain-member",
        "async-variant",
        "multiword",
        "multiword-stem",
        "attribute",
    ],
)
def test_members_of_a_named_class(finder, question, member):
    assert subjects(finder, question)[0] == member


def test_one_word_name_without_backticks(finder):
    assert finder.read("Where is ok defined?").subjects[0].dotted == "shelf.checks.ok"


def test_module_word_ranks_the_class(finder):
    got = finder.read("what is Container in the base module?").subjects[0].dotted
    assert got == "shelf.base.Container"


def test_two_subjects_are_both_read(finder):
    got = [s.dotted for s in finder.read("how does `create_engine` relate to `Session`?").subjects]
    assert "shelf.engine.create_engine" in got and "shelf.session.Session" in got


# ---- absent members, outside bases, unplaced words --------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "what does Crate.retry_later do?",
        "how does reset_all work on a Crate?",
        "what happens when I call reset() on a shelf Box between tests?",
    ],
    ids=["dotted", "snake", "called"],
)
def test_a_member_that_does_not_exist_is_absent(finder, question):
    r = finder.read(question)
    assert r.absent, r
    a = r.absent[0]
    assert a.owner in ("shelf.box.Box", "shelf.box.Crate") and a.member in ("retry_later", "reset_all", "reset")
    assert "set" in a.members  # the answer lists what the class does have
    assert "has no member" in r.doubts[0]


@pytest.mark.parametrize(
    "question",
    [
        "what does get do on a shelf Jar?",
        "where is pop implemented for a Jar object?",
        "what does keys() give me on a Jar?",
    ],
    ids=["get", "pop", "keys"],
)
def test_a_member_of_a_builtin_base_is_outside_the_repository(finder, question):
    r = finder.read(question)
    assert r.absent and r.absent[0].external_bases == ("dict",), r
    assert "outside the repository" in r.doubts[0]


def test_unplaced_words_are_named(finder):
    r = finder.read("what's the default flavour on a Jar?")
    assert "flavour" in r.unplaced
    assert any("flavour" in d for d in r.doubts)


def test_the_word_a_where_question_asks_about_is_placed_or_named(finder):
    """ "where is X defined": X is the name asked about, even written as a plain word; one that matches
    nothing is a doubt, not dropped because a member (`Crate.set`) was placed."""
    r = finder.read("where is shelving defined, the one Crate.set uses?")
    assert "shelving" in r.unplaced
    assert [s.dotted for s in r.subjects] == ["shelf.box.Crate.set"]
    assert "shelf.pool" in [s.dotted for s in finder.read("where does the pool come from in create_engine?").subjects]


@pytest.mark.parametrize(
    ("question", "negated"),
    [
        ("which pool is used if I never call create_engine()?", True),
        ("what happens if I don't call `create_engine`?", True),
        ("what runs without calling the create_engine() helper?", True),
        ("what happens when I call create_engine()?", False),
        ("is create_engine() never called twice?", False),
    ],
)
def test_a_call_the_question_rules_out_is_a_condition(finder, question, negated):
    """ "if I never call create_engine()": the name says what does not happen; what applies then is a
    default the reading does not place, so it stays a doubt (whatever else is read)."""
    r = finder.read(question)
    subjects = [s.dotted for s in r.subjects]
    if negated:
        assert r.negated == ("create_engine",)
        assert any("rules out calling `create_engine`" in d for d in r.doubts)
    else:
        assert subjects[0] == "shelf.engine.create_engine" and not r.negated


def test_a_ruled_out_call_beside_a_declaration_asked_is_only_a_condition(finder):
    """The declaration asked about shows what applies without the call (its default): no doubt."""
    r = finder.read("what is the default pool_size in create_engine if I never call ok()?")
    s = r.subjects[0]
    assert s.parameter is not None and s.parameter.name == "pool_size" and not r.negated
    assert "shelf.checks.ok" not in [x.dotted for x in r.subjects]


def test_a_class_question_has_no_doubt(finder):
    r = finder.read("where is the Crate class defined and what does it inherit from?")
    assert [s.dotted for s in r.subjects] == ["shelf.box.Crate"] and not r.doubts


# ---- parameters and defaults ------------------------------------------------------------------


def test_default_through_kwargs_forward(finder):
    s = finder.read("what is the default pool_size in create_engine?").subjects[0]
    assert s.parameter is not None and s.parameter.name == "pool_size" and s.parameter.default == "5"
    assert s.dotted == "shelf.pool.QueuePool.__init__"
    assert s.forwarded and s.forwarded[0][0].endswith("QueuePool")


def test_a_parameter_spelt_as_two_words(finder):
    """ "pool size" is `pool_size`, taken by `create_engine(**kw)` and passed on to `QueuePool`."""
    s = finder.read("what pool size does create_engine use by default?").subjects[0]
    assert s.parameter is not None and s.parameter.name == "pool_size" and s.parameter.default == "5"


def test_a_parameter_named_by_all_its_parts(finder):
    """`split(text, strip_semicolon=False)` (shelf/text.py:1): the parts in another order and form."""
    s = finder.read("does `split` strip trailing semicolons by default?").subjects[0]
    assert s.dotted == "shelf.text.split" and s.parameter is not None and s.parameter.name == "strip_semicolon"


def test_a_parameter_the_question_sets_is_not_the_one_asked(finder):
    """`serve(host, use_reloader=False, reloader_type="auto")` (shelf/text.py:6): `use_reloader=True` is
    given; "which reloader ... by default" names no parameter whole, so it stays a doubt."""
    r = finder.read("with use_reloader=True, which reloader does `serve` pick by default?")
    assert [(s.dotted, s.parameter) for s in r.subjects] == [("shelf.text.serve", None)]
    assert "reloader" in r.unplaced


def test_a_default_no_parameter_names_of_a_kwargs_function_is_a_doubt(finder):
    """`create_engine(url, echo=False, **kw)`: "colour" names no parameter and no `**` call leads to
    one, so the reader does not call `create_engine` alone the answer."""
    r = finder.read("what colour does create_engine use by default?")
    assert [s.dotted for s in r.subjects] == ["shelf.engine.create_engine"] and "colour" in r.unplaced
    assert not finder.read("what does create_engine return by default?").unplaced


def test_annotation_answered_by_the_constructor_default(finder):
    s = finder.read("what's the default of expire_on_commit on a Session?").subjects[0]
    assert s.parameter is not None and s.parameter.default == "True"


def test_constructor_parameter_default(finder):
    s = finder.read("what does the bind of a Session default to?").subjects[0]
    assert s.parameter is not None and s.parameter.default == "DEFAULT_BIND"


# ---- the data-model table: phrasings the test writes itself --------------------------------------

OBJECTS = ["a Crate", "a shelf Crate", "a shelf box Crate", "one of those Crate objects", "an instance of Crate"]


def phrasings(templates: list[str], verbs: list[str]) -> list[str]:
    return [t.format(v=v, o=o) for t, v, o in itertools.product(templates, verbs, OBJECTS)]


DATA_MODEL = [
    (
        "__init__",
        phrasings(
            ["what can I pass when I {v} {o}?", "what happens when you {v} {o}"],
            ["make", "create", "construct", "instantiate", "build"],
        )
        + ["what does the constructor of Crate take?", "Crate's initializer - what arguments?"],
    ),
    (
        "__call__",
        phrasings(["what happens when you {v} {o} like a function?"], ["call", "invoke"])
        + [
            "is Crate callable, and what does calling it do?",
            # the pronoun before a participle stands for the object, as after a verb ("call it")
            "what does a Crate return when it's called?",
            "what does Crate do when it is invoked?",
        ],
    ),
    (
        "__repr__",
        [
            "what does repr() of a Crate look like?",
            "what does the REPL show for a Crate?",
            "Crate representation - where is it?",
        ],
    ),
    ("__str__", phrasings(["what do I see when I {v} {o}?"], ["print"]) + ["what does str() give for a Crate?"]),
    ("__len__", ["what does len() of a Crate count?", "what is the length of a Crate?"]),
    (
        "__iter__",
        phrasings(["what happens when I {v} {o}?"], ["iterate over", "loop over", "loop through"])
        + ["what does a for loop over a Crate yield?"],
    ),
    (
        "__getitem__",
        phrasings(["what happens when I {v} {o}?"], ["index into", "subscript"])
        + ["how does a Crate handle square brackets?", "item access on a Crate"],
    ),
    (
        "__contains__",
        [
            "how does membership on a Crate work?",
            "what does the `in` operator do on a Crate?",
            "what does `1 in Crate([1])` call?",
            "what does `'>=1' in Crate()` call?",
            "how do I check whether a value is in a Crate?",
        ],
    ),
    (
        "__eq__",
        ["when are two Crate objects equal?", "how are Crate objects compared?", "what does `==` do for a Crate?"],
    ),
    ("__lt__", ["how are Crate objects sorted?", "what decides whether one Crate is less than another?"]),
    ("__hash__", ["is a Crate hashable?", "can a Crate be a dict key?"]),
    ("__bool__", ["what is the truthiness of a Crate?", "when is a Crate falsy?"]),
    ("__await__", ["what happens when I await a Crate?", "is a Crate awaitable?"]),
    ("__reduce__", ["how is a Crate pickled?", "what happens when I pickle a Crate?"]),
    (
        "__deepcopy__",
        [
            "what does deepcopy do to a Crate?",
            "how is a deep copy of a Crate made?",
            "what does copy.deepcopy do with a Crate?",
        ],
    ),
    ("__getattr__", ["what happens on a missing attribute of a Crate?", "how does attribute access work on a Crate?"]),
    (
        "__add__",
        [
            "what does `+` do with two Crate objects?",
            "what is the plus operator on a Crate?",
            "how do I combine two Crates with +?",
        ],
    ),
    ("__or__", ["what does `|` do on a Crate?"]),
    ("__aiter__", ["what does async for over a Crate do?"]),
]
CONTEXT_MANAGER = [
    # (direction words, async?) x (protocol phrase) x word order
    (
        "__exit__",
        [
            f"what happens when you {v} a {w} on a Crate?"
            for v in ("leave", "exit", "finish")
            for w in ("with block", "with statement")
        ]
        + ["when the with block around a Crate ends, what runs?", "what does a Crate do as a context manager on exit?"],
    ),
    (
        "__enter__",
        [f"what does using a Crate in a {w} do on the way in?" for w in ("with block", "with statement")]
        + ["what runs when a Crate's with block is entered?", "`with` a Crate: what happens on entering?"],
    ),
    (
        "__aexit__",
        [
            "what does a Crate do when the async with block around it finishes?",
            "what happens when you exit an async with on a Crate?",
        ],
    ),
    (
        "__aenter__",
        [
            "`Crate` in an `async with` - what runs when the block is entered?",
            "what does entering an async context manager Crate do?",
        ],
    ),
]


@pytest.mark.parametrize(("method", "question"), [(m, q) for m, qs in DATA_MODEL + CONTEXT_MANAGER for q in qs])
def test_data_model_phrasings(finder, method, question):
    got = subjects(finder, question)
    assert got and got[0] == method, (question, got)


def test_descriptor_names_every_side(finder):
    got = subjects(finder, "how does the Lazy descriptor work?")
    assert {"__get__", "__set__"} <= set(got)


def test_a_verb_needs_its_object():
    words = "i make coffee before i look at the crate".split()
    assert not [m for m in datamodel.match(words, [8]) if m.operation.name == "init"]
    words = "what happens when i make a crate".split()
    assert [m.operation.name for m in datamodel.match(words, [6])] == ["init"]


def test_the_word_naming_the_object_is_not_an_operation():
    """A class named like an operation ("a Length validator", set F f17) is the object asked about,
    not `len()` applied to it; the same noun beside another object still is."""
    words = "what are the default min and max of a length validator".split()
    assert not datamodel.match(words, [9])
    words = "what is the length of a crate".split()
    assert [m.operation.name for m in datamodel.match(words, [6])] == ["len"]


def test_a_member_named_like_an_operation_wins(finder):
    # `close` is a real method: "close" is not the context manager's exit here
    assert subjects(finder, "what does close do on a Crate?")[0] == "close"


def test_operation_the_class_lacks_is_absent(finder):
    r = finder.read("what does repr() of a Jar look like?")
    assert r.absent and r.absent[0].member == "__repr__"


# ---- bounded, linear reading ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "x" * 100_000,
        "what does " + "Crate " * 16_000 + "set do",
        " ".join(f"Name{i} word_{i}()" for i in range(8_000)),
        "`with` " * 15_000 + "exit Crate",
        "Crate.set " * 10_000,
    ],
    ids=["one-word", "repeated-class", "distinct-names", "quoted-keywords", "dotted"],
)
def test_a_100kb_question_reads_in_under_a_second(finder, question):
    assert len(question) >= 90_000
    finder.read("warm up Crate")
    gc.collect()  # the garbage earlier tests left is not this reading's to collect
    t0 = time.process_time()  # CPU time: other processes on a shared machine do not count
    finder.read(question)
    assert time.process_time() - t0 < 1.0  # measured about 0.05-0.3 s


# ---- where the symbol table stops: subscripted bases, rebound classes, outside bases first -------


def test_member_behind_a_subscripted_base(finder):
    """shelf/generic.py: `class Sack(Bag[int])`, `Bag.__getitem__` at generic.py:7."""
    got = finder.read("what happens when I index into a Sack with square brackets?").subjects
    assert got and got[0].dotted.endswith("Sack.__getitem__")
    res = finder.locate(got[0].dotted)
    assert res is not None and (res.target.rel_path, res.target.line) == ("shelf/generic.py", 7)


def test_member_of_a_rebound_class(finder):
    """shelf/generic.py: `Tin = add_repr(Tin)` after the class body; `Tin.__init__(lid=True)`."""
    s = finder.read("what does the lid of a Tin default to?").subjects[0]
    assert s.parameter is not None and s.parameter.default == "True"
    assert finder.read("what does Tin.open do?").subjects[0].dotted.endswith("Tin.open")


def test_outside_base_comes_before_a_repository_fallback(finder):
    """`Ledger(MutableMapping)` has `__iter__` but `in` runs `Mapping.__contains__` first."""
    r = finder.read("how does membership work on a Ledger?")
    assert not r.subjects or not r.subjects[0].dotted.endswith("__iter__")
    assert r.absent and r.absent[0].member == "__contains__"


def test_a_dash_in_prose_is_not_an_operator(finder):
    assert subjects(finder, "Crate.set in shelf - what does it do?") == ["set"]


def test_constructor_parameter_next_to_the_data_model(finder):
    s = finder.read("what's the default for pool_size when I construct a QueuePool?").subjects[0]
    assert s.parameter is not None and s.parameter.default == "5"


def test_a_code_word_that_matches_nothing_is_named(finder):
    r = finder.read("what does `frobnicate_all` return?")
    assert "frobnicate_all" in r.unplaced


def test_a_class_question_with_a_plain_member_word_keeps_the_class(finder):
    got = [s.dotted for s in finder.read("which class gives a Crate its label?").subjects]
    assert "shelf.box.Crate" in got and any(d.endswith(".label") for d in got)


def test_passive_construction(finder):
    assert subjects(finder, "how is a Crate made from a list?")[0] == "__init__"


def test_a_package_alone_with_unknown_words_is_in_doubt(finder):
    r = finder.read("what's the default flavour in shelf?")
    assert "flavour" in r.unplaced


def test_pickling_falls_through_object_defaults(finder):
    """`Container.__reduce__` is the repository's own; `Jar(dict)` has none: dict's pickling is object's."""
    assert subjects(finder, "what happens if I pickle a Crate?")[0] == "__reduce__"
    r = finder.read("what happens when a Jar is garbage collected?")
    assert r.absent and r.absent[0].member == "__del__" and r.absent[0].external_bases == ("object",)


def test_several_plain_member_words_are_all_subjects(finder):
    got = subjects(finder, "how does a Box handle the label when I close it?")
    assert {"label", "close"} <= set(got)


# ---- the helpers the reader stands on -------------------------------------------------------------


def test_parameters_read_from_a_signature():
    from codehop.reading.signatures import parameters

    ps = parameters("def f(\n    self, a, /, b: int = 3, *args, c=None, d: str = 'x', **kw\n) -> None")
    assert [(p.name, p.kind, p.default) for p in ps] == [
        ("self", "", ""),
        ("a", "", ""),
        ("b", "", "3"),
        ("args", "*", ""),
        ("c", "", "None"),
        ("d", "", "'x'"),
        ("kw", "**", ""),
    ]
    assert parameters("class X(Base)") == () and parameters("def broken(") == ()


@pytest.mark.parametrize(
    ("base", "name", "defines"),
    [
        ("dict", "get", True),
        ("typing.MutableMapping[str, str]", "__contains__", True),
        ("dict", "__reduce_ex__", False),
        ("Exception", "args", True),
        ("dict", "__del__", False),
        ("werkzeug.Request", "args", None),
        ("os.system", "x", None),
    ],
)
def test_what_python_itself_defines_on_a_base(base, name, defines):
    from codehop.reading import builtin_bases

    assert builtin_bases.overrides(base, name) is defines


def test_instance_attribute_is_a_member(finder):
    """shelf/session.py: `Cursor` sets `self.closed = False` in __init__ (no class-body binding)."""
    r = finder.read("what is Cursor.closed?")
    assert not r.absent and r.subjects[0].assigned and "self.closed = False" in r.subjects[0].assigned[1]
    r = finder.read("what's the closed flag of a Cursor?")
    assert r.subjects and r.subjects[0].assigned


def test_none_default_filled_by_a_default_attribute(finder):
    got = [s.dotted for s in finder.read("what does arraysize default to on a Cursor?").subjects]
    assert got[0].endswith("Cursor.__init__") and any(d.endswith("Cursor.default_arraysize") for d in got)


def test_a_commented_signature_still_gives_its_parameters(finder):
    r = finder.read("what does Cursor.fetch do when size is None?")
    assert "size" not in r.unplaced and r.subjects[0].dotted.endswith("Cursor.fetch")


def test_a_member_of_an_attributes_value_is_not_the_classs(finder):
    """`self.items.clear` asked next to `Crate`: `clear` belongs to whatever `items` holds, not Crate."""
    r = finder.read("Crate.close calls `self.items.clear()` - which clear is that?")
    assert not any(s.dotted.endswith("Crate.clear") for s in r.subjects)
    assert "self.items.clear" in r.unplaced  # left to the pointer sites (Jedi, a language server)


def test_a_name_spelt_as_words(finder):
    """shelf/session.py:1 `DEFAULT_BIND`."""
    assert finder.read("what is the default bind of shelf?").subjects[0].dotted.endswith("DEFAULT_BIND")


# ---- code fragments quoted in the question ---------------------------------------------------


def test_tokens_know_call_arguments_splats_and_keywords() -> None:
    toks = {
        t.text: t
        for t in tokenize(
            "It calls decoder.decode(self.content), then `copy_with(**kwargs)` "
            "and TextDecoder(encoding=...), an overlay (overlayed)"
        )
    }
    assert toks["self.content"].argument and not toks["self.content"].quoted
    assert toks["kwargs"].splat and toks["kwargs"].argument
    assert toks["encoding"].keyword and toks["encoding"].argument
    assert not toks["decoder.decode"].argument and not toks["TextDecoder"].argument
    assert toks["overlayed"].quoted and not toks["overlayed"].argument  # a parenthesis of prose


@pytest.mark.parametrize(
    "question",
    [
        "What does `create_engine(url, echo=True)` hand to `QueuePool`?",  # a keyword argument
        "Where is `Box.set` declared? It is called as `box.set(key, value, **extras)`.",  # a splat
    ],
)
def test_names_passed_to_a_quoted_call_are_not_members_asked(finder, question):
    reading = finder.read(question)
    named = {a.member for a in reading.absent} | set(reading.unplaced)
    assert not named & {"url", "echo", "key", "value", "extras"}, reading.doubts


def test_a_name_passed_to_a_call_and_asked_elsewhere_is_still_asked(finder):
    reading = finder.read("Box.set is called as `box.set(extras)`. Where is `extras` declared on Box?")
    assert [a.member for a in reading.absent] == ["extras"]


def test_self_attribute_belongs_to_the_class_that_has_it(finder):
    # `self.name` is Lazy's (set in its __set_name__), though Box is the nearer mention
    reading = finder.read("Which `Box` code reads `self.name`, the one `Lazy` sets?")
    assert not reading.absent, reading.doubts
    assert "shelf.descr.Lazy.__set_name__" in [s.dotted for s in reading.subjects]
    # still a doubt when no class the question names has it
    assert [a.member for a in finder.read("What does `Box` do with `self.nozzle`?").absent] == ["nozzle"]


def test_a_name_placed_at_one_mention_is_placed_at_all(finder):
    reading = finder.read("`Box.set` is where `create_engine` is not called; which module defines `create_engine`?")
    assert "create_engine" not in reading.unplaced, reading.doubts


def test_tokens_know_bound_names_and_receivers() -> None:
    toks = {
        t.text: t for t in tokenize("`opts = self.options.update(x)` then `get_width(c, o).normalize()`, if a == b")
    }
    assert toks["opts"].bound and not toks["a"].bound
    assert toks["get_width"].receiver and toks["normalize"].result_member
    assert not toks["self.options.update"].receiver


def test_a_chain_member_belongs_to_its_receiver_not_the_nearest_class(finder):
    # `pool.recycle_after` is reached through a local: its receiver's type decides (the hop's sites), not Box
    reading = finder.read("`Box.set` hands `pool.recycle_after` to something. Where is recycle_after defined?")
    assert not reading.absent, reading.doubts
    assert reading.unplaced == ("pool.recycle_after",)  # the chain itself stays for the hop
    assert "shelf.box.Box.set" in [s.dotted for s in reading.subjects]


def test_a_bare_name_repeating_a_chain_member_is_that_member(finder):
    # "which set is that": the `set` of `store.items.set(...)`, not the namesake `Box.set`
    reading = finder.read("A `Box` ends in `store.items.set(key)`. Which set is that?")
    assert "shelf.box.Box.set" not in [s.dotted for s in reading.subjects]
    assert reading.unplaced == ("store.items.set",)


def test_a_bound_name_and_a_receiver_are_no_doubt_of_their_own(finder):
    reading = finder.read("`Box.set` does `rows = fetch_rows(conn).first()`. Where is first defined?")
    assert "rows" not in reading.unplaced and "fetch_rows" not in reading.unplaced, reading.doubts
    assert "first" in reading.unplaced  # the member asked still waits for the hop


def test_an_argument_of_another_call_is_not_a_parameter_of_the_named_function(finder):
    # `key` is passed to `append`, not asked of `Box.set`
    reading = finder.read("`Box.set` does `self.items.append((key, value, path))`. Which append is that?")
    assert [s.parameter for s in reading.subjects if s.dotted == "shelf.box.Box.set"] == [None]
    assert reading.unplaced == ("self.items.append",)  # `self.items` holds a list: the hop infers it


def test_a_called_self_member_is_the_named_class_member(finder):
    reading = finder.read("In `Crate.shake`, `self.set(key, value)` runs. Which set is that?")
    assert "shelf.box.Crate.set" in [s.dotted for s in reading.subjects]
    assert [a.member for a in reading.absent] == ["shake"]  # Crate has no shake: still said
