"""The symbol table as the question reader needs it: whether a dotted name exists and what it
is, a class's members and bases (its MRO, the bases outside the repository), where an instance
attribute is assigned, a callable's parameters, the candidates a written name may denote. Over
500 lines (~560) because it is the one view of the symbol table the old reader (question.py)
queries; it shrinks with that reader.

`SubjectFinder` (question.py) reads a question with these; they know nothing of questions.
May import: records, symbols, store, builtin_bases, datamodel, signatures, subject, stdlib.
"""

from __future__ import annotations

import ast
import re
from dataclasses import replace

from codehop.index.symbols import SymbolTable
from codehop.index.terms import name_terms, stem
from codehop.kernel.records import Binding, BindingKind, Location, Provenance, Resolution, Step, StepNote
from codehop.reading import builtin_bases
from codehop.reading.question_words import (
    DEFAULT_WORDS,
    KEYWORDS,
    STOP,
    VOCABULARY,
    Token,
)
from codehop.reading.signatures import Parameter, parameters, stub_kind
from codehop.reading.subject import Subject

_MADE = re.compile(r"([A-Za-z_][\w.]*)\(")  # a value written as a call: `Converter()`, `mod.Thing(x)`


class RepoLookup:
    prefer_bodies = True  # a namesake with a body before an interface's stub (the reader sets it per question)

    def __init__(self, table: SymbolTable) -> None:
        self.table = table
        self.store = table.store
        self._memo: dict[tuple[str, str], object] = {}  # per read: members and bases of a class

    # ---- the symbol table, as the reader needs it -------------------------------
    def _exists(self, dotted: str, *, through_instance: bool = False) -> bool:
        """`dotted` names a declaration of the repository; `through_instance`: or a member reached
        through a module-level instance (`cattrs.structure`, an alias of `global_converter.structure`)."""
        res = self.table.resolve(dotted) or (self._via_instance(dotted) if through_instance else None)
        return res is not None and not res.is_external

    def _instance_of(self, dotted: str) -> str | None:
        """The repository class a module-level value is an instance of, when its value is written as a
        call of that class (`global_converter = Converter()`)."""
        b = self.table.binding_of(dotted)
        if b is None or b.kind is not BindingKind.VALUE or not b.value:
            return None
        m = _MADE.match(b.value.strip())
        return self._is_class(f"{b.scope}.{m.group(1)}") if m else None

    def _via_instance(self, dotted: str, depth: int = 0) -> Resolution | None:
        """A member reached through an instance the table does not type: `obj.meth` where
        `obj = Cls()` (the member through `Cls`'s MRO), and a name aliasing one (`meth = obj.meth`),
        with the alias as the chain's first link."""
        owner, _, name = dotted.rpartition(".")
        if not owner or depth > 2:
            return None
        cls = self._instance_of(owner)
        if cls is not None:
            return self.locate(f"{cls}.{name}")
        b = self.table.binding_of(dotted)
        if b is None or b.kind not in (BindingKind.ALIAS, BindingKind.IMPORT) or not b.target or b.target == dotted:
            return None  # (`jwt.decode`, imported from where `decode = _jwt_global_obj.decode`)
        res = self._via_instance(b.target, depth + 1)
        if res is None:
            return None
        at = Location(rel_path=b.rel_path, line=b.line, qualname=dotted, end_line=b.end_line)
        note = StepNote.ALIAS if b.kind is BindingKind.ALIAS else StepNote.IMPORT
        step = Step(from_loc=at, to_loc=res.target, resolver=Provenance.SYMBOL_TABLE, note=note)
        return replace(res, steps=(step, *res.steps))

    def class_of(self, dotted: str) -> str | None:
        """The class qualname `dotted` denotes, if it is a class of the repository (for the pointer
        readers of `structure.py`)."""
        return self._is_class(dotted)

    def assigned_attribute(self, cls: str, name: str) -> Subject | None:
        """`self.<name> = ...` in a method of the class or a base (for `structure.py`)."""
        return self._instance_attribute(cls, name, name)

    def _is_class(self, dotted: str) -> str | None:
        """The class qualname `dotted` denotes, if it is a class of the repository."""
        res = self.table.resolve(dotted)
        if res is None or res.is_external or not res.target.qualname:
            return None
        q = res.target.qualname
        if self.table.class_binding(q) is not None:
            return q
        # a class rebound after its body (`Thing = add_repr(Thing)`): the index still has the class
        return q if self.table.src.class_info(q) is not None else None

    def mro(self, cls: str) -> tuple[str, ...]:
        """The table's MRO, plus the repository classes behind subscripted bases it does not follow
        (`class QueryParams(ImmutableMultiDict[str, str])`), each after the class that names it."""
        memo = self._memo.get(("mro", cls))
        if memo is not None:
            return memo  # type: ignore[return-value]
        out: list[str] = []
        todo = [cls]
        while todo and len(out) < 64:
            k = todo.pop(0)
            for c in self.table.mro(k):
                if c in out:
                    continue
                out.append(c)
                for written, b in self.table.base_classes(c):
                    base = self._subscripted_base(c, written) if b is None and "[" in written else None
                    base = base or (self._typed_base(c, written) if b is None else None)
                    if base and base not in out:
                        todo.append(base)
        self._memo[("mro", cls)] = result = tuple(out)
        return result

    def _instance_attribute(self, cls: str, name: str, mention: str) -> Subject | None:
        """`self.<name> = ...` in a method of the class or a base: an instance attribute, a member
        the class body does not bind."""
        if not name or not name.isidentifier():
            return None
        hit = self._assignment(cls, name)
        if hit is None:
            return None
        return Subject(dotted=hit[0], mentions=(mention, name), assigned=hit[1:])

    def _member_binding(self, cls: str, name: str) -> Binding | None:
        return self.members(cls).get(name)

    def _assignment(self, cls: str, name: str) -> tuple[str, int, str] | None:
        """(method, line, text) of the first `self.<name> = ...` in the class's methods, through the MRO."""
        pattern = re.compile(rf"\bself\.{re.escape(name)}\s*(?::[^=\n]*)?=(?!=)")
        for k in self.mro(cls):
            for b in self.store.bindings_in(k):
                if b.kind is not BindingKind.FUNCTION:
                    continue
                for c in self.store.chunks_named(f"{k}.{b.name}")[:1]:
                    for i, line in enumerate(c.text.splitlines()):
                        if pattern.search(line):
                            return f"{k}.{b.name}", c.start_line + i, line.strip()
        return None

    def _valued(self, subjects: list[Subject]) -> list[Subject]:
        """A member that is only annotated in its class body (`http_version: bytes`) holds no value
        there, however the question named it (`Request.http_version` or "the http_version of a
        Request"): the constructor parameter of that name answers it, else the method that assigns it."""
        out: list[Subject] = []
        for sub in subjects:
            out.append(sub)
            written, _, name = sub.dotted.rpartition(".")
            cls = self._is_class(written) if written and sub.parameter is None and not sub.assigned else None
            if cls is None:
                continue
            b = self.table.binding_of(sub.dotted)
            if b is None or b.kind is not BindingKind.VALUE or b.value:
                continue
            if any(s.parameter is not None and s.parameter.name == name for s in subjects):
                continue  # already read as the constructor's parameter
            init = self.init_parameters(cls)
            param = next((p for p in init[1] if p.name == name and not p.kind), None) if init else None
            hit = self._assignment(cls, name)
            # (the parameter answers when it is stored as it came; `self.locale = get_locale(locale)`
            # holds what the call makes of it)
            kept = hit is None or hit[2].partition("=")[2].strip() == name
            if init is not None and param is not None and kept:
                out[-1] = Subject(dotted=init[0], mentions=sub.mentions, parameter=param)
                continue
            if not any(s.assigned and s.dotted.startswith(cls + ".") for s in subjects):
                if hit is not None:
                    out.append(Subject(dotted=hit[0], mentions=sub.mentions, assigned=hit[1:]))
        return out

    def _constructed(self, subjects: list[Subject]) -> list[Subject]:
        """What a class takes is what its constructor takes ("Which parameters does HTTPAdapter take?"):
        the class subject is read as its `__init__`, through the MRO (the class's own chunk may end
        before its methods); a class with no constructor of its own or inherited stays the class."""
        out: list[Subject] = []
        for sub in subjects:
            cls = self._is_class(sub.dotted) if sub.parameter is None and not sub.assigned else None
            init = self.init_parameters(cls) if cls is not None else None
            out.append(replace(sub, dotted=init[0]) if init is not None else sub)
        return out

    def _where(self, dotted: str) -> str:
        res = self.table.resolve(dotted)
        if res is None or res.is_external:
            info = self.table.src.class_info(dotted)
            return f"{info.rel_path}:{info.line}" if info is not None else ""
        return f"{res.target.rel_path}:{res.target.line}"

    def _typed_base(self, cls: str, written: str) -> str | None:
        """The repository class a base bound in the class's module stands for to a type checker:
        bound twice, once to a class (`if TYPE_CHECKING: Base = Table` / `else: Base = object`), or
        annotated `type[X]` (`Base: type[Table] = with_typehint(Table)`). Read once per class and
        base (`mro` and `external_bases` both ask)."""
        key = ("typed", f"{cls} {written}")
        if key not in self._memo:
            self._memo[key] = self._find_typed_base(cls, written) or ""
        return str(self._memo[key]) or None

    def _find_typed_base(self, cls: str, written: str) -> str | None:
        info = self.table.src.class_info(cls)
        module = self.store.module_of(info.rel_path) if info is not None else None
        name = written.rpartition(".")[2]
        if info is None or not module or written not in (name, f"{module}.{name}"):
            return None
        own = self.table.src.binding(module, name)
        if own is None or own.kind not in (BindingKind.ALIAS, BindingKind.VALUE):
            return None  # (an import, or no binding here: the table's resolution stands)
        for b in self.store.bindings_named(name, limit=20):
            if b.scope != module or b.rel_path != info.rel_path:
                continue
            if b.kind is BindingKind.ALIAS and b.target:
                found = self._is_class(b.target)
            elif b.kind is BindingKind.VALUE:
                typed = _type_annotation(self._statement(b))
                found = self._is_class(f"{module}.{typed}") if typed else None
            else:
                found = None
            if found:
                return found
        return None

    def _statement(self, b: Binding) -> str:
        """The source line of a one-line module-level binding."""
        chunk = next(iter(self.store.chunks_at(b.rel_path, b.line)), None)
        if chunk is None:
            return ""
        lines = chunk.text.splitlines()
        at = b.line - chunk.start_line
        return lines[at] if 0 <= at < len(lines) and b.end_line == b.line else ""

    def _subscripted_base(self, cls: str, written: str) -> str | None:
        """The repository class behind `Base[T]`, written as is or relative to the class's module."""
        name = written.split("[", 1)[0].strip()
        info = self.table.src.class_info(cls)
        module = self.store.module_of(info.rel_path) if info is not None else None
        for cand in ([f"{module}.{name}"] if module else []) + [name]:
            if self.table.find_module(cand) is not None:
                found = self._is_class(cand)
                if found:
                    return found
        return None

    def locate(self, dotted: str) -> Resolution | None:
        """A member's own binding, found through `mro()` where the table's resolution stops
        (a rebound class, a subscripted base)."""
        owner, _, name = dotted.rpartition(".")
        cls = self._is_class(owner) if owner else None
        if cls is None:
            return self._via_instance(dotted)
        for k in self.mro(cls):
            b = self.store.binding(k, name)
            if b is not None:
                res = self.table.resolve(f"{k}.{name}")
                if res is not None:
                    return res
                return Resolution(
                    target=Location(rel_path=b.rel_path, line=b.line, qualname=f"{k}.{name}", end_line=b.end_line),
                    provenance=Provenance.SYMBOL_TABLE,
                )
        return None

    def members(self, cls: str) -> dict[str, Binding]:
        """Every name bound on the class or an indexed base, the nearest binding first."""
        memo = self._memo.get(("members", cls))
        if memo is not None:
            return memo  # type: ignore[return-value]
        out: dict[str, Binding] = {}
        self._memo[("members", cls)] = out
        for k in self.mro(cls):
            for b in self.store.bindings_in(k):
                out.setdefault(b.name, b)
        return out

    def external_bases(self, cls: str) -> tuple[str, ...]:
        memo = self._memo.get(("bases", cls))
        if memo is not None:
            return memo  # type: ignore[return-value]
        self._memo[("bases", cls)] = ext = self._external_bases(cls)
        return ext

    def _external_bases(self, cls: str) -> tuple[str, ...]:
        out: list[str] = []
        for k in self.mro(cls):
            for written, b in self.table.base_classes(k):
                if b is None and "[" in written and self._subscripted_base(k, written):
                    continue  # a repository class behind a subscript: followed by mro()
                if b is None and self._typed_base(k, written):
                    continue  # a class the base stands for to a type checker: followed by mro()
                mod = k.rpartition(".")[0]
                shown = written
                while mod and shown.startswith(mod + "."):
                    # a name the indexer prefixed with the module, found nowhere: a builtin (`dict`)
                    shown = shown[len(mod) + 1 :]
                    mod = mod.rpartition(".")[0]
                if b is None and shown.split("[")[0] not in (
                    "object",
                    "typing.Generic",
                    "Generic",
                    "typing.Protocol",
                    "Protocol",
                ):
                    out.append(shown)
        return tuple(dict.fromkeys(out))

    def init_parameters(self, cls: str) -> tuple[str, tuple[Parameter, ...]] | None:
        """(the constructor's qualname, its parameters), through the MRO."""
        res = self.table.resolve(f"{cls}.__init__") or self.locate(f"{cls}.__init__")
        if res is None or res.is_external or not res.target.qualname:
            return None
        return res.target.qualname, self.callable_parameters(res.target.qualname)

    def callable_parameters(self, qualname: str) -> tuple[Parameter, ...]:
        """The parameters of the last definition that parses (the implementation after `@overload`s);
        read once per question (a compound word is checked against every method of a class)."""
        memo = self._memo.get(("params", qualname))
        if memo is not None:
            return memo  # type: ignore[return-value]
        found: tuple[Parameter, ...] = ()
        for c in self.store.chunks_named(qualname):
            if c.signature:
                found = parameters(c.signature) or found
        self._memo[("params", qualname)] = found
        return found

    def _stems(self, words: frozenset[str]) -> frozenset[str]:
        """The question's words stemmed, once per question (the word set is the reading's own)."""
        cached = getattr(self, "_stemmed", None)
        if cached is None or cached[0] is not words:
            self._stemmed = cached = (words, frozenset(stem(w) for w in words))
        return cached[1]

    def candidates(
        self, name: str, hints: list[str], module_ctx: list[str], words: frozenset[str] = frozenset()
    ) -> list[str]:
        """Absolute dotted paths a mention may denote, best first."""
        if self.table.find_module(name) is not None and self._exists(name):
            return [name]
        out: list[str] = []
        head, _, tail = name.partition(".")
        # (a member through a module-level instance only where the question spells the module: a
        # namesake variable elsewhere, `console = Console()` in some module, is not what `console.x` means)
        for mod in module_ctx:
            cand = f"{mod}.{name}"
            if self._exists(cand, through_instance=True) or (not tail and self.store.binding(mod, name) is not None):
                out.append(cand)  # a name bound in the module, even to something external
        scored: list[tuple[tuple[int, int, int, int, int, int], str]] = []
        stems = self._stems(words)
        for b in self.store.bindings_named(head, limit=200):
            if b.kind is BindingKind.IMPORT or b.kind is BindingKind.MODULE:
                continue
            qual = f"{b.scope}.{b.name}"
            cand = f"{qual}.{tail}" if tail else qual
            if tail and not self._exists(cand):
                continue
            parts = b.scope.split(".")
            top = parts[0].lower()
            private = sum(p.startswith("_") and not p.startswith("__") for p in qual.split("."))
            # the question's other words that name a module or class on the way ("flask's sansio
            # Blueprint", "the priority queue's add()"): their terms, stemmed, as the index derives them
            overlap = sum(p.lower().lstrip("_") in words for p in parts[1:]) + len(
                stems & {t for p in parts[1:] for t in name_terms(p)}
            )
            rank = (
                0 if (not hints or top in hints) else 1,
                # (a Protocol's or an abstract member declares no behaviour: a namesake with a body first)
                1 if self.prefer_bodies and not tail and b.kind is BindingKind.FUNCTION and self.stub(qual) else 0,
                -overlap,
                0 if b.kind in (BindingKind.CLASS, BindingKind.FUNCTION) else 1,
                private,
                len(qual),
            )
            scored.append((rank, cand))
        for mod in self._modules_named(head):
            cand = f"{mod}.{tail}" if tail else mod
            if self._exists(cand, through_instance=True):
                scored.append(((0 if not hints or mod.split(".")[0] in hints else 1, 0, 0, 2, 0, len(mod)), cand))
        out += [c for _, c in sorted(scored)]
        return list(dict.fromkeys(out))

    def stub(self, qualname: str) -> bool:
        """Whether the function declared as `qualname` is an interface's member with no behaviour:
        abstract, or empty in a class written as a `Protocol` (an empty method of a concrete class
        is a no-op, and that is its behaviour)."""
        # (every declaration of the name: `@overload` stubs come before the implementation)
        kinds = {stub_kind(c.text) for c in self.store.chunks_named(qualname) if c.qualname == qualname}
        if not kinds or "" in kinds:
            return False
        if "empty" not in kinds:
            return True
        owner = qualname.rpartition(".")[0]
        return any(w.rpartition(".")[2] == "Protocol" for w, _ in self.table.base_classes(owner))

    def _modules_named(self, last: str) -> list[str]:
        src = self.table.src
        cache: dict[str, list[str]] | None = getattr(src, "reader_modules", None)
        if cache is None:
            cache = {}
            for mod in self.store.modules():
                cache.setdefault(mod.rpartition(".")[2], []).append(mod)
            try:
                src.reader_modules = cache  # type: ignore[attr-defined]
            except AttributeError:
                pass
        return cache.get(last, [])

    def _top_modules(self) -> list[str]:
        return [m for m in self.store.modules() if "." not in m]

    def _outside_defines(self, cls: str, method: str) -> str:
        """The base outside the repository that defines `method` ("" when none can)."""
        maybe = ""
        for base in self.external_bases(cls):
            defines = builtin_bases.overrides(base, method)
            if defines:
                return base
            if defines is None and not maybe:
                maybe = base
        return maybe

    def _parameter(
        self,
        tokens: list[Token],
        ot: Token,
        params: tuple[Parameter, ...],
        subjects: list[Subject],
        cls: str,
        owner_idx: set[int],
    ) -> tuple[Token, Parameter] | None:
        """A constructor parameter the question names, when the member it names (if any) is
        not itself the answer: an empty annotation, a property, or no member at all."""
        by_name = {p.name: p for p in params if p.name not in ("self", "cls") and not p.kind}
        if not by_name:
            return None
        # a member the question named (not a special method the data model chose: "construct")
        member_subject = next(
            (
                s
                for s in subjects
                if s.dotted.startswith(cls + ".") and not s.dotted.rpartition(".")[2].startswith("__")
            ),
            None,
        )
        member_name = member_subject.dotted.rpartition(".")[2] if member_subject else ""
        if member_name in by_name:
            b = self.table.binding_of(member_subject.dotted) if member_subject else None
            words = {t.low for t in tokens}
            has_value = b is not None and b.kind is BindingKind.VALUE and bool(b.value)
            if has_value or not (DEFAULT_WORDS & words or (b and b.kind is BindingKind.VALUE)):
                return None
            t = next(t for t in tokens if _member_name(t) == member_name or t.low.startswith(member_name.split("_")[0]))
            return t, by_name[member_name]
        for t in tokens:
            if t.index in owner_idx or t.index == ot.index or not t.word:
                continue
            name = _member_name(t)
            if name in by_name and (t.code or t.call or {"default", "defaults"} & {x.low for x in tokens}):
                return t, by_name[name]
        present = {t.low: t for t in tokens if t.word}
        if DEFAULT_WORDS & set(present):
            best: tuple[int, Token, Parameter] | None = None
            for name, p in by_name.items():
                parts = [x for x in name.lower().split("_") if x]
                if all(x in present for x in parts):
                    idx = [present[x].index for x in parts]
                    span = max(idx) - min(idx)
                    if span <= 2 * len(parts) and (best is None or span < best[0]):
                        best = (span, present[parts[0]], p)
            if best is not None:
                return best[1], best[2]
        # a name of several words spelt out in order, word for word ("what network backend does it use"),
        # names the parameter itself; with a word of defaults its last words are enough, the head noun
        # and what qualifies it ("how many keepalive connections by default" -> max_keepalive_connections)
        defaults = bool(DEFAULT_WORDS & set(present))
        spelt: tuple[int, int, Token, Parameter] | None = None
        for name, p in by_name.items():
            parts = [x for x in name.lower().split("_") if x]
            if len(parts) < 2:
                continue
            for size in range(len(parts), 1 if defaults else len(parts) - 1, -1):
                tail = parts[-size:]
                hit = next(
                    (
                        t
                        for t in tokens
                        if [x.low for x in tokens[t.index : t.index + size]] == tail
                        and not any(x.index in owner_idx or x.code for x in tokens[t.index : t.index + size])
                    ),
                    None,
                )
                if hit is not None:
                    if spelt is None or (size, -len(parts)) > (spelt[0], spelt[1]):
                        spelt = (size, -len(parts), hit, p)
                    break
        return (spelt[2], spelt[3]) if spelt is not None else None

    def _prefix_builder(self, cls: str, prefix: str) -> str | None:
        """The method of `cls` (through its MRO) whose code writes a string starting with `prefix`:
        the one that builds member names from it."""
        literal = re.compile(r"""(?<![\w])[fFrRbBuU]{0,2}["']""" + re.escape(prefix))
        for name, b in self.members(cls).items():
            if b.kind is not BindingKind.FUNCTION or name.startswith(prefix):
                continue
            qual = f"{b.scope}.{name}"
            if any(literal.search(c.text) for c in self.store.chunks_named(qual)):
                return qual
        return None

    def _parameter_holders(self, name: str, *, with_default: bool) -> list[tuple[str, Parameter]]:
        """The callables of the repository that take a parameter `name` (the full-text index finds
        the chunks, their signatures decide), public ones and constructors first."""
        parts = [p for p in name.lower().split("_") if p]
        if not parts or not name.isidentifier():
            return []
        found: dict[str, Parameter] = {}
        for c, _ in self.store.search('"' + " ".join(parts) + '"', 300):
            if c.kind not in ("function", "method") or not c.signature or name not in c.signature:
                continue
            for p in parameters(c.signature):
                if p.name == name and not p.kind and (p.default or not with_default):
                    found.setdefault(c.qualname, p)

        def rank(item: tuple[str, Parameter]) -> tuple[int, int, str]:
            qual = item[0]
            private = sum(1 for part in qual.split(".") if part.startswith("_") and not part.startswith("__"))
            return (0 if qual.endswith(".__init__") else 1, private, qual)

        return sorted(found.items(), key=rank)

    def _function_parameter(
        self,
        tokens: list[Token],
        ft: Token,
        dotted: str,
        used: set[int],
        owner_idx: set[int],
    ) -> tuple[Token, Parameter, str, tuple[tuple[str, str, int], ...]] | None:
        """A parameter of a named function, followed through `**kwargs` to the callable that takes it."""
        res = self.table.resolve(dotted)
        if res is None or res.is_external or not res.target.qualname:
            return None
        b = self.table.binding_of(res.target.qualname)
        if b is None or b.kind is not BindingKind.FUNCTION:
            return None
        params = self.callable_parameters(res.target.qualname)
        names = {p.name: p for p in params}
        asks_default = bool(DEFAULT_WORDS & {t.low for t in tokens})
        for t in tokens:
            if t.index == ft.index or t.index in used or t.index in owner_idx or not t.word:
                continue
            if t.keyword and not t.argument:
                continue  # `use_reloader=True` written by itself: the question sets it, it does not ask it
            if (
                t.argument
                and t.callee != ft.index
                and not any(u.code and not u.argument and u.text == t.text for u in tokens)
            ):
                # passed to another call written in the question (`self.items.append((key, value))`)
                continue
            if not t.code and not (asks_default and t.low not in STOP and t.low not in VOCABULARY):
                continue
            tries = [_member_name(t)]
            nxt = tokens[t.index + 1] if t.index + 1 < len(tokens) else None
            if asks_default and not t.code and nxt is not None and nxt.word and not nxt.code and nxt.low not in STOP:
                tries.append(f"{t.low}_{nxt.low}")  # a parameter spelt as two words ("pool size")
            for name in tries:
                if name in names and name not in ("self", "cls") and not names[name].kind:
                    return t, names[name], "", ()
                kw = next((p for p in params if p.kind == "**"), None)
                if kw is not None and name:
                    from codehop.reading.signatures import forwarded

                    hit = forwarded(self.table, res.target.qualname, kw.name, name)
                    if hit is not None:
                        target, param, hops = hit
                        return t, param, target, hops
        return None

    def _default_words(
        self, tokens: list[Token], ft: Token, dotted: str, used: set[int], owner_idx: set[int]
    ) -> list[str]:
        """A default asked of a function in plain words that placed no parameter ("what indent width
        does format use by default?" of `format(sql, **options)`, "which reloader does run_simple pick
        by default?"): what the words name is decided somewhere the reading did not reach, so they stay
        unplaced, not silently dropped."""
        if not DEFAULT_WORDS & {t.low for t in tokens}:
            return []
        res = self.table.resolve(dotted)
        if res is None or res.is_external or not res.target.qualname:
            return []
        b = self.table.binding_of(res.target.qualname)
        if b is None or b.kind is not BindingKind.FUNCTION:
            return []
        return [
            t.text
            for t in tokens
            if t.index != ft.index
            and t.index not in used
            and t.index not in owner_idx
            and t.word
            and not t.code
            and len(t.low) > 2
            and t.low not in STOP
            and t.low not in VOCABULARY
            and t.text not in KEYWORDS
            and not t.possessive
        ]


def _member_name(t: Token) -> str:
    name = t.text.rpartition(".")[2] if "." in t.text else t.text
    return name if name and (name[0].isalpha() or name[0] == "_") else ""


def _type_annotation(statement: str) -> str:
    """`X` of `name: type[X] = ...` (or `Type[X]`, `typing.Type[X]`), as written; "" otherwise."""
    try:
        node = ast.parse(statement.strip()).body[0]
    except (SyntaxError, ValueError, IndexError, RecursionError):
        return ""
    ann = node.annotation if isinstance(node, ast.AnnAssign) else None
    if not isinstance(ann, ast.Subscript) or ast.unparse(ann.value).rpartition(".")[2] not in ("type", "Type"):
        return ""
    inner = ast.unparse(ann.slice)
    return inner if inner.replace(".", "").replace("_", "").isalnum() else ""
