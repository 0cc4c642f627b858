"""Reading an edit task: the files and declarations it names, and how far the change reaches.

A task names code the way people write it: a path (`httpx/_utils.py`), a
dotted name (`Response.read()`), a call (`get_current_context()`), a
backticked or snake_case identifier, a CamelCase class. Each candidate is kept
only when the index declares it, so prose words never become subjects unless
the repository declares exactly that name as a class.

The reach: a task that changes an interface (renames, parameters, signatures,
removals) must touch every dependent site; a task that changes behaviour
should bring the tests that exercise it. Both are read from the verbs and
nouns of the task, by grammatical role (what is changed), not from phrasings.

May import: records, store, question_words (INTERROGATIVES), stdlib.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from codehop.index.store.sqlite import SqliteStore
from codehop.kernel.records import Resolution
from codehop.reading.question_words import INTERROGATIVES

_PATH = re.compile(r"(?<![\w/.])((?:[\w-]+/)*[\w-]+\.py)\b")
_BACKTICK = re.compile(r"`([^`\n]{1,200})`")
_DOTTED = re.compile(r"\b([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(\(\))?")
_CALL = re.compile(r"\b([A-Za-z_]\w*)\(")
_WORD = re.compile(r"\b[A-Za-z_]\w*\b")
_TEMPLATE_NOISE = re.compile(r"\{[{%#].*?[}%#]\}")

# words that say the interface itself changes, so every dependent site must follow
_INTERFACE = re.compile(
    r"\b(renam\w*|signature|parameters?|arguments?|keywords?|kwargs?|remov\w*|delet\w*|deprecat\w*|"
    r"every|all|each|call\s*sites?|callers?|usages?|uses|implement\w*|subclass\w*|overrid\w*|"
    r"moves?|split|extract\w*|replac\w*)\b",
    re.IGNORECASE,
)
_TESTS = re.compile(r"\b(tests?|testing)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True, kw_only=True)
class Subject:
    """A declaration the task names: its qualname, where it is declared, how it was named."""

    qualname: str
    rel_path: str
    line: int
    kind: str  # class | function | value | alias | module
    named_as: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TaskReading:
    files: tuple[str, ...]  # repository paths the task names
    subjects: tuple[Subject, ...]  # declarations the task names, in the order named
    interface_change: bool  # every dependent site must follow the change
    mentions_tests: bool
    is_question: bool  # interrogative (asks about the code) rather than a change to make


def read_task(store: SqliteStore, text: str, resolve: Callable[[str], Resolution | None] | None = None) -> TaskReading:
    """`resolve` (the symbol table's) finds a member a named class inherits (`Flask.add_url_rule`)."""
    text = _TEMPLATE_NOISE.sub(" ", text)
    files = _named_files(store, text)
    subjects: dict[str, Subject] = {}
    bare_values: set[str] = set()
    for cand, strong in _candidates(text):
        for s in _lookup(store, cand, strong, resolve):
            subjects.setdefault(s.qualname, s)
            if s.kind in ("value", "alias") and "." not in cand and not _marked(text, cand):
                bare_values.add(s.qualname)
    if len(bare_values) < len(subjects):
        # a plain snake_case word that only names attributes (`max_length`) is, next to a marked name,
        # more likely the parameter or field the task adds than a declaration it changes
        subjects = {q: s for q, s in subjects.items() if q not in bare_values}
    for path in files:
        module = store.module_of(path)
        if module:
            subjects.setdefault(module, Subject(qualname=module, rel_path=path, line=1, kind="module", named_as=path))
    return TaskReading(
        files=tuple(files),
        subjects=tuple(subjects.values()),
        interface_change=bool(_INTERFACE.search(text)),
        mentions_tests=bool(_TESTS.search(text)),
        is_question=_interrogative(text),
    )


def _interrogative(text: str) -> bool:
    """A question (ends in `?`, or opens with an interrogative word), not an instruction."""
    words = text.strip().split()
    return text.rstrip().endswith("?") or bool(words and words[0].lower() in INTERROGATIVES)


def _marked(text: str, name: str) -> bool:
    """Written as code: in backticks or called."""
    return f"`{name}`" in text or f"{name}(" in text


def _named_files(store: SqliteStore, text: str) -> list[str]:
    known = store.file_states()
    out: list[str] = []
    for m in _PATH.finditer(text):
        path = m.group(1)
        hits = [p for p in known if p == path or p.endswith("/" + path)]
        if len(hits) == 1 and hits[0] not in out:
            out.append(hits[0])
    return out


def _candidates(text: str) -> list[tuple[str, bool]]:
    """(name, strong): strong names are marked as code (backticks, dots, calls, underscores)."""
    out: list[tuple[str, bool]] = []
    for m in _BACKTICK.finditer(text):
        dotted = [d.group(1) for d in _DOTTED.finditer(m.group(1))]
        out += [(d, True) for d in dotted]
        if not dotted:  # the parts of a dotted name are not names of their own
            out += [(w.group(0), True) for w in _WORD.finditer(m.group(1))]
    dotted_spans = []
    for m in _DOTTED.finditer(text):
        if not m.group(1).endswith(".py") and "/" not in text[max(0, m.start() - 1) : m.start()]:
            out.append((m.group(1), True))
            dotted_spans.append((m.start(), m.end()))
    for m in _CALL.finditer(text):
        if text[max(0, m.start() - 1) : m.start()] != ".":
            out.append((m.group(1), True))
    for m in _WORD.finditer(text):
        w = m.group(0)
        if any(a <= m.start() < b for a, b in dotted_spans):
            continue  # a part of a dotted name is not a name of its own
        if "_" in w.strip("_") or (w[0].isupper() and any(c.isupper() for c in w[1:]) and any(c.islower() for c in w)):
            out.append((w, True))
        elif w[0].isupper() and not _sentence_start(text, m.start()):
            out.append((w, False))  # a capitalised word: a subject only if a class has exactly this name
    seen: set[str] = set()
    uniq = []
    for name, strong in out:
        if name not in seen:
            seen.add(name)
            uniq.append((name, strong))
    return uniq


def _sentence_start(text: str, at: int) -> bool:
    before = text[:at].rstrip()
    return not before or before[-1] in ".!?:;\n\"'("


def _lookup(
    store: SqliteStore, name: str, strong: bool, resolve: Callable[[str], Resolution | None] | None = None
) -> list[Subject]:
    """Declarations in the index that `name` (plain or dotted, possibly partial) denotes."""
    parts = name.split(".")
    last = parts[-1]
    if last.endswith(".py"):
        return []
    hits = []
    for d in store.declarations_named(last):
        qual, kind, rel_path, line = f"{d.scope}.{d.name}", str(d.kind), d.rel_path, d.line
        if len(parts) > 1 and not _dotted_suffix(qual, parts):
            continue
        if not strong and kind != "class":
            continue
        hits.append(Subject(qualname=qual, rel_path=rel_path, line=line, kind=kind, named_as=name))
    if len(parts) > 1 and not hits and resolve is not None:
        # `Owner.member` where Owner inherits the member: the declaration the symbol table finds
        for cls in store.classes_named(parts[-2]):
            res = resolve(f"{cls}.{last}")
            if res is not None and not res.is_external:
                t = res.target
                kind = next((b.kind for b in store.bindings_at(t.rel_path, t.line) if b.name == last), "function")
                hits.append(
                    Subject(qualname=t.qualname, rel_path=t.rel_path, line=t.line, kind=str(kind), named_as=name)
                )
    if len(parts) > 1 and not hits:
        # `pkg.module` or the module part of a dotted name
        module = store.modules_matching(name)
        if len(module) == 1:
            return [
                Subject(qualname=module[0].qualname, rel_path=module[0].rel_path, line=1, kind="module", named_as=name)
            ]
    # a plain name declared in many places (`__init__`, `get`) says too little to be a subject
    if len(parts) == 1 and len(hits) > 3:
        return []
    return hits


def _dotted_suffix(qualname: str, parts: list[str]) -> bool:
    """`Response.read` names `httpx._models.Response.read`; `httpx.Client` names `httpx._client.Client`."""
    q = qualname.split(".")
    if q[-len(parts) :] == parts:
        return True
    # a package-qualified public name: first part is the top package, the rest the tail
    return len(parts) >= 2 and q[0] == parts[0] and q[-(len(parts) - 1) :] == parts[1:]
