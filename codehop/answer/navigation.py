"""Position-based navigation for editors: what is under the cursor, and where it really lives.

A cursor (`rel_path`, 1-based `line`, 0-based code-point `col`) becomes a
dotted name in the file's module scope (`symbol_at`), which the symbol table
follows through re-exports, aliases, star imports and the MRO to the real
declaration (`definition`), or stops at the import site (`declaration`).
`hover_markdown` renders the chain and the declaration; `inherited_members`
counts what a class gets from its bases (for a code lens).

Qualifying the name under the cursor, first rule that applies wins:
  1. an indexed reference (xref) whose anchor covers the cursor -> its target;
  2. the module path of an `import` / `from ... import` statement;
  3. the name a `def` / `class` / assignment on this line binds -> `scope.name`;
  4. `self.x` / `cls.x` inside a method -> `ClassQual.x`;
  5. a local bound by `name = C(...)`, `name: C` or `with C(...) as name`
     (when `C.__enter__` returns self) -> `CQual.rest`;
  6. a name bound in the enclosing class body (cursor in that body);
  7. otherwise `module.head.rest`.

Lines are read from disk (what the index saw); with an editor's unsaved buffer, a buffer line
is mapped to the disk line it still equals (a line diff), and a line the disk does not have is
read from the buffer and qualified by its text and the module's names alone.
May import: records, store, symbols, resolve, orchestrator, dependents, walk, errors, stdlib.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from codehop.answer.dependents import Relation, Site
from codehop.answer.orchestrator import declaration_chunk
from codehop.index.walk import confine
from codehop.kernel.errors import OutsideRepoError
from codehop.kernel.records import BindingKind, ChunkKind, Location, PendingReference, RefType, Resolution, shown_path
from codehop.resolve.ladder import Ladder

if TYPE_CHECKING:
    from codehop.app import App

_IMPORT_FROM = re.compile(r"^\s*from\s+(\.*)([\w.]*)\s+import\b")
_IMPORT = re.compile(r"^\s*import\s+")


@dataclass(frozen=True, slots=True, kw_only=True)
class _Symbol:
    """The name under the cursor, qualified, and how (the rule that applied)."""

    dotted: str
    chain: tuple[str, ...]  # the segments as written, up to the cursor's segment
    how: str  # "xref", "import", "def", "self", "local", "class_body", "module"
    module: str
    local_line: int = 0  # where a local was bound (rule 5)
    local_scope: str = ""


# ---- public ------------------------------------------------------------------
def source_line(app: App, rel_path: str, line: int) -> str | None:
    """Line `line` (1-based) of a repository file (or of an installed package's file, named by its
    absolute path inside the chosen environment) as text, or None (missing, outside, past the end)."""
    try:
        if rel_path.startswith("/") and app.env is not None and app.env.contains(rel_path):
            path = Path(rel_path)
        else:
            path = confine(app.root, rel_path)
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except (OSError, OutsideRepoError):
        return None
    return lines[line - 1] if 1 <= line <= len(lines) else None


def symbol_at(app: App, rel_path: str, line: int, col: int) -> str | None:
    """The dotted name under the cursor, qualified in the file's module scope, or None."""
    sym = _symbol(app, rel_path, line, col)
    return sym.dotted if sym is not None else None


def definition(app: App, rel_path: str, line: int, col: int, buffer: str | None = None) -> Resolution | None:
    """The real declaration under the cursor, through every pointer (None when unknown). With
    `buffer` (the editor's unsaved text of the file), the cursor is read in that text."""
    line, text = at_buffer(app, rel_path, line, col, buffer)
    sym = _symbol(app, rel_path, line, col, text)
    return _definition(app, sym, rel_path, line, col) if sym is not None else None


def _definition(app: App, sym: _Symbol, rel_path: str, line: int, col: int) -> Resolution | None:
    res = app.table.resolve(sym.dotted)
    if res is not None or line == 0:  # a line the index never saw: the other rungs read the disk
        return res
    # The index's table did not answer: the rest of the ladder (Jedi, ...) tries, first with
    # the dotted name, then reading the site itself (an empty target means "look at the origin").
    # record=False: editor navigation only reads the index, it never writes to it.
    ladder = Ladder([app.resolver(n) for n in app.config.resolvers], app.table, record=False)
    anchor = ".".join(sym.chain)
    for target in (sym.dotted, ""):
        ref = PendingReference(
            anchor_text=anchor,
            ref_type=RefType.OTHER,
            ref_target=target,
            origin_path=rel_path,
            origin_line=line,
            origin_col=col,
        )
        found = ladder.resolve(ref).resolution
        if found is not None:
            return found
    return None


def declaration(app: App, rel_path: str, line: int, col: int, buffer: str | None = None) -> Location | None:
    """Where the name under the cursor is bound in this file's scope: the import site, not the target."""
    line, text = at_buffer(app, rel_path, line, col, buffer)
    sym = _symbol(app, rel_path, line, col, text)
    if sym is None:
        return None
    if sym.how == "local":
        return Location(rel_path=rel_path, line=sym.local_line, qualname=f"{sym.local_scope}.{sym.chain[0]}")
    if sym.how in ("xref", "module"):
        b = app.store.binding(sym.module, sym.chain[0])
        if b is not None:
            return Location(rel_path=b.rel_path, line=b.line, qualname=f"{b.scope}.{b.name}", end_line=b.end_line)
    b = app.table.binding_of(sym.dotted)
    if b is not None:
        return Location(rel_path=b.rel_path, line=b.line, qualname=f"{b.scope}.{b.name}", end_line=b.end_line)
    if sym.how == "import":
        path = app.store.module_path(sym.dotted)
        if path is not None:
            return Location(rel_path=path, line=1, qualname=sym.dotted)
    return None


def hover_markdown(app: App, rel_path: str, line: int, col: int, buffer: str | None = None) -> str | None:
    """Markdown for the name under the cursor: declaration, signature or value, docstring, chain."""
    line, text = at_buffer(app, rel_path, line, col, buffer)
    sym = _symbol(app, rel_path, line, col, text)
    if sym is None:
        return None
    res = _definition(app, sym, rel_path, line, col)
    if res is None:
        return None
    name = ".".join(sym.chain)
    if res.is_external:
        return f"**`{name}`** comes from `{res.external}`, outside the indexed repository (not followed)."
    t = res.target
    out = [f"**`{t.qualname}`** — `{shown_path(t.rel_path)}:{t.line}`"]
    code, doc = _declaration_text(app, t)
    if code:  # a fence longer than any backtick run in the code: repository text cannot close it
        fence = "`" * max(3, 1 + max((len(r) for r in re.findall(r"`+", code)), default=0))
        out.append(f"{fence}python\n{code}\n{fence}")
    if doc:
        out.append(doc)
    via = ""
    if sym.how == "local":
        owner = sym.dotted.rsplit(".", len(sym.chain) - 1)[0]
        via = f"`{sym.chain[0]}` is a `{owner}` (`{rel_path}:{sym.local_line}`)"
    out.append("**Chain**\n\n" + chain_markdown(f"{rel_path}:{line}", name, res, via))
    return "\n\n".join(out)


def chain_markdown(site: str, anchor: str, res: Resolution, via: str = "") -> str:
    """The chain as a numbered list: the pointer (and `via`), each link (`note`, resolver), the declaration."""
    rows = [f"1. `{site}` pointer `{anchor}`" + (f", {via}" if via else "")]
    last = site
    for s in res.steps:
        frm = f"{shown_path(s.from_loc.rel_path)}:{s.from_loc.line}"
        label = f"{s.note or 'link'} ({s.resolver})"
        if frm == last:
            rows[-1] += f", {label}"
        else:
            rows.append(f"{len(rows) + 1}. `{frm}` {label}")
        last = frm
    target = f"{shown_path(res.target.rel_path)}:{res.target.line}"
    rows.append(f"{len(rows) + 1}. `{target}` declaration `{res.target.qualname}` ({res.provenance})")
    return "\n".join(rows)


def inherited_members(app: App, class_qualname: str) -> tuple[int, int]:
    """(members the class gets from its bases and does not define itself, files they live in)."""
    seen = {b.name for b in app.store.bindings_in(class_qualname)}
    members = 0
    files: set[str] = set()
    for base in app.table.mro(class_qualname)[1:]:
        for b in app.store.bindings_in(base):
            if b.name in seen:
                continue
            seen.add(b.name)
            members += 1
            files.add(b.rel_path)
    return members, len(files)


def class_lenses(app: App, rel_path: str) -> list[tuple[Location, int, int]]:
    """(class statement, inherited members, their files) for each class of a file that inherits any."""
    out: list[tuple[Location, int, int]] = []
    seen: set[str] = set()
    for chunk in app.store.chunks_of_file(rel_path):
        if chunk.kind is not ChunkKind.CLASS or chunk.qualname in seen:
            continue
        seen.add(chunk.qualname)
        b = app.table.class_binding(chunk.qualname)
        if b is None or b.rel_path != rel_path:
            continue
        n_members, n_files = inherited_members(app, chunk.qualname)
        if n_members:
            out.append((Location(rel_path=rel_path, line=b.line, qualname=chunk.qualname), n_members, n_files))
    return out


def name_span(text: str, name: str) -> tuple[int, int]:
    """Code-point columns of `name` as a whole word in `text` (the stripped line when absent)."""
    m = re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", text) if name else None
    if m is not None:
        return m.start(), m.end()
    start = len(text) - len(text.lstrip())
    return start, len(text.rstrip())


# ---- qualifying the cursor ---------------------------------------------------------
def _symbol(app: App, rel_path: str, line: int, col: int, text: str | None = None) -> _Symbol | None:
    """`text`: the cursor's line when the index never saw it (`line` is then 0: no index row
    lies there, so only the text and the module's own names qualify the cursor)."""
    module = app.store.module_of(rel_path)
    if text is None:
        text = source_line(app, rel_path, line)
    if module is None or text is None:
        return None
    span = _word_at(text, col)
    if span is None:
        return None
    start, end = span
    word = text[start:end]
    if keyword.iskeyword(word) or word[0].isdigit():
        return None
    chain = _chain_left(text, start) + (word,)
    if not chain[0]:
        return None  # an attribute of a call or subscript result: not a static name
    found = (
        _from_xref(app, rel_path, line, start, end, chain, module)
        or _from_import(text, start, end, module, rel_path)
        or _from_binding(app, rel_path, line, text, start, chain, module)
    )
    if found is not None:
        return found
    rest = chain[1:]
    enclosing = app.store.chunks_at(rel_path, line)
    func = next((c for c in enclosing if c.kind in (ChunkKind.FUNCTION, ChunkKind.METHOD)), None)
    if chain[0] in ("self", "cls") and rest and func is not None and func.kind is ChunkKind.METHOD:
        owner = func.qualname.rpartition(".")[0]
        if app.table.class_binding(owner) is not None:
            return _Symbol(dotted=".".join((owner, *rest)), chain=chain, how="self", module=module)
    if func is not None and app.store.binding(module, chain[0]) is None:
        local = _local_class(app, rel_path, func.start_line, func.text, line, chain[0], module)
        if local is not None:
            cls, bound_at = local
            return _Symbol(
                dotted=".".join((cls, *rest)),
                chain=chain,
                how="local",
                module=module,
                local_line=bound_at,
                local_scope=func.qualname,
            )
    body = next((c for c in enclosing if c.kind is ChunkKind.CLASS), None)
    if func is None and body is not None and app.store.binding(body.qualname, chain[0]) is not None:
        return _Symbol(dotted=".".join((body.qualname, *chain)), chain=chain, how="class_body", module=module)
    return _Symbol(dotted=".".join((module, *chain)), chain=chain, how="module", module=module)


def _is_name_char(ch: str) -> bool:
    return ch == "_" or ch.isalnum() or ("a" + ch).isidentifier()


def _word_at(text: str, col: int) -> tuple[int, int] | None:
    """The identifier touching `col` (on it, or just after it), as [start, end) code points."""
    if col < 0 or col > len(text):
        return None
    if col == len(text) or not _is_name_char(text[col]):
        if col == 0 or not _is_name_char(text[col - 1]):
            return None
        col -= 1
    start = col
    while start > 0 and _is_name_char(text[start - 1]):
        start -= 1
    end = col + 1
    while end < len(text) and _is_name_char(text[end]):
        end += 1
    return start, end


def _chain_left(text: str, start: int) -> tuple[str, ...]:
    """The `a.b.` before the word at `start` (("",) when it is a call's or subscript's attribute)."""
    segs: list[str] = []
    i = start
    while i > 0 and text[i - 1] == ".":
        j = i - 1
        if j > 0 and text[j - 1] in ")]\"'":
            return ("",)
        k = j
        while k > 0 and _is_name_char(text[k - 1]):
            k -= 1
        if k == j:
            break  # a relative import's dots
        segs.insert(0, text[k:j])
        i = k
    return tuple(segs)


def _from_xref(
    app: App, rel_path: str, line: int, start: int, end: int, chain: tuple[str, ...], module: str
) -> _Symbol | None:
    for x in app.store.xrefs(rel_path=rel_path, line=line):
        anchor = x.anchor_text.split(".")
        if not all(a.isidentifier() for a in anchor) or not x.target:
            continue
        anchor_end = x.col + len(x.anchor_text)
        if not (x.col <= start and end <= anchor_end):
            continue
        # the cursor may be on an earlier segment of `a.b.c`: drop the segments after it
        covered = x.anchor_text[: end - x.col].split(".")
        if covered[-1] != chain[-1]:
            continue
        drop = len(anchor) - len(covered)
        target = x.target.rsplit(".", drop)[0] if drop else x.target
        return _Symbol(dotted=target, chain=tuple(covered), how="xref", module=module)
    return None


def _from_import(text: str, start: int, end: int, module: str, rel_path: str) -> _Symbol | None:
    """The cursor on the module path of an import statement -> that module (up to the cursor)."""
    m = _IMPORT_FROM.match(text)
    if m is not None and m.start(2) <= start and end <= m.end(2):
        dots, path = m.group(1), text[m.start(2) : end]
        if dots:
            package = module if rel_path.endswith("__init__.py") else module.rpartition(".")[0]
            for _ in range(len(dots) - 1):
                package = package.rpartition(".")[0]
            path = f"{package}.{path}" if package else path
        return _Symbol(dotted=path, chain=tuple(path.split(".")), how="import", module=module)
    m = _IMPORT.match(text)
    if m is not None and start >= m.end():
        # `import a.b.c [as x], d`: the dotted run the cursor is in, up to its segment
        i = start
        while i > 0 and (_is_name_char(text[i - 1]) or text[i - 1] == "."):
            i -= 1
        before = text[m.end() : i]
        if not re.search(r"\bas\s*$", before):
            path = text[i:end]
            return _Symbol(dotted=path, chain=tuple(path.split(".")), how="import", module=module)
    return None


def _from_binding(
    app: App, rel_path: str, line: int, text: str, start: int, chain: tuple[str, ...], module: str
) -> _Symbol | None:
    """The name a `def` / `class` / assignment on this line binds, in its own scope."""
    if len(chain) != 1:
        return None
    name = chain[0]
    scopes = [module]
    for c in app.store.chunks_at(rel_path, line):
        scopes.append(c.qualname)
        scopes.append(c.qualname.rpartition(".")[0])
    for scope in dict.fromkeys(s for s in scopes if s):
        b = app.store.binding(scope, name)
        if (
            b is not None
            and b.rel_path == rel_path
            and b.line == line
            and (b.col == start or re.match(rf"\s*(?:async\s+)?(?:def|class)\s+{re.escape(name)}\b", text))
        ):
            return _Symbol(dotted=f"{scope}.{name}", chain=chain, how="def", module=module)
    return None


def _local_class(
    app: App, rel_path: str, first_line: int, body: str, line: int, name: str, module: str
) -> tuple[str, int] | None:
    """The class of a local `name`, from the last `name = C(...)`, `name: C` or `with C() as name`."""
    n = re.escape(name)
    patterns = (
        (re.compile(rf"^\s*{n}\s*(?::[^=]*)?=\s*([A-Za-z_][\w.]*)\s*\("), False),
        (re.compile(rf"(?<![\w.]){n}\s*:\s*([A-Za-z_][\w.]*)\s*[,)=\n]"), False),
        (re.compile(rf"(?:\bwith|,)\s*([A-Za-z_][\w.]*)\s*\(.*\)\s+as\s+{n}\b"), True),
    )
    lines = body.split("\n")
    for i in range(min(line - first_line, len(lines) - 1), -1, -1):
        for pattern, is_with in patterns:
            m = pattern.search(lines[i] + "\n")
            if m is None:
                continue
            res = app.table.resolve(f"{module}.{m.group(1)}")
            if res is None or res.is_external or app.table.class_binding(res.target.qualname) is None:
                continue
            if is_with and not _enter_returns_self(app, res.target.qualname):
                continue
            return res.target.qualname, first_line + i
    return None


def _enter_returns_self(app: App, class_qualname: str) -> bool:
    enter = app.table.resolve(f"{class_qualname}.__enter__")
    if enter is None or enter.is_external:
        return False
    chunk = declaration_chunk(app.store, enter.target)
    return chunk is not None and re.search(r"\breturn\s+self\s*$", chunk.text, re.M) is not None


# ---- rendering -----------------------------------------------------------------
def _declaration_text(app: App, t: Location) -> tuple[str, str]:
    """(signature, value or source line of the declaration; its docstring's first line)."""
    chunk = declaration_chunk(app.store, t)
    if chunk is not None and chunk.qualname == t.qualname and chunk.kind is ChunkKind.MODULE:
        return f"module {t.qualname}", _first_line(chunk.docstring)
    if chunk is not None and chunk.qualname == t.qualname and chunk.signature:
        return chunk.signature, _first_line(chunk.docstring)
    b = app.table.binding_of(t.qualname)
    if b is not None and b.kind in (BindingKind.VALUE, BindingKind.ALIAS) and b.line == t.line:
        return f"{b.name} = {b.value}", ""
    text = source_line(app, t.rel_path, t.line)
    return (text.strip() if text else ""), ""


def _first_line(doc: str) -> str:
    return next((ln.strip() for ln in doc.strip().splitlines() if ln.strip()), "")


# ---- unsaved buffers ------------------------------------------------------------------
def disk_line(app: App, rel_path: str, buffer: str, line: int) -> int | None:
    """The line of the file on disk (what the index saw) that holds buffer line `line` unchanged,
    or None when the editor changed or added it. Equal runs of a line diff carry the mapping."""
    import difflib

    try:
        disk = confine(app.root, rel_path).read_text(encoding="utf-8", errors="replace").splitlines()
    except (OSError, OutsideRepoError):
        return None
    lines = buffer.splitlines()
    if disk == lines:
        return line
    matcher = difflib.SequenceMatcher(None, disk, lines, autojunk=False)
    for tag, d0, _d1, b0, b1 in matcher.get_opcodes():
        if tag == "equal" and b0 < line <= b1:
            return d0 + (line - b0)
    return None


def at_buffer(app: App, rel_path: str, line: int, col: int, buffer: str | None) -> tuple[int, str | None]:
    """(line to look up in the index, buffer text of a line the index never saw, else None)."""
    if buffer is None:
        return line, None
    mapped = disk_line(app, rel_path, buffer, line)
    if mapped is not None:
        return mapped, None
    lines = buffer.splitlines()
    return 0, lines[line - 1] if 0 < line <= len(lines) else ""


# ---- references, call and type hierarchy, document symbols --------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class Item:
    """A declaration as a hierarchy node: where it starts and ends, and what it is."""

    qualname: str
    kind: str  # "class", "function", "method", "value", "module"
    rel_path: str
    line: int
    end_line: int

    @property
    def name(self) -> str:
        return self.qualname.rpartition(".")[2]


def item(app: App, qualname: str) -> Item | None:
    """The declaration `qualname` names (a module, class, function, method or value), or None."""
    path = app.store.module_path(qualname)
    if path is not None:
        return Item(qualname=qualname, kind="module", rel_path=path, line=1, end_line=1)
    res = app.table.resolve(qualname)
    if res is None or res.is_external or not res.target.rel_path:
        return None
    t = res.target
    q = t.qualname
    owner = q.rpartition(".")[0]
    if app.table.class_binding(q) is not None:
        kind = "class"
    else:
        b = app.table.binding_of(q)
        is_function = b is not None and b.kind is BindingKind.FUNCTION
        kind = ("method" if app.table.class_binding(owner) is not None else "function") if is_function else "value"
    return Item(qualname=q, kind=kind, rel_path=t.rel_path, line=t.line, end_line=max(t.end_line, t.line))


def item_at(app: App, rel_path: str, line: int, col: int, buffer: str | None = None) -> Item | None:
    res = definition(app, rel_path, line, col, buffer)
    if res is None or res.is_external:
        return None
    return item(app, res.target.qualname)


def references(
    app: App, rel_path: str, line: int, col: int, *, include_declaration: bool, buffer: str | None = None
) -> tuple[Location | None, list[Site]]:
    """The declaration under the cursor and every site that names it: through re-exports, `as`
    renames, aliases, star imports, module aliases; an inherited member's uses on subclasses.
    With `include_declaration`, the re-export lines too (the declaration itself is the caller's)."""
    res = definition(app, rel_path, line, col, buffer)
    if res is None or res.is_external:
        return None, []
    found = app.dependents_finder().dependents(res.target, transitive=True)
    out = []
    for s in found.sites:
        if s.relation is Relation.OVERRIDES or (s.relation is Relation.INHERITS and s.via):
            continue  # another declaration, or a reference to a subclass in between
        if s.relation is Relation.REEXPORTS and not include_declaration:
            continue
        out.append(s)
    return res.target, out


def incoming_calls(app: App, qualname: str) -> list[tuple[Item, list[Site]]]:
    """Who calls `qualname`, grouped by the calling declaration (a module for top-level calls)."""
    target = item(app, qualname)
    if target is None:
        return []
    loc = Location(rel_path=target.rel_path, line=target.line, qualname=target.qualname)
    found = app.dependents_finder().dependents(loc, relations=(Relation.CALLS, Relation.USES_INHERITED))
    groups: dict[str, list[Site]] = {}
    for s in found.sites:
        groups.setdefault(s.scope, []).append(s)
    out = []
    for scope, sites in groups.items():
        caller = item(app, scope)
        if caller is not None:
            out.append((caller, sites))
    return out


def outgoing_calls(app: App, qualname: str) -> list[tuple[Item, list[Site]]]:
    """What `qualname` calls, grouped by callee, in source order of the first call."""
    source = item(app, qualname)
    if source is None:
        return []
    loc = Location(rel_path=source.rel_path, line=source.line, qualname=source.qualname)
    groups: dict[str, list[Site]] = {}
    for s in app.dependents_finder().callees(loc).sites:
        groups.setdefault(s.via, []).append(s)
    out = []
    for callee, sites in groups.items():
        it = item(app, callee)
        if it is not None:
            out.append((it, sites))
    return out


def supertypes(app: App, class_qualname: str) -> list[Item]:
    """The class's bases in method-resolution order (C3, as Python looks members up)."""
    out = []
    for base in app.table.mro(class_qualname)[1:]:
        it = item(app, base)
        if it is not None:
            out.append(it)
    return out


def subtypes(app: App, class_qualname: str) -> list[Item]:
    """The classes that name this one as a base, in any file."""
    out = []
    for sub, _path, _line, _parent in app.dependents_finder().subclasses(class_qualname, transitive=False):
        it = item(app, sub)
        if it is not None:
            out.append(it)
    return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Outline:
    """One node of a file's symbol tree."""

    name: str
    qualname: str
    kind: str  # "class", "function", "method", "value"
    line: int
    end_line: int
    col: int  # code-point column of the name on `line`
    children: tuple[Outline, ...] = ()


def document_symbols(app: App, rel_path: str) -> list[Outline]:
    """The file's classes, functions and methods (its chunk tree), with the values bound at
    module and class level, nested by span."""
    lines = _file_lines(app, rel_path)
    nodes: list[tuple[int, int, str, str, str, int]] = []  # (line, end, name, qualname, kind, col)
    seen: set[str] = set()
    for c in app.store.chunks_of_file(rel_path):
        if c.kind is ChunkKind.MODULE or c.qualname in seen:
            continue
        seen.add(c.qualname)
        b = app.table.binding_of(c.qualname)
        own = b is not None and b.rel_path == rel_path
        line = b.line if b is not None and own else c.start_line
        end = max(c.end_line, b.end_line) if b is not None and own else c.end_line  # a class chunk may be its head only
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        col = name_span(text, c.name)[0]
        kind = {ChunkKind.CLASS: "class", ChunkKind.METHOD: "method"}.get(c.kind, "function")
        nodes.append((line, end, c.name, c.qualname, kind, col))
    module = app.store.module_of(rel_path) or ""
    scopes = [module] + [q for _l, _e, _n, q, k, _c in nodes if k == "class"]
    for scope in scopes:
        for b in app.store.bindings_in(scope):
            if b.rel_path != rel_path or b.kind not in (BindingKind.VALUE, BindingKind.ALIAS):
                continue
            q = f"{b.scope}.{b.name}"
            if q in seen:
                continue
            seen.add(q)
            nodes.append((b.line, max(b.end_line, b.line), b.name, q, "value", b.col))
    nodes.sort(key=lambda n: (n[0], -n[1]))

    def build(parent: str, items: list[tuple[int, int, str, str, str, int]]) -> list[Outline]:
        out = []
        for node in items:
            if node[3].rpartition(".")[0] != parent:
                continue
            kids = build(node[3], items)
            out.append(
                Outline(
                    name=node[2],
                    qualname=node[3],
                    kind=node[4],
                    line=node[0],
                    end_line=node[1],
                    col=node[5],
                    children=tuple(kids),
                )
            )
        return out

    top = build(module, nodes)
    placed = {o.qualname for o in _walk(top)}
    # nested functions and members of classes declared in odd places: put them at the top level
    top += [
        Outline(name=n[2], qualname=n[3], kind=n[4], line=n[0], end_line=n[1], col=n[5])
        for n in nodes
        if n[3] not in placed
    ]
    return sorted(top, key=lambda o: o.line)


def _walk(nodes: list[Outline] | tuple[Outline, ...]) -> list[Outline]:
    out: list[Outline] = []
    for n in nodes:
        out.append(n)
        out.extend(_walk(n.children))
    return out


def _file_lines(app: App, rel_path: str) -> list[str]:
    try:
        return confine(app.root, rel_path).read_text(encoding="utf-8", errors="replace").splitlines()
    except (OSError, OutsideRepoError):
        return []
