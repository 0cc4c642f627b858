"""What a name stands in for, read by the question reader (codehop.reading): a `None` default the
body replaces, the class an instance attribute is made from, a module-level alias of an instance's
method, and a class whose name is an English word the reader knows. Each on its own small fixture
(`none_default`, `instance_alias`, `word_named_class`), asked through the public API with the
symbol table alone (no language server: the reader must place these itself)."""

from __future__ import annotations

from codehop.api import ask
from codehop.reading.question_words import tokenize
from codehop.reading.signatures import none_fallback


def located(answer: dict, path: str, line: int) -> bool:  # type: ignore[type-arg]
    return any(c["path"] == path and c["start_line"] <= line <= c["end_line"] for c in answer["context"])


def test_none_fallback_reads_the_sentinel_forms() -> None:
    body = """def f(a=None, b=None, c=None, d=None, e=None):
    x = Made() if a is None else a
    y = b or other()
    if c is None:
        c = DEFAULT_C
    z = d if d is not None else D
"""
    assert none_fallback(body, "a") == (2, "Made()")
    assert none_fallback(body, "b") == (3, "other()")
    assert none_fallback(body, "c") == (5, "DEFAULT_C")
    assert none_fallback(body, "d") == (6, "D")
    assert none_fallback(body, "e") is None


def test_a_none_default_is_followed_to_what_the_body_uses(fixture_repo) -> None:  # type: ignore[no-untyped-def]
    repo = fixture_repo("none_default")
    a = ask(
        "what network backend does a netpool Pool use if I don't pass one?", repo=repo, resolvers="symbol_table"
    ).to_dict()
    assert a["state"] == "complete"
    assert "network_backend" in a["answer"] and "SyncBackend()" in a["answer"]
    assert located(a, "netpool/backends.py", 1)


def test_a_parameter_spelt_in_words_beats_a_member_named_by_one_of_them(fixture_repo) -> None:  # type: ignore[no-untyped-def]
    repo = fixture_repo("none_default")
    a = ask("how many idle connections does a netpool Pool keep by default?", repo=repo, resolvers="symbol_table")
    d = a.to_dict()
    assert "max_idle_connections" in d["answer"]
    assert "Pool.connections" not in d["answer"]  # the method named by one of the words is not the answer
    assert "it becomes `8` (netpool/pool.py:8)" in d["answer"]
    assert d["state"] == "complete"


def test_an_attribute_type_is_followed_to_its_class(fixture_repo) -> None:  # type: ignore[no-untyped-def]
    repo = fixture_repo("none_default")
    a = ask("what type is Pool._state in netpool and where is that class?", repo=repo, resolvers="symbol_table")
    d = a.to_dict()
    assert d["state"] == "complete"
    assert "netpool/state.py:1" in d["answer"] and "PoolState" in d["answer"]
    assert located(d, "netpool/state.py", 1)


def test_an_alias_of_an_instance_method_lands_on_the_method(fixture_repo) -> None:  # type: ignore[no-untyped-def]
    repo = fixture_repo("instance_alias")
    d = ask("what does convert.structure actually run?", repo=repo, resolvers="symbol_table").to_dict()
    assert d["state"] == "complete"
    assert "convert/converters.py:2" in d["answer"] and "BaseConverter.structure" in d["answer"]
    assert "convert/__init__.py:5" in d["answer"]  # the alias is the chain's first link
    assert located(d, "convert/converters.py", 2)


def test_an_absent_member_of_the_instance_stays_partial(fixture_repo) -> None:  # type: ignore[no-untyped-def]
    repo = fixture_repo("instance_alias")
    d = ask("what does default_converter.structure_many do in convert?", repo=repo, resolvers="symbol_table").to_dict()
    assert d["state"] != "complete"


def test_a_capitalised_reader_word_is_the_class_it_names(fixture_repo) -> None:  # type: ignore[no-untyped-def]
    repo = fixture_repo("word_named_class")
    d = ask("how does places compare two Origin objects for equality?", repo=repo, resolvers="symbol_table").to_dict()
    assert d["state"] == "complete"
    assert "places/models.py:6" in d["answer"] and "__eq__" in d["answer"]


def test_a_sentence_initial_capital_is_not_a_name() -> None:
    toks = tokenize("Origin of the pool? Type hints. where does Origin live")
    assert [t.initial for t in toks if t.text in ("Origin", "Type")] == [True, True, False]
    assert not toks[0].named and toks[-2].named


def test_inflected_words_name_the_compound_member(fixture_repo) -> None:  # type: ignore[no-untyped-def]
    repo = fixture_repo("inflected_member")
    d = ask(
        "how does a relay Pool decide which connection handles a request?", repo=repo, resolvers="symbol_table"
    ).to_dict()
    assert "relay/pool.py:6" in d["answer"] and "handle_request" in d["answer"]
    assert "Pool.request`" not in d["answer"]  # one of the words names another member: not the answer
    d = ask("how does a relay Pool open a TCP connection?", repo=repo, resolvers="symbol_table").to_dict()
    assert d["state"] == "complete"
    assert "relay/pool.py:10" in d["answer"] and "connect_tcp" in d["answer"]


def test_words_spelling_a_parameter_name_the_method_taking_it(fixture_repo) -> None:  # type: ignore[no-untyped-def]
    repo = fixture_repo("inflected_member")
    d = ask(
        "how does a relay Pool decide whether a status code should be retried?", repo=repo, resolvers="symbol_table"
    ).to_dict()
    assert d["state"] == "complete"
    assert "relay/pool.py:13" in d["answer"] and "is_retry" in d["answer"]


def test_a_member_of_a_call_result_follows_the_return_annotation(fixture_repo) -> None:  # type: ignore[no-untyped-def]
    repo = fixture_repo("returned_member")
    d = ask("docs.loads(text).unwrap() - which unwrap runs there?", repo=repo, resolvers="symbol_table").to_dict()
    assert d["state"] == "complete"
    assert "docs/document.py:5" in d["answer"] and "Container.unwrap" in d["answer"]
    assert "Proxy.unwrap" not in d["answer"]


def test_a_code_name_that_one_method_takes_is_that_parameter(fixture_repo) -> None:  # type: ignore[no-untyped-def]
    repo = fixture_repo("method_parameter")
    d = ask(
        "what's the default max_bytes when receiving from a wire ByteReceiveStream?",
        repo=repo,
        resolvers="symbol_table",
    ).to_dict()
    assert d["state"] == "complete"
    assert "wire/streams.py:5" in d["answer"] and "`65536`" in d["answer"]
    d = ask("what's the default min_bytes of a wire ByteReceiveStream?", repo=repo, resolvers="symbol_table").to_dict()
    assert d["state"] != "complete"


def test_an_async_word_selects_the_async_side_of_iteration() -> None:
    from codehop.reading import datamodel

    words = "what happens when you async iterate over a stream".split()
    [m] = datamodel.match(words, [8])
    assert m.operation.name == "aiter" and m.words[:2] == ("async", "iterate")
    [m] = datamodel.match("what happens when you iterate over a stream".split(), [7])
    assert m.operation.name == "iter"


def test_the_names_of_a_quoted_operator_expression_are_placeholders() -> None:
    toks = tokenize("what does `key in cache` do for a TTLCache? and `Headers.get(name)`, `x in Jar`")
    by = {t.text: t for t in toks}
    assert by["key"].operand and by["cache"].operand and by["x"].operand
    assert not by["TTLCache"].operand and not by["Headers.get"].operand and not by["Jar"].operand
    assert not by["name"].operand  # an argument of a call, not an operand


def test_a_missing_key_is_the_mapping_hook() -> None:
    from codehop.reading import datamodel

    [m] = datamodel.match("what happens when you look up a missing key in a cache".split(), [10])
    assert m.operation.methods == ("__missing__", "__getitem__")
    # a condition on another member is not the hook
    assert not datamodel.match("what does pop return on a cache when the key is missing".split(), [6])


def test_a_dotted_default_lands_on_the_declaration_it_names(fixture_repo) -> None:  # type: ignore[no-untyped-def]
    repo = fixture_repo("dotted_default")
    d = ask("what's the default key function of memo.cached?", repo=repo, resolvers="symbol_table").to_dict()
    assert d["state"] == "complete"
    assert "memo/keys.py:4" in d["answer"] and "hashkey" in d["answer"]
    assert located(d, "memo/keys.py", 4)


def test_a_header_kept_with_its_colon_and_comment_still_parses() -> None:
    from codehop.reading.signatures import parameters, returns

    ps = parameters("def cached(cache: dict, key=keys.hashkey):  # type: ignore[no-untyped-def]")
    assert [(p.name, p.default) for p in ps] == [("cache", ""), ("key", "keys.hashkey")]
    assert returns("def loads(text: str) -> Document:  # noqa: E501") == "Document"


def test_a_lowercase_class_named_as_a_plain_word_is_read_as_a_class(fixture_repo) -> None:  # type: ignore[no-untyped-def]
    repo = fixture_repo("lowercase_class")
    d = ask("what does peek do on a seq peekable?", repo=repo, resolvers="symbol_table").to_dict()
    assert d["state"] == "complete"
    assert "seq/more.py:9" in d["answer"] and "peekable.peek" in d["answer"]
    d = ask("what happens when you index a peekable with square brackets?", repo=repo, resolvers="symbol_table")
    d = d.to_dict()
    assert d["state"] == "complete"
    assert "seq/more.py:14" in d["answer"] and "__getitem__" in d["answer"]
    assert "numeric_range" not in d["answer"]


def test_a_function_spelt_as_words_is_found_after_the_class_reading(fixture_repo) -> None:  # type: ignore[no-untyped-def]
    repo = fixture_repo("lowercase_class")
    d = ask("where is the default window size worked out in seq?", repo=repo, resolvers="symbol_table").to_dict()
    assert d["state"] == "complete"
    assert "seq/more.py:28" in d["answer"] and "default_window_size" in d["answer"]


def test_a_plain_word_namesake_leaves_the_other_content_words_doubts(fixture_repo) -> None:  # type: ignore[no-untyped-def]
    repo = fixture_repo("dotted_default")
    d = ask(
        "if I want every expensive call cached forever, where would the stored results get evicted?",
        repo=repo,
        resolvers="symbol_table",
    ).to_dict()
    assert d["state"] != "complete"  # `memo.cached` is named by a plain word; the rest names nothing
    assert "evicted" in d["answer"]
    d = ask("where is cached defined in memo?", repo=repo, resolvers="symbol_table").to_dict()
    assert d["state"] == "complete" and "memo/__init__.py:4" in d["answer"]


def test_a_word_ending_a_longer_member_name_is_not_a_member_of_its_own(fixture_repo) -> None:  # type: ignore[no-untyped-def]
    # "a structure hook" ends `get_structure_hook`: the member `structure` is not what is asked
    repo = fixture_repo("instance_alias")
    d = ask("how does a convert Converter pick a structure hook for a type?", repo=repo, resolvers="symbol_table")
    assert not (d.state.value == "complete" and "BaseConverter.structure" in d.answer), d.answer
