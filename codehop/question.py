"""Reading a question: which symbols of the repository it asks about.

Mentions are dotted names, CamelCase and snake_case identifiers, quoted
names, file paths (`pkg/mod.py`) and plain words matched against the symbol
table. They compose: a module plus a name (`rich.console` + `rich_cast`), a
class plus a member (`ByteStream` + `close`), and Python's protocol phrases
(calling an object -> `__call__`, a `with` block -> `__enter__`/`__exit__`,
instantiating -> `__init__`). May import: records, symbols, store, stdlib.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from codehop.records import BindingKind
from codehop.symbols import SymbolTable

_QUOTED = re.compile(r"`([^`]+)`|'([A-Za-z_][\w.]*)'|\"([A-Za-z_][\w.]*)\"")
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_PATH = re.compile(r"((?:[\w-]+/)+[\w-]+)\.py\b")
_TITLE = re.compile(r"(?<![\w.'])[A-Z][a-z0-9]+[A-Za-z0-9]*\b(?!')")
_PLAIN = re.compile(r"\b[A-Za-z_]\w*\b")
_PLAIN_STOP = frozenset(
    """a an and are as at be by can do does did for from how i if in into is it its me my of on or so that the
    their them then there these this to was what when where which who why will with you your show tell give has
    have had any some actually really much many defined declared declare define class function method module
    package value default set use used uses work works happen happens return returns call calls called""".split()
)
_POSSESSIVE = re.compile(r"\b([A-Za-z_]\w*)'s\b")
_CODEISH = re.compile(r"\b(?:[A-Za-z]+[A-Z_][A-Za-z0-9_]*|[a-z0-9]+_[a-z0-9_]+|[A-Za-z_]\w*(?:\.\w+)+)\b")

# Python protocol phrases -> the dunder that runs. Order matters: async first.
_PROTOCOL = (
    (re.compile(r"async with.*\b(exit|exits|leave|leaves|leaving|end|ends)\b|\b(exit|exits|leaving)\b.*async with", re.S), "__aexit__"),
    (re.compile(r"async with", re.S), "__aenter__"),
    (re.compile(r"\bwith\b.*\b(exit|exits|leave|leaves|leaving|end|ends|closes)\b|\b(exit|exits)\b.*\bwith\b", re.S), "__exit__"),
    (re.compile(r"\bwith\b.*\b(entry|enter|enters|entering|start)\b|\b(enter|entering)\b.*\bwith\b", re.S), "__enter__"),
    (re.compile(r"\b(instantiate|instantiating|construct|constructing|initiali[sz]er|constructor|initiali[sz]e)\b"), "__init__"),
    (re.compile(r"\bcall(?:ing)? (?:an? |the )?`?[\w.]+`? (?:object|instance)|\bcalling an? `[^`]+`"), "__call__"),
    (re.compile(r"\biterat(?:e|ing|ion) over\b"), "__iter__"),
    (re.compile(r"\blen\(\)|\blength of\b"), "__len__"),
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Subject:
    dotted: str  # absolute dotted path the question is about
    mentions: tuple[str, ...]  # the words of the question it was built from


def mentions(question: str) -> tuple[list[str], list[str], list[str]]:
    """(quoted names, other code-like words, package hints), in question order."""
    quoted: list[str] = []
    for m in _QUOTED.finditer(question):
        span = next(g for g in m.groups() if g is not None)
        for path in _PATH.findall(span):
            quoted.append(path.replace("/", "."))
        span = _PATH.sub("", span)
        for name in _DOTTED.findall(span):
            if name not in ("with", "async", "await", "self", "cls", "def", "class", "return"):
                quoted.append(name)
    rest = _QUOTED.sub(" ", question)
    words = [p.replace("/", ".") for p in _PATH.findall(rest)]
    rest = _PATH.sub(" ", rest)
    words += [w for w in _CODEISH.findall(rest) if w not in quoted]
    # a capitalised word is likely a class name ("the Context it imports"); the table decides
    words += [w for w in _TITLE.findall(rest) if w not in quoted and w not in words
              and w.lower() not in _PLAIN_STOP]
    if not quoted and not words:
        # a question in plain words ("where is the Console class declared in rich?"): every
        # word is a candidate; only those the symbol table knows survive
        words = [w for w in _PLAIN.findall(rest) if w.lower() not in _PLAIN_STOP and len(w) > 2]
    hints = [h.lower() for h in _POSSESSIVE.findall(question)]
    return quoted, words, hints


def protocol_member(question: str) -> str | None:
    low = question.lower()
    for pattern, dunder in _PROTOCOL:
        if pattern.search(question) or pattern.search(low):
            return dunder
    return None


class SubjectFinder:
    def __init__(self, table: SymbolTable) -> None:
        self.table = table
        self.store = table.store

    def candidates(self, name: str, hints: list[str], module_ctx: list[str]) -> list[str]:
        """Absolute dotted paths a mention may denote, best first."""
        if self.table.find_module(name) is not None and self._exists(name):
            return [name]
        out: list[str] = []
        head, _, tail = name.partition(".")
        for mod in module_ctx:
            cand = f"{mod}.{name}"
            if self._exists(cand) or (not tail and self.store.binding(mod, name) is not None):
                out.append(cand)  # a name bound in the module, even to something external
        scored: list[tuple[tuple[int, int, int, int], str]] = []
        for b in self.store.bindings_named(head, limit=200):
            if b.kind is BindingKind.IMPORT or b.kind is BindingKind.MODULE:
                continue
            qual = f"{b.scope}.{b.name}"
            cand = f"{qual}.{tail}" if tail else qual
            if tail and not self._exists(cand):
                continue
            top = b.scope.split(".")[0].lower()
            private = sum(p.startswith("_") and not p.startswith("__") for p in qual.split("."))
            rank = (0 if (not hints or top in hints) else 1,
                    0 if b.kind in (BindingKind.CLASS, BindingKind.FUNCTION) else 1,
                    private, len(qual))
            scored.append((rank, cand))
        for mod in self.store.modules():
            if mod == head or mod.endswith("." + head):
                cand = f"{mod}.{tail}" if tail else mod
                if self._exists(cand):
                    scored.append(((0 if not hints or mod.split(".")[0] in hints else 1, 2, 0, len(mod)), cand))
        out += [c for _, c in sorted(scored)]
        return list(dict.fromkeys(out))

    def _exists(self, dotted: str) -> bool:
        res = self.table.resolve(dotted)
        return res is not None and not res.is_external

    def find(self, question: str) -> list[Subject]:
        """Subjects of the question, most specific first."""
        quoted, words, hints = mentions(question)
        ordered = quoted + words
        module_ctx = [m for m in ordered if self.store.module_path(m) is not None]
        resolved: list[tuple[str, str]] = []  # (mention, dotted)
        loose: list[str] = []
        for m in ordered:
            cands = self.candidates(m, hints, module_ctx)
            if cands:
                resolved.append((m, cands[0]))
            elif "." not in m:
                loose.append(m)
        subjects: list[Subject] = []
        owners = [(m, d) for m, d in resolved if self._is_owner(d)]
        members = [m for m in quoted if "." not in m] + loose
        dunder = protocol_member(question)
        if dunder:
            members.append(dunder)
        strong = set(members)
        # plain lowercase words may name a member ("the default of sandboxed on `NativeEnvironment`"),
        # but only ever after the quoted and code-like ones
        members += [w for w in _PLAIN.findall(_QUOTED.sub(" ", question))
                    if w.islower() and w not in _PLAIN_STOP and len(w) > 2 and w not in strong]
        for om, owner in owners:
            for member in members:
                if member == om or owner.endswith("." + member):
                    continue
                cand = f"{owner}.{member}"
                if self._exists(cand):
                    subjects.append(Subject(dotted=cand, mentions=(om, member)))
            # a class named by bare name may be one of several: try the others for the member
            if not any(s.mentions[0] == om for s in subjects) and "." not in om:
                for alt in self.candidates(om, hints, module_ctx)[1:6]:
                    for member in members:
                        cand = f"{alt}.{member}"
                        if member != om and self._exists(cand):
                            subjects.append(Subject(dotted=cand, mentions=(om, member)))
        for m, d in resolved:
            if not any(s.dotted == d for s in subjects):
                subjects.append(Subject(dotted=d, mentions=(m,)))
        # most specific first: member subjects, then quoted over loose, longer over shorter
        qset = set(quoted)
        subjects.sort(key=lambda s: (-len(s.mentions), 0 if s.mentions[-1] in strong else 1,
                                     0 if s.mentions[0] in qset else 1, -s.dotted.count(".")))
        return subjects

    def _is_owner(self, dotted: str) -> bool:
        """A module or a class: something a member can be looked up on."""
        if self.store.module_path(dotted) is not None:
            return True
        res = self.table.resolve(dotted)
        if res is None or res.is_external:
            return False
        return self.table.class_binding(res.target.qualname) is not None
