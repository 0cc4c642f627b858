"""Pointer sites: where in the context a subject's chain starts, as pending references.

Given a subject the reader could not find declared in the context, the first
link of its chain that the context shows (an import, a re-export, a star
import, an alias, a base class) becomes a pending reference with its origin
site (path, 1-based line, 0-based column), so that position-based rungs
(Jedi, a language server) can answer what the symbol table cannot. A value
computed from other module-level values (`T = BASE * 2`) needs those too.
May import: records, kernel.words, symbols, question, store, stdlib.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from codehop.index.symbols import SymbolTable
from codehop.kernel.records import (
    Binding,
    BindingKind,
    Chunk,
    ChunkKind,
    ContextItem,
    Location,
    PendingReference,
    RefType,
    Resolution,
    Step,
)
from codehop.kernel.words import CODE_LITERALS
from codehop.reading.question import Subject

_NAME = re.compile(r"(?<![\w.'\"])([A-Za-z_]\w*)(?![\w'\"(])")
_MAX_SITES = 6
_OPEN = {")": "(", "]": "["}
_KEYWORD_BEFORE = re.compile(r"\b(?:def|class|import|from|as)\s+$")


def contains(items: Sequence[ContextItem], loc: Location) -> ContextItem | None:
    best: ContextItem | None = None
    for it in items:
        c = it.chunk
        if c.rel_path == loc.rel_path and c.start_line <= loc.line <= c.end_line:
            if best is None or (c.end_line - c.start_line) < (best.chunk.end_line - best.chunk.start_line):
                best = it
    return best


class PointerFinder:
    def __init__(self, table: SymbolTable) -> None:
        self.table = table
        self.store = table.store

    def pointer(
        self, subject: Subject, res: Resolution, binding: Binding | None, context: Sequence[ContextItem]
    ) -> PendingReference:
        """The first link of the chain that the context shows (else the first link), carrying
        the table's resolution `res` so that the ladder does not compute it again."""
        steps = res.steps
        step: Step | None = next((s for s in steps if contains(context, s.from_loc)), None)
        if step is None and steps:
            step = steps[0]
        if step is None:
            owner = subject.dotted.rpartition(".")[0]
            path = self.store.module_path(owner) or res.target.rel_path
            return PendingReference(
                anchor_text=subject.dotted.rpartition(".")[2],
                ref_type=RefType.OTHER,
                ref_target=subject.dotted,
                origin_path=path,
                origin_line=1,
                resolution=res,
            )
        ref_type = {
            "alias": RefType.ALIAS,
            "star_import": RefType.STAR_IMPORT,
            "mro": RefType.INHERITED_MEMBER,
        }.get(step.note, RefType.IMPORT)
        if step.note == "mro" and binding is not None and binding.kind in (BindingKind.VALUE, BindingKind.ALIAS):
            ref_type = RefType.INHERITED_CONFIG
        anchor, col = step.from_loc.qualname.rpartition(".")[2], 0
        for x in self.store.xrefs(rel_path=step.from_loc.rel_path, line=step.from_loc.line):
            if step.note == "star_import" and x.ref_type is RefType.STAR_IMPORT:
                anchor, col = x.anchor_text, x.col
                break
            if x.anchor_text.split(".")[-1] == anchor or x.anchor_text == anchor:
                col = x.col
                if x.ref_type is RefType.REEXPORT and ref_type is RefType.IMPORT:
                    ref_type = RefType.REEXPORT
                break
        if step.note == "mro":
            anchor = step.from_loc.qualname.rpartition(".")[2]
        # the table's resolution is handed over: the ladder does not resolve it again
        return PendingReference(
            anchor_text=anchor,
            ref_type=ref_type,
            ref_target=subject.dotted,
            origin_path=step.from_loc.rel_path,
            origin_line=step.from_loc.line,
            origin_col=col,
            resolution=res,
        )

    def value_dependencies(
        self,
        binding: Binding | None,
        context: Sequence[ContextItem],
        resolved: Mapping[str, Resolution],
    ) -> tuple[tuple[PendingReference, ...], tuple[Location, ...]]:
        """Module-level values that a computed value (`T = BASE * 2`) is made of."""
        if binding is None or binding.kind is not BindingKind.VALUE or not binding.value:
            return (), ()
        module = self.store.module_of(binding.rel_path)
        if not module:
            return (), ()
        pending: list[PendingReference] = []
        needs: list[Location] = []
        for name in dict.fromkeys(_NAME.findall(binding.value)):
            if name in CODE_LITERALS:
                continue
            dotted = f"{module}.{name}"
            res = resolved.get(dotted) or self.table.resolve(dotted)
            if res is None or res.is_external:
                continue
            dep = self.table.binding_of(res.target.qualname)
            if dep is None or dep.kind is not BindingKind.VALUE:
                continue
            if contains(context, res.target) is not None:
                needs.append(res.target)
                continue
            local = self.store.binding(module, name)
            ref_type = RefType.IMPORT if local is not None and local.kind is BindingKind.IMPORT else RefType.OTHER
            pending.append(
                PendingReference(
                    anchor_text=name,
                    ref_type=ref_type,
                    ref_target=dotted,
                    origin_path=binding.rel_path,
                    origin_line=binding.line,
                    origin_col=binding.value.find(name),
                )
            )
        return tuple(pending), tuple(needs)

    # ---- attribute and call sites -------------------------------------------------------
    def sites(self, name: str, context: Sequence[ContextItem], owners: Sequence[str] = ()) -> list[PendingReference]:
        """Where the context uses `name` as an attribute or a call (`self.headers.get_list(`,
        `parser.stream.next_if`, `get_console().print_json`, `Parser(...).parse()`), each a
        pending reference whose origin column is the first character of `name` there: the token
        a position-based rung (Jedi, a language server) resolves. Sites inside the chunks of
        `owners` (the subjects the question named) come first; when the context holds none of
        the owners' code (the budget cut it), the owners' own chunks are read from the index.
        For an owner that is a class on which the symbol table cannot find `name`, its class
        statement's base expressions come first (the member is inherited through a base the
        table cannot follow)."""
        if not name.isidentifier():
            return []
        pattern = re.compile(rf"(?<![\w$]){re.escape(name)}(?!\w)")
        owned: list[PendingReference] = []
        other: list[PendingReference] = []
        seen: set[tuple[str, int, int]] = set()
        for owner in owners:
            for ref in self.base_sites(owner, name, context):
                key = (ref.origin_path, ref.origin_line, ref.origin_col)
                if key not in seen:
                    seen.add(key)
                    owned.append(ref)
        for item in context:
            chunk = item.chunk
            mine = any(chunk.qualname == o or chunk.qualname.startswith(o + ".") for o in owners)
            self._scan(chunk, name, pattern, seen, owned if mine else other)
        if not owned:  # the owners' own code, when the context was cut before it
            for owner in owners:
                res = self.table.resolve(owner)
                if res is None or res.is_external or not res.target.qualname:
                    continue
                for chunk in self.store.chunks_named(res.target.qualname)[:4]:
                    self._scan(chunk, name, pattern, seen, owned)
        # attribute sites (their receiver's type decides) before bare calls of the name
        other.sort(key=lambda r: r.ref_type is RefType.CALL and "." not in r.anchor_text)
        return (owned + other)[:_MAX_SITES]

    def _scan(
        self,
        chunk: Chunk,
        name: str,
        pattern: re.Pattern[str],
        seen: set[tuple[str, int, int]],
        into: list[PendingReference],
    ) -> None:
        if name not in chunk.text:
            return
        in_doc = False
        for i, line in enumerate(chunk.text.split("\n")):
            quotes = line.count('"""') + line.count("'''")
            was_in_doc, in_doc = in_doc, in_doc ^ (quotes % 2 == 1)
            if name not in line or was_in_doc or quotes:
                continue  # prose in a docstring (its delimiters' lines too)
            for m in pattern.finditer(line):
                found = self._site(
                    chunk.rel_path, chunk.start_line + i, line, m.start(), name, chunk.qualname, chunk.kind
                )
                if found is None:
                    continue
                key = (found.origin_path, found.origin_line, found.origin_col)
                if key not in seen:
                    seen.add(key)
                    into.append(found)

    def _site(
        self, rel_path: str, line_no: int, line: str, col: int, name: str, scope: str, kind: ChunkKind
    ) -> PendingReference | None:
        if _in_comment_or_string(line, col) or _KEYWORD_BEFORE.search(line[:col]):
            return None
        end = col + len(name)
        rest = line[end:].lstrip()
        called = rest.startswith("(")
        dot = col - 1
        while dot >= 0 and line[dot] == " ":
            dot -= 1
        if dot < 0 or line[dot] != ".":
            if not called:
                return None  # neither an attribute nor a call: a plain use of a local
            return PendingReference(
                anchor_text=name,
                ref_type=RefType.CALL,
                ref_target=self._target(rel_path, scope, kind, [name]),
                origin_path=rel_path,
                origin_line=line_no,
                origin_col=col,
            )
        start = _receiver_start(line, dot)
        if _KEYWORD_BEFORE.search(line[:start]):
            return None  # `from a.b import`, `import a.b`: a module path, not an attribute
        receiver = line[start:dot].strip()
        if not receiver or receiver[0].isdigit() or receiver[0] in "'\"":
            return None
        written = _collapse_calls(receiver)
        if self.store.module_path(f"{written}.{name}") is not None:
            return None  # `pkg.sub`: a module path, not an attribute
        if receiver.endswith(")"):
            ref_type = RefType.CALL  # the member of a call's result: its return type decides
        elif "." in written:
            ref_type = RefType.TYPE_ANNOTATION  # an attribute's type decides
        else:
            ref_type = RefType.OTHER  # a local or a parameter
        parts = [p for p in re.sub(r"\([^()]*\)|\[[^\[\]]*\]", "", written).split(".") if p] + [name]
        return PendingReference(
            anchor_text=f"{written}.{name}",
            ref_type=ref_type,
            ref_target=self._target(rel_path, scope, kind, parts),
            origin_path=rel_path,
            origin_line=line_no,
            origin_col=col,
        )

    def _target(self, rel_path: str, scope: str, kind: ChunkKind, parts: list[str]) -> str:
        """Best dotted guess: `self.x.y` in a method of C -> `C.x.y`; a module-level name ->
        `module.name...`; a local -> `<enclosing function>.local...`."""
        head = parts[0]
        cls = scope.rpartition(".")[0] if kind is ChunkKind.METHOD else (scope if kind is ChunkKind.CLASS else "")
        if head in ("self", "cls") and cls:
            return ".".join([cls, *parts[1:]])
        module = self.store.module_of(rel_path) or ""
        if module and self.store.binding(module, head) is not None:
            res = self.table.resolve(f"{module}.{head}")
            base = (
                res.target.qualname
                if res is not None and not res.is_external and res.target.qualname
                else f"{module}.{head}"
            )
            return ".".join([base, *parts[1:]])
        if kind in (ChunkKind.METHOD, ChunkKind.FUNCTION) and len(parts) > 1:
            return ".".join([scope, *parts])
        return ".".join(parts) if len(parts) > 1 else parts[0]

    def base_sites(self, owner: str, name: str, context: Sequence[ContextItem]) -> list[PendingReference]:
        """For a class `owner` on which the table cannot find `name`: its bases as written in the
        class statement (a generic base, a call, a rebound class the table cannot follow)."""
        res = self.table.resolve(owner)
        if res is None or res.is_external or self.table.class_binding(res.target.qualname) is None:
            return []
        cls = res.target.qualname
        found = self.table.resolve(f"{cls}.{name}")
        if found is not None and not found.is_external:
            return []
        # only bases the table cannot follow: through the others its "no such member" is exact
        unfollowed = {written for written, b in self.table.base_classes(cls) if b is None}
        if not unfollowed:
            return []
        out: list[PendingReference] = []
        for x in self.store.xrefs(rel_path=res.target.rel_path, ref_type=str(RefType.BASE_CLASS)):
            if x.scope == cls and x.target in unfollowed:
                out.append(
                    PendingReference(
                        anchor_text=x.anchor_text,
                        ref_type=RefType.INHERITED_MEMBER,
                        ref_target=f"{cls}.{name}",
                        origin_path=x.rel_path,
                        origin_line=x.line,
                        origin_col=x.col,
                    )
                )
        # bases the indexer could not name (`make_base()`, `namedtuple(...)`): where they are written
        info = next(
            (c for c in self.store.chunks_at(res.target.rel_path, res.target.line) if c.start_line <= res.target.line),
            None,
        )
        facts = self.table.class_info(cls)
        written = [b[1:] for b in (facts.bases if facts is not None else ()) if b.startswith("?")]
        if info is not None and written:
            lines = info.text.split("\n")
            for i in range(res.target.line - info.start_line, min(len(lines), res.target.line - info.start_line + 5)):
                for expr in written:
                    col = lines[i].find(expr) if i >= 0 else -1
                    if col >= 0:
                        out.append(
                            PendingReference(
                                anchor_text=expr,
                                ref_type=RefType.INHERITED_MEMBER,
                                ref_target=f"{cls}.{name}",
                                origin_path=res.target.rel_path,
                                origin_line=info.start_line + i,
                                origin_col=col,
                            )
                        )
        return sorted(out, key=lambda r: (r.origin_line, r.origin_col))


def _in_comment_or_string(line: str, col: int) -> bool:
    """Whether `col` is inside a comment or a string literal of the line (quotes counted naively)."""
    quote = ""
    i = 0
    while i < col:
        ch = line[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "#":
            return True
        i += 1
    return bool(quote)


def _receiver_start(line: str, dot: int) -> int:
    """Start of the expression before the `.` at `dot`: names, dots and balanced (...) / [...]."""
    i = dot - 1
    while i >= 0:
        ch = line[i]
        if ch.isalnum() or ch in "_.":
            i -= 1
        elif ch in _OPEN:
            depth, close, opener = 0, ch, _OPEN[ch]
            while i >= 0:
                if line[i] == close:
                    depth += 1
                elif line[i] == opener:
                    depth -= 1
                    if depth == 0:
                        break
                i -= 1
            if i < 0:
                return dot  # unbalanced on this line: no receiver we can read
            i -= 1
        else:
            break
    return i + 1


def _collapse_calls(expr: str) -> str:
    """`self.transport_for(url).handle_request(url)` -> `self.transport_for(...).handle_request(...)`;
    an empty call stays `()`."""
    out: list[str] = []
    depth = 0
    filled = False
    for ch in expr:
        if ch in "([":
            if depth == 0:
                out.append(ch)
                filled = False
            else:
                filled = True
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth == 0:
                out.append(("..." if filled else "") + ch)
            else:
                filled = True
        elif depth == 0:
            out.append(ch)
        elif not ch.isspace():
            filled = True
    return "".join(out)
