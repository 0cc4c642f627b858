"""The Python data model as a table: operations people describe in words -> special methods.

Source: the language reference, "Data model" (3.3 Special method names). Each
`Operation` names the special methods that implement it, in the order Python
looks for them (`print(x)` runs `__str__`, which falls back to `__repr__`),
and the words that describe it:

- `nouns`: word sequences that name the operation wherever they stand
  ("repr", "square brackets", "membership", "context manager");
- `verbs`: word sequences that name it only when what follows is the object
  the question is about ("make a NativeEnvironment", "index into an
  Undefined", "call it"): "make" alone means nothing.

Context managers have two sides: a `with` (or `async with`) phrase says which
protocol, a direction word says which side (`ENTER_WORDS`, `EXIT_WORDS`, in
either order); no direction names both sides.

Matching is one pass over the question's words with n-gram lookups: linear in
the question's length. May import: stdlib only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Operation:
    name: str
    methods: tuple[str, ...]  # the special methods, in Python's lookup order
    nouns: tuple[str, ...] = ()
    verbs: tuple[str, ...] = ()
    every: bool = False  # True: every method present answers (both sides of a protocol)
    passive: tuple[str, ...] = ()  # participles that name it when the object stands just before ("a URL made")


OPERATIONS: tuple[Operation, ...] = (
    Operation(
        "call",
        ("__call__",),
        nouns=("callable", "like a function", "as a function", "__call__"),
        verbs=("call", "calls", "calling", "called", "invoke", "invokes", "invoking", "invoked"),
        passive=("called", "invoked"),
    ),
    Operation(
        "create",
        ("__init__", "__new__"),
        nouns=(
            "constructor",
            "initializer",
            "initialiser",
            "instantiation",
            "__init__",
            "__new__",
            "init",
            "construction",
        ),
        verbs=(
            "make",
            "makes",
            "making",
            "create",
            "creates",
            "creating",
            "construct",
            "constructs",
            "constructing",
            "instantiate",
            "instantiates",
            "instantiating",
            "initialize",
            "initialise",
            "initializing",
            "initialising",
            "build",
            "builds",
            "building",
            "new up",
        ),
        passive=("made", "created", "constructed", "instantiated", "initialized", "initialised", "built"),
    ),
    Operation("repr", ("__repr__",), nouns=("repr", "__repr__", "representation", "repl", "debugger shows"), verbs=()),
    Operation(
        "str",
        ("__str__", "__repr__"),
        nouns=(
            "str",
            "__str__",
            "string form",
            "string version",
            "convert to string",
            "converted to a string",
            "printed",
        ),
        verbs=("print", "prints", "printing", "stringify"),
    ),
    Operation(
        "format",
        ("__format__", "__str__", "__repr__"),
        nouns=("format", "__format__", "f string", "format spec", "formatted"),
    ),
    Operation("bytes", ("__bytes__",), nouns=("__bytes__", "bytes of", "convert to bytes")),
    Operation("len", ("__len__",), nouns=("len", "__len__", "length", "how many items", "number of items", "size of")),
    Operation(
        "iter",
        ("__iter__", "__getitem__"),
        nouns=("__iter__", "for loop", "iteration", "iterator", "iterable"),
        verbs=(
            "iterate over",
            "iterating over",
            "iterate through",
            "iterates over",
            "loop over",
            "looping over",
            "loop through",
            "looping through",
            "iterate",
            "iterating",
        ),
    ),
    Operation(
        "aiter", ("__aiter__", "__anext__"), nouns=("async for", "__aiter__", "async iteration", "async iterator")
    ),
    Operation(
        "getitem",
        ("__getitem__", "__class_getitem__"),
        nouns=(
            "square brackets",
            "subscript",
            "subscripting",
            "subscripted",
            "item access",
            "__getitem__",
            "indexing",
            "getitem",
            "index operator",
        ),
        verbs=("index into", "indexing into", "index", "subscript", "look up a key in"),
    ),
    Operation(
        "setitem",
        ("__setitem__",),
        nouns=("item assignment", "__setitem__", "setitem", "assign an item", "assign a key"),
    ),
    Operation("delitem", ("__delitem__",), nouns=("__delitem__", "delitem", "item deletion", "del an item")),
    # a mapping's hook for a key `__getitem__` does not find (the reference: "Emulating container types");
    # without one, `__getitem__` itself decides
    Operation(
        "missing",
        ("__missing__", "__getitem__"),
        nouns=("__missing__",),
        # a verb phrase, so that a condition on another member ("what does pop return when the key is
        # missing") is not read as the hook
        verbs=("look up a missing key in", "looking up a missing key in", "index a missing key in"),
    ),
    Operation(
        "contains",
        ("__contains__", "__iter__", "__getitem__"),
        nouns=("membership", "__contains__", "in operator", "contains check", "in check"),
        verbs=("is in", "be in", "are in"),
    ),
    Operation(
        "eq",
        ("__eq__",),
        nouns=(
            "equal",
            "equals",
            "equality",
            "__eq__",
            "==",
            "compare",
            "compares",
            "compared",
            "comparing",
            "comparison",
            "same as",
        ),
    ),
    Operation("ne", ("__ne__", "__eq__"), nouns=("not equal", "unequal", "__ne__", "!=")),
    Operation(
        "lt",
        ("__lt__", "__le__", "__gt__", "__ge__"),
        nouns=(
            "less than",
            "greater than",
            "ordering",
            "ordered",
            "sort",
            "sorted",
            "sorting",
            "__lt__",
            "<",
            ">",
            "<=",
            ">=",
        ),
    ),
    Operation("hash", ("__hash__",), nouns=("hash", "hashable", "hashing", "__hash__", "dict key", "set member")),
    Operation(
        "bool",
        ("__bool__", "__len__"),
        nouns=("bool", "truthiness", "truthy", "falsy", "falsey", "truth value", "__bool__", "true or false"),
    ),
    Operation("await", ("__await__",), nouns=("await", "awaited", "awaiting", "awaitable", "__await__")),
    Operation(
        "pickle",
        ("__reduce_ex__", "__reduce__", "__getstate__", "__setstate__"),
        nouns=(
            "pickle.dumps",
            "pickle.loads",
            "pickle",
            "pickled",
            "pickling",
            "unpickle",
            "unpickled",
            "unpickling",
            "__reduce__",
            "__getstate__",
            "__setstate__",
            "serialized with pickle",
        ),
    ),
    Operation("copy", ("__copy__",), nouns=("copy.copy", "shallow copy", "__copy__")),
    Operation(
        "deepcopy", ("__deepcopy__",), nouns=("copy.deepcopy", "deepcopy", "deep copy", "deep copied", "__deepcopy__")
    ),
    Operation(
        "del",
        ("__del__",),
        nouns=(
            "garbage collected",
            "garbage collection",
            "destructor",
            "finalizer",
            "finalized",
            "__del__",
            "deleted by the gc",
        ),
    ),
    Operation(
        "getattr",
        ("__getattr__", "__getattribute__"),
        nouns=(
            "attribute access",
            "getattr",
            "__getattr__",
            "__getattribute__",
            "missing attribute",
            "unknown attribute",
            "dot access",
            "attribute lookup",
            "access an attribute",
            "dynamic attribute",
            "dynamic attributes",
        ),
    ),
    Operation(
        "setattr",
        ("__setattr__",),
        nouns=("setattr", "__setattr__", "set an attribute", "attribute assignment", "assign an attribute"),
    ),
    Operation("delattr", ("__delattr__",), nouns=("delattr", "__delattr__", "delete an attribute")),
    Operation(
        "add",
        ("__add__", "__radd__", "__iadd__"),
        nouns=("+", "__add__", "plus operator", "+="),
        verbs=("add two", "adding two", "sum of"),
    ),
    Operation("sub", ("__sub__", "__rsub__"), nouns=("-", "__sub__", "minus", "subtract", "subtracting")),
    Operation("mul", ("__mul__", "__rmul__"), nouns=("*", "__mul__", "multiply", "multiplying", "times")),
    Operation(
        "truediv",
        ("__truediv__", "__rtruediv__"),
        nouns=("/", "__truediv__", "divide", "dividing", "division", "slash operator"),
    ),
    Operation("or", ("__or__", "__ror__", "__ior__"), nouns=("|", "__or__", "pipe operator", "union of")),
    Operation("and", ("__and__", "__rand__"), nouns=("&", "__and__", "intersection of")),
    Operation(
        "descriptor",
        ("__get__", "__set__", "__delete__", "__set_name__"),
        nouns=("descriptor", "descriptors", "__get__", "__set__", "__set_name__"),
        every=True,
    ),
)

_KEYWORD_OPERATIONS = {
    "in": next(o for o in OPERATIONS if o.name == "contains"),
    "await": next(o for o in OPERATIONS if o.name == "await"),
    "del": next(o for o in OPERATIONS if o.name == "delitem"),
}

# Context managers: (protocol words, async?) x direction
_WITH = (
    "with block",
    "with statement",
    "with-block",
    "with-statement",
    "context manager",
    "with",
    "leave the block",
    "the block",
)
_ASYNC_WITH = ("async with", "async context manager", "async with block", "async with statement")
ENTER_WORDS = frozenset(
    "enter enters entered entering entry start starts starting begin begins beginning opens open opening way_in".split()
)
EXIT_WORDS = frozenset(
    "exit exits exited exiting leave leaves leaving left finish finishes finished "
    "finishing end ends ended ending close closes closed closing done way_out "
    "completes".split()
)
ENTER = Operation("enter", ("__enter__",))
EXIT = Operation("exit", ("__exit__",))
AENTER = Operation("aenter", ("__aenter__",))
AEXIT = Operation("aexit", ("__aexit__",))
_PRONOUNS = frozenset("it one them this that instance instances object objects".split())
_SKIP = frozenset("a an the my your our its their one of two some any such".split())
_MAX_N = 4


def _table(entries: Sequence[tuple[str, Operation, bool]]) -> dict[str, list[tuple[tuple[str, ...], Operation, bool]]]:
    out: dict[str, list[tuple[tuple[str, ...], Operation, bool]]] = {}
    for phrase, op, verb in entries:
        words = tuple(phrase.replace("-", " ").split()) if any(c.isalpha() for c in phrase) else (phrase,)
        out.setdefault(words[0], []).append((words, op, verb))
    for v in out.values():
        v.sort(key=lambda e: -len(e[0]))  # the longest phrase first
    return out


_PHRASES = _table(
    [(n, op, False) for op in OPERATIONS for n in op.nouns] + [(v, op, True) for op in OPERATIONS for v in op.verbs]
)
_PASSIVE = {p: op for op in OPERATIONS for p in op.passive}
_WITH_PHRASES = _table([(p, ENTER, False) for p in _WITH] + [(p, AENTER, False) for p in _ASYNC_WITH])


# a synchronous operation said with an async word just before it is its asynchronous twin
_ASYNC_MARKS = frozenset({"async", "asynchronously", "asynchronous"})
_ASYNC_TWIN = {"iter": next(o for o in OPERATIONS if o.name == "aiter")}


@dataclass(frozen=True, slots=True)
class Match:
    operation: Operation
    start: int  # index of the first word of the phrase
    end: int  # one past its last word
    words: tuple[str, ...]


def match(words: Sequence[str], objects: Sequence[int], quoted: Sequence[int] = ()) -> list[Match]:
    """The operations the words describe. `words` are lowercased; `objects` are the indexes
    of words that name the object the question is about (a verb needs one just after it);
    `quoted` the indexes of words written as code (a quoted `with` is the statement)."""
    obj = set(objects)
    out: list[Match] = []
    quoted_set = set(quoted)
    i = 0
    n = len(words)
    while i < n:
        op = _KEYWORD_OPERATIONS.get(words[i]) if i in quoted_set else None
        if op is not None:  # `in`, `await`, `del` written as code: the operator itself
            out.append(Match(op, i, i + 1, (words[i],)))
            i += 1
            continue
        hit = _at(_PHRASES, words, i)
        if hit is not None:
            phrase, op, verb = hit
            end = i + len(phrase)
            # a word that names the object itself ("a Length validator", "the Size class") is not
            # an operation on it
            if not obj.intersection(range(i, end)) and (not verb or _object_follows(words, end, obj)):
                start = i
                twin = _ASYNC_TWIN.get(op.name)
                if twin is not None and i > 0 and words[i - 1] in _ASYNC_MARKS:
                    # "async-iterate over it": the asynchronous side of the protocol
                    op, start, phrase = twin, i - 1, (words[i - 1], *phrase)
                out.append(Match(op, start, end, phrase))
                i = end
                continue
        passive = _PASSIVE.get(words[i])
        if passive is not None and any(j in obj or words[j] in _PRONOUNS for j in range(max(0, i - 2), i)):
            # "how is a URL made"; "what does X return when it's called": the pronoun stands for the
            # object, as after a verb ("call it")
            out.append(Match(passive, i, i + 1, (words[i],)))
        i += 1
    out.extend(_context_manager(words, set(quoted)))
    return out


def _at(
    table: dict[str, list[tuple[tuple[str, ...], Operation, bool]]], words: Sequence[str], i: int
) -> tuple[tuple[str, ...], Operation, bool] | None:
    for phrase, op, verb in table.get(words[i], ()):
        if tuple(words[i : i + len(phrase)]) == phrase:
            return phrase, op, verb
    return None


def _object_follows(words: Sequence[str], end: int, objects: set[int]) -> bool:
    for j in range(end, min(end + _MAX_N + 1, len(words))):
        if j in objects or words[j] in _PRONOUNS:
            return True
        if words[j] not in _SKIP:
            # up to two qualifiers ("an httpx Client", "a werkzeug test Client") may stand between
            return j + 1 in objects or j + 2 in objects
    return False


def _context_manager(words: Sequence[str], quoted: set[int]) -> list[Match]:
    """`with` / `async with` plus a direction word anywhere in the question (either order)."""
    found: Match | None = None
    for i in range(len(words)):
        if words[i] == "async" and i + 1 < len(words) and words[i + 1] == "with":
            found = Match(AENTER, i, i + 2, ("async", "with"))
            break
        hit = _at(_WITH_PHRASES, words, i)
        if hit is not None and found is None:
            phrase, op, _ = hit
            if phrase == ("with",) and i not in quoted:
                continue  # a bare "with" in prose is a preposition; quoted, it is the statement
            found = Match(op, i, i + len(phrase), phrase)
    if found is None:
        return []
    text = set(words)
    pairs = {f"{a}_{b}" for a, b in zip(words, words[1:], strict=False)}
    enter = bool((text | pairs) & ENTER_WORDS)
    leave = bool((text | pairs) & EXIT_WORDS)
    is_async = found.operation is AENTER
    ops = []
    if enter or not leave:
        ops.append(AENTER if is_async else ENTER)
    if leave or not enter:
        ops.append(AEXIT if is_async else EXIT)
    return [Match(op, found.start, found.end, found.words) for op in ops]
