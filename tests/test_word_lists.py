"""Word lists derived from a library or from Python itself cover what the hand-typed lists they
replaced held (issue 25 item 7): each test names the old list and the words of it that mattered."""

from __future__ import annotations

import pytest

from codehop.reading import builtin_bases

# the modules builtin_bases imported by a typed list before it read `sys.stdlib_module_names`
_TYPED_SAFE_MODULES = """typing collections collections.abc abc enum numbers io os pathlib contextlib threading
json argparse logging datetime decimal fractions string types weakref queue dataclasses functools http.cookiejar
http.client email.message urllib.parse unittest asyncio socket ssl re array codecs configparser""".split()


@pytest.mark.parametrize("module", _TYPED_SAFE_MODULES)
def test_stdlib_modules_cover_the_typed_safe_modules(module):
    assert builtin_bases.safe_module(module)


@pytest.mark.parametrize("module", ["this", "antigravity", "idlelib.idle", "_socket", "json.__main__", "werkzeug"])
def test_modules_that_act_on_import_or_are_not_stdlib_are_not_imported(module):
    assert not builtin_bases.safe_module(module)


def test_a_base_from_a_stdlib_module_the_typed_list_lacked():
    """`heapq`, `csv`, `shlex` were not in the typed list: their classes are Python's too."""
    assert builtin_bases.overrides("csv.DictReader", "__next__") is True
    assert builtin_bases.members("shlex.shlex") is not None


# the search's stop words, typed in codehop.kernel.words before STOP read the `stopwords` package
_TYPED_SEARCH_STOP = """a an and are as at be by can do does did for from how i if in into is it its me my of on or
so that the their them then there these this to was what when where which who why will with you your show tell give
has have had any some actually really much many i'm im""".split()


def test_function_words_cover_the_typed_search_stop_words():
    from codehop.reading.question_words import STOP

    # "much" and "many" went with the fillers no answer read (around, done, one, ones, yes): measured
    # on the dev and untuned sets, leaving them out of STOP changed no state
    assert {p for w in _TYPED_SEARCH_STOP for p in w.split("'")} - {"much", "many"} <= STOP


def test_apostrophe_less_forms_come_from_the_library_contractions():
    """People type "whats" and "wheres"; an `'ll`/`'d` form without its apostrophe is a word of its
    own ("shell", "id") and stays out."""
    from codehop.reading.question_words import STOP

    assert {"whats", "wheres", "im", "thats"} <= STOP
    assert not {"shell", "id", "well", "hell"} & STOP


def test_retrieval_drops_the_function_words():
    from codehop.answer.retrieval import query_terms

    assert query_terms("where is the client's timeout set before sending?") == ["client", "sending", "set", "timeout"]


# the cue stems reading.intent.INTENTS typed before an intent's own name became one of its cues
_TYPED_INTENT_CUES = {
    "raises": {"rais", "throw"},
    "inherited": {"inherit", "superclass", "mro"},
    "value": {"default", "valu", "constant", "set"},
    "type": {"type", "return", "annot"},
    "why": {"whi"},
    "callees": {"call", "use"},
    "how": {"how", "happen", "work"},
    "definition": {"defin", "declar", "locat", "live", "implement"},
}


def test_an_intents_name_and_asks_cover_its_typed_cues():
    from codehop.reading.intent import INTENTS

    assert {r.intent.value: set(r.cues) for r in INTENTS}.keys() == _TYPED_INTENT_CUES.keys()
    for rule in INTENTS:
        assert _TYPED_INTENT_CUES[rule.intent.value] <= rule.cues, rule.intent


def test_the_vocabulary_holds_the_intent_words_it_typed_before():
    """VOCABULARY unions the intents' words instead of typing them again."""
    from codehop.reading.question_words import VOCABULARY

    typed = "define definition declare locate live implement happen work call use throw value type set".split()
    assert all(w in VOCABULARY for w in typed)


def test_navquestion_lists_cover_their_typed_words():
    """_GENERIC, _FILLERS, _WHERE and _ADVERBS are built from shared parts (the index's kinds, the
    places, the adverbs, the articles): each still holds every word it typed before."""
    from codehop.answer import navquestion as nq

    generic = """function method class module code place file part thing everything anything something site us every
    repo repository codebase project else exactly directly object type test still currently""".split()
    fillers = """the a an class function method module attribute setting constant variable value property name symbol
    member helper""".split()
    where = """in across throughout anywhere within inside outside elsewhere the this our my codebase repo repository
    project package code tests else at all""".split()
    adverbs = "ever actually really still directly all also eventually ultimately".split()
    assert all(w in nq._GENERIC for w in generic)
    assert set(fillers) <= nq._FILLERS
    assert all(w in nq._WHERE or w in nq._ADVERBS for w in where)  # ("all": an adverb, dropped first)
    assert nq._ends_clause("in all the codebase".split()) and nq._ends_clause("anywhere else in httpx".split())
    assert all(w in nq._ADVERBS for w in adverbs)


def test_interrogatives_cover_the_typed_wh_list():
    """task._WH typed the words a question opens with; the wh-words come from the library's list and
    the auxiliaries from its "n't" forms."""
    from codehop.reading.question_words import AUXILIARIES, INTERROGATIVES

    typed = "what where which who whom whose why how when does do did is are was can could".split()
    assert set(typed) <= INTERROGATIVES
    assert {"is", "are", "was", "were", "do", "does", "did", "could", "should", "would"} <= AUXILIARIES
    assert not {"while", "have", "the", "in"} & INTERROGATIVES


@pytest.mark.parametrize(
    ("intent", "typed_nouns"),
    [
        ("callers", ["caller", "call site", "invocation"]),
        ("users", ["user", "usage", "use", "reference", "dependent", "consumer"]),
        ("importers", ["importer", "import"]),
        ("subclasses", ["subclass", "subtype", "descendant", "derived class", "child class", "children"]),
        ("overrides", ["overrider", "reimplementation"]),
    ],
)
def test_relation_nouns_cover_the_typed_nouns(intent, typed_nouns):
    """A relation's nouns are its intent's own name and the nouns given (its verbs, where they are
    nouns too): every noun the table typed before still names it."""
    from codehop.answer.navquestion import RELATIONS

    nouns = [rel.nouns for rel in RELATIONS if rel.incoming.value == intent]
    assert all(any(n in ns for ns in nouns) for n in typed_nouns)
    if intent == "callers":
        assert all(n in RELATIONS[0].outgoing_nouns for n in ("callee", "call"))


def test_askers_match_the_apostrophe_less_forms_by_stem():
    from codehop.answer.navquestion import _ASKERS

    assert all(w in _ASKERS for w in "what which who where list find show give tell enumerate whats wheres".split())
    assert all(w in _ASKERS for w in ("whom", "whose"))  # the wh-words of INTERROGATIVES
    assert not any(w in _ASKERS for w in ("when", "why", "how", "while"))  # a time or a reason is not a list


def test_operator_words_come_from_pythons_keywords_and_ast():
    """question_words._OPERATOR_WORDS typed in, not, is, del, and, or, await."""
    from codehop.reading.question_words import _OPERATOR_WORDS

    assert {"in", "not", "is", "del", "and", "or", "await"} <= _OPERATOR_WORDS
    assert not {"if", "for", "def", "class", "import", "return"} & _OPERATOR_WORDS


def test_be_forms_give_the_membership_phrases():
    """datamodel typed "is in", "are in", "be in" for `__contains__`: one phrase per form of "be"."""
    from codehop.reading import datamodel

    for question in ("when a key is in the cache", "when keys are in the cache", "can a key be in the cache"):
        words = question.split()
        found = datamodel.match(words, [len(words) - 1])
        assert [m.operation.name for m in found] == ["contains"], question


def test_class_and_member_words_cover_their_typed_lists():
    """CLASS_WORDS and MEMBER_ASPECTS take the class kind and the intents' names instead of typing
    them again; KIND_WORDS names each kind by its own name."""
    from codehop.index.terms import stem
    from codehop.reading.intent import KIND_WORDS
    from codehop.reading.question_words import CLASS_WORDS, MEMBER_ASPECTS

    assert all(w in CLASS_WORDS for w in "class subclass inherit base parent superclass".split())
    assert all(w in MEMBER_ASPECTS for w in "default return raise inherit subclass override overridden".split())
    typed = {"helper": "function", "decorator": "function", "attribute": "attribute", "property": "attribute"}
    typed |= {"flag": "attribute", "setting": "attribute", "constant": "attribute", "test": "test"}
    typed |= {"exception": "exception", "error": "exception", "class": "class", "module": "module"}
    assert all(KIND_WORDS[stem(w)] == kind for w, kind in typed.items())


def test_kind_and_name_words_are_typed_once():
    """VOCABULARY, intent.KIND_OF_VALUE, KIND_WORDS and navquestion's _FILLERS and _GENERIC take the
    kind words (question_words.KIND_NAMES) and the name words instead of typing them again: each
    still holds what it typed."""
    from codehop.answer import navquestion as nq
    from codehop.reading.intent import KIND_OF_VALUE
    from codehop.reading.question_words import VOCABULARY

    typed = """get name object attribute property member kind source behind point hold expose export refer read
    write keep behave want need module class function method""".split()
    assert all(w in VOCABULARY for w in typed)
    assert {"class", "type", "kind", "object"} <= KIND_OF_VALUE
    assert not {"name", "member"} & KIND_OF_VALUE  # ("what name is X given" asks no type)
    # a kind's role describes the subject ("rank errors", "the debug flag"): not in VOCABULARY
    assert not any(w in VOCABULARY for w in ("error", "flag", "helper", "decorator"))
    assert all(w in nq._GENERIC for w in ("object", "type"))


def test_british_spellings_match_the_ize_cue():
    """RELATIONS typed "specialise" beside "specialize"; Cues reads -ise as -ize before stemming."""
    from codehop.answer.navquestion import read_question
    from codehop.reading.question_words import Cues

    cue = Cues(["specialize"])
    assert all(w in cue for w in "specialise specialised specialises specialising specialisation".split())
    assert "raise" not in Cues(["raize"]) and "promise" not in cue
    nq = read_question("which classes specialise BaseTransport?")
    assert nq is not None and nq.intent.value == "subclasses"


def test_the_stand_ins_for_the_object_match_by_stem():
    """datamodel._PRONOUNS typed "instance instances object objects": the nouns match by stem."""
    from codehop.reading import datamodel

    for question in ("the length of instances", "the length of an instance", "the length of the objects"):
        words = question.split()
        assert [m.operation.name for m in datamodel.match(words, [])] == ["len"], question


def test_the_override_words_are_typed_once():
    from codehop.answer.navquestion import read_question
    from codehop.reading.question_words import MEMBER_ASPECTS

    assert "overridden" in MEMBER_ASPECTS and "overrides" in MEMBER_ASPECTS
    nq = read_question("where is Transport.send overridden?")
    assert nq is not None and nq.intent.value == "overrides"


def test_signature_words_match_their_abbreviations():
    """SIGNATURE_WORDS typed "arg" and "param" beside "argument" and "parameter": a word that is no
    dictionary word and abbreviates a cue by the index's rule matches it."""
    from codehop.reading.question_words import SIGNATURE_WORDS, VOCABULARY

    assert all(w in SIGNATURE_WORDS and w in VOCABULARY for w in "arg args param params argument parameters".split())
    assert not SIGNATURE_WORDS & ["kwargs", "par", "acc", "tak", "sig"]  # (kwargs: keyword arguments, not one)


def test_use_depend_and_import_words_are_typed_once():
    """navquestion's _USE typed "use reference read" (VOCABULARY typed "refer read"); the users'
    nouns typed "dependent" (the verb "depend"'s stem); the importers' verbs typed "import" (the
    intent's own name, stemmed): each is typed once and still reads its question."""
    from codehop.answer.navquestion import _USE, read_question
    from codehop.reading.question_words import VOCABULARY

    assert all(w in _USE and w in VOCABULARY for w in "use reference refer read".split())
    assert "access" in _USE
    for question, intent in [
        ("what are the dependents of Client?", "users"),
        ("what depends on Client?", "users"),
        ("which modules import Client?", "importers"),
        ("what references Client?", "users"),
    ]:
        nq = read_question(question)
        assert nq is not None and nq.intent.value == intent, question


def test_interrogatives_take_the_modals_and_the_stop_words_wh_forms():
    from codehop.reading.question_words import INTERROGATIVES, MODALS, STOP

    assert {"whose", "can", "whats", "wheres"} <= INTERROGATIVES
    assert MODALS <= INTERROGATIVES and MODALS <= STOP


@pytest.mark.parametrize(
    "question",
    ["what does a for loop over a Crate yield", "a for loop over the crate", "loop over a Crate in a for loop"],
)
def test_a_for_loop_is_read_from_the_word_loop(question):
    """datamodel typed the phrase "for loop" beside the word "loop": the word beside the object reads it."""
    from codehop.reading import datamodel

    words = question.lower().split()
    found = datamodel.match(words, [words.index("crate")])
    assert [m.operation.name for m in found] == ["iter"], question


def test_a_function_word_is_never_a_subjects_name():
    """navquestion._is_name typed ten function words inline; it reads STOP."""
    from codehop.answer.navquestion import _is_name

    assert not any(_is_name(w) for w in "by and or it them this that for to with".split())
    assert all(_is_name(w) for w in ("Client", "send", "`by`"))


def test_the_counter_sees_word_tuples_typed_inside_functions(tmp_path):
    """word_lists.py --inline counts what the module-level count leaves out."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("word_lists", Path(__file__).parent / "benchmarks" / "word_lists.py")
    assert spec and spec.loader
    counter = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(counter)
    src = tmp_path / "m.py"
    src.write_text('X = frozenset("a b c".split())\n\ndef f(w):\n    return w in ("of", "to", "for", "on")\n')
    assert counter.lists(src) == [("X", 3)]
    assert counter.inline(src) == [("f:4", 4)]


def test_async_words_read_async_as_an_abbreviation():
    """ASYNC_WORDS typed "async" beside "asynchronous"; CONTEXT_WORDS' "module" is the chunk kind's."""
    from codehop.reading.question_words import ASYNC_WORDS, CONTEXT_WORDS

    assert all(w in ASYNC_WORDS for w in "async asynchronous asynchronously await awaited".split())
    assert not ASYNC_WORDS & ["sync", "asc", "as"]  # (a consonant skeleton is too loose for a question's word)
    assert all(w in CONTEXT_WORDS for w in "module modules package file submodule".split())
