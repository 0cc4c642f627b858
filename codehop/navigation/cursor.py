"""Position-based navigation for editors: what is under the cursor, and where it really lives.

A cursor (`rel_path`, 1-based `line`, 0-based code-point `col`) becomes a
dotted name in the file's module scope (`_symbol`), which the symbol table
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
May import: records, store, symbols, resolve, excerpt, dependents, walk, errors, stdlib; the door
hands over what it reads (`Sources`). References, hierarchies and outlines: codehop.navigation.hierarchy;
the one entry point over all of them: codehop.navigation.engine.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from codehop.index.walk import file_lines, line_of, repo_lines, split_lines
from codehop.kernel.records import BindingKind, ChunkKind, Location, PendingReference, RefType, Resolution, shown_path
from codehop.navigation.excerpt import declaration_chunk
from codehop.resolve.sites import under

if TYPE_CHECKING:
    from codehop.index.store.sqlite import SqliteStore
    from codehop.index.symbols import SymbolTable
    from codehop.navigation.dependents import DependentsFinder
    from codehop.resolve.jedi_resolver import Landing
    from codehop.resolve.ladder import Ladder


class Lander(Protocol):
    """Where names land, asked of an inference rung (Jedi): at sites of one repository file
    within a deadline, and the builtins by name (`len`), all at once."""

    def land(
        self, rel_path: str, positions: Sequence[tuple[int, int]], *, deadline_s: float
    ) -> list[Landing | None]: ...

    def land_builtins(self, names: Sequence[str], *, deadline_s: float) -> dict[str, Landing]: ...

    def landed(
        self, rel_path: str, positions: Sequence[tuple[int, int]]
    ) -> tuple[list[Landing | None], list[tuple[int, int]]]: ...


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


@dataclass(frozen=True, slots=True, kw_only=True)
class Sources:
    """What navigation reads, handed over by the door: the repository's index and symbol table,
    the ladder's rungs after the table (built on first use, recording nothing: editor navigation
    only reads the index), the dependents engine, which absolute paths are installed packages',
    and Jedi asked at many sites of one file at once (None without Jedi). With `defer` (a land
    worker runs), the sites neither the landing cache nor Jedi within the request's deadline
    placed go to `defer`, which lands them in the background for a later request."""

    root: Path
    store: SqliteStore
    table: SymbolTable
    ladder: Callable[[], Ladder]
    finder: Callable[[], DependentsFinder]
    installed: Callable[[str], bool]
    land: Lander | None = None
    defer: Callable[[str, Sequence[tuple[int, int]]], None] | None = None


# ---- public ------------------------------------------------------------------
def read_lines(nav: Sources, rel_path: str) -> list[str]:
    """The lines of a repository file, or of an installed package's file named by its absolute
    path inside the chosen environment ([] when missing or outside both)."""
    if rel_path.startswith("/") and nav.installed(rel_path):
        return file_lines(Path(rel_path))
    return repo_lines(nav.root, rel_path)


def source_line(nav: Sources, rel_path: str, line: int) -> str | None:
    """Line `line` (1-based) of `read_lines`, or None (missing, outside, past the end)."""
    return line_of(read_lines(nav, rel_path), line)


def definition(nav: Sources, rel_path: str, line: int, col: int, buffer: str | None = None) -> Resolution | None:
    """The real declaration under the cursor, through every pointer (None when unknown). With
    `buffer` (the editor's unsaved text of the file), the cursor is read in that text."""
    line, text = at_buffer(nav, rel_path, line, col, buffer)
    sym = _symbol(nav, rel_path, line, col, text)
    return _definition(nav, sym, rel_path, line, col) if sym is not None else None


def _definition(nav: Sources, sym: _Symbol, rel_path: str, line: int, col: int) -> Resolution | None:
    res = nav.table.resolve(sym.dotted)
    if res is not None or line == 0:  # a line the index never saw: the other rungs read the disk
        return res
    # The index's table did not answer: the rest of the ladder (Jedi, ...) tries, first with
    # the dotted name, then reading the site itself (an empty target means "look at the origin").
    ladder = nav.ladder()
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


def declaration(nav: Sources, rel_path: str, line: int, col: int, buffer: str | None = None) -> Location | None:
    """Where the name under the cursor is bound in this file's scope: the import site, not the target."""
    line, text = at_buffer(nav, rel_path, line, col, buffer)
    sym = _symbol(nav, rel_path, line, col, text)
    if sym is None:
        return None
    if sym.how == "local":
        return Location(rel_path=rel_path, line=sym.local_line, qualname=f"{sym.local_scope}.{sym.chain[0]}")
    if sym.how in ("xref", "module"):
        b = nav.store.binding(sym.module, sym.chain[0])
        if b is not None:
            return Location(rel_path=b.rel_path, line=b.line, qualname=f"{b.scope}.{b.name}", end_line=b.end_line)
    b = nav.table.binding_of(sym.dotted)
    if b is not None:
        return Location(rel_path=b.rel_path, line=b.line, qualname=f"{b.scope}.{b.name}", end_line=b.end_line)
    if sym.how == "import":
        path = nav.store.module_path(sym.dotted)
        if path is not None:
            return Location(rel_path=path, line=1, qualname=sym.dotted)
    return None


def hover_markdown(nav: Sources, rel_path: str, line: int, col: int, buffer: str | None = None) -> str | None:
    """Markdown for the name under the cursor: declaration, signature or value, docstring, chain."""
    line, text = at_buffer(nav, rel_path, line, col, buffer)
    sym = _symbol(nav, rel_path, line, col, text)
    if sym is None:
        return None
    res = _definition(nav, sym, rel_path, line, col)
    if res is None:
        return None
    name = ".".join(sym.chain)
    if res.is_external:
        return f"**`{name}`** comes from `{res.external}`, outside the indexed repository (not followed)."
    t = res.target
    out = [f"**`{t.qualname}`** — `{shown_path(t.rel_path)}:{t.line}`"]
    code, doc = _declaration_text(nav, t)
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


def name_span(text: str, name: str) -> tuple[int, int]:
    """Code-point columns of `name` as a whole word in `text` (the stripped line when absent)."""
    m = re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", text) if name else None
    if m is not None:
        return m.start(), m.end()
    start = len(text) - len(text.lstrip())
    return start, len(text.rstrip())


# ---- qualifying the cursor ---------------------------------------------------------
def _symbol(nav: Sources, rel_path: str, line: int, col: int, text: str | None = None) -> _Symbol | None:
    """`text`: the cursor's line when the index never saw it (`line` is then 0: no index row
    lies there, so only the text and the module's own names qualify the cursor)."""
    module = nav.store.module_of(rel_path)
    if text is None:
        text = source_line(nav, rel_path, line)
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
        _from_xref(nav, rel_path, line, start, end, chain, module)
        or _from_import(text, start, end, module, rel_path)
        or _from_binding(nav, rel_path, line, text, start, chain, module)
    )
    if found is not None:
        return found
    rest = chain[1:]
    enclosing = nav.store.chunks_at(rel_path, line)
    func = next((c for c in enclosing if c.kind in (ChunkKind.FUNCTION, ChunkKind.METHOD)), None)
    if chain[0] in ("self", "cls") and rest and func is not None and func.kind is ChunkKind.METHOD:
        owner = func.qualname.rpartition(".")[0]
        if nav.table.class_binding(owner) is not None:
            return _Symbol(dotted=".".join((owner, *rest)), chain=chain, how="self", module=module)
    if func is not None and nav.store.binding(module, chain[0]) is None:
        local = _local_class(nav, rel_path, func.start_line, func.text, line, chain[0], module)
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
    if func is None and body is not None and nav.store.binding(body.qualname, chain[0]) is not None:
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
    nav: Sources, rel_path: str, line: int, start: int, end: int, chain: tuple[str, ...], module: str
) -> _Symbol | None:
    # the references whose anchor covers the whole word under the cursor
    for x in under(nav.store.xrefs(rel_path=rel_path, line=line), start):
        anchor = x.anchor_text.split(".")
        if not all(a.isidentifier() for a in anchor) or not x.target or end > x.col + len(x.anchor_text):
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
    nav: Sources, rel_path: str, line: int, text: str, start: int, chain: tuple[str, ...], module: str
) -> _Symbol | None:
    """The name a `def` / `class` / assignment on this line binds, in its own scope."""
    if len(chain) != 1:
        return None
    name = chain[0]
    scopes = [module]
    for c in nav.store.chunks_at(rel_path, line):
        scopes.append(c.qualname)
        scopes.append(c.qualname.rpartition(".")[0])
    for scope in dict.fromkeys(s for s in scopes if s):
        b = nav.store.binding(scope, name)
        if (
            b is not None
            and b.rel_path == rel_path
            and b.line == line
            and (b.col == start or re.match(rf"\s*(?:async\s+)?(?:def|class)\s+{re.escape(name)}\b", text))
        ):
            return _Symbol(dotted=f"{scope}.{name}", chain=chain, how="def", module=module)
    return None


def _local_class(
    nav: Sources, rel_path: str, first_line: int, body: str, line: int, name: str, module: str
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
            res = nav.table.resolve(f"{module}.{m.group(1)}")
            if res is None or res.is_external or nav.table.class_binding(res.target.qualname) is None:
                continue
            if is_with and not _enter_returns_self(nav, res.target.qualname):
                continue
            return res.target.qualname, first_line + i
    return None


def _enter_returns_self(nav: Sources, class_qualname: str) -> bool:
    enter = nav.table.resolve(f"{class_qualname}.__enter__")
    if enter is None or enter.is_external:
        return False
    chunk = declaration_chunk(nav.store, enter.target)
    return chunk is not None and re.search(r"\breturn\s+self\s*$", chunk.text, re.M) is not None


# ---- rendering -----------------------------------------------------------------
def _declaration_text(nav: Sources, t: Location) -> tuple[str, str]:
    """(signature, value or source line of the declaration; its docstring's first line)."""
    chunk = declaration_chunk(nav.store, t)
    if chunk is not None and chunk.qualname == t.qualname and chunk.kind is ChunkKind.MODULE:
        return f"module {t.qualname}", _first_line(chunk.docstring)
    if chunk is not None and chunk.qualname == t.qualname and chunk.signature:
        return chunk.signature, _first_line(chunk.docstring)
    b = nav.table.binding_of(t.qualname)
    if b is not None and b.kind in (BindingKind.VALUE, BindingKind.ALIAS) and b.line == t.line:
        return f"{b.name} = {b.value}", ""
    text = source_line(nav, t.rel_path, t.line)
    return (text.strip() if text else ""), ""


def _first_line(doc: str) -> str:
    return next((ln.strip() for ln in doc.strip().splitlines() if ln.strip()), "")


# ---- unsaved buffers ------------------------------------------------------------------
def disk_line(nav: Sources, rel_path: str, buffer: str, line: int) -> int | None:
    """The line of the file on disk (what the index saw) that holds buffer line `line` unchanged,
    or None when the editor changed or added it. Equal runs of a line diff carry the mapping."""
    import difflib

    disk = repo_lines(nav.root, rel_path)
    if not disk:
        return None
    lines = split_lines(buffer)
    if disk == lines:
        return line
    matcher = difflib.SequenceMatcher(None, disk, lines, autojunk=False)
    for tag, d0, _d1, b0, b1 in matcher.get_opcodes():
        if tag == "equal" and b0 < line <= b1:
            return d0 + (line - b0)
    return None


def at_buffer(nav: Sources, rel_path: str, line: int, col: int, buffer: str | None) -> tuple[int, str | None]:
    """(line to look up in the index, buffer text of a line the index never saw, else None)."""
    if buffer is None:
        return line, None
    mapped = disk_line(nav, rel_path, buffer, line)
    if mapped is not None:
        return mapped, None
    lines = split_lines(buffer)
    return 0, lines[line - 1] if 0 < line <= len(lines) else ""
