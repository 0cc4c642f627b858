"""Structural reading of a context: subjects -> findings -> coverage. Over 500 lines (~950)
because every pointer rule an intent needs reads the same Finding and the same context; the
rules move into one table per intent as the reader of issue 25 replaces question.py.

Shared by both generators, so the hop never depends on a model noticing a
pointer. The question's reading (`question.SubjectFinder`) names subjects;
each becomes a `Finding`: declared in a context chunk (answered), or not yet
(the first link of its chain that the context shows -- an import, a
re-export, a star import, an alias, a base class, a `**kwargs` call -- is a
pending reference of that link's type, made by `pointers.PointerFinder`). A
declaration whose value is computed from other module-level values, or a
parameter whose default names one, needs those too; so does an attribute
annotated without a value (the classes its annotation names), a property (the
class its return annotation names, and its `@property` getter when a setter
binds the name last), an attribute assigned from the method's parameters (the
class the parameter's annotation names, the values its default names), a
value that is one call of a repository class (that class), a
function that only hands its parameters on to one call (the callee), and a
question about what a class inherits from (its bases). What the reader could not place (a member that does not exist, words
that matched nothing) is a finding with a `doubt`.

Coverage: a reading is `covered` only if every finding is declared in the
context, inside the repository, with nothing pending and no doubt.
May import: records, kernel.words, symbols, question, grounding, pointers, signatures, store, stdlib.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from codehop.index.symbols import SymbolTable
from codehop.index.terms import name_terms, stem
from codehop.kernel.records import (
    Binding,
    BindingKind,
    Chunk,
    ChunkKind,
    ContextItem,
    Intent,
    Location,
    PendingReference,
    Provenance,
    Question,
    RefType,
    Resolution,
    StepNote,
    shown_path,
)
from codehop.kernel.words import CODE_LITERALS, split_identifiers
from codehop.reading.grounding import came_close, ground, unexplained_by
from codehop.reading.pointers import PointerFinder, contains
from codehop.reading.question import Reading, Subject, SubjectFinder
from codehop.reading.question_words import Token, tokenize
from codehop.reading.signatures import (
    Parameter,
    annotated_return,
    called_name,
    calls_on_locals,
    computed_return,
    forwarded_call,
    instantiated,
    keyword_values,
    none_fallback,
    parameters,
    passed_on,
    returned_members,
    returned_names,
    returns,
    returns_class,
)

MAX_SUBJECTS = 4
# a kind of declaration a question asks for by name ("which function ..."; a method is a function;
# "which class" is answered by the class that holds what was read, so it is not checked)
_KIND_ASKED = {
    BindingKind.FUNCTION.value: BindingKind.FUNCTION,
    "method": BindingKind.FUNCTION,
    BindingKind.CLASS.value: BindingKind.CLASS,
}
_KIND_WITHIN = 2  # words after which/what the kind may come ("which extension class")
MAX_HOW_CALLEES = 2  # callees a "how" answer needs beside the body (the ones the question's words name)
MAX_SITE_WORDS = 4  # names not placed by the table whose sites in the context are sent to the ladder
MAX_SITES_PER_WORD = 3
_NAME = re.compile(r"(?<![\w.'\"])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?![\w.'\"(])")  # `keys.hashkey` whole
_BOUND = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?::[^=\n]*)?=(?!=)", re.M)  # a local assigned in a body
_PROPERTY = re.compile(r"^\s*@[\w.]*property\b", re.M)  # @property, @cached_property, @functools.cached_property


def _decorators(chunk: Chunk) -> str:
    """The text of a definition's chunk before its `def` (its decorators)."""
    return chunk.text.split("def ", 1)[0]


_NAME_OR_CALLEE = re.compile(r"(?<![\w.'\"])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?![\w.'\"])")


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    subject: Subject
    resolution: Resolution | None
    binding: Binding | None  # the declaration's binding, when the table knows it
    declared_in: ContextItem | None  # the context item holding the declaration
    pending: tuple[PendingReference, ...]
    needs: tuple[Location, ...] = ()  # values the answer depends on, found in context
    doubt: str = ""  # why this subject cannot be answered from the repository
    # other bindings of the same name in the same module (`try: from ._main import main` /
    # `except ImportError: def main()`): which one runs is decided at run time
    alternatives: tuple[tuple[Binding, Resolution | None], ...] = ()
    # a parameter whose `None` default the body replaces: (line, the expression used instead)
    fallback: tuple[int, str] | None = None

    @property
    def covered(self) -> bool:
        return (
            not self.doubt
            and not self.alternatives
            and self.resolution is not None
            and not self.resolution.is_external
            and self.declared_in is not None
            and not self.pending
        )


def _asked_kind(tokens: list[Token]) -> BindingKind | None:
    """The kind of declaration the question asks for by name, within the words after its first
    which/what ("which extension class", "what function")."""
    at = _kind_at(tokens)
    return _KIND_ASKED[tokens[at].low] if at is not None else None


def _kind_at(tokens: list[Token]) -> int | None:
    wh = next((t for t in tokens if t.low in ("which", "what")), None)
    if wh is None:
        return None
    return next((t.index for t in tokens[wh.index + 1 : wh.index + 1 + _KIND_WITHIN] if t.low in _KIND_ASKED), None)


def _asks_what_class_is(tokens: list[Token]) -> bool:
    """ "What class is it", "which class is `x`": the class the subject is (its type), not the class
    that declares it ("which class implements it")."""
    at = _kind_at(tokens)
    return at is not None and tokens[at].low == "class" and at + 1 < len(tokens) and tokens[at + 1].low == "is"


def _doer(tokens: list[Token]) -> set[str]:
    """The name that does what the question asks of a kind ("which class does `Markdown` load":
    `Markdown`): the asked one is another. Of "which function does that give me", none."""
    at = _kind_at(tokens)
    if at is None or at + 2 >= len(tokens) or tokens[at + 1].low not in ("do", "does", "did"):
        return set()
    doer = tokens[at + 2]
    named = doer.quoted or not doer.text.islower() or "_" in doer.text
    return {doer.text.rpartition(".")[2]} if named else set()


def covered(findings: Sequence[Finding]) -> bool:
    """Every subject declared in the context and answered, nothing pending, nothing in doubt."""
    return bool(findings) and all(f.covered for f in findings)


class Reader:
    def __init__(self, table: SymbolTable) -> None:
        self.table = table
        self.store = table.store
        self.finder = SubjectFinder(table)
        self.pointers = PointerFinder(table)
        self._read: tuple[Question, Reading] | None = None

    def read(
        self, asked: Question, context: Sequence[ContextItem], resolved: Mapping[str, Resolution]
    ) -> list[Finding]:
        if self._read is None or self._read[0] != asked:
            self._read = (asked, self.finder.read(asked.text))  # once per question, not per regenerate
        reading = self._read[1]
        findings = self.read_with(reading, context, resolved)
        findings += self._aspect(asked, findings, context, resolved)
        tokens = tokenize(asked.text)
        doubts = self._untold(asked, tokens, findings) + self._other_kind(asked, tokens, findings)
        return findings + doubts + self._made_outside(asked, findings) + _constructor_only(asked, findings)

    def _made_outside(self, asked: Question, findings: Sequence[Finding]) -> list[Finding]:
        """A value made by a call into code outside the repository (`logger =
        logging.getLogger("schedule")`), asked of with words that neither it nor the call explains
        ("where does the logger send its records?"): what it does is the outside object's, decided
        where that code lives, not answered here."""
        if asked.intent not in (Intent.DEFINITION, Intent.HOW, Intent.WHY):
            return []
        told = [f for f in findings if f.subject.dotted and not f.doubt and f.resolution is not None]
        if len(told) != 1 or told[0].resolution is None or told[0].resolution.is_external:
            return []
        target = told[0].resolution.target.qualname
        b = self.table.binding_of(target)
        head = called_name(b.value) if b is not None and b.kind is BindingKind.VALUE else ""
        made = self.table.resolve(f"{b.scope}.{head.partition('.')[0]}") if b is not None and head else None
        if b is None or made is None or not made.is_external:
            return []
        held = {
            t
            for n in (*target.split("."), *head.split("."), *split_identifiers(b.value).split())
            for t in name_terms(n)
        }
        words = ground(asked, self.store).words
        left = [w.text for w in words if w.counts and not (w.forms | w.abbreviations) & held]
        if not left:
            return []
        said = ", ".join(repr(w) for w in left[:6])
        return [
            _doubt(
                f"`{target}` is made by `{head}(...)`, outside the repository: what it does ({said}) is "
                "decided by that code, not by the indexed code."
            )
        ]

    def _other_kind(self, asked: Question, tokens: list[Token], findings: Sequence[Finding]) -> list[Finding]:
        """ "Which function ...", "which extension class ...": a kind asked for by name (within the
        words after which/what), and none among the declarations read but those the question names
        itself (it asks for another: "which class does `Markdown` load"), nor an attribute a
        constructor assigns: not answered, whatever else was found."""
        kind = _asked_kind(tokens)
        told = [f for f in findings if f.subject.dotted and not f.doubt and f.resolution is not None]
        if kind is None or not told:
            return []
        named = _doer(tokens)
        for f in told:
            target = f.resolution.target.qualname if f.resolution is not None else ""
            b = self.table.binding_of(target) if target else None
            if b is not None and b.kind is kind and not f.subject.assigned and f.subject.parameter is None:
                if b.name not in named:
                    return []
            if f.subject.parameter is not None or target.endswith(".__init__"):
                # (a parameter's default, or the constructor of the class the question creates: neither
                # that class nor what the constructor makes is the class asked for)
                continue
            owner = self.table.class_binding(target.rpartition(".")[0]) if "." in target else None
            if kind is BindingKind.CLASS and owner is not None and owner.name not in named:
                return []  # ("which class declares `parse`": the class of the member read)
            if (
                kind is BindingKind.CLASS
                and b is not None
                and b.kind is BindingKind.FUNCTION
                and self._gives_class(target)
            ):
                return []  # (a function that makes or returns the class: "which server class does it use")
        read = ", ".join(f"`{f.subject.dotted}`" for f in told[:3])
        return [
            _doubt(f"The question asks for a {kind.value} it does not name; none of what was read is one ({read}).")
        ]

    def _gives_class(self, qualname: str) -> bool:
        """A callable whose body instantiates a class of the repository, or annotated to return a
        class (`-> type[Validator]`): the class asked for is in what was read."""
        made = self.store.edges_out_of(qualname, ("instantiates",))
        if any(not e.dst.startswith("?") and self._in_repository(e.dst) for e in made):
            return True
        chunk = next(iter(self.store.chunks_named(qualname)), None)
        return chunk is not None and returns_class(chunk.signature)

    def _untold(self, asked: Question, tokens: list[Token], findings: Sequence[Finding]) -> list[Finding]:
        """A question in words only, read as declarations that leave most of its words unsaid
        ("which character separates the names of nested keys when a layered config looks them
        up?" read as the attribute `keys` that `Config.__init__` assigns), is not answered: a doubt
        naming the words left, and the declarations those words came close to. What explains a
        word: the declarations' names, paths and derived terms (docstring, parameters, assigned
        names), their callees' names, and the words the reading took them from (of an attribute a
        method assigns or a parameter it takes, its name and the method's only). A reading through
        the data model read operation words, not names: it is not asked."""
        told = [f for f in findings if f.subject.dotted and not f.doubt]
        if not told or any(_operation(f) for f in told):
            return []
        # code named and read: its names decide, not its words (code named and not read, an HTTP
        # header "Transfer-Encoding", leaves the words to decide)
        written = {part for m in asked.mentions for part in (m, m.rpartition(".")[2])}
        if any(written & set(f.subject.mentions) for f in told) or any(f.subject.dotted in written for f in told):
            return []
        # a name written as it is spelt (`WARN`, "two Origin objects"): read from a name, not words
        spelt = {t.text for t in tokens if not t.text.islower()}
        if any(spelt & set(f.subject.mentions) for f in told):
            return []
        held, read = self._held(findings, told)
        said = ", ".join(f"`{d}`" for d in list(dict.fromkeys(f.subject.dotted for f in told))[:3])
        missing = unexplained_by(asked, self.store, held, read)
        if not missing:
            return []
        close = came_close(asked, self.store, missing, read)
        doubt = f"Read from the question's words as {said}, which leaves {', '.join(repr(w) for w in missing[:6])} unexplained"
        doubt += f"; those words came close to {', '.join(f'`{c}`' for c in close)}." if close else "."
        return [_doubt(doubt)]

    def _held(self, findings: Sequence[Finding], told: Sequence[Finding]) -> tuple[frozenset[str], frozenset[str]]:
        """The terms a reading's declarations say (names, paths, derived terms, their class's,
        their callees' names, the words they were read from), and the declarations read."""
        held: set[str] = set()
        for f in findings:
            names = [*f.subject.dotted.split("."), *f.subject.mentions]
            if f.subject.parameter is not None:
                names.append(f.subject.parameter.name)
            res = f.resolution
            if res is not None and not res.is_external and f.subject.assigned:
                names += res.target.qualname.split(".")  # an attribute the method assigns: not the method
            elif res is not None and not res.is_external:
                names += res.target.qualname.split(".")
                held |= self.store.declaration_terms(res.target.rel_path, res.target.line)
                owner = next(iter(self.store.chunks_named(res.target.qualname.rpartition(".")[0])), None)
                if owner is not None and owner.kind is ChunkKind.CLASS:
                    # (a method's class says what the method is part of: "the thread-safe runner")
                    held |= self.store.declaration_terms(owner.rel_path, owner.start_line)
                if f.subject.parameter is None:  # (of a parameter asked, what the body calls does not say it)
                    edges = self.store.edges_out_of(res.target.qualname, ("calls", "instantiates"))
                    names += [e.dst.rpartition(".")[2] for e in edges if not e.dst.startswith("?")]
            held |= {t for n in names for t in name_terms(n)}
        read = {f.subject.dotted for f in told}
        read |= {f.resolution.target.qualname for f in told if f.resolution is not None}
        return frozenset(held), frozenset(read)

    def _aspect(
        self,
        asked: Question,
        findings: list[Finding],
        context: Sequence[ContextItem],
        resolved: Mapping[str, Resolution],
    ) -> list[Finding]:
        """What the intent says the answer needs beyond the subject's declaration (the table in
        `reading/intent.py`): the raised classes for RAISES; for HOW, the callees of its body that
        the question's words name; each declared in the context, or pending."""
        if asked.intent is Intent.TYPE or (
            asked.intent is Intent.DEFINITION and _asks_what_class_is(tokenize(asked.text))
        ):
            # ("what class is it, and where is that class?": the class it returns, then where)
            return self._returned(findings, context, resolved)
        if asked.intent is Intent.VALUE:
            return self._fallbacks(asked, findings, context, resolved)
        words = {stem(w.lower()) for w in asked.words}
        if asked.intent is Intent.DEFINITION:
            return self._named_callees(findings, context, resolved, words) + self._named_defaults(
                findings, context, resolved, words
            )
        if asked.intent not in (Intent.HOW, Intent.WHY, Intent.RAISES, Intent.CALLEES):
            return []
        out: list[Finding] = []
        have = {f.resolution.target for f in findings if f.resolution is not None}
        # (asked of a declaration not in the context yet too: its pointers are known from the index,
        # so the one hop that fetches it fetches them as well)
        for f, res in _callables(findings):
            if self.finder.stub(res.target.qualname):
                out.append(_stub_doubt(f, res))
                continue
            edges = self.store.edges_out_of(res.target.qualname, ("calls", "instantiates"))
            callees = list(dict.fromkeys(e.dst for e in edges if not e.dst.startswith("?")))
            if asked.intent is Intent.RAISES:
                picked = [c for c in callees if self._is_exception(c)][:MAX_SUBJECTS]
            else:
                # named by the question's words beyond the subject's own name and owners; none
                # named: what the body calls in the repository is the answer ("what does it call?")
                own = {t for part in res.target.qualname.split(".") for t in name_terms(part)}
                told = words - own
                named = [c for c in callees if told & set(name_terms(c.rpartition(".")[2]))]
                if not named and asked.intent is Intent.CALLEES:
                    named = [c for c in callees if self._in_repository(c)]
                picked = named[:MAX_HOW_CALLEES]
                if not picked and asked.intent in (Intent.HOW, Intent.CALLEES):
                    unplaced = [c for c in calls_on_locals(self._body(f, res)) if _told_by(c, words)]
                    inferred = self._inferred_calls(f, res, unplaced[:MAX_HOW_CALLEES], context, resolved)
                    out += [g for g in inferred if g.resolution is None or g.resolution.target not in have]
                    have.update(g.resolution.target for g in inferred if g.resolution is not None)
            for dotted in picked:
                g = self.finding(Subject(dotted=dotted, mentions=(dotted.rpartition(".")[2],)), context, resolved)
                if g.resolution is None or g.resolution.is_external or g.resolution.target in have:
                    continue
                have.add(g.resolution.target)
                out.append(replace(g, doubt=""))
        if asked.intent is Intent.RAISES and not _callables(findings) and not self._raised_found(findings, out):
            read = ", ".join(f"`{f.subject.dotted}`" for f in findings if f.subject.dotted and not f.doubt)
            if read:
                # (a class found for "what is raised when ...", no function of it read: which of its
                # methods raises is not placed; a function read shows its raises in its body)
                out.append(_doubt(f"The question asks what is raised; no exception class is found in {read}."))
        return out

    def _raised_found(self, findings: Sequence[Finding], pointers: Sequence[Finding]) -> bool:
        """Whether an exception class is among what was read or what its pointers lead to."""
        for f in [*findings, *pointers]:
            res = f.resolution
            if (
                res is not None
                and not res.is_external
                and res.target.qualname
                and self._is_exception(res.target.qualname)
            ):
                return True
            if res is not None and res.is_external:
                return True  # (a builtin or an installed exception: said where it is)
        return False

    def _inferred_calls(
        self,
        f: Finding,
        res: Resolution,
        calls: list[str],
        context: Sequence[ContextItem],
        resolved: Mapping[str, Resolution],
    ) -> list[Finding]:
        """Calls on values whose class the index does not know (`cond.check(...)` on a loop
        variable), each a pointer the ladder resolves by inference at its site (Jedi, a language
        server): the declaration it lands on answers, or the answer stays pending and says why."""
        chunk = self._chunk(f, res)
        if chunk is None:
            return []
        out: list[Finding] = []
        lines = chunk.text.splitlines()
        for call in calls:
            site = next(((i, ln.find(call + "(")) for i, ln in enumerate(lines) if call + "(" in ln), None)
            if site is None:
                continue
            key = f"{call} (in {res.target.qualname}, line {chunk.start_line + site[0]})"
            landed = resolved.get(key)
            if landed is not None and not landed.is_external:
                g = self.finding(Subject(dotted=landed.target.qualname, mentions=(call,)), context, resolved)
                out.append(replace(g, doubt=""))
                continue
            if landed is not None:
                continue  # (a builtin or an installed package's method: outside what is asked here)
            attr = call.rpartition(".")[2]
            pending = PendingReference(
                anchor_text=attr,
                ref_type=RefType.CALL,
                ref_target=key,
                origin_path=chunk.rel_path,
                origin_line=chunk.start_line + site[0],
                origin_col=site[1] + len(call) - len(attr),
            )
            out.append(
                Finding(
                    subject=Subject(dotted=call, mentions=(call,)),
                    resolution=None,
                    binding=None,
                    declared_in=None,
                    pending=(pending,),
                )
            )
        return out

    def _named_defaults(
        self,
        findings: list[Finding],
        context: Sequence[ContextItem],
        resolved: Mapping[str, Resolution],
        words: set[str],
    ) -> list[Finding]:
        """Where something a callable uses is declared, asked through one of its parameters ("where
        is the function that builds the key for remembered results when I don't pass my own key?"
        of `remember(store, key=keys.make_key)`): the module-level code the default of the one
        parameter the words name (beyond the callable's own name) holds."""
        out: list[Finding] = []
        have = {f.resolution.target for f in findings if f.resolution is not None}
        for f, res in _callables(findings):
            if f.subject.parameter is not None:
                continue  # (a parameter asked: its default is read with it)
            own = {t for part in res.target.qualname.split(".") for t in name_terms(part)}
            told = words - own
            module = self.store.module_of(res.target.rel_path) or ""
            named = [
                p
                for p in self.finder.callable_parameters(res.target.qualname)
                if not p.kind and p.default and p.default != "None" and told & set(name_terms(p.name))
            ]
            if len(named) != 1 or not module or self._bare_sentinel(module, named[0].default.strip(), resolved):
                continue  # (a bare sentinel stands for no code the callable uses)
            p = named[0]
            for name in dict.fromkeys(_NAME.findall(p.default)):
                if name.split(".")[0] in CODE_LITERALS:
                    continue
                hit = self._module_target(module, name, resolved)
                if hit is None or hit[1].target in have:
                    continue
                have.add(hit[1].target)
                out.append(self.finding(Subject(dotted=hit[0], mentions=(p.name, name)), context, resolved))
        return out[:MAX_HOW_CALLEES]

    def _named_callees(
        self,
        findings: list[Finding],
        context: Sequence[ContextItem],
        resolved: Mapping[str, Resolution],
        words: set[str],
    ) -> list[Finding]:
        """Where something comes from, asked through what the subject calls ("where does
        sqlparse.format get its filter stack from?"): a callee two or more of whose name's words
        the question says beyond the subject's own (`build_filter_stack`)."""
        out: list[Finding] = []
        have = {f.resolution.target for f in findings if f.resolution is not None}
        for _f, res in _callables(findings):
            own = {t for part in res.target.qualname.split(".") for t in name_terms(part)}
            told = words - own
            edges = self.store.edges_out_of(res.target.qualname, ("calls", "instantiates"))
            for dotted in dict.fromkeys(e.dst for e in edges if not e.dst.startswith("?")):
                if len(told & set(name_terms(dotted.rpartition(".")[2]))) < 2:
                    continue
                g = self.finding(Subject(dotted=dotted, mentions=(dotted.rpartition(".")[2],)), context, resolved)
                if g.resolution is None or g.resolution.is_external or g.resolution.target in have:
                    continue
                have.add(g.resolution.target)
                out.append(replace(g, doubt=""))
        return out[:MAX_HOW_CALLEES]

    def _fallbacks(
        self,
        asked: Question,
        findings: list[Finding],
        context: Sequence[ContextItem],
        resolved: Mapping[str, Resolution],
    ) -> list[Finding]:
        """A default asked of a callable without naming a parameter ("what does validator_for fall
        back to when ..."): what its body puts in place of a parameter left at `None` or at a
        sentinel (`default=_UNSET` ... `_LATEST_VERSION if default is _UNSET else default`), as the
        module-level values that expression names."""
        out: list[Finding] = []
        have = {f.resolution.target for f in findings if f.resolution is not None}
        out += self._passed(asked, findings, context, resolved, have)
        for f, res in _callables(findings):
            asked_param = f.subject.parameter
            if asked_param is not None and asked_param.default:
                continue  # (a parameter asked: its own default is read by `findings`)
            qualname = res.target.qualname
            module = self.store.module_of(res.target.rel_path) or ""
            named_defaults: list[tuple[str, str]] = []
            for p in self.finder.callable_parameters(qualname):
                sentinel = p.default.strip()
                if not module or not sentinel or not (sentinel == "None" or _NAME.fullmatch(sentinel)):
                    continue
                fallback = self._none_fallback(qualname, p.name, sentinel)
                if fallback is None:
                    if sentinel.split(".")[0] not in CODE_LITERALS:
                        named_defaults.append((p.name, sentinel))
                    continue
                for name in dict.fromkeys(_NAME_OR_CALLEE.findall(fallback[1])):
                    if name.split(".")[0] in CODE_LITERALS or name == p.name:
                        continue
                    hit = self._module_target(module, name, resolved)
                    if hit is None or hit[1].target in have:
                        continue
                    have.add(hit[1].target)
                    site = self._binding_site(module, name, context)
                    if site is not None and site.resolution is not None and site.resolution.target not in have:
                        have.add(site.resolution.target)
                        out.append(site)  # (`_LATEST_VERSION = Draft202012Validator`: the line that sets it)
                    out.append(self.finding(Subject(dotted=hit[0], mentions=(p.name, name)), context, resolved))
            if len(named_defaults) == 1:
                # (no parameter replaced in the body, one whose default names code: what it uses by
                # default is that code, `best_match(errors, key=relevance)` -> `relevance`)
                pname, name = named_defaults[0]
                hit = self._module_target(module, name, resolved)
                if hit is not None and hit[1].target not in have:
                    have.add(hit[1].target)
                    out.append(self.finding(Subject(dotted=hit[0], mentions=(pname, name)), context, resolved))
        return out[:MAX_SUBJECTS]

    def _passed(
        self,
        asked: Question,
        findings: list[Finding],
        context: Sequence[ContextItem],
        resolved: Mapping[str, Resolution],
        have: set[Location],
    ) -> list[Finding]:
        """A value that is one call, asked about through a keyword's words ("what format checker
        does Draft202012Validator use?" of `Draft202012Validator = create(..., format_checker=
        _format.draft202012_format_checker)`): the names that keyword's argument holds."""
        words = {stem(w.lower()) for w in asked.words}
        out: list[Finding] = []
        for f in findings[:MAX_SUBJECTS]:
            res = f.resolution
            if not is_value(f.binding) or res is None or res.is_external:
                continue
            module = self.store.module_of(res.target.rel_path) or ""
            b = f.binding
            if not module or b is None:
                continue
            held = f.declared_in.chunk if f.declared_in is not None else None
            if held is None or not held.start_line <= b.line <= held.end_line:
                held = next(
                    (c for c in self.store.chunks_of_file(b.rel_path) if c.start_line <= b.line <= c.end_line), None
                )
            if held is None:
                continue
            lines = held.text.splitlines()[b.line - held.start_line : (b.end_line or b.line) - held.start_line + 1]
            for keyword, names in keyword_values("\n".join(lines)):
                terms = set(name_terms(keyword))
                if len(terms & words) < min(2, len(terms)):
                    continue  # (every word of a one-word keyword, two of a longer one)
                for name in names:
                    hit = self._module_target(module, name, resolved)
                    if hit is None or hit[1].target in have:
                        continue
                    have.add(hit[1].target)
                    out.append(self.finding(Subject(dotted=hit[0], mentions=(keyword, name)), context, resolved))
        return out

    def _binding_site(self, module: str, name: str, context: Sequence[ContextItem]) -> Finding | None:
        """The line binding a module-level alias or value itself, as a finding: what a default that
        names it is set to is that line, wherever the alias leads."""
        b = self.store.binding(module, name.split(".")[0])
        if b is None or b.kind not in (BindingKind.ALIAS, BindingKind.VALUE):
            return None
        loc = Location(rel_path=b.rel_path, line=b.line, qualname=f"{module}.{b.name}", end_line=b.end_line)
        res = Resolution(target=loc, provenance=Provenance.SYMBOL_TABLE)
        holder = contains(context, loc)
        pending: tuple[PendingReference, ...] = ()
        if holder is None:
            pending = (
                PendingReference(
                    anchor_text=b.name,
                    ref_type=RefType.ALIAS if b.kind is BindingKind.ALIAS else RefType.OTHER,
                    ref_target=f"{module}.{b.name}",
                    origin_path=b.rel_path,
                    origin_line=b.line,
                    origin_col=b.col,
                    resolution=res,
                ),
            )
        subject = Subject(dotted=f"{module}.{b.name}", mentions=(b.name,))
        return Finding(subject=subject, resolution=res, binding=b, declared_in=holder, pending=pending)

    def _returned(
        self, findings: list[Finding], context: Sequence[ContextItem], resolved: Mapping[str, Resolution]
    ) -> list[Finding]:
        """What a function returns: the repository class its return annotation names, and the
        module-level values its `return` statements hand back (`return _CLASS_MAP[key]`)."""
        out: list[Finding] = []
        have = {f.resolution.target for f in findings if f.resolution is not None}
        for f, res in _callables(findings):
            module = self.store.module_of(res.target.rel_path) or ""
            chunk = self._chunk(f, res)
            if not module or chunk is None:
                continue
            annotated = returns(chunk.signature)
            placed = False
            said: set[str] = set()
            for name in dict.fromkeys(w for w in [annotated, *returned_names(chunk.text)] if w):
                hit = self._module_target(module, name, resolved)
                placed = placed or hit is not None
                if hit is None or hit[1].target in have:
                    continue
                have.add(hit[1].target)
                out.append(self.finding(Subject(dotted=hit[0], mentions=(name,)), context, resolved))
            for hit in self._returned_members(res, chunk.text):
                # (`return self.parameter_storage_class(...)`: the class attribute decides the type,
                # whatever the annotation names; answered where it is assigned)
                placed = True
                if hit[0] not in said:  # (also when the annotation named the same class)
                    said.add(hit[0])
                    out.append(
                        self.finding(Subject(dotted=hit[0], mentions=(hit[0].rpartition(".")[2],)), context, resolved)
                    )
            value = "" if placed or annotated_return(chunk.signature) else computed_return(chunk.text)
            if value:
                # (no annotation, and what it returns names nothing the index places: the type is
                # known only at run time)
                out.append(_untyped_doubt(f, res, value))
        return out[:MAX_SUBJECTS]

    def _returned_members(self, res: Resolution, body: str) -> list[tuple[str, Resolution]]:
        """The class attributes (values, not methods) a method returns or calls in its `return`."""
        owner = res.target.qualname.rpartition(".")[0]
        if not owner or self.table.class_binding(owner) is None:
            return []
        out = []
        for attr in returned_members(body):
            got = self.table.resolve(f"{owner}.{attr}")
            if got is None or got.is_external:
                continue
            here = self.store.bindings_at(got.target.rel_path, got.target.line)
            if not any(b.kind is BindingKind.FUNCTION and b.name == attr for b in here):
                out.append((f"{owner}.{attr}", got))  # (a method is a callee, not the type's holder)
        return out[:MAX_SUBJECTS]

    def _body(self, f: Finding, res: Resolution) -> str:
        chunk = self._chunk(f, res)
        return chunk.text if chunk is not None else ""

    def _chunk(self, f: Finding, res: Resolution) -> Chunk | None:
        """The chunk of the declaration a finding resolved to: the context's, else the index's."""
        chunk = f.declared_in.chunk if f.declared_in is not None else None
        if chunk is None or chunk.qualname != res.target.qualname:
            chunk = next((c for c in self.store.chunks_named(res.target.qualname)), None)
        return chunk

    def _in_repository(self, dotted: str) -> bool:
        res = self.table.resolve(dotted)
        return res is not None and not res.is_external

    def _is_exception(self, dotted: str) -> bool:
        """A class of the repository whose bases reach a builtin exception."""
        res = self.table.resolve(dotted)
        if res is None or res.is_external or self.table.class_binding(res.target.qualname) is None:
            return False
        for k in self.table.mro(res.target.qualname):
            for written, b in self.table.base_classes(k):
                if b is None and written.rpartition(".")[2].endswith(("Error", "Exception", "Warning", "Exit")):
                    return True
        return False

    def read_with(
        self, reading: Reading, context: Sequence[ContextItem], resolved: Mapping[str, Resolution]
    ) -> list[Finding]:
        findings: list[Finding] = []
        targets: set[tuple[Location, str]] = set()
        for s in reading.subjects[:MAX_SUBJECTS]:
            for f in self.findings(s, context, resolved):
                target = f.resolution.target if f.resolution is not None else None
                key = (target, f.subject.parameter.name if f.subject.parameter else "") if target else None
                if key is not None and key in targets:
                    continue
                if key is not None:
                    targets.add(key)
                findings.append(f)
        if reading.bases:
            findings += self._bases(findings, targets, context, resolved)
        reading = self._sites(reading, findings, context, resolved)
        for doubt in reading.doubts:
            findings.append(_doubt(doubt))
        return findings

    def _bases(
        self,
        findings: list[Finding],
        targets: set[tuple[Location, str]],
        context: Sequence[ContextItem],
        resolved: Mapping[str, Resolution],
    ) -> list[Finding]:
        """A question about what a class inherits from is answered by its bases' declarations: each
        base the repository declares is needed (one outside it is named by the class statement)."""
        out: list[Finding] = []
        for f in findings:
            res = f.resolution
            if res is None or res.is_external or not res.target.qualname:
                continue
            if self.table.class_binding(res.target.qualname) is None:
                continue
            for _written, b in self.table.base_classes(res.target.qualname)[:MAX_SUBJECTS]:
                if b is None:
                    continue
                base = self.finding(Subject(dotted=f"{b.scope}.{b.name}", mentions=(b.name,)), context, resolved)
                if base.resolution is None:
                    continue
                key = (base.resolution.target, "")
                if key not in targets:
                    targets.add(key)
                    out.append(base)
        return out

    def _sites(
        self,
        reading: Reading,
        findings: list[Finding],
        context: Sequence[ContextItem],
        resolved: Mapping[str, Resolution],
    ) -> Reading:
        """A name the table cannot place may still be used in the context (`self.lexer.tokeniter(...)`):
        its attribute and call sites are pending references for the position-based rungs (Jedi, a
        language server). What the ladder resolved answers the name; the rest stays a doubt."""
        sites = getattr(self.pointers, "sites", None)
        if sites is None or not reading.unplaced:
            return reading
        owners = list(reading.owners) + [
            f.resolution.target.qualname for f in findings if f.resolution is not None and f.resolution.target.qualname
        ]
        remaining: list[str] = []
        for i, word in enumerate(reading.unplaced):
            name = word.rpartition(".")[2]
            # a member reached through something (`self.lexer.tokeniter`, `get_console().print_json`,
            # a name asked of a class the question names): its receiver's type decides, which Jedi or a
            # language server can infer. A bare name the whole index binds nowhere has no such receiver.
            member_like = "." in word or word in reading.result_members or bool(reading.owners)
            refs: list[PendingReference] = (
                list(sites(name, context, tuple(dict.fromkeys(owners))))
                if i < MAX_SITE_WORDS and name.isidentifier() and member_like
                else []
            )
            if not refs:
                remaining.append(word)
                continue
            subject = Subject(dotted=refs[0].ref_target, mentions=(word,))
            done = next((r for r in refs if r.ref_target in resolved), None)
            if done is not None and resolved[done.ref_target].is_external:
                remaining.append(word)  # landed outside the repository (a builtin base): still not placed
                continue
            if done is not None:
                res = resolved[done.ref_target]
                subject = Subject(dotted=done.ref_target, mentions=(word,))
                holder = None if res.is_external else contains(context, res.target)
                binding = (
                    self.table.binding_of(res.target.qualname) if res.target.qualname and not res.is_external else None
                )
                # a member site that lands on a class of another name whose `__getattr__` makes members
                # (`Keyword.DML` -> `class _TokenType`) was answered with the member's type: the member is
                # made at run time, and no declaration in the repository says what it is
                hook = (
                    self.finding(
                        Subject(dotted=f"{res.target.qualname}.__getattr__", mentions=(word,)), context, resolved
                    )
                    if binding is not None and binding.kind is BindingKind.CLASS and binding.name != name
                    else None
                )
                made = hook is not None and hook.resolution is not None and not hook.resolution.is_external
                doubt = (
                    f"`{word}` has no declaration in the indexed code; at {shown_path(done.origin_path)}:"
                    f"{done.origin_line} it is inferred to be a `{res.target.qualname}` "
                    f"({shown_path(res.target.rel_path)}:{res.target.line}), made at run time by its `__getattr__`."
                    if made
                    else ""
                )
                findings.append(
                    Finding(
                        subject=subject, resolution=res, binding=binding, declared_in=holder, pending=(), doubt=doubt
                    )
                )
                if made and hook is not None:
                    findings.append(hook)  # the hook that makes such members says how
                continue
            findings.append(
                Finding(
                    subject=subject,
                    resolution=None,
                    binding=None,
                    declared_in=None,
                    pending=tuple(refs[:MAX_SITES_PER_WORD]),
                )
            )
        return replace(reading, unplaced=tuple(remaining))

    def findings(
        self, subject: Subject, context: Sequence[ContextItem], resolved: Mapping[str, Resolution]
    ) -> list[Finding]:
        f = self.finding(subject, context, resolved)
        out = [f]
        if f.resolution is not None and subject.dotted not in resolved and self.table.resolve(subject.dotted) is None:
            # (reached through a module-level instance, `signal = default_namespace.signal`: the
            # alias line is part of the answer, as the table's own chains show their links)
            for step in f.resolution.steps:
                if step.note is StepNote.ALIAS:
                    module, _, name = step.from_loc.qualname.rpartition(".")
                    site = self._binding_site(module, name, context)
                    if site is not None:
                        out.append(site)
        if subject.assigned and f.resolution is not None and not f.resolution.is_external:
            out.extend(self._assigned_types(subject, f.resolution, context, resolved))
        if f.binding is not None and f.binding.kind is BindingKind.VALUE and not f.binding.value:
            out.extend(self._annotated_types(subject, f.binding, context, resolved))
        if f.binding is not None and f.binding.kind is BindingKind.VALUE and f.binding.value and not subject.assigned:
            out.extend(self._instance_type(subject, f.binding, context, resolved))
        if f.binding is not None and f.binding.kind is BindingKind.FUNCTION and f.resolution is not None:
            out.extend(self._getter(subject, f, context))
            out.extend(self._property_type(subject, f.binding, context, resolved))
            out.extend(self._forwarded_to(subject, f.binding, context, resolved))
        p = subject.parameter
        if p is None or f.resolution is None or f.resolution.is_external:
            return out
        if subject.forwarded:
            out.extend(self._forwards(subject, context, resolved))
        # a default that names module-level values: their declarations answer "where is it set"
        module = self.store.module_of(f.resolution.target.rel_path) or ""
        names = _NAME.findall(p.default)
        if p.default == "None" or _NAME.fullmatch(p.default.strip()):
            # `None` (or a sentinel, `_UNSET`) standing for a value the body fills in (`X if p is None
            # else p`): X is the default
            holder = f.resolution.target.qualname
            fallback = self._none_fallback(holder, p.name, p.default.strip())
            if fallback is not None:
                out[0] = f = replace(f, fallback=fallback)
                names = _NAME_OR_CALLEE.findall(fallback[1])  # `SyncBackend()`: the class it makes
            elif p.default.strip() != "None":
                passed = self._sentinel_passed_on(holder, p, context, resolved)
                out.extend(passed)
                made = self._bare_sentinel(module, p.default.strip(), resolved) if not passed else ""
                if made:
                    out.append(
                        _doubt(
                            f"`{p.name}` defaults to `{p.default.strip()}`, a bare sentinel (`{made}`): what"
                            " stands in for it is decided where it is tested, and that was not found."
                        )
                    )
        for name in dict.fromkeys(names):
            if name.split(".")[0] in CODE_LITERALS or not module:
                continue
            found = self._module_value(module, name, resolved)
            if found is not None:
                out.append(self.finding(Subject(dotted=found, mentions=(p.name, name)), context, resolved))
        return out

    def _sentinel_passed_on(
        self, qualname: str, p: Parameter, context: Sequence[ContextItem], resolved: Mapping[str, Resolution]
    ) -> list[Finding]:
        """A parameter left at a sentinel (`scheme=_UNSET`) that the body hands on as it came to a
        callable with the same sentinel default: what that callable's body puts in its place is the
        default (`if scheme is _UNSET: ... "plain-sha"`), one call deep."""
        chunk = next(iter(self.store.chunks_named(qualname)), None)
        if chunk is None:
            return []
        sentinel = p.default.strip().rpartition(".")[2]
        callees = [e.dst for e in self.store.edges_out_of(qualname, ("calls",)) if not e.dst.startswith("?")]
        for written, keyword in passed_on(chunk.text, p.name):
            last = written.rpartition(".")[2]
            target = next((c for c in callees if c.rpartition(".")[2] == last), None)
            if target is None:
                target = self._held_method(qualname, written)
            if target is None:
                continue
            for q in self.finder.callable_parameters(target):
                if q.name != (keyword or p.name) or q.default.strip().rpartition(".")[2] != sentinel:
                    continue
                hit = self._none_fallback(target, q.name, q.default.strip())
                if hit is not None:
                    g = self.finding(Subject(dotted=target, mentions=(p.name,), parameter=q), context, resolved)
                    return [replace(g, fallback=hit)]
        return []

    def _bare_sentinel(self, module: str, name: str, resolved: Mapping[str, Resolution]) -> str:
        """The value of a module-level name bound to `object()` (`_UNSET = object()`): a marker that
        stands for no value of its own; "" for anything else."""
        hit = self._module_target(module, name, resolved) if module else None
        b = self.table.binding_of(hit[1].target.qualname) if hit is not None else None
        if b is None or not is_value(b) or instantiated(b.value) != "object" or not b.value.strip().endswith("()"):
            return ""  # (`stop_never = _stop_never()` is a strategy of its own, not a marker)
        return b.value.strip()

    def _held_method(self, method: str, written: str) -> str | None:
        """`self.<attr>.<m>` called in a method: the class whose instance the class's methods assign
        to `self.<attr>` (`self._signer = Signer()`), and its `m`, when the repository declares both."""
        parts = written.split(".")
        cls = method.rpartition(".")[0]
        if len(parts) != 3 or parts[0] != "self" or not self.finder.class_of(cls):
            return None
        held = self.finder.assigned_attribute(cls, parts[1])
        if held is None or held.assigned is None:
            return None
        made = instantiated(held.assigned[1].partition("=")[2])
        where = next(iter(self.store.chunks_named(held.dotted)), None) if made else None
        module = self.store.module_of(where.rel_path) if where is not None else None
        hit = self._module_target(module, made, {}) if module else None
        if hit is None or not self.finder.class_of(hit[1].target.qualname):
            return None
        target = f"{hit[1].target.qualname}.{parts[2]}"
        return target if self.finder.callable_parameters(target) else None

    def _module_value(self, module: str, name: str, resolved: Mapping[str, Resolution]) -> str | None:
        """The longest head of a dotted name written in `module` (`keys.hashkey`, `Strategy.AS_DICT`)
        that is declared in the repository, as a dotted path from the module."""
        found = self._module_target(module, name, resolved)
        return found[0] if found is not None else None

    def _module_target(
        self, module: str, name: str, resolved: Mapping[str, Resolution]
    ) -> tuple[str, Resolution] | None:
        """`_module_value` and the resolution of that dotted path."""
        parts = name.split(".")
        for n in range(len(parts), 0, -1):
            dotted = f"{module}.{'.'.join(parts[:n])}"
            res = resolved.get(dotted) or self.table.resolve(dotted)
            if res is not None and not res.is_external:
                return dotted, res
            if res is not None:
                return None  # outside the repository (`random.choice`)
        return None

    def _assigned_types(
        self, subject: Subject, res: Resolution, context: Sequence[ContextItem], resolved: Mapping[str, Resolution]
    ) -> list[Finding]:
        """`self.x: T = Maker(...)` answers what `x` holds: the module-level classes and values its annotation
        and value name (not the method's own parameters and locals) are declared where the answer is;
        so are the annotation of a parameter stored as it came (`self.x = x`) and the module-level
        values named by the defaults of the parameters the value uses."""
        if subject.assigned is None:
            return []
        _, text = subject.assigned
        head, eq, value = text.partition("=")
        if not eq:
            return []
        _, colon, annotation = head.partition(":")
        module = self.store.module_of(res.target.rel_path) or ""
        chunk = next(iter(self.store.chunks_named(res.target.qualname)), None)
        if not module or chunk is None:
            return []
        params = {q.name: q for q in parameters(chunk.signature)}
        local = set(params) | set(_BOUND.findall(chunk.text))
        # `self.x = x`, the method's own parameter stored as it came: its annotation says what `x` holds
        passed = params.get(value.strip())
        if passed is not None and not colon:
            annotation, colon = passed.annotation.replace('"', " ").replace("'", " "), ":"
        written = [
            n
            for n in dict.fromkeys(_NAME_OR_CALLEE.findall(f"{annotation if colon else ''} {value}"))
            if n.split(".")[0] not in local
        ]
        # a parameter the value is computed from (`self.max = to_seconds(max)`): left out, its default
        # is what the attribute holds, so the module-level values that default names are needed too
        # (a default is evaluated where the `def` stands, so the method's locals cannot be meant)
        defaults = [
            n
            for p in params.values()
            if p.default and p.name in _NAME_OR_CALLEE.findall(value)
            for n in _NAME_OR_CALLEE.findall(p.default)
        ]
        out: list[Finding] = []
        for names in (written, defaults):
            found: list[Finding] = []
            for name in dict.fromkeys(names):
                if name.split(".")[0] in CODE_LITERALS:
                    continue
                hit = self._module_target(module, name, resolved)
                if hit is None or hit[1].target == res.target:
                    continue
                dotted = hit[0]
                mentions = (*subject.mentions[1:], name)
                found.append(self.finding(Subject(dotted=dotted, mentions=mentions), context, resolved))
            out += found[:2]
        return out

    def _annotated_types(
        self, subject: Subject, binding: Binding, context: Sequence[ContextItem], resolved: Mapping[str, Resolution]
    ) -> list[Finding]:
        """`x: T` with no value (a class-level or module-level annotation) says only what `x` holds:
        the repository declarations its annotation names (`T`, not `typing` or builtins) are where
        the answer is, as for an alias."""
        module = self.store.module_of(binding.rel_path) or ""
        line = next(
            (
                c.text.splitlines()[binding.line - c.start_line]
                for c in self.store.chunks_at(binding.rel_path, binding.line)
                if 0 <= binding.line - c.start_line < len(c.text.splitlines())
            ),
            "",
        )
        m = re.match(rf"\s*{re.escape(binding.name)}\s*:(?P<annotation>[^=#]+)(?:#.*)?$", line)
        if not module or m is None:
            return []
        annotation = m.group("annotation").replace('"', " ").replace("'", " ")
        own = f"{binding.scope}.{binding.name}"
        out: list[Finding] = []
        for name in dict.fromkeys(_NAME_OR_CALLEE.findall(annotation)):
            if name.split(".")[0] in CODE_LITERALS:
                continue
            hit = self._module_target(module, name, resolved)
            if hit is None or hit[1].target.qualname == own:
                continue
            out.append(self.finding(Subject(dotted=hit[0], mentions=(*subject.mentions, name)), context, resolved))
        return out[:2]

    def _instance_type(
        self, subject: Subject, binding: Binding, context: Sequence[ContextItem], resolved: Mapping[str, Resolution]
    ) -> list[Finding]:
        """`widget = widgets.NumberInput()` (class or module level), a value that is one call of a
        repository class, holds an instance of that class: the class's declaration is where what it
        holds is answered, as for `self.x = Maker(...)` in a method (`_assigned_types`)."""
        module = self.store.module_of(binding.rel_path) or ""
        callee = instantiated(binding.value)
        named = binding.value.strip("()\n\t ")
        if module and not callee and _NAME.fullmatch(named):
            # (`logger_factory = _DEFAULT_FACTORY`, itself `PrintLoggerFactory()`: one name between)
            hit = self._module_target(module, named, resolved)
            between = self.table.binding_of(hit[1].target.qualname) if hit is not None else None
            if between is not None and is_value(between) and instantiated(between.value):
                module, callee = self.store.module_of(between.rel_path) or "", instantiated(between.value)
        if not module or not callee:
            return []
        hit = self._module_target(module, callee, resolved)
        if hit is None or self.table.class_binding(hit[1].target.qualname) is None:
            return []
        if hit[1].target.qualname == f"{binding.scope}.{binding.name}":
            return []
        return [self.finding(Subject(dotted=hit[0], mentions=(*subject.mentions, callee)), context, resolved)]

    def _getter(self, subject: Subject, f: Finding, context: Sequence[ContextItem]) -> list[Finding]:
        """A name bound last by `@x.setter` / `@x.deleter` is still the property `x`: the `@property`
        getter before it says what reading `x` gives, so it is a declaration the answer needs too
        (the setter alone describes only what assigning does)."""
        binding, res = f.binding, f.resolution
        if binding is None or res is None or res.is_external:
            return []
        chunks = self.store.chunks_named(f"{binding.scope}.{binding.name}")
        setter = next((c for c in chunks if c.start_line <= binding.line <= c.end_line), None)
        accessor = re.compile(rf"^\s*@{re.escape(binding.name)}\.(?:setter|deleter)\b", re.M)
        if setter is None or not accessor.search(_decorators(setter)):
            return []
        getter = next(
            (c for c in reversed(chunks) if c.start_line < setter.start_line and _PROPERTY.search(_decorators(c))),
            None,
        )
        if getter is None:
            return []
        lines = getter.text.splitlines()
        at = next((i for i, ln in enumerate(lines) if ln.lstrip().startswith(("def ", "async def "))), 0)
        target = replace(res.target, line=getter.start_line + at, end_line=getter.end_line)
        found = replace(res, target=target)
        holder = contains(context, target)
        pending = () if holder is not None else (self._pointer(subject, found, binding, context),)
        return [Finding(subject=subject, resolution=found, binding=binding, declared_in=holder, pending=pending)]

    def _property_type(
        self, subject: Subject, binding: Binding, context: Sequence[ContextItem], resolved: Mapping[str, Resolution]
    ) -> list[Finding]:
        """A property is read as an attribute: the one repository class its return annotation names
        (`def user_agent(self) -> UserAgent` under `@cached_property`) is what the attribute holds."""
        qualname = f"{binding.scope}.{binding.name}"
        chunk = next((c for c in self.store.chunks_named(qualname) if _PROPERTY.search(_decorators(c))), None)
        module = self.store.module_of(binding.rel_path) or ""
        if chunk is None or not module:
            return []
        name = returns(chunk.signature)
        hit = self._module_target(module, name, resolved) if name else None
        if hit is None or self.table.class_binding(hit[1].target.qualname) is None:
            return []
        return [self.finding(Subject(dotted=hit[0], mentions=(*subject.mentions, name)), context, resolved)]

    def _forwarded_to(
        self, subject: Subject, binding: Binding, context: Sequence[ContextItem], resolved: Mapping[str, Resolution]
    ) -> list[Finding]:
        """A function whose whole body hands its parameters on to one call (`def get(*args, **kwargs):
        return _factory.get(*args, **kwargs)`) only points at that callable: what it does, and what
        its parameters default to, is the callee's declaration, needed as an alias's target is."""
        chunk = next(
            (
                c
                for c in self.store.chunks_named(f"{binding.scope}.{binding.name}")
                if c.start_line <= binding.line <= c.end_line
            ),
            None,
        )
        module = self.store.module_of(binding.rel_path) or ""
        callee = forwarded_call(chunk.text) if chunk is not None else ""
        if not callee or not module:
            return []
        head, _, rest = callee.partition(".")
        if head in ("self", "cls"):
            if not rest or self.table.class_binding(binding.scope) is None:
                return []
            dotted = f"{binding.scope}.{rest}"
        else:
            dotted = f"{module}.{callee}"
        found = self.finding(Subject(dotted=dotted, mentions=(*subject.mentions, callee)), context, resolved)
        res = found.resolution
        if res is None or res.is_external or res.target.qualname == f"{binding.scope}.{binding.name}":
            return []
        return [found]

    def _none_fallback(self, qualname: str, name: str, sentinel: str = "None") -> tuple[int, str] | None:
        """(line, expression) that the callable's body puts in place of `name` left at `None` (or
        at the sentinel its default names)."""
        for c in self.store.chunks_named(qualname)[:1]:
            hit = none_fallback(c.text, name, sentinel)
            if hit is not None:
                return c.start_line + hit[0] - 1, hit[1]
        return None

    def _forwards(
        self, subject: Subject, context: Sequence[ContextItem], resolved: Mapping[str, Resolution]
    ) -> list[Finding]:
        """Each `**kwargs` call on the way is a pointer of its own (`kwargs_forward`)."""
        out: list[Finding] = []
        for callee, path, line in subject.forwarded:
            res = resolved.get(callee) or self.table.resolve(callee)
            if res is None or res.is_external:
                continue
            holder = contains(context, res.target)
            anchor = callee.rpartition(".")[2]
            pending: tuple[PendingReference, ...] = ()
            if holder is None:
                col = 0
                for c in self.store.chunks_at(path, line)[:1]:
                    lines = c.text.splitlines()
                    i = line - c.start_line
                    if 0 <= i < len(lines):
                        col = max(lines[i].find(anchor), 0)
                pending = (
                    PendingReference(
                        anchor_text=anchor,
                        ref_type=RefType.KWARGS_FORWARD,
                        ref_target=callee,
                        origin_path=path,
                        origin_line=line,
                        origin_col=col,
                        resolution=res,
                    ),
                )
            binding = self.table.binding_of(res.target.qualname) if res.target.qualname else None
            out.append(
                Finding(
                    subject=Subject(dotted=callee, mentions=(anchor,)),
                    resolution=res,
                    binding=binding,
                    declared_in=holder,
                    pending=pending,
                )
            )
        return out

    def finding(self, subject: Subject, context: Sequence[ContextItem], resolved: Mapping[str, Resolution]) -> Finding:
        tried = subject.dotted in resolved
        res = resolved.get(subject.dotted) or self.table.resolve(subject.dotted) or self.finder.locate(subject.dotted)
        if res is None:
            return Finding(
                subject=subject,
                resolution=None,
                binding=None,
                declared_in=None,
                pending=(),
                doubt=f"`{subject.dotted}` has no declaration in the indexed code.",
            )
        if res.is_external:
            # name the pointer once so the hop records it as external; never fetched
            pending: tuple[PendingReference, ...] = (
                () if tried or not res.steps else (self._pointer(subject, res, None, context),)
            )
            return Finding(subject=subject, resolution=res, binding=None, declared_in=None, pending=pending)
        binding = self.table.binding_of(res.target.qualname) if res.target.qualname else None
        holder = contains(context, res.target)
        if holder is None:
            ref = self._pointer(subject, res, binding, context)
            return Finding(subject=subject, resolution=res, binding=binding, declared_in=None, pending=(ref,))
        pending, needs = self.pointers.value_dependencies(binding, context, resolved)
        return Finding(
            subject=subject,
            resolution=res,
            binding=binding,
            declared_in=holder,
            pending=pending,
            needs=needs,
            alternatives=self._alternatives(res, binding),
        )

    def _module_level_definitions(self, module: str, name: str, known: list[Binding]) -> list[Binding]:
        """`def name` / `class name` at the top level of the module's own code (inside `try:` or
        `if` blocks too) that no binding row records: the indexer kept one binding of the name."""
        path = self.store.module_path(module)
        if path is None:
            return []
        pattern = re.compile(rf"^(\s{{0,8}})(?:async\s+def|def|class)\s+{re.escape(name)}\b")
        out: list[Binding] = []
        for c in self.store.chunks_of_file(path):
            if c.kind is not ChunkKind.MODULE:
                continue
            for i, line in enumerate(c.text.splitlines()):
                m = pattern.match(line)
                if m is None:
                    continue
                n = c.start_line + i
                if any(b.rel_path == path and b.line == n for b in known + out):
                    continue
                if any(x.kind is not ChunkKind.MODULE for x in self.store.chunks_at(path, n)):
                    continue  # a method or a nested function, not the module's own name
                kind = BindingKind.CLASS if line.lstrip().startswith("class") else BindingKind.FUNCTION
                out.append(
                    Binding(scope=module, name=name, kind=kind, rel_path=path, line=n, col=len(m.group(1)), end_line=n)
                )
        return out

    def _alternatives(self, res: Resolution, binding: Binding | None) -> tuple[tuple[Binding, Resolution | None], ...]:
        """The subject's name bound more than once in its module, differently (a conditional import
        and its fallback, a platform switch): every binding, each with where it leads."""
        links = [s.from_loc for s in res.steps] + [res.target]
        for loc in links:
            scope, _, name = loc.qualname.rpartition(".")
            if not scope or self.store.module_path(scope) is None:
                continue
            rows = [b for b in self.store.bindings_named(name, limit=200) if b.scope == scope]
            # a definition the index keeps as a chunk but not as the name's binding (a fallback `def`
            # under `except ImportError:` when the import is the binding that counts)
            for c in self.store.chunks_named(loc.qualname):
                if c.kind in (ChunkKind.FUNCTION, ChunkKind.CLASS) and not any(
                    b.rel_path == c.rel_path and c.start_line <= b.line <= c.end_line for b in rows
                ):
                    kind = BindingKind.CLASS if c.kind is ChunkKind.CLASS else BindingKind.FUNCTION
                    rows.append(
                        Binding(
                            scope=scope,
                            name=name,
                            kind=kind,
                            rel_path=c.rel_path,
                            line=c.start_line,
                            col=0,
                            end_line=c.end_line,
                        )
                    )
            rows += self._module_level_definitions(scope, name, rows)
            # a bare annotation (`__version__: str`) binds nothing at run time: not an alternative to the
            # assignment that does
            rows = [b for b in rows if b.kind is not BindingKind.VALUE or b.value] or rows
            if len(rows) < 2 or len({(b.kind, b.target, b.value) for b in rows}) < 2:
                continue
            out = []
            for b in rows:
                if b.line == loc.line:
                    continue
                alt = self.table.resolve(b.target) if b.target else None
                out.append((b, alt if alt is not None and not alt.is_external else None))
            return tuple(out)
        return ()

    def _pointer(
        self, subject: Subject, res: Resolution, binding: Binding | None, context: Sequence[ContextItem]
    ) -> PendingReference:
        ref = self.pointers.pointer(subject, res, binding, context)
        if ref.resolution is None and not res.is_external:
            # the reader already resolved it: the ladder need not do it again
            ref = replace(ref, resolution=res)
        return ref


def _stub_doubt(f: Finding, res: Resolution) -> Finding:
    """A question about behaviour asked of a body that declares none (a Protocol's or an abstract
    member): the declaration is found, the behaviour is in an implementation the reader did not place."""
    t = res.target
    return replace(
        f,
        pending=(),
        doubt=(
            f"`{t.qualname}` ({shown_path(t.rel_path)}:{t.line}) declares no behaviour: its body is a stub "
            "(a Protocol's or an abstract member). What runs is an implementation elsewhere, "
            "which this answer did not place."
        ),
    )


def _constructor_only(asked: Question, findings: Sequence[Finding]) -> list[Finding]:
    """A value asked ("how long will it wait if I create a lock and never give it a timeout?") and
    only a constructor read, no parameter of it placed: the value is not in what was read."""
    told = [f for f in findings if f.subject.dotted and not f.doubt]
    if asked.intent is not Intent.VALUE or not told:
        return []
    if any(f.subject.parameter is not None or not f.subject.dotted.endswith(".__init__") for f in told):
        return []
    read = ", ".join(f"`{f.subject.dotted}`" for f in told[:3])
    return [
        _doubt(
            f"The question asks for a value; what was read is a constructor ({read}), and none of its parameters is named."
        )
    ]


def _doubt(text: str) -> Finding:
    """A finding that is only a doubt: what keeps the answer from being complete, said."""
    return Finding(
        subject=Subject(dotted="", mentions=()), resolution=None, binding=None, declared_in=None, pending=(), doubt=text
    )


def _operation(f: Finding) -> bool:
    """A special method itself (not a parameter of it, nor an attribute it assigns, nor a module's
    `__version__`): what the data model's operation words found."""
    s = f.subject
    return (
        s.dotted.rpartition(".")[2].startswith("__")
        and (f.binding is None or f.binding.kind is BindingKind.FUNCTION)
        and s.parameter is None
        and not s.assigned
    )


def _told_by(dotted: str, stems: set[str]) -> bool:
    """Whether the question's word stems name a part of `cond.check`: equal, or one a prefix of the
    other of at least three letters (`cond` of "conditions")."""
    for t in {t for part in dotted.split(".") for t in name_terms(part)}:
        for w in stems:
            if t == w or (min(len(t), len(w)) >= 3 and (w.startswith(t) or t.startswith(w))):
                return True
    return False


def _untyped_doubt(f: Finding, res: Resolution, value: str) -> Finding:
    return replace(
        f,
        pending=(),
        doubt=(
            f"`{res.target.qualname}` declares no return type and returns `{value}`, which names no "
            "declaration of the repository: what it returns is known only when it runs."
        ),
    )


def _callables(findings: Sequence[Finding]) -> list[tuple[Finding, Resolution]]:
    """The first subjects that are functions or methods of the repository, with their resolution:
    what an intent's pointers are read from."""
    out: list[tuple[Finding, Resolution]] = []
    for f in findings[:MAX_SUBJECTS]:
        res = f.resolution
        if f.binding is not None and f.binding.kind is BindingKind.FUNCTION and res is not None and not res.is_external:
            out.append((f, res))
    return out


def is_value(b: Binding | None) -> bool:
    return b is not None and b.kind in (BindingKind.VALUE, BindingKind.ALIAS)
