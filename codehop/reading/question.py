"""Reading a question: which declarations of the repository it asks about. Over 500 lines
(~1,230): this is the word-list reader that grounding.py and intent.py are replacing (issue 25);
it stays whole until each of its phases has a grounded replacement measured on the same sets.

Every identifier-like word of the question (any case, backticked or not,
dotted or partial: `Cookies.set`, `click/types.py`, "the meta module's
TrackingCodeGenerator") is matched against the symbol table. A word is a
subject when the repository gives it meaning in its position:

- a module, class, function or value it names (the package and module words
  of the question rank the candidates: "flask's sansio Blueprint");
- a member, own or inherited through the MRO, of a class the question names
  ("what does set do on httpx Cookies" -> `Cookies.set`): no stop word hides a
  real member; a name made of several words matches when all its parts are
  there ("the default base style" -> `base_style`);
- a parameter of a named callable or of a named class's constructor;
- a special method, through the data-model table (`datamodel.py`): "make a
  NativeEnvironment" -> `__init__`, "leave a with block" -> `__exit__`.

What the reader cannot place is kept too: a member named in code form that
exists on neither the class nor any of its bases (`Absent`), and the content
words that matched nothing (`Reading.unplaced`). The generators lower their
label on both. Reading is linear in the question's length: one tokenizing
regex without backtracking, set lookups, and at most `MAX_NAMES` distinct
names looked up in the table.

The records a reading returns are in `subject.py`; the symbol-table lookups it uses (members,
bases, parameters, candidates) in `lookup.py`. Why this module is still over 500 lines:
`SubjectFinder.read` is one pass over the question's tokens in phases (names, owners, members,
data-model operations, parameters, what stays unplaced) that share a dozen working sets; cut into
functions they would be handed around by argument, which reads worse than the phases in order.

May import: records, symbols, store, question_words, datamodel, builtin_bases, signatures,
subject, lookup, stdlib.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from codehop.index.terms import name_terms, stem
from codehop.kernel.records import Binding, BindingKind, ChunkKind, Intent, Question, TermHit
from codehop.kernel.words import CODE_LITERALS, word_parts
from codehop.reading import builtin_bases, datamodel
from codehop.reading.grounding import Grounding, ground, names_code, narrow
from codehop.reading.intent import KIND_WORDS, read_question
from codehop.reading.lookup import RepoLookup, _member_name
from codehop.reading.question_words import (
    ARTICLES,
    ASYNC_WORDS,
    CLASS_WORDS,
    CONTEXT_WORDS,
    DEFAULT_WORDS,
    KEYWORDS,
    MEMBER_ASPECTS,
    ORIGIN_WORDS,
    SIGNATURE_WORDS,
    STOP,
    VOCABULARY,
    Cues,
    Token,
    asks,
    tokenize,
)
from codehop.reading.signatures import Parameter, none_fallback, returns
from codehop.reading.subject import Absent, Reading, Subject

_CALLABLE_KINDS = frozenset(ChunkKind) - {ChunkKind.MODULE}
# the names a module file has that a method may have too
_MODULE_FILES = frozenset({"__init__", "__main__"})
_DECLARED = frozenset({Intent.DEFINITION, Intent.INHERITED, Intent.SUBCLASSES, Intent.OVERRIDES})


@lru_cache(maxsize=65536)
def _stemmed(name: str) -> str:
    """A snake_case name, or two words joined, with each part stemmed as the index's terms are
    ("handle_requests" and "handles a request" -> handl_request; "retries" -> retri)."""
    return "_".join(stem(p) for p in name.lower().split("_") if p)


# "where is relativedelta defined", "where does the fallback come from": the word in that slot is the
# name asked about even written as a plain word (the reader looks plain words up only as members)
_WHERE_VERBS = asks(Intent.DEFINITION) | ORIGIN_WORDS | Cues(["create", "from"])


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _stands_in(body: str, p: Parameter) -> set[str]:
    """The name terms of what a parameter left alone stands for: its default, or what the body puts
    in place of a `None` (or sentinel) default."""
    value = p.default
    if p.default == "None" or _IDENT.fullmatch(p.default):
        hit = none_fallback(body, p.name, p.default) if body else None
        value = hit[1] if hit is not None else p.default
    return {t for name in _IDENT.findall(value) for t in name_terms(name)}


def _asked_noun(tokens: list[Token]) -> set[str]:
    """The stems of the words between the first "which" or "what" (or "what is the") and the next
    function word ("which signing scheme is ..." -> sign, scheme): what the question asks
    for; empty when a function word follows at once ("what does it default to?")."""
    for t in tokens:
        if t.low in ("which", "what"):
            out: set[str] = set()
            rest = tokens[t.index + 1 :]
            if len(rest) > 1 and rest[0].low in ("is", "are", "was", "were") and rest[1].low in ARTICLES:
                rest = rest[2:]  # "what is the gear an engine ...": the noun after the article
            for u in rest:
                if not u.word or u.low in STOP:
                    break
                out.add(stem(u.low))
            return out
    return set()


def _where_slot(tokens: list[Token]) -> set[int]:
    """Indexes of the one word between "where is/are/does/do (the|a|an)" and a verb of `_WHERE_VERBS`."""
    out: set[int] = set()
    for t in tokens:
        if t.low != "where":
            continue
        j = t.index + 1
        if j < len(tokens) and tokens[j].low in ("is", "are", "s", "does", "do"):
            j += 1
            if j < len(tokens) and tokens[j].low in ARTICLES:
                j += 1
            if j + 1 < len(tokens) and tokens[j].word and tokens[j + 1].low in _WHERE_VERBS:
                out.add(j)
    return out


# the question asks for a class's bases: "the base class of X", "X's parent classes", "what does X
# inherit from", "its superclass"
_ASKS_BASES = re.compile(
    r"\b(?:base|parent|super)[ -]?class(?:es)?\b|\bbases\b|\b(?:inherit|inherits|inheriting|derive|derives|deriving)"
    r"\s+from\b",
    re.I,
)
MAX_NAMES = 160  # distinct names looked up in the symbol table per question
MAX_OWNERS = 8  # distinct classes whose members are matched against the question's words

__all__ = ["MAX_NAMES", "MAX_OWNERS", "Absent", "Reading", "Subject", "SubjectFinder", "tokenize"]


# (class, its members, data-model matches, code-form members, plain-word members)
_Pick = tuple[
    str,
    dict[str, Binding],
    list[tuple[datamodel.Match, list[str], str]],
    list[tuple[Token, str]],
    list[tuple[Token, str]],
]


class SubjectFinder(RepoLookup):
    """Reads a question against the repository (the lookups it uses are `RepoLookup`'s)."""

    def _also_spelt(
        self,
        reading: Reading,
        spelt: str,
        snake: str,
        hints: list[str],
        module_ctx: list[str],
        wordset: frozenset[str],
    ) -> Reading:
        """Words read as a class (`logger factory` -> `LoggerFactory`) that spell a snake_case name
        the repository also declares as no class (`logger_factory`, a setting): both are meant."""
        if spelt == snake:
            return reading
        named = {s.dotted for s in reading.subjects}
        other = next(
            (
                c
                for c in self.candidates(snake, hints, module_ctx, wordset)
                if c.rpartition(".")[2] == snake and not self._is_class(c)
            ),
            None,
        )
        if other is None or other in named:
            return reading
        return replace(reading, subjects=(*reading.subjects, Subject(dotted=other, mentions=(snake,))))

    def _one(self, cands: list[str]) -> bool:
        """Words spell one declaration: not two classes of one name in two modules (`stdlib.LoggerFactory`,
        `twisted.LoggerFactory`), which the words cannot tell apart."""
        name = cands[0].rpartition(".")[2]
        return sum(1 for c in cands[:8] if c.rpartition(".")[2] == name and self._is_class(c)) <= 1

    # ---- reading ------------------------------------------------------------------
    def find(self, question: str) -> list[Subject]:
        """Subjects of the question, most specific first."""
        return list(self.read(question).subjects)

    def read(self, question: str, *, respelt: bool = False) -> Reading:
        self._memo = {}
        tokens = tokenize(question)
        # (an interface's stub answers where a member is declared, not what it does)
        described = read_question(question, tokens)  # (the one reading: its intent, its words)
        self.prefer_bodies = described.intent not in _DECLARED
        words = [t.low for t in tokens]
        wordset = frozenset(w for t in tokens for w in t.low.split("."))
        modules_top = {m.split(".")[0] for m in self._top_modules()}
        hints = [t.low for t in tokens if t.possessive or t.low in modules_top]
        used: set[int] = set()  # token indexes that found a role

        # a name only passed to a call written in the question (`decode(self.content)`, `**kwargs`,
        # `encoding=...`) is part of the quoted code, not something asked of a class, unless the
        # question names it outside the call too
        # (a name the quoted code binds, `render_options = ...`, is the code's own local too)
        # (named outside the call means written as code there: "after a response comes back" is prose)
        outside = {
            _member_name(t)
            for t in tokens
            if t.code and not (t.argument or t.splat or t.keyword or t.bound or t.operand or t.negated)
        }

        def passed(t: Token) -> bool:
            return (t.argument or t.splat or t.keyword or t.bound or t.operand or t.negated) and _member_name(
                t
            ) not in outside

        # a bare name that repeats the member of a chain written out (`self.options.update(...)`, "where
        # is that update()?") is that member: the chain's receiver decides it, not a namesake
        chains = {u.text.rpartition(".")[2]: u.index for u in tokens if "." in u.text and not u.path and u.code}

        module_ctx: list[str] = []
        src = self.table.src
        for t in tokens:
            if src.module_path(t.text) is not None and self._names_module(t.text):
                module_ctx.append(t.text)
                used.add(t.index)
            elif t.word and t.index + 1 < len(tokens) and tokens[t.index + 1].low in CONTEXT_WORDS:
                mods = [m for m in self._modules_named(t.low) if not hints or m.split(".")[0] in hints]
                if mods:
                    module_ctx.extend(mods[:3])
                    used.add(t.index)
        module_ctx = list(dict.fromkeys(module_ctx))

        # "the package __init__", "the module __main__": the package's file, not the constructor (or
        # `__main__`) of a class the question names
        files = {
            t.index for t in tokens if t.low in _MODULE_FILES and t.index and tokens[t.index - 1].low in CONTEXT_WORDS
        }
        used |= files
        op_words = [w if i not in files else "" for i, w in enumerate(words)]

        # names the table knows (code-like or capitalised words, the word a "where is" asks about;
        # other plain words later, as members)
        slot = _where_slot(tokens)
        resolved: dict[int, list[str]] = {}
        dotted_member: dict[int, str] = {}  # a dotted mention whose head is known: index -> its last name
        looked = 0
        seen: dict[str, list[str]] = {}
        for t in tokens:
            if not t.word or (t.low in STOP and not t.code) or (t.low in VOCABULARY and not (t.code or t.named)):
                continue
            if t.index in files:
                continue
            if not (t.code or t.text[0].isupper() or t.index in slot):
                continue
            if t.result_member:
                continue  # a member of what a call returns: its type decides (the pointer sites do)
            if passed(t):
                continue  # passed to or bound by the quoted code, not asked about
            if t.text in seen:
                continue  # each name once, at its first mention
            if looked >= MAX_NAMES:
                continue
            looked += 1
            seen[t.text] = self.candidates(t.text, hints, module_ctx, wordset)
            if t.low in VOCABULARY and not t.code:
                # a reader's word written as a name ("two Origin objects"): only a declaration spelt so
                seen[t.text] = [c for c in seen[t.text] if c.rpartition(".")[2] == t.text]
            if seen[t.text]:
                resolved[t.index] = seen[t.text]
            elif "." in t.text and not t.path:
                # `Cookies.retry_later`: the class is known, the member may not be
                head, _, tail = t.text.rpartition(".")
                key = head
                if key not in seen:
                    looked += 1
                    seen[key] = self.candidates(key, hints, module_ctx, wordset)
                if seen[key] and any(self._is_class(c) for c in seen[key][:6]):
                    resolved[t.index] = seen[key]
                    dotted_member[t.index] = tail
            elif t.text[0].isupper() and t.text.endswith("s") and "." not in t.text and len(t.text) > 3:
                # a plural ("two SpecifierSets", "Headers objects"): the class is the singular
                for singular in (t.text[:-1], t.text[:-2] if t.text.endswith("es") else ""):
                    if singular and singular not in seen:
                        looked += 1
                        seen[singular] = self.candidates(singular, hints, module_ctx, wordset)
                    if singular and seen[singular] and self._is_class(seen[singular][0]):
                        resolved[t.index] = seen[singular]
                        break

        passed_idx = {t.index for t in tokens if passed(t)}
        # `Headers.get(key, default=None, type=None)`: a keyword argument names a parameter of the call
        # it is passed to, not a namesake elsewhere (`WWWAuthenticate.type`)
        for t in tokens:
            if not (t.keyword and t.argument) or t.index not in resolved:
                continue
            callee = next((c for c in reversed(tokens[: t.index]) if c.call and not c.argument), None)
            if callee is None or callee.index not in resolved:
                continue
            res = self.table.resolve(resolved[callee.index][0])
            if (
                res is not None
                and not res.is_external
                and res.target.qualname
                and t.text in {p.name for p in self.callable_parameters(res.target.qualname)}
            ):
                del resolved[t.index]
                used.add(t.index)
        # (deferred only when the table cannot place the chain itself)
        deferred = {
            t.index for t in tokens if "." not in t.text and t.text in chains and chains[t.text] not in resolved
        }
        for i in deferred:
            resolved.pop(i, None)

        # classes named: owners of members
        owners: list[tuple[Token, list[str]]] = []  # (mention, class qualnames it may denote)
        owner_texts: set[str] = set()
        for i, cands in resolved.items():
            if tokens[i].text in owner_texts or len(owner_texts) >= MAX_OWNERS:
                continue  # each class once (its first mention); a question names few
            classes = [q for q in (self._is_class(c) for c in cands[:6]) if q]
            if classes:
                owner_texts.add(tokens[i].text)
                owners.append((tokens[i], list(dict.fromkeys(classes))))
        owner_idx = {t.index for t, _ in owners}
        if owners:
            # a bare name that is only some other class's member ("keys()" asked of Cookies) is not a
            # subject of its own: it is read as a member of the class the question names
            for i in [i for i in resolved if i not in owner_idx and "." not in tokens[i].text]:
                parent = resolved[i][0].rpartition(".")[0]
                if self._is_class(parent) and not tokens[i].text[0].isupper():
                    del resolved[i]

        subjects: list[Subject] = []
        absent: list[Absent] = []
        operations: list[str] = []
        placed_owner: set[int] = set()
        chosen: dict[int, str] = {}  # owner mention -> the class it was read as
        is_async = bool(set(words) & ASYNC_WORDS)

        for ot, classes in owners:
            cls = classes[0]
            mention = ot.text
            found = False
            tail = dotted_member.get(ot.index, "")
            if tail:
                mention = ot.text.rpartition(".")[0]
                for cand_cls in classes:
                    members = self.members(cand_cls)
                    if tail in members:
                        subjects.append(Subject(dotted=f"{cand_cls}.{tail}", mentions=(mention, tail)))
                        cls, found = cand_cls, True
                        break
                else:
                    instance = self._instance_attribute(cls, tail, mention)
                    if instance is not None:
                        subjects.append(instance)
                    else:
                        members = self.members(cls)
                        absent.append(
                            Absent(
                                owner=cls,
                                member=tail,
                                members=tuple(sorted(m for m in members if not m.startswith("_")))[:40],
                                external_bases=self.external_bases(cls),
                            )
                        )
                    found = True
                used.add(ot.index)
                placed_owner.add(ot.index)
                continue
            # 1. members named in code form, then the data model, then plain words
            # the first class the mention may denote that has what is asked (else the first)
            picked: _Pick | None = None
            first: _Pick | None = None
            for cand_cls in classes:
                members = self.members(cand_cls)
                ops = self._operations(tokens, op_words, owner_idx, members, cand_cls)
                consumed = {i for m, _, _ in ops for i in range(m.start, m.end)}
                strong, weak = self._member_tokens(
                    tokens, ot, members, owner_idx | consumed | deferred | passed_idx | files, resolved
                )
                if strong or weak or any(names for _, names, _ in ops):
                    picked = (cand_cls, members, ops, strong, weak)
                    break
                if picked is None or cand_cls == classes[0]:
                    first = (cand_cls, members, ops, strong, weak)
            choice = picked or first
            for cand_cls, members, ops, strong, weak in [choice] if choice is not None else []:
                if strong:
                    for t, name in strong:
                        name = _async_variant(name, members, is_async)
                        subjects.append(Subject(dotted=f"{cand_cls}.{name}", mentions=(mention, t.text)))
                        used.add(t.index)
                    found = True
                if ops and not strong:
                    for op_match, names, missing in ops:
                        operations.append(op_match.operation.name)
                        used.update(range(op_match.start, op_match.end))
                        for name in names:
                            subjects.append(Subject(dotted=f"{cand_cls}.{name}", mentions=(mention, name)))
                        if missing:
                            origin = self._outside_defines(cand_cls, missing)
                            known = bool(origin) and bool(builtin_bases.members(origin))
                            unknown = tuple(
                                b for b in self.external_bases(cand_cls) if builtin_bases.overrides(b, missing) is None
                            )
                            absent.append(
                                Absent(
                                    owner=cand_cls,
                                    member=missing,
                                    members=(),
                                    external_bases=(origin,) if origin else (unknown or ("object",)),
                                    inherited=known,
                                )
                            )
                    found = True
                if not found and weak:
                    t, name = weak[0]
                    name = _async_variant(name, members, is_async)
                    if set(words) & CLASS_WORDS:
                        # "what class do I get ... deprecated": a plain word may be prose; the class
                        # the question asks about is a subject too
                        subjects.append(Subject(dotted=resolved[ot.index][0], mentions=(mention,)))
                    subjects.append(Subject(dotted=f"{cand_cls}.{name}", mentions=(mention, t.text)))
                    # other members named by words that are only names ("duplicate keys when I add
                    # one": `keys` and `add`) are answered too
                    for t2, name2 in weak[1:3]:
                        if t2.low not in VOCABULARY and t2.low not in STOP and name2 != name:
                            subjects.append(Subject(dotted=f"{cand_cls}.{name2}", mentions=(mention, t2.text)))
                    for t2, _ in weak:
                        used.add(t2.index)
                    found = True
                if found:
                    cls = cand_cls
                    break
            # 2. a parameter of the constructor ("the default timeout for a Client")
            init = self.init_parameters(cls)
            if init is not None:
                param = self._parameter(tokens, ot, init[1], subjects, cls, owner_idx)
                if param is not None:
                    t, p = param
                    used.add(t.index)
                    subjects[:] = [s for s in subjects if s.dotted != f"{cls}.{p.name}"]
                    subjects.insert(0, Subject(dotted=init[0], mentions=(mention, t.text), parameter=p))
                    found = True
                    # the parameter's words are not also a data-model operation ("the pool size": not `len`)
                    param_words = set(p.name.lower().split("_"))
                    # nor a member named by one of its words in plain prose ("keepalive connections": not
                    # the `connections` property)
                    prose = {x.text for x in tokens if x.low in param_words and not x.code}
                    subjects[:] = [
                        s
                        for s in subjects
                        if s.parameter is not None
                        or not s.dotted.startswith(cls + ".")
                        or s.dotted.rpartition(".")[2].startswith("__")
                        or s.mentions[-1] not in prose
                    ]
                    for op_match, names, missing in choice[2] if choice is not None else ():
                        if any(tokens[i].low in param_words for i in range(op_match.start, op_match.end)):
                            absent = [a for a in absent if not (a.owner == cls and a.member == missing)]
                            subjects[:] = [s for s in subjects if s.dotted not in {f"{cls}.{n}" for n in names}]
                            if op_match.operation.name in operations:
                                operations.remove(op_match.operation.name)
                    # `param=None` filled in from a class attribute by convention (`default_<param>`)
                    conventional = f"default_{p.name}"
                    if p.default in ("None", "") and conventional in self.members(cls):
                        subjects.insert(1, Subject(dotted=f"{cls}.{conventional}", mentions=(mention, t.text)))
            # 2b. an attribute only annotated in the class body: the assignment in a method answers it
            for k, sub in enumerate(subjects):
                if not sub.dotted.startswith(cls + ".") or sub.parameter is not None:
                    continue
                b = self.table.binding_of(sub.dotted) or self._member_binding(cls, sub.dotted.rpartition(".")[2])
                if b is not None and b.kind is BindingKind.VALUE and not b.value:
                    hit = self._assignment(cls, b.name)
                    if hit is not None:
                        subjects.insert(k + 1, Subject(dotted=hit[0], mentions=sub.mentions, assigned=hit[1:]))
                    break
            # 2c. an instance attribute (`self.payload = payload` in a method) named by a plain word
            if not found:
                tried = 0
                for t in sorted(tokens, key=lambda x: abs(x.index - ot.index)):
                    if (
                        tried >= 3
                        or t.index in used
                        or t.index in owner_idx
                        or not t.word
                        or "." in t.text
                        or t.low in STOP
                        or t.low in VOCABULARY
                        or len(t.low) < 3
                        or t.low in modules_top
                        or self._in_compound(tokens, t, self.members(cls))
                    ):
                        continue
                    tried += 1
                    instance = self._instance_attribute(cls, _member_name(t), mention)
                    if instance is not None:
                        subjects.append(instance)
                        used.add(t.index)
                        found = True
                        break
            # 2c'. two words that spell a parameter ("whether a status code should be retried"): the one
            # method of the class that takes it
            if not found:
                taker = self._parameter_taker(tokens, cls, used | owner_idx)
                if taker is not None:
                    t, method = taker
                    subjects.append(Subject(dotted=method, mentions=(mention, t.text)))
                    used.add(t.index)
                    found = True
            # 2d. a name prefix ("what visit_ function it uses for a node"): the member whose code builds
            # names from it (`getattr(self, f"visit_{...}")`)
            if not found:
                for t in tokens:
                    prefix = t.text
                    if t.index in used or not t.word or not prefix.endswith("_") or not prefix[0].isalpha():
                        continue
                    builder = self._prefix_builder(cls, prefix)
                    if builder is not None:
                        subjects.append(Subject(dotted=builder, mentions=(mention, prefix)))
                        used.add(t.index)
                        found = True
                        break
            # 3. a member of a base outside the repository that Python itself defines (`dict.get`)
            if not found:
                members = self.members(cls)
                for base in self.external_bases(cls):
                    defined = builtin_bases.members(base)
                    if not defined:
                        continue
                    for t in tokens:
                        name = _member_name(t)
                        if (
                            t.index in used
                            or t.index in owner_idx
                            or not name
                            or name in members
                            or name not in defined
                            or name.startswith("__")
                        ):
                            continue
                        absent.append(
                            Absent(owner=cls, member=name, members=(), external_bases=(base,), inherited=True)
                        )
                        used.add(t.index)
                        found = True
            used.add(ot.index)
            if found:
                placed_owner.add(ot.index)
            chosen[ot.index] = cls

        # 4. a member written as code that no class the question names has: absent from the nearest
        asked: set[str] = set()
        for t in tokens:
            name = _member_name(t)
            if name in asked or passed(t):
                continue
            asked.add(name)
            if (
                not owners
                or t.index in used
                or not name
                or not (t.code or t.call)
                or t.index in owner_idx
                or name.endswith("_")
                or name in CODE_LITERALS  # (`from`, `import` of a statement quoted: no member's name)
            ):
                continue
            if t.index in resolved and "." not in t.text:
                continue  # a name of its own elsewhere in the repository: a subject of its own
            ot = min((o for o, _ in owners), key=lambda o: abs(o.index - t.index))
            cls = chosen.get(ot.index) or owners[0][1][0]
            if "." in t.text and t.index in resolved and not t.text.startswith(ot.text.split(".")[-1] + "."):
                continue
            head = t.text.split(".")[0]
            if "." in t.text and head not in ("self", "cls") and head.lower() != ot.text.split(".")[-1].lower():
                continue  # `options.update_width`: a member of what `options` holds, which the hop infers
            if head in ("self", "cls") and t.text.count(".") > 1:
                continue  # `self.json_module.loads`: a member of the attribute's type, which the hop infers
            if head in ("self", "cls"):
                # `self.content` in a quoted fragment: the class whose code it is, which may be any class
                # the question names, not the nearest mention
                for o, cl in sorted(owners, key=lambda oc: abs(oc[0].index - t.index)):
                    mine = chosen.get(o.index) or cl[0]
                    if name in self.members(mine) or self._instance_attribute(mine, name, o.text) is not None:
                        ot, cls = o, mine
                        break
            members = self.members(cls)
            if name in members:
                continue
            instance = self._instance_attribute(cls, name, ot.text)
            if instance is not None:
                subjects.append(instance)
                used.add(t.index)
                placed_owner.add(ot.index)
                continue
            # a parameter of one method of the class ("the default max_bytes when receiving"): that method's
            method_param = self._method_parameter(cls, name)
            if method_param is not None:
                holder_qual, holder_param = method_param
                subjects.append(Subject(dotted=holder_qual, mentions=(ot.text, t.text), parameter=holder_param))
                used.add(t.index)
                placed_owner.add(ot.index)
                continue
            absent.append(
                Absent(
                    owner=cls,
                    member=name,
                    members=tuple(sorted(m for m in members if not m.startswith("_")))[:40],
                    external_bases=self.external_bases(cls),
                )
            )
            used.add(t.index)
            placed_owner.add(ot.index)

        # names of their own (functions, values, classes not answered through a member)
        default_words: list[str] = []  # words of a default asked of a function that placed no parameter
        for i, cands in resolved.items():
            t = tokens[i]
            if i in placed_owner or (i in used and i not in owner_idx):
                continue
            if i in owner_idx and i in placed_owner:
                continue
            used.add(i)
            dotted = cands[0]
            subjects.append(Subject(dotted=dotted, mentions=(t.text,), strong=True))
            sub = subjects[-1]
            fn_param = self._function_parameter(tokens, t, dotted, used, owner_idx)
            if fn_param is None:
                fn_param = self._parameter_in_parts(tokens, t, dotted, used)
            if fn_param is None:
                default_words += self._default_words(tokens, t, dotted, used, owner_idx)
            if fn_param is not None:
                ptok, fparam, target, hops = fn_param
                subjects[-1] = Subject(
                    dotted=target or sub.dotted, mentions=sub.mentions + (ptok.text,), parameter=fparam, forwarded=hops
                )
                used.add(ptok.index)

        # `self.x(...)` / `cls.x(...)` called in quoted code: a member of the class whose code it is, a class
        # the question names or the class of a method it names (`Map.add` ... `self.update()`). Not an
        # attribute only assigned (`self._live = Live(...)`): what is reached through it is the hop's to infer
        homes = list(
            dict.fromkeys(
                [chosen.get(o.index) or c[0] for o, c in owners]
                + [q for q in (self._is_class(s.dotted.rpartition(".")[0]) for s in subjects) if q]
            )
        )
        for t in tokens:
            parts = t.text.split(".")
            if (
                len(parts) != 2
                or parts[0] not in ("self", "cls")
                or t.index in used
                or passed(t)
                or t.receiver
                or not t.call
                or not parts[1].isidentifier()
            ):
                continue
            for home in homes[:MAX_OWNERS]:
                if parts[1] in self.members(home):
                    subjects.append(Subject(dotted=f"{home}.{parts[1]}", mentions=(t.text,)))
                    used.add(t.index)
                    break

        # a plain word naming a member of a module written out ("the do extension in jinja2.ext")
        if not subjects and not absent and not owners:
            explicit = [t.text for t in tokens if t.text in module_ctx]
            best_m: tuple[int, Token, str] | None = None
            for mod in explicit:
                mi = next(t.index for t in tokens if t.text == mod)
                # a package named alone ("attrs define") lends meaning only to the word next to it
                reach = len(tokens) if "." in mod else 1
                for t in tokens:
                    if not t.word or t.index == mi or "." in t.text or abs(t.index - mi) > reach:
                        continue
                    if t.low in STOP and "." not in mod:
                        continue
                    if self._exists(f"{mod}.{t.text}"):
                        d = abs(t.index - mi)
                        if best_m is None or d < best_m[0]:
                            best_m = (d, t, f"{mod}.{t.text}")
            if best_m is not None and not respelt and self._is_class(best_m[2]) and not best_m[1].code:
                # a class named by its lowercase name ("a more_itertools peekable"): its members are asked
                # as any named class's are, so the question is read again with the name written as code
                word = best_m[1]
                again = re.sub(rf"(?<![\w`]){re.escape(word.text)}(?![\w`])", f"`{word.text}`", question, count=1)
                if again != question:
                    return self.read(again, respelt=True)
            if best_m is not None:
                used.add(best_m[1].index)
                subjects.append(Subject(dotted=best_m[2], mentions=(best_m[1].text,)))
                fn_param = self._function_parameter(tokens, best_m[1], best_m[2], used, owner_idx)
                if fn_param is not None:
                    ptok, fparam, target, hops = fn_param
                    subjects[-1] = Subject(
                        dotted=target or best_m[2],
                        mentions=(best_m[1].text, ptok.text),
                        parameter=fparam,
                        forwarded=hops,
                    )
                    used.add(ptok.index)

        # a name spelt as words ("the default user agent" -> `USER_AGENT`, "cookie jar" -> `CookieJar`)
        if not subjects and not absent and not owners:
            content = [t for t in tokens if t.word and "." not in t.text and t.low not in STOP]
            # a class spelt as words is read as if its name were written: its members, its constructor's
            # parameters, and the words nothing explains, as for any class the question names
            runs = _word_runs(content)
            respelt_seen: dict[str, list[str]] = {}
            for run in runs if not respelt else []:
                # CamelCase ("cookie jar" -> CookieJar), or a class whose own name is lowercase ("a peekable"),
                # written as code in the question read again
                camel = "".join(t.low.capitalize() for t in run)
                snake = "_".join(t.low for t in run)
                for spelt, written in ((camel, camel), (snake, f"`{snake}`")):
                    if looked >= MAX_NAMES or spelt in seen:
                        continue
                    looked += 1
                    seen[spelt] = respelt_seen[spelt] = cands = self.candidates(spelt, hints, module_ctx, wordset)
                    if cands and self._is_class(cands[0]) and cands[0].rpartition(".")[2] == spelt and self._one(cands):
                        words_run = r"\W+".join(re.escape(t.text) for t in run)
                        again = re.sub(rf"\b{words_run}\b", written, question, count=1, flags=re.I)
                        if again != question:
                            return self._also_spelt(
                                self.read(again, respelt=True), spelt, snake, hints, module_ctx, wordset
                            )
            for run in runs:
                parts = [t.low for t in run]
                for spelt in ("_".join(parts).upper(), "_".join(parts), "".join(p.capitalize() for p in parts)):
                    if spelt in respelt_seen:
                        cands = respelt_seen[spelt]  # looked up just above (a class spelt so is read again)
                    elif looked >= MAX_NAMES or spelt in seen:
                        continue
                    else:
                        looked += 1
                        seen[spelt] = cands = self.candidates(spelt, hints, module_ctx, wordset)
                    if cands and self._one(cands):
                        used.update(t.index for t in run)
                        subjects.append(Subject(dotted=cands[0], mentions=(spelt,), strong=True))
                        break
                if subjects:
                    break

        # a parameter named without its callable ("where does the default timeout come from?", "the
        # default for max_connections"): the callables that take it; a plain word only when a default
        # is asked
        several: tuple[str, ...] = ()
        if not subjects and not absent and not owners:
            asks_default = bool(DEFAULT_WORDS & set(words))
            lookups = 0  # full-text lookups, bounded as the table's are (a 100 kB question of names)
            for t in tokens:
                if (
                    lookups >= MAX_NAMES
                    or not t.word
                    or "." in t.text
                    or t.index in used
                    or (t.low in STOP and not t.code)
                    or (t.low in VOCABULARY and not t.code)
                    or not (t.code or asks_default)
                    or passed(t)
                ):
                    continue
                lookups += 1
                holders = self._parameter_holders(t.text, with_default=asks_default)
                if not holders:
                    continue
                used.add(t.index)
                defaults = list(dict.fromkeys(p.default for _, p in holders))
                shown: list[str] = []
                for qual, held in holders:
                    if held.default in defaults:
                        defaults.remove(held.default)
                        subjects.append(Subject(dotted=qual, mentions=(t.text,), parameter=held))
                        shown.append(f"`{qual}` (`{held.default or 'no default'}`)")
                if len(subjects) > 1:
                    several = (t.text, *shown[:5])
                    subjects = subjects[:3]
                break

        # plain words, when nothing else named a subject ("Where is ok defined?")
        close: tuple[str, ...] = ()
        unexplained: tuple[str, ...] = ()
        unplaced_value = ""
        if not subjects and not absent and not owners:
            words_of = [
                t
                for t in tokens
                if t.word and t.low not in STOP and t.low not in VOCABULARY and len(t.low) >= 2 and t.text not in seen
            ]
            for t in words_of:
                if looked >= MAX_NAMES:
                    break
                looked += 1
                seen[t.text] = self.candidates(t.text, hints, module_ctx, wordset)
            # a class named by its own lowercase name ("index a peekable") first: the question is read again
            # with it written as code, so what is asked of it (a member, an operation) is found
            for t in words_of if not respelt else []:
                cands = seen.get(t.text) or []
                if cands and not t.code and cands[0].rpartition(".")[2] == t.text and self._is_class(cands[0]):
                    again = re.sub(rf"(?<![\w`]){re.escape(t.text)}(?![\w`])", f"`{t.text}`", question, count=1)
                    if again != question:
                        return self.read(again, respelt=True)
            # a plain word is not a name: the words ground a declaration by its derived terms, with a
            # clear margin, or nothing is a subject (the candidates that came close are named)
            # code of the repository named: its words are not what finds the subject
            grounding = ground(described, self.store) if not names_code(described, self.store) else Grounding()
            for g in grounding.subjects:
                if described.intent is Intent.VALUE and g.hit.kind in _CALLABLE_KINDS:
                    # a value asked, a callable found: the one parameter the words name is the value
                    # asked (its default); otherwise which of its values the words mean is not placed
                    placed = self._placed_parameter(g.hit, described, tokens)
                    if placed is not None:
                        subjects.append(placed)
                        continue
                    unplaced_value = g.hit.qualname
                    continue
                used.update(t.index for t in words_of if stem(t.low) in g.hit.matched)
                subjects.append(Subject(dotted=g.hit.qualname, mentions=g.hit.matched, strong=True))
            if not subjects:
                close = tuple(g.hit.qualname for g in grounding.close[:5])
                unexplained = grounding.unexplained if close else ()

        # a module named with nothing else: the module is the subject
        if not subjects and not absent:
            for m in module_ctx[:1]:
                subjects.append(Subject(dotted=m, mentions=(m,)))

        # a member of what a call returns (`tomlkit.loads(text).unwrap()`): the class the callee makes or is
        # annotated to return decides, when it names one class of the repository (else the sites do)
        for t in tokens:
            if not t.result_member or t.index in used:
                continue
            receiver = next((r for r in reversed(tokens[: t.index]) if r.receiver), None)
            if receiver is None or receiver.index not in resolved:
                continue
            made = self._returned_class(resolved[receiver.index][0])
            member = _member_name(t)
            if made is None or not member or self.locate(f"{made}.{member}") is None:
                continue
            subjects.append(Subject(dotted=f"{made}.{member}", mentions=(receiver.text, t.text)))
            used.update((t.index, receiver.index))

        # a module's dunder spelt as a plain word ("what version is sqlparse?" -> `sqlparse.__version__`)
        if subjects and len(subjects) <= MAX_OWNERS and all(src.module_path(s.dotted) is not None for s in subjects):
            for t in tokens:
                if t.index in used or not t.word or t.code or t.low in STOP or len(t.low) < 3:
                    continue
                dunder = next(
                    (f"{s.dotted}.__{t.low}__" for s in subjects if self._exists(f"{s.dotted}.__{t.low}__")), None
                )
                if dunder is not None:
                    subjects.append(Subject(dotted=dunder, mentions=(t.text,)))
                    used.add(t.index)

        # a class named and nothing of it asked by name: the one member the rest of the words ask
        # of, if one clearly is ("what is raised when a bounded queue is full": its `push`)
        owner_classes = {c for _, cl in owners for c in cl}
        for ot, cl in owners if all(s.dotted in owner_classes for s in subjects) and not deferred else []:
            b = self.table.class_binding(cl[0])
            if ot.index in placed_owner or b is None:
                continue
            asked_of = narrow(described, self.store, cl[0], b.rel_path, b.line, b.end_line)
            if asked_of is None:
                continue
            # (read from the words, not from a name written: the words must be explained, `_untold`)
            narrowed = Subject(dotted=asked_of.qualname, mentions=(asked_of.qualname.rpartition(".")[2],))
            if described.intent is Intent.VALUE and asked_of.kind in _CALLABLE_KINDS:
                # (a value asked, a method narrowed to: the parameter the words name, or nothing)
                placed = self._placed_parameter(asked_of, described, tokens)
                if placed is None:
                    continue
                narrowed = placed
            subjects = [s for s in subjects if s.dotted != cl[0]]  # (the member in place of its class)
            subjects.append(narrowed)
            placed_owner.add(ot.index)

        # words that found no role, when a class was named without saying what of it is asked
        unplaced: list[str] = []
        external: list[tuple[str, tuple[str, ...]]] = []
        unanswered_owner = [(ot, cl) for ot, cl in owners if ot.index not in placed_owner]
        others = [s for s in subjects if s.parameter is not None or self._is_class(s.dotted) not in owner_classes]
        only_modules = bool(subjects) and all(src.module_path(s.dotted) is not None for s in subjects)
        # a name placed at one of its mentions is placed at all of them, except a member of what a call
        # returns (`downgrade(system).get_ansi_codes()`): its receiver's type decides, not a namesake
        placed_texts = (
            {tokens[i].text for i in used | resolved.keys() | deferred} | {m for s in subjects for m in s.mentions}
        ) - {t.text for t in tokens if t.result_member}
        # a question that repeats the member of a chain it wrote out has said what it asks: the hop
        # answers the chain (or its doubt stays)
        if ((unanswered_owner and not others) or only_modules) and not deferred:
            # a word that is part of the name of a class asked about, or of one of its bases, says
            # what the class is ("that exception", "the async transport"), not what of it is asked
            named_by: set[str] = set()
            for _ot, cl in unanswered_owner:
                for c in (*self.mro(cl[0]), *self.external_bases(cl[0])):
                    named_by.update(word_parts(c.rpartition(".")[2]))

            def names_class(t: Token) -> bool:
                return t.low in named_by or (t.low.endswith("s") and t.low[:-1] in named_by)

            def modifies_class_noun(t: Token) -> bool:
                """A plain word in front of a word of the class's name, with only plain words
                between ("a custom sync transport"): it describes the class, it asks nothing of it."""
                for nxt in tokens[t.index + 1 :]:
                    if names_class(nxt):
                        return True
                    if nxt.code or not nxt.word or nxt.low in STOP or nxt.low in VOCABULARY:
                        return False
                return False

            for t in tokens:
                if only_modules and t.low in MEMBER_ASPECTS and t.index not in used:
                    unplaced.append(t.text)
                    continue
                if names_class(t) or (not t.code and modifies_class_noun(t)) or stem(t.low) in KIND_WORDS:
                    continue  # (a kind noun, "which exception", says what the subject is)
                if (
                    t.index in used
                    or t.text in placed_texts
                    or passed(t)
                    or not t.word
                    or t.low in STOP
                    or t.low in VOCABULARY
                    or t.low in hints
                    or len(t.low) < 2
                    or t.low in modules_top
                ):
                    continue
                if any(t.low == m.rpartition(".")[2].lower() for m in module_ctx):
                    continue
                unplaced.append(t.text)
            if unplaced:
                for _ot, cl in unanswered_owner:
                    ext = self.external_bases(cl[0])
                    if ext:
                        external.append((cl[0], ext))
        unplaced += default_words
        # a parameter of a callable the question is about is placed ("unsign ... when max_age is exceeded")
        param_names: set[str] = set()
        for sub in subjects[:MAX_OWNERS]:
            res = self.table.resolve(sub.dotted) or self.locate(sub.dotted)
            if res is not None and not res.is_external and res.target.qualname:
                param_names.update(p.name for p in self.callable_parameters(res.target.qualname))
        if param_names:
            used.update(t.index for t in tokens if t.text in param_names)
            unplaced = [w for w in unplaced if w not in param_names]
        # a name written as code that matched nothing at all is never silently dropped (a prefix of
        # members of a class asked about, "no visit_ method", names them)
        named = set(unplaced)
        prefixes = {
            t.text
            for t in tokens
            if t.text.endswith("_")
            and t.text[0].isalpha()
            and any(m.startswith(t.text) for c in chosen.values() for m in self.members(c))
        }
        for t in tokens:
            if t.text in prefixes:
                continue
            # the receiver of a member asked (`get_width(x).normalize()`): the member carries the doubt,
            # and the hop that infers the member's owner infers the receiver's result
            if (
                t.index in used
                or t.index in resolved
                or t.text in placed_texts
                or passed(t)
                or t.receiver
                or t.index in deferred
                or not t.word
                # (plain words are grounded by their derived terms, and what those leave unexplained is
                # the grounding's doubt: a plain word is never "not understood")
                or not (t.code or t.index in slot)
                or t.low in STOP
                or t.low in VOCABULARY
                or t.low in hints
                or t.low in modules_top
                or t.text in named
                or t.text in KEYWORDS
                or t.path
                or self.table.src.module_path(t.text) is not None
            ):
                continue
            named.add(t.text)
            unplaced.append(t.text)
        negated = tuple(dict.fromkeys(t.text for t in tokens if t.negated))
        subjects = self._valued(subjects)
        if wordset & SIGNATURE_WORDS:
            subjects = self._constructed(subjects)
        subjects = _order(subjects)
        absent = [replace(a, owner_at=self._where(a.owner)) for a in _dedup_absent(absent)]
        return Reading(
            subjects=tuple(subjects),
            absent=tuple(absent),
            unplaced=tuple(dict.fromkeys(unplaced)),
            external=tuple(external),
            operations=tuple(dict.fromkeys(operations)),
            owners=tuple(dict.fromkeys(chosen.get(o.index) or c[0] for o, c in owners)),
            result_members=tuple(dict.fromkeys(t.text for t in tokens if t.result_member)),
            several=several,
            close=close,
            unexplained=unexplained,
            unplaced_value=unplaced_value,
            bases=_ASKS_BASES.search(question) is not None,
            # what applies without the call is shown by a declaration the question asks about (a
            # function's fallback, a class default); read as a package or a module alone, nothing shows it
            negated=negated
            if negated
            and all(src.module_path(s.dotted) is not None or set(s.mentions) & set(negated) for s in subjects)
            else (),
        )

    def _member_tokens(
        self,
        tokens: list[Token],
        ot: Token,
        members: dict[str, Binding],
        owner_idx: set[int],
        resolved: dict[int, list[str]],
    ) -> tuple[list[tuple[Token, str]], list[tuple[Token, str]]]:
        """Words that name a member of the class: (written as code, plain words)."""
        strong: list[tuple[Token, str]] = []
        weak: list[tuple[Token, str]] = []
        owner_last = ot.text.rpartition(".")[2]
        for t in tokens:
            if t.index == ot.index or t.index in owner_idx or not t.word:
                continue
            name = _member_name(t)
            if not name or name == owner_last:
                continue
            if "." in t.text:
                head = t.text.rpartition(".")[0]
                if t.index in resolved and head.rpartition(".")[2] != owner_last:
                    continue  # `Other.member`: the member of another name
                if t.index not in resolved and "." in head and head.rpartition(".")[2] != owner_last:
                    continue  # `url._uri_reference.copy_with`: a member of an attribute's value (sites decide)
            if name in members:
                if not (t.code or t.call) and self._in_compound(tokens, t, members):
                    continue
                (strong if t.code or t.call else weak).append((t, name))
        # a word that is also a question word ("is label set on ...") ranks after a word that is only a name
        weak.sort(
            key=lambda tn: (tn[0].low in VOCABULARY or tn[0].low in STOP, abs(tn[0].index - ot.index), tn[0].index)
        )
        # a name the question spells with more of its words is meant before a one-word name
        # a name of several words, each in the question ("the default base style" -> base_style)
        # (the class's own mention is not one of those words: "the read timeout of a Timeout")
        present: dict[str, list[int]] = {}
        for t in tokens:
            if t.word and t.index != ot.index:
                present.setdefault(stem(t.low), []).append(t.index)  # "handles a request" -> handle_request
        best: tuple[int, int, Token, str] | None = None
        for name in members:
            parts = [p for p in name.lower().split("_") if p]
            if len(parts) < 2:
                continue
            # a part the question writes out in full ("an environment variable" for `envvar`,
            # "the configuration file" for `config_file`), when another part is written as is
            spelt = {p: _spelt_out(p, tokens, ot.index) for p in parts if stem(p) not in present}
            if not all(stem(p) in present or spelt[p] for p in parts) or all(p in spelt for p in parts):
                continue
            # each part at its mention nearest the first part's
            at = present[stem(parts[0])][0] if stem(parts[0]) in present else spelt[parts[0]][0]
            idx = [_nearest(present[stem(p)] if stem(p) in present else spelt[p], at) for p in parts]
            span = max(idx) - min(idx)
            key = (span, min(idx))
            if best is None or key < best[:2]:
                best = (span, min(idx), tokens[at], name)
        if best is not None and best[0] <= 2 * len(best[3].split("_")):
            # before a one-word member only when two of its parts are not the class's own name
            # ("the default table" in TinyDB: default_table_name; "register on Blueprint": not
            # register_blueprint)
            own = {p.lower() for p in word_parts(owner_last)}
            if len([p for p in best[3].lower().split("_") if p and p not in own]) >= 2:
                weak.insert(0, (best[2], best[3]))
            elif not weak:
                weak.append((best[2], best[3]))
        return strong, weak

    def _parameter_in_parts(
        self, tokens: list[Token], ft: Token, dotted: str, used: set[int]
    ) -> tuple[Token, Parameter, str, tuple[tuple[str, str, int], ...]] | None:
        """A default asked of a parameter named by all the parts of its name, in any order and form
        ("does split strip trailing semicolons by default?" -> `strip_semicolon`), as a member's is."""
        if not DEFAULT_WORDS & {t.low for t in tokens}:
            return None
        res = self.table.resolve(dotted)
        if res is None or res.is_external or not res.target.qualname:
            return None
        present: dict[str, Token] = {}
        for t in tokens:
            if t.word and not t.code and t.index != ft.index and t.index not in used and t.low not in STOP:
                present.setdefault(stem(t.low), t)
        for p in self.callable_parameters(res.target.qualname):
            parts = [stem(x) for x in p.name.lower().split("_") if x]
            if len(parts) >= 2 and not p.kind and all(x in present for x in parts):
                return present[parts[0]], p, "", ()
        return None

    def _placed_parameter(self, hit: TermHit, described: Question, tokens: list[Token]) -> Subject | None:
        """The one parameter with a default (of a class: of its constructor) that the words name
        beyond the callable's own name: what follows "which"/"what" when that names one ("which
        scheme ..." -> `scheme`), else one whose default, or what the body puts in place of
        it, that phrase names ("which mutex guards it unless I pass my own contexts?" ->
        `contexts`, replaced by `[CopyableMutex()]`)."""
        qual, params = hit.qualname, self.callable_parameters(hit.qualname)
        if hit.kind == "class":
            init = self.init_parameters(hit.qualname)
            if init is None:
                return None
            qual, params = init
        words = {stem(w.lower()) for w in described.words} - set(hit.name_terms)
        placed = [p for p in params if not p.kind and p.default and set(name_terms(p.name)) & words]
        asked_for = _asked_noun(tokens)
        if asked_for and placed:
            by_name = [p for p in placed if set(name_terms(p.name)) & asked_for]
            if len(by_name) > 1:
                # ("the start gear": `start_gear='neutral'` and `gears=None`) the most words, then a
                # default that is a value of its own before `None`
                most = max(len(set(name_terms(p.name)) & asked_for) for p in by_name)
                by_name = [p for p in by_name if len(set(name_terms(p.name)) & asked_for) == most]
                by_name = [p for p in by_name if p.default != "None"] or by_name
            if not by_name:
                body = next(iter(self.store.chunks_named(qual)), None)
                by_name = [p for p in placed if asked_for & _stands_in(body.text if body else "", p)]
            placed = by_name
        return Subject(dotted=qual, mentions=hit.matched, parameter=placed[0]) if len(placed) == 1 else None

    def _returned_class(self, dotted: str) -> str | None:
        """The repository class a call of `dotted` gives: the class itself, or the one a function's
        return annotation names."""
        cls = self._is_class(dotted)
        if cls is not None:
            return cls
        res = self.table.resolve(dotted)
        if res is None or res.is_external or not res.target.qualname:
            return None
        chunk = next((c for c in self.store.chunks_named(res.target.qualname) if c.signature), None)
        module = self.store.module_of(res.target.rel_path) or ""
        named = returns(chunk.signature) if chunk is not None else ""
        return self._is_class(f"{module}.{named}") if named and module else None

    def _method_parameter(self, cls: str, name: str) -> tuple[str, Parameter] | None:
        """(method, its parameter) when exactly one method of the class (through its MRO) takes `name`."""
        found: list[tuple[str, Parameter]] = []
        for member, b in self.members(cls).items():
            if b.kind is not BindingKind.FUNCTION:
                continue
            qual = f"{b.scope}.{member}"
            found += [(qual, p) for p in self.callable_parameters(qual) if p.name == name and not p.kind]
        return found[0] if len(found) == 1 else None

    def _parameter_taker(self, tokens: list[Token], cls: str, used: set[int]) -> tuple[Token, str] | None:
        """(first word, method) when two adjacent plain words spell a parameter (`status code` ->
        `status_code`) that exactly one method of the class, its constructor aside, takes."""
        methods = [
            (name, f"{b.scope}.{name}")
            for name, b in self.members(cls).items()
            if b.kind is BindingKind.FUNCTION and not name.startswith("__")
        ]
        for t, nxt in zip(tokens, tokens[1:], strict=False):
            if t.index in used or nxt.index in used or not (t.word and nxt.word) or t.code or nxt.code:
                continue
            if t.low in STOP or nxt.low in STOP:
                continue
            spelt = _stemmed(f"{t.low}_{nxt.low}")
            takers = [q for _, q in methods if spelt in {_stemmed(p.name) for p in self.callable_parameters(q)}]
            if len(takers) == 1:
                return t, takers[0]
        return None

    def _in_compound(self, tokens: list[Token], t: Token, members: dict[str, Binding]) -> bool:
        """A plain word that is half of a compound naming something else of the class: "a status code"
        names `status_code` (a parameter of `Retry.is_retry`), not the member `status`."""
        names: set[str] = set()
        for step in (-1, 1):
            nb = t.index + step
            if 0 <= nb < len(tokens) and tokens[nb].low in ARTICLES:
                nb += step  # "handles a request" -> handle_request
            if not 0 <= nb < len(tokens):
                continue
            other = tokens[nb]
            if not other.word or other.low in STOP or other.index == t.index:
                continue
            first, second = (other.low, t.low) if nb < t.index else (t.low, other.low)
            names.add(_stemmed(f"{first}_{second}"))
        if not names:
            return False
        stemmed = {_stemmed(m) for m in members}
        if names & stemmed:
            return True
        # the end of a longer member's name ("a structure hook": `get_structure_hook`)
        if any(m.endswith(tuple(f"_{n}" for n in names)) for m in stemmed):
            return True
        for name, b in members.items():
            if b.kind is BindingKind.FUNCTION and names & {
                _stemmed(p.name) for p in self.callable_parameters(f"{b.scope}.{name}")
            }:
                return True
        return False

    def _names_module(self, dotted: str) -> bool:
        """Whether `pkg.mod` is the module at run time, not a declaration of the package that
        rebinds the name after the submodule set it (`def markdown` in `mistune/__init__.py`)."""
        res = self.table.resolve(dotted)
        # (the package's `def markdown` resolves to the qualname of the submodule `mistune.markdown`,
        # in the package's own file)
        return res is None or res.is_external or self.table.src.module_path(res.target.qualname) == res.target.rel_path

    def _operations(
        self, tokens: list[Token], words: list[str], owner_idx: set[int], members: dict[str, Binding], cls: str = ""
    ) -> list[tuple[datamodel.Match, list[str], str]]:
        """Data-model operations the question describes, with the special methods the class has
        (and the one it lacks, when it has none)."""
        quoted = [t.index for t in tokens if t.quoted or t.call]  # `len`, len(): the built-in
        out: list[tuple[datamodel.Match, list[str], str]] = []
        for m in datamodel.match(words, sorted(owner_idx), quoted):
            if len(m.words) == 1 and m.words[0] in members and not m.words[0].startswith("__"):
                continue  # "copy", "print": the class has a member of that very name
            if (
                len(m.words) == 1
                and not any(n in members or hasattr(object, n) for n in m.operation.methods)
                and not (cls and any(self._outside_defines(cls, n) for n in m.operation.methods))
            ):
                continue  # one word ("entries"), and nothing here or in `object` does it (`__mro_entries__`)
            if m.operation.every:
                names = [n for n in m.operation.methods if n in members]
                out.append((m, names, "" if names else m.operation.methods[0]))
                continue
            # Python's lookup order: a method a base outside the repository defines comes before
            # the fallbacks the repository has (`in` uses Mapping.__contains__ before __iter__)
            chosen, missing = "", ""
            for n in m.operation.methods:
                if n in members:
                    chosen = n
                    break
                if cls and self._outside_defines(cls, n):
                    missing = n
                    break
            if not chosen and not missing:
                missing = m.operation.methods[0]
            out.append((m, [chosen] if chosen else [], missing))
        return out


def _async_variant(name: str, members: dict[str, Binding], is_async: bool) -> str:
    if not is_async or name.startswith("a"):
        return name
    for cand in (f"a{name}", f"async_{name}", f"{name}_async"):
        if cand in members:
            return cand
    return name


def _word_runs(content: list[Token]) -> list[list[Token]]:
    """Runs of three, then two, adjacent content words that are not all question words: the
    spellings of a name written as words."""
    return [
        run
        for size in (3, 2)
        for k in range(len(content) - size + 1)
        if (run := content[k : k + size])[-1].index - run[0].index == size - 1
        and not all(t.low in VOCABULARY for t in run)
    ]


def _spelt_out(part: str, tokens: list[Token], skip: int) -> list[int]:
    """Where the question writes `part` out as one word it abbreviates (`config`, "configuration";
    four letters at least) or as the starts of adjacent words (`envvar`, "environment variable";
    three letters of each at least): the positions of the words' first."""
    out: list[int] = []
    words = [t for t in tokens if t.low.isalpha() and not t.code and t.index != skip and t.low not in STOP]
    for k, first in enumerate(words):
        if len(part) >= 4 and len(first.low) > len(part) and first.low.startswith(part):
            out.append(first.index)
            continue
        rest, j = part, k
        while rest and j < len(words) and (j == k or words[j].index == words[j - 1].index + 1):
            w = words[j].low
            cut = next((n for n in range(min(len(w), len(rest)), 2, -1) if w.startswith(rest[:n])), 0)
            if not cut:
                break
            rest, j = rest[cut:], j + 1
        if not rest and j - k >= 2:
            out.append(first.index)
    return out


def _nearest(positions: list[int], at: int) -> int:
    return min(positions, key=lambda i: abs(i - at))


def _order(subjects: list[Subject]) -> list[Subject]:
    out: list[Subject] = []
    seen: set[tuple[str, str]] = set()
    for s in subjects:
        key = (s.dotted, s.parameter.name if s.parameter else "")
        if key not in seen:
            seen.add(key)
            out.append(s)
    # most specific first: parameters and members before the classes and modules they belong to
    out.sort(key=lambda s: (0 if s.parameter is not None else 1, -len(s.mentions)))
    return out


def _dedup_absent(items: list[Absent]) -> list[Absent]:
    out: dict[tuple[str, str], Absent] = {}
    for a in items:
        out.setdefault((a.owner, a.member), a)
    return list(out.values())
