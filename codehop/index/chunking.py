"""Tree-sitter pass over one Python file: chunks, bindings, classes, cross-references. Why one
module of this size (over 500 lines): it is the whole tree-sitter engine (the only place the
library's nodes exist), and its parts share one walker's state per file (the lines, the scopes,
the bindings in order, the incremental parse cache); split, each part would pass that state around.

Owns the only use of `tree_sitter` in codehop. One parse, one walk of the
top-level and class-level statements, one query for call/decorator/annotation
sites. May import: records, store.rows (rows become records there), stdlib, tree_sitter,
tree_sitter_python.

Chunks are contiguous line ranges: one per function and method (decorators
included, nested functions inside), one per class header block (header,
docstring, attributes up to the first method) and per later run of class-body
statements, and one per run of module-level lines between definitions.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import tree_sitter_python
from tree_sitter import Language, Node, Parser, Query, QueryCursor, Tree

from codehop.index.store.rows import binding_record, chunk_record, xref_record
from codehop.kernel.records import Binding, BindingKind, Chunk, ChunkKind, ClassInfo, RefType, XRef
from codehop.kernel.words import index_extra

_LANGUAGE = Language(tree_sitter_python.language())
_SITES = Query(
    _LANGUAGE,
    """
    (call function: (identifier) @call.name)
    (call function: (attribute) @call)
    (decorator [(identifier) (attribute)] @decorator)
    (decorator (call function: [(identifier) (attribute)] @decorator))
    (parameters [(typed_parameter type: (type [(identifier) (attribute)] @annotation))
                 (typed_default_parameter type: (type [(identifier) (attribute)] @annotation))])
    (function_definition return_type: (type [(identifier) (attribute)] @annotation))
    (assignment left: [(identifier) (attribute attribute: (identifier))
                       (pattern_list (identifier)) (tuple_pattern (identifier))] @assign)
    """,
)
_DEF_TYPES = frozenset({"function_definition", "class_definition"})
_BLOCK_PARENTS = frozenset(
    {
        "if_statement",
        "try_statement",
        "with_statement",
        "else_clause",
        "elif_clause",
        "except_clause",
        "finally_clause",
        "block",
    }
)


FileRows = tuple[
    Any, ...
]  # (rel_path, module, is_package, all_names, has_error, chunks, bindings, classes, stars, xrefs)


@dataclass(slots=True)
class FileFacts:
    """Everything the indexer keeps about one file, as records (the indexer itself takes `FileRows`)."""

    rel_path: str
    module: str
    is_package: bool
    chunks: list[Chunk] = field(default_factory=list)
    bindings: list[Binding] = field(default_factory=list)
    classes: list[ClassInfo] = field(default_factory=list)
    xrefs: list[XRef] = field(default_factory=list)
    stars: list[tuple[str, int]] = field(default_factory=list)  # (module, line)
    all_names: tuple[str, ...] | None = None
    has_error: bool = False


def facts_of(rows: FileRows) -> FileFacts:
    """The records of one file's rows."""
    rel, module, is_package, all_names, has_error, chunks, bindings, classes, stars, xrefs = rows
    return FileFacts(
        rel_path=rel,
        module=module,
        is_package=is_package,
        chunks=[chunk_record((0, *c[:9]), identifiers=f"{c[8]} {c[9]}" if c[9] else c[8]) for c in chunks],
        bindings=[binding_record(b) for b in bindings],
        classes=[ClassInfo(qualname=q, rel_path=r, line=line, bases=bases) for q, r, line, bases in classes],
        xrefs=[xref_record(x) for x in xrefs],
        stars=list(stars),
        all_names=all_names,
        has_error=has_error,
    )


MAX_NESTING = 500  # statements nested inside each other that a file may have (Python's parser allows ~100 blocks)


def module_name(rel_path: str) -> tuple[str, bool]:
    """`pkg/sub/mod.py` -> ("pkg.sub.mod", False); `pkg/__init__.py` -> ("pkg", True)."""
    parts = rel_path.removesuffix(".pyi").removesuffix(".py").split("/")
    if len(parts) > 1 and parts[0] == "src":
        parts = parts[1:]
    if len(parts) > 1 and parts[0].endswith("-stubs"):  # PEP 561: `pkg-stubs/mod.pyi` types `pkg.mod`
        parts[0] = parts[0].removesuffix("-stubs")
    # a root `__init__.py` stays the module `__init__`: the empty name would make every qualname in it
    # start with "." and give the graph a node without a name
    is_package = parts[-1] == "__init__" and len(parts) > 1
    if is_package:
        parts = parts[:-1]
    return ".".join(parts), is_package


@lru_cache(maxsize=1)
def _parser() -> Parser:
    return Parser(_LANGUAGE)


# the last trees parsed in this process, by path: a file saved again (an editor's save, a watcher)
# re-parses only what changed. Keyed by path alone: an old source of another tree under the same
# path costs speed, never correctness (the edit always describes old -> new in full)
_TREES: OrderedDict[str, tuple[bytes, Tree]] = OrderedDict()
_TREES_KEPT = 16
_TREES_LOCK = threading.Lock()


def _parse_tree(rel_path: str, source: bytes) -> Tree:
    """The tree of `source`, re-parsed from this path's last tree when one is kept. The tree taken
    out of the cache belongs to this call alone (another thread may edit only what it took out)."""
    with _TREES_LOCK:
        old = _TREES.pop(rel_path, None)
    if old is None or old[1].root_node.has_error:
        tree = _parser().parse(source)
    elif old[0] == source:
        tree = old[1]
    else:
        old_src, old_tree = old
        start, old_end, new_end = _changed_span(old_src, source)
        old_tree.edit(
            start,
            old_end,
            new_end,
            _point(source, start),
            _point(old_src, old_end),
            _point(source, new_end),
        )
        tree = _parser().parse(source, old_tree)
    return tree


def _keep_tree(rel_path: str, source: bytes, tree: Tree) -> None:
    """Keep a tree for the next parse of its path, once nothing reads it any more."""
    with _TREES_LOCK:
        _TREES[rel_path] = (source, tree)
        while len(_TREES) > _TREES_KEPT:
            _TREES.popitem(last=False)


def _changed_span(old: bytes, new: bytes) -> tuple[int, int, int]:
    """(start, end in old, end in new) of the bytes that differ: common prefix and suffix found by
    halving (slice comparisons run in C)."""
    n = min(len(old), len(new))
    lo, hi = 0, n  # the common prefix is at least lo, less than hi + 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if old[:mid] == new[:mid]:
            lo = mid
        else:
            hi = mid - 1
    start = lo
    lo, hi = 0, n - start  # the common suffix, not overlapping the prefix
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if old[len(old) - mid :] == new[len(new) - mid :]:
            lo = mid
        else:
            hi = mid - 1
    return start, len(old) - lo, len(new) - lo


def _point(source: bytes, offset: int) -> tuple[int, int]:
    """(row, byte column) of a byte offset."""
    row = source.count(b"\n", 0, offset)
    return row, offset - (source.rfind(b"\n", 0, offset) + 1)


def parse_rows(rel_path: str, source: bytes) -> FileRows:
    """One file's facts as plain tuples: what SQLite takes, cheap to send between processes."""
    module, is_package = module_name(rel_path)
    tree = _parse_tree(rel_path, source)
    w = _Walker(rel_path, module, is_package, source)
    w.walk(tree.root_node)
    has_error = tree.root_node.has_error
    _keep_tree(rel_path, source, tree)
    return (
        rel_path,
        module,
        is_package,
        w.all_names,
        has_error,
        w.chunks,
        w.bindings,
        w.classes,
        w.stars,
        w.xrefs,
    )


def parse_file(rel_path: str, source: bytes) -> FileFacts:
    return facts_of(parse_rows(rel_path, source))


def _text(node: Node | None) -> str:
    if node is None or node.text is None:
        return ""
    return node.text.decode("utf-8", "replace")


def _definition(node: Node) -> Node | None:
    kind = node.kind_id
    if kind in _K_DEFS:
        return node
    if kind in _K_DECORATED:
        d = node.child_by_field_id(_F_DEFINITION)
        if d is not None and d.kind_id in _K_DEFS:
            return d
    return None


# a binding row: (scope, name, kind, rel_path, line, col, end_line, target, value)
_B_SCOPE, _B_NAME, _B_KIND, _B_REL, _B_LINE, _B_COL = 0, 1, 2, 3, 4, 5
_B_TARGET = 7
_OTHER = RefType.OTHER.value
_CALL, _DECORATOR, _ANNOTATION = RefType.CALL.value, RefType.DECORATOR.value, RefType.TYPE_ANNOTATION.value


def _kinds(*names: str) -> frozenset[int]:
    """Every `kind_id` of the named node kinds (one name can have several: `block` has two)."""
    return frozenset(
        i
        for i in range(_LANGUAGE.node_kind_count)
        if _LANGUAGE.node_kind_is_named(i) and _LANGUAGE.node_kind_for_id(i) in names
    )


# node kinds and fields by number (`kind_id`, `child_by_field_id`): no string built per node
_K_CALL = _kinds("call")
_K_DOTTED = _kinds("identifier", "attribute")
_K_DEFS = _kinds(*_DEF_TYPES)
_K_CLASS = _kinds("class_definition")
_K_DECORATED = _kinds("decorated_definition")
_K_EXPRESSION_STATEMENT = _kinds("expression_statement")
_K_STRING = _kinds("string")
_K_COMMENT = frozenset(i for i in range(_LANGUAGE.node_kind_count) if _LANGUAGE.node_kind_for_id(i) == "comment")
_K_IMPORT = _kinds("import_statement")
_K_IMPORT_FROM = _kinds("import_from_statement")
_K_ASSIGNMENT = _kinds("assignment")
_K_TRY = _kinds("try_statement")
_K_IF = _kinds("if_statement")
_K_BRANCHES = _kinds("elif_clause", "else_clause")
_K_BLOCK_PARENTS = _kinds(*_BLOCK_PARENTS)
_K_BINDING_STATEMENTS = _kinds("import_statement", "import_from_statement", "expression_statement")
_K_IDENTIFIER = _kinds("identifier")
_K_ATTRIBUTE = _kinds("attribute")
_K_DEFAULT_PARAMETER = _kinds("default_parameter", "typed_default_parameter")
_K_FIRST_CHILD_NAMES = _kinds("typed_parameter", "list_splat_pattern", "dictionary_splat_pattern")
_K_SPLAT = _kinds("list_splat_pattern", "dictionary_splat_pattern")
_K_DICTIONARY = _kinds("dictionary")
_K_WILDCARD = _kinds("wildcard_import")
_K_DOTTED_NAME = _kinds("dotted_name")
_K_ALIASED = _kinds("aliased_import")


def _field(name: str) -> int:
    field_id = _LANGUAGE.field_id_for_name(name)
    if field_id is None:
        raise LookupError(f"tree-sitter-python has no field {name!r}")
    return field_id


_F_FUNCTION = _field("function")
_F_DEFINITION = _field("definition")
_F_NAME = _field("name")
_F_BODY = _field("body")
_F_LEFT = _field("left")
_F_RIGHT = _field("right")
_F_MODULE_NAME = _field("module_name")
_F_ALIAS = _field("alias")
_F_PARAMETERS = _field("parameters")
_F_ATTRIBUTE = _field("attribute")
_MODULE_CHUNK, _CLASS_CHUNK, _FUNCTION_CHUNK, _METHOD_CHUNK = (
    ChunkKind.MODULE.value,
    ChunkKind.CLASS.value,
    ChunkKind.FUNCTION.value,
    ChunkKind.METHOD.value,
)
_CLASS, _FUNCTION, _VALUE, _ALIAS, _IMPORT, _MODULE = (
    BindingKind.CLASS.value,
    BindingKind.FUNCTION.value,
    BindingKind.VALUE.value,
    BindingKind.ALIAS.value,
    BindingKind.IMPORT.value,
    BindingKind.MODULE.value,
)


class _Walker:
    def __init__(self, rel_path: str, module: str, is_package: bool, source: bytes) -> None:
        self.rel_path = rel_path
        self.module = module
        self.is_package = is_package
        self.chunks: list[tuple[Any, ...]] = []
        self.bindings: list[tuple[Any, ...]] = []
        self.classes: list[tuple[str, str, int, tuple[str, ...]]] = []
        self.xrefs: list[tuple[Any, ...]] = []
        self.stars: list[tuple[str, int]] = []
        self.all_names: tuple[str, ...] | None = None
        self.src = source
        self.lines = source.split(b"\n")
        self.ascii = source.isascii()
        # the source as text where byte offsets are character offsets (ASCII); else read by bytes
        self.text = source.decode("ascii") if self.ascii else ""
        self.module_names: set[str] = set()
        # (start_line, end_line, qualname, class_qualname or "") of def chunks, for scoping sites
        self.scopes: list[tuple[int, int, str, str]] = []
        self.depth = 0  # statements being read, one inside the other
        self.getattr_defs: list[Node] = []  # module-level `def __getattr__(name)`: lazy exports
        # spans of definitions nested in module-level blocks (`if`, `try/else`): chunks of their own
        self.nested_taken: list[tuple[int, int]] = []
        self.module_dicts: dict[str, Node] = {}  # module-level `NAME = {...}` literals
        # (qualname, first line) of each def and class -> (its parameter names, the names its body
        # assigns, its last line): the ingredients of its search terms, added to its first chunk
        self.decls: dict[tuple[str, int], tuple[str, set[str], int]] = {}

    # ---- text and positions -------------------------------------------------
    def node_text(self, node: Node | None) -> str:
        if node is None:
            return ""
        if self.ascii:
            return self.text[node.start_byte : node.end_byte]
        return _text(node)

    def signature(self, defn: Node, body: Node | None) -> str:
        """The definition's header up to its body, on one line, without the colon."""
        end = body.start_byte if body is not None else defn.end_byte
        if self.ascii:
            raw = self.text[defn.start_byte : end]
        else:
            raw = self.src[defn.start_byte : end].decode("utf-8", "replace")
        if "#" in raw:
            raw = self._without_comments(defn, end, raw)
        return " ".join(raw.split()).rstrip(":").rstrip()

    def _without_comments(self, defn: Node, end: int, raw: str) -> str:
        """The header with its comments blanked: on one line, a comment after a parameter
        (`x=UNSET,  # type: ignore`) would swallow every parameter after it."""
        comments: list[Node] = []
        stack = [c for c in defn.children if c.start_byte < end]
        while stack:
            n = stack.pop()
            if n.kind_id in _K_COMMENT:
                comments.append(n)
            elif n.start_byte < end:
                stack.extend(c for c in n.children if c.start_byte < end)
        if not comments:
            return raw
        src = self.src[defn.start_byte : end]
        for c in sorted(comments, key=lambda n: -n.start_byte):
            a, b = c.start_byte - defn.start_byte, c.end_byte - defn.start_byte
            src = src[:a] + b" " * (b - a) + src[b:]
        return src.decode("utf-8", "replace")

    def col(self, node: Node) -> int:
        row, byte_col = node.start_point
        if self.ascii:
            return byte_col
        return len(self.lines[row][:byte_col].decode("utf-8", "replace"))

    def docstring(self, body: Node | None) -> str:
        """The string that opens `body`, without its quotes and prefix ("" when none)."""
        first = body.named_child(0) if body is not None and body.named_child_count else None
        if first is not None and first.kind_id in _K_EXPRESSION_STATEMENT and first.named_child_count:
            s = first.named_child(0)
            if s is not None and s.kind_id in _K_STRING:
                raw = self.node_text(s)
                for q in ('"""', "'''", '"', "'"):
                    i = raw.find(q)
                    if i != -1 and raw.endswith(q) and len(raw) >= i + 2 * len(q):
                        return raw[i + len(q) : len(raw) - len(q)].strip()
        return ""

    def line_text(self, start: int, end: int) -> str:
        return b"\n".join(self.lines[start - 1 : end]).decode("utf-8", "replace")

    # ---- chunks ------------------------------------------------------------
    def add_chunk(
        self, start: int, end: int, kind: str, qualname: str, name: str, signature: str = "", docstring: str = ""
    ) -> None:
        text = self.line_text(start, end)
        if not text or text.isspace():
            return
        self.chunks.append(
            (self.rel_path, start, end, kind, qualname, name, signature, docstring, text, index_extra(text))
        )

    def add_runs(
        self,
        start: int,
        end: int,
        taken: list[tuple[int, int]],
        kind: str,
        qualname: str,
        name: str,
        first_sig: str = "",
        first_doc: str = "",
    ) -> None:
        """Chunk the lines of [start, end] not covered by `taken`, one chunk per run."""
        cursor = start
        first = True
        for a, b in sorted(taken) + [(end + 1, end + 1)]:
            if a > cursor:
                run_end = a - 1
                while run_end >= cursor and not self.lines[run_end - 1].strip():
                    run_end -= 1
                run_start = cursor
                while run_start <= run_end and not self.lines[run_start - 1].strip():
                    run_start += 1
                if run_start <= run_end:
                    if first:
                        self.add_chunk(
                            run_start if kind == _MODULE_CHUNK else start,
                            run_end,
                            kind,
                            qualname,
                            name,
                            first_sig,
                            first_doc,
                        )
                    else:
                        self.add_chunk(run_start, run_end, kind, qualname, name)
                    first = False
            cursor = max(cursor, b + 1)

    # ---- walk --------------------------------------------------------------
    def walk(self, root: Node) -> None:
        m = self.module
        taken: list[tuple[int, int]] = []
        for stmt in root.named_children:
            defn = _definition(stmt)
            if defn is not None:
                span = (stmt.start_point[0] + 1, stmt.end_point[0] + 1)
                taken.append(span)
                self.definition(stmt, defn, m, "", span)
            else:
                self.statement(stmt, m, "")
        taken += self.nested_taken
        total = len(self.lines)
        self.add_runs(1, total, taken, _MODULE_CHUNK, m, m.rsplit(".", 1)[-1], "", self.docstring(root))
        self.lazy_exports()
        self.sites(root)
        self.attach_decls()

    def definition(self, stmt: Node, defn: Node, scope: str, cls: str, span: tuple[int, int]) -> str:
        """Bind, chunk and walk one definition; its name."""
        name = self.node_text(defn.child_by_field_id(_F_NAME))
        qual = f"{scope}.{name}"
        body = defn.child_by_field_id(_F_BODY)
        doc = self.docstring(body)
        sig = self.signature(defn, body)
        self.decls[(qual, span[0])] = ("" if defn.kind_id in _K_CLASS else self.param_names(defn), set(), span[1])
        if defn.kind_id in _K_CLASS:
            self.bind(scope, name, _CLASS, defn, 0, span[1])
            self.class_def(defn, body, qual, name, scope, sig, doc, span)
        else:
            kind = _METHOD_CHUNK if cls else _FUNCTION_CHUNK
            if name == "__getattr__" and not cls and scope == self.module:
                self.getattr_defs.append(defn)
            self.bind(scope, name, _FUNCTION, defn, 0, span[1])
            self.add_chunk(span[0], span[1], kind, qual, name, sig, doc)
            self.scopes.append((span[0], span[1], qual, cls))
        return name

    def param_names(self, defn: Node) -> str:
        """A function's parameter names, space-joined, without `self` and `cls`."""
        params = defn.child_by_field_id(_F_PARAMETERS)
        if params is None:
            return ""
        names: list[str] = []
        for p in params.named_children:
            kind = p.kind_id
            n: Node | None = p
            if kind in _K_DEFAULT_PARAMETER:
                n = p.child_by_field_id(_F_NAME)
            elif kind in _K_FIRST_CHILD_NAMES:
                n = p.named_child(0)
            if n is not None and n.kind_id in _K_SPLAT:
                n = n.named_child(0)
            if n is not None and n.kind_id in _K_IDENTIFIER:
                name = self.node_text(n)
                if name != "self" and name != "cls":
                    names.append(name)
        return " ".join(names)

    def attach_decls(self) -> None:
        """Each def's and class's first chunk gets three more fields: its parameter names, the
        names its body assigns (space-joined) and its last line (a class's chunk ends before its
        first method; the declaration does not)."""
        decls = self.decls
        for i, c in enumerate(self.chunks):
            d = decls.pop((c[4], c[1]), None) if c[3] != _MODULE_CHUNK else None
            if d is not None:
                self.chunks[i] = (*c, d[0], " ".join(sorted(d[1])), d[2])

    def assigned(self, targets: list[Node], by_line: list[tuple[str, str, int]]) -> None:
        """The names assigned (`x = ...`, `self.x = ...`, `a, b = ...`) in each def and class
        body, to the innermost one (`by_line`: the innermost scope of each line, `sites`)."""
        decls = self.decls
        if not targets or not decls:
            return
        for node in targets:
            qual, _, first = by_line[node.start_point[0] + 1]
            d = decls.get((qual, first))  # module level (first line 0): no declaration
            if d is None:
                continue
            kind = node.kind_id
            if kind in _K_IDENTIFIER:
                d[1].add(self.node_text(node))
            elif kind in _K_ATTRIBUTE:
                d[1].add(self.node_text(node.child_by_field_id(_F_ATTRIBUTE)))
            else:
                d[1].update(self.node_text(n) for n in node.named_children if n.kind_id in _K_IDENTIFIER)

    def class_def(
        self, defn: Node, body: Node | None, qual: str, name: str, scope: str, sig: str, doc: str, span: tuple[int, int]
    ) -> None:
        bases: list[str] = []
        supers = defn.child_by_field_name("superclasses")
        if supers is not None:
            for arg in supers.named_children:
                if arg.type == "subscript":  # `Base[T]`, `Generic[T]`: the MRO goes through `Base`
                    value = arg.child_by_field_name("value")
                    if value is not None and value.type in ("identifier", "attribute"):
                        arg = value
                if arg.type in ("identifier", "attribute"):
                    dotted = self.node_text(arg)
                    target = self.qualify(dotted, scope)
                    bases.append(target)
                    self.xref(arg, dotted, RefType.BASE_CLASS, target, qual)
                elif arg.type == "keyword_argument":
                    continue
                else:
                    bases.append("?" + self.node_text(arg))
        self.classes.append((qual, self.rel_path, defn.start_point[0] + 1, tuple(bases)))
        taken: list[tuple[int, int]] = []
        member_names: set[str] = set()
        if body is not None:
            for stmt in body.named_children:
                inner = _definition(stmt)
                if inner is not None:
                    ispan = (stmt.start_point[0] + 1, stmt.end_point[0] + 1)
                    taken.append(ispan)
                    member_names.add(self.definition(stmt, inner, qual, qual, ispan))
                else:
                    self.statement(stmt, qual, qual, member_names)
        self.add_runs(span[0], span[1], taken, _CLASS_CHUNK, qual, name, sig, doc)
        self.scopes.append((span[0], span[1], qual, qual))

    def statement(self, stmt: Node, scope: str, cls: str, member_names: set[str] | None = None) -> None:
        self.depth += 1
        try:
            self._statement(stmt, scope, cls, member_names)
        finally:
            self.depth -= 1

    def _statement(self, stmt: Node, scope: str, cls: str, member_names: set[str] | None) -> None:
        if self.depth > MAX_NESTING:
            # a fixed bound, not the interpreter's recursion limit (Jedi raises that process-wide):
            # the same file is refused whatever ran before in this process
            raise RecursionError(f"statements nested over {MAX_NESTING} deep")
        kind = stmt.kind_id
        if kind in _K_EXPRESSION_STATEMENT:
            for child in stmt.named_children:
                if child.kind_id in _K_ASSIGNMENT:
                    self.assignment(child, scope, cls, member_names)
        elif kind in _K_IMPORT_FROM:
            self.import_from(stmt, scope)
        elif kind in _K_IMPORT:
            self.import_stmt(stmt, scope)
        elif kind in _K_TRY and _catches_import_error(stmt):
            self.import_fallback(stmt, scope, cls, member_names)
        elif kind in _K_IF and not cls and _is_main_guard(stmt):
            # `if __name__ == "__main__":` runs only as a script: what it binds does not exist for an
            # importer (rich/live.py re-imports `Live` there), so only its else branches are read
            for child in stmt.named_children:
                if child.kind_id in _K_BRANCHES:
                    self.statement(child, scope, cls, member_names)
        elif kind in _K_BLOCK_PARENTS:
            for child in stmt.named_children:
                if child.kind_id in _K_BLOCK_PARENTS or child.kind_id in _K_BINDING_STATEMENTS:
                    self.statement(child, scope, cls, member_names)
                elif _definition(child) is not None and not cls:
                    # a class or function defined under a condition (`try: import ssl ... else: class
                    # HTTPSConnection`, `if sys.version_info ...: def f`) is a declaration like any
                    # other: its chunk, its class facts, its scope for the sites inside it
                    d = _definition(child)
                    assert d is not None
                    span = (child.start_point[0] + 1, child.end_point[0] + 1)
                    self.nested_taken.append(span)
                    self.definition(child, d, scope, "", span)

    def import_fallback(self, stmt: Node, scope: str, cls: str, member_names: set[str] | None) -> None:
        """`try: from .m import X` / `except ImportError: <fallback>`. Both branches are read. A
        fallback that imports X from elsewhere is an alternative implementation: the last binding
        wins, as for any rebinding. A fallback that defines or assigns X (a stub, `X = None`) only
        runs when the import fails: the import stays X's binding and the stub is kept as a
        pointer (an xref row), so the declaration found is the one the package really uses."""
        tried: dict[tuple[str, str], tuple[Any, ...]] = {}
        for child in stmt.named_children:
            start = len(self.bindings)
            if child.type == "except_clause" and _catches_import_error(child) and tried:
                self.statement(child, scope, cls, member_names)
                kept: list[tuple[Any, ...]] = []
                for b in self.bindings[start:]:
                    imp = tried.get((b[_B_SCOPE], b[_B_NAME]))
                    if imp is not None and b[_B_KIND] not in (_IMPORT, _MODULE):
                        self.xrefs.append(
                            (b[_B_REL], b[_B_LINE], b[_B_COL], b[_B_NAME], _OTHER, imp[_B_TARGET], b[_B_SCOPE])
                        )
                    else:
                        kept.append(b)
                self.bindings[start:] = kept
                continue
            self.statement(child, scope, cls, member_names)
            if child.type == "block":  # the try body
                for b in self.bindings[start:]:
                    if b[_B_KIND] in (_IMPORT, _MODULE):
                        tried[(b[_B_SCOPE], b[_B_NAME])] = b

    def bind(
        self,
        scope: str,
        name: str,
        kind: str,
        node: Node,
        line: int,
        end_line: int,
        target: str = "",
        value: str = "",
    ) -> None:
        """`line` 0: the line `node` starts on."""
        if scope == self.module:
            self.module_names.add(name)
        row, col = node.start_point
        if not self.ascii:
            col = len(self.lines[row][:col].decode("utf-8", "replace"))
        self.bindings.append((scope, name, kind, self.rel_path, line or row + 1, col, end_line, target, value))

    def resolve_relative(self, node: Node) -> str:
        """The absolute module named by an import_from's module_name."""
        if node.type != "relative_import":
            return self.node_text(node)
        dots = 0
        rest = ""
        for child in node.children:
            if child.type == "import_prefix":
                dots = len(self.node_text(child).strip())
            elif child.type == "dotted_name":
                rest = self.node_text(child)
        parts = self.module.split(".") if self.module else []
        if not self.is_package:
            parts = parts[:-1]
        if dots > 1:
            parts = parts[: len(parts) - (dots - 1)] if dots - 1 <= len(parts) else []
        base = ".".join(parts)
        if rest:
            return f"{base}.{rest}" if base else rest
        return base

    def reexport_kind(self, scope: str, redundant_alias: bool) -> RefType:
        """A package's imports and `from m import X as X` are re-exports (PEP 484)."""
        if scope == self.module and (self.is_package or redundant_alias):
            return RefType.REEXPORT
        return RefType.IMPORT

    def import_stmt(self, stmt: Node, scope: str) -> None:
        line = stmt.start_point[0] + 1
        for child in stmt.named_children:
            if child.type == "dotted_name":
                dotted = self.node_text(child)
                head = dotted.split(".")[0]
                self.bind(scope, head, _MODULE, child, line, line, target=head)
                self.xref(child, dotted, RefType.IMPORT, dotted, scope)
            elif child.type == "aliased_import":
                dotted = self.node_text(child.child_by_field_name("name"))
                alias = self.node_text(child.child_by_field_name("alias"))
                self.bind(scope, alias, _MODULE, child, line, line, target=dotted)
                self.xref(child, alias, RefType.IMPORT, dotted, scope)

    def import_from(self, stmt: Node, scope: str) -> None:
        line = stmt.start_point[0] + 1
        mod_node = stmt.child_by_field_id(_F_MODULE_NAME)
        if mod_node is None:
            return
        module = self.resolve_relative(mod_node)
        for child in stmt.named_children:
            if child == mod_node:
                continue
            kind = child.kind_id
            if kind in _K_WILDCARD:
                self.stars.append((module, line))
                self.xref(stmt, self.node_text(stmt), RefType.STAR_IMPORT, module, scope)
            elif kind in _K_DOTTED_NAME:
                name = self.node_text(child)
                target = f"{module}.{name}" if module else name
                self.bind(scope, name, _IMPORT, child, line, stmt.end_point[0] + 1, target=target)
                self.xref(child, name, self.reexport_kind(scope, False), target, scope)
            elif kind in _K_ALIASED:
                name = self.node_text(child.child_by_field_id(_F_NAME))
                alias = self.node_text(child.child_by_field_id(_F_ALIAS))
                target = f"{module}.{name}" if module else name
                self.bind(scope, alias, _IMPORT, child, line, stmt.end_point[0] + 1, target=target)
                self.xref(child, alias, self.reexport_kind(scope, alias == name), target, scope)

    def assignment(self, node: Node, scope: str, cls: str, member_names: set[str] | None) -> None:
        targets: list[Node] = []
        cur: Node | None = node
        while cur is not None and cur.kind_id in _K_ASSIGNMENT:
            left = cur.child_by_field_id(_F_LEFT)
            if left is not None:
                targets.append(left)
            cur = cur.child_by_field_id(_F_RIGHT)
        value = cur
        line = node.start_point[0] + 1
        end_line = node.end_point[0] + 1
        if value is None:
            value_text = ""
        elif self.ascii:  # no more than the 400 characters kept
            value_text = self.text[value.start_byte : min(value.end_byte, value.start_byte + 401)]
        else:
            value_text = self.node_text(value)
        if len(value_text) > 400:
            value_text = value_text[:400] + " ..."
        alias_target = ""
        if value is not None and value.kind_id in _K_DOTTED:
            head = value_text.split(".")[0]
            if cls and member_names is not None and head in member_names:
                alias_target = f"{cls}.{value_text}"
            else:
                alias_target = self.qualify(value_text, self.module)
        for left in targets:
            if left.kind_id not in _K_IDENTIFIER:
                continue
            name = self.node_text(left)
            if value is not None and value.kind_id in _K_DICTIONARY and scope == self.module:
                self.module_dicts[name] = value
            if value is not None and self.rebinds(value, scope, name):
                # the class (function) stays what the name declares; the line is a pointer to it
                self.xref(left, name, RefType.ALIAS, f"{scope}.{name}", scope)
                if member_names is not None:
                    member_names.add(name)
                continue
            if name == "__all__" and scope == self.module and value is not None:
                self.all_names = _literal_names(value)
            if alias_target:
                self.bind(scope, name, _ALIAS, left, line, end_line, target=alias_target, value=value_text)
                self.xref(left, name, RefType.ALIAS, alias_target, scope)
            else:
                self.bind(scope, name, _VALUE, left, line, end_line, value=value_text)
            if member_names is not None:
                member_names.add(name)

    def rebinds(self, value: Node, scope: str, name: str) -> bool:
        """`X = f(g(X))` after `class X`/`def X`: a decorator applied by hand keeps X's declaration."""
        if value.kind_id not in _K_CALL or name not in _call_argument_names(value):
            return False
        for b in reversed(self.bindings):
            if b[_B_SCOPE] == scope and b[_B_NAME] == name:
                return b[_B_KIND] in (_CLASS, _FUNCTION)
        return False

    def lazy_exports(self) -> None:
        """`def __getattr__(name)` whose branches read `if name == "X": from .m import Y; return Y`
        (or `return m.Y` after `import m`): X is bound in the module, to what the branch returns,
        unless the module binds X itself (then __getattr__ never runs for it)."""
        module = self.module
        for defn in self.getattr_defs:
            params = defn.child_by_field_name("parameters")
            first = next((p for p in params.named_children), None) if params is not None else None
            if first is not None and first.type in ("typed_parameter", "default_parameter"):
                first = next((c for c in first.named_children if c.type == "identifier"), None)
            if first is None or first.type != "identifier":
                continue
            param = self.node_text(first)
            body_names = {self.node_text(n) for n in _descendants(defn.child_by_field_name("body"), "identifier")}
            for table in (t for t in self.module_dicts if t in body_names):
                for wanted, target, node in self.mapping_exports(self.module_dicts[table]):
                    if wanted not in self.module_names:
                        line = node.start_point[0] + 1
                        self.bind(module, wanted, _IMPORT, node, line, line, target=target)
                        self.xref(node, wanted, self.reexport_kind(module, False), target, module)
            for branch in _descendants(defn.child_by_field_name("body"), "if_statement"):
                asked = _compared_string(branch.child_by_field_name("condition"), param)
                body = branch.child_by_field_name("consequence")
                if asked is None or body is None or asked in self.module_names:
                    continue
                found = self.branch_export(body)
                if found is None:
                    continue
                target, node = found
                line = node.start_point[0] + 1
                self.bind(module, asked, _IMPORT, node, line, line, target=target)
                self.xref(node, asked, self.reexport_kind(module, False), target, module)

    def mapping_exports(self, mapping: Node) -> list[tuple[str, str, Node]]:
        """`{"X": ".mod"}`, `{"X": "pkg.mod:Y"}`, `{"X": ("pkg.mod", "Y")}` -> (X, dotted target, node)."""
        out: list[tuple[str, str, Node]] = []
        for pair in mapping.named_children:
            if pair.type != "pair":
                continue
            key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
            if key is None or value is None or key.type != "string":
                continue
            wanted = self.node_text(key).strip("\"'")
            if not wanted.isidentifier():
                continue
            parts = [value] if value.type == "string" else list(value.named_children) if value.type == "tuple" else []
            if not parts or len(parts) > 2 or any(p.type != "string" for p in parts):
                continue
            texts = [self.node_text(p).strip("\"'") for p in parts]
            if len(texts) == 2:
                where, attr = texts
            elif ":" in texts[0]:
                where, _, attr = texts[0].partition(":")
            else:
                where, attr = texts[0], wanted
            if where.startswith("."):
                dots = len(where) - len(where.lstrip("."))
                base = self.module.split(".")
                base = base if self.is_package else base[:-1]
                base = base[: len(base) - (dots - 1)] if dots > 1 else base
                where = ".".join([*base, where.lstrip(".")] if where.lstrip(".") else base)
            if not where or not all(p.isidentifier() for p in where.split(".")) or not attr.isidentifier():
                continue
            target = where if where.rpartition(".")[2] == attr and len(texts) == 1 else f"{where}.{attr}"
            out.append((wanted, target, pair))
        return out

    def branch_export(self, body: Node) -> tuple[str, Node] | None:
        local: dict[str, tuple[str, Node]] = {}
        for stmt in body.named_children:
            if stmt.type == "import_from_statement":
                mod_node = stmt.child_by_field_name("module_name")
                if mod_node is None:
                    continue
                module = self.resolve_relative(mod_node)
                for child in stmt.named_children:
                    if child == mod_node:
                        continue
                    if child.type == "dotted_name":
                        local[self.node_text(child)] = (f"{module}.{self.node_text(child)}", child)
                    elif child.type == "aliased_import":
                        local[self.node_text(child.child_by_field_name("alias"))] = (
                            f"{module}.{self.node_text(child.child_by_field_name('name'))}",
                            child,
                        )
            elif stmt.type == "import_statement":
                for child in stmt.named_children:
                    if child.type == "aliased_import":
                        local[self.node_text(child.child_by_field_name("alias"))] = (
                            self.node_text(child.child_by_field_name("name")),
                            child,
                        )
                    elif child.type == "dotted_name":
                        head = self.node_text(child).split(".")[0]
                        local[head] = (head, child)
            elif stmt.type == "return_statement":
                ret = stmt.named_children[0] if stmt.named_child_count else None
                if ret is None or ret.type not in ("identifier", "attribute"):
                    return None
                dotted = self.node_text(ret)
                head, _, rest = dotted.partition(".")
                if head not in local:
                    return None
                target, node = local[head]
                return (f"{target}.{rest}" if rest else target), node
        return None

    def qualify(self, dotted: str, scope: str) -> str:
        """Dotted text as seen from module scope -> `module.dotted` (resolved through bindings later)."""
        return f"{self.module}.{dotted}" if self.module else dotted

    def xref(self, node: Node, anchor: str, ref_type: RefType, target: str, scope: str) -> None:
        row, col = node.start_point
        if not self.ascii:
            col = len(self.lines[row][:col].decode("utf-8", "replace"))
        # `_value_`, the member's documented value attribute: `.value` is a Python-level property
        self.xrefs.append((self.rel_path, row + 1, col, anchor, ref_type._value_, target, scope))

    # ---- call / decorator / annotation sites --------------------------------
    def sites(self, root: Node) -> None:
        captures = QueryCursor(_SITES).captures(root)
        # innermost enclosing (scope, class, the scope's first line) per line: outer scopes are
        # painted first
        by_line: list[tuple[str, str, int]] = [(self.module, "", 0)] * (len(self.lines) + 2)
        for a, b, qual, cls in sorted(self.scopes, key=lambda s: s[0] - s[1]):
            by_line[a : b + 1] = [(qual, cls, a)] * (b - a + 1)
        self.assigned(captures.get("assign", []), by_line)
        names = self.module_names
        prefix = f"{self.module}." if self.module else ""  # `qualify`, inlined: one call per site
        rel_path, append = self.rel_path, self.xrefs.append
        text, ascii_src, src, lines = self.text, self.ascii, self.src, self.lines
        # a call of a plain name (the commonest site): kept when the module binds the name
        for node in captures.get("call.name", ()):
            start, end = node.start_byte, node.end_byte
            name = text[start:end] if ascii_src else src[start:end].decode("utf-8", "replace")
            if name not in names:
                continue
            row, col = node.start_point
            if not ascii_src:
                col = len(lines[row][:col].decode("utf-8", "replace"))
            append((rel_path, row + 1, col, name, _CALL, prefix + name, by_line[row + 1][0]))
        # a dotted name: its head (text up to the first dot) is read first, from the source itself:
        # most sites name something this module does not bind and are dropped before any more is read
        for cap, ref_type in (("call", _CALL), ("decorator", _DECORATOR), ("annotation", _ANNOTATION)):
            for node in captures.get(cap, ()):
                start, end = node.start_byte, node.end_byte
                if ascii_src:
                    dot = text.find(".", start, end)
                    head = text[start : end if dot < 0 else dot]
                else:
                    dot = src.find(b".", start, end)
                    head = src[start : end if dot < 0 else dot].decode("utf-8", "replace")
                if head not in names and head not in ("self", "cls"):
                    continue
                dotted = text[start:end] if ascii_src else src[start:end].decode("utf-8", "replace")
                if "\n" in dotted or "(" in dotted:
                    continue
                row, col = node.start_point
                scope, cls, _ = by_line[row + 1]
                if head in ("self", "cls") and cls and "." in dotted:
                    target = cls + dotted[len(head) :]
                elif head in names:
                    target = prefix + dotted
                else:
                    continue
                if not ascii_src:
                    col = len(lines[row][:col].decode("utf-8", "replace"))
                append((rel_path, row + 1, col, dotted, ref_type, target, scope))


def _is_main_guard(stmt: Node) -> bool:
    """`if __name__ == "__main__":` (either operand order, either quote)."""
    cond = stmt.child_by_field_name("condition")
    if cond is None or cond.type != "comparison_operator":
        return False
    text = _text(cond).replace("'", '"').replace(" ", "")
    return text in ('__name__=="__main__"', '"__main__"==__name__')


def _catches_import_error(node: Node) -> bool:
    """A try statement with (or an except clause that is) a handler for ImportError,
    ModuleNotFoundError, or everything."""
    clauses = [node] if node.type == "except_clause" else [c for c in node.named_children if c.type == "except_clause"]
    for clause in clauses:
        header = _text(clause).split(":", 1)[0]
        if header.strip() == "except" or "ImportError" in header or "ModuleNotFoundError" in header:
            return True
    return False


def _descendants(node: Node | None, node_type: str) -> list[Node]:
    """Nodes of `node_type` under `node`, not looking inside nested functions or classes."""
    out: list[Node] = []
    stack = list(node.named_children) if node is not None else []
    while stack:
        n = stack.pop()
        if n.type in _DEF_TYPES or n.type == "decorated_definition":
            continue
        if n.type == node_type:
            out.append(n)
        stack.extend(n.named_children)
    return sorted(out, key=lambda n: n.start_byte)


def _compared_string(cond: Node | None, param: str) -> str | None:
    """`param == "X"` (either order) -> "X"."""
    if cond is None or cond.type != "comparison_operator" or cond.named_child_count != 2:
        return None
    if not any(_text(c) == "==" for c in cond.children if not c.is_named):
        return None
    a, b = cond.named_children
    if b.type == "identifier" and _text(b) == param:
        a, b = b, a
    if a.type != "identifier" or _text(a) != param or b.type != "string":
        return None
    text = _text(b)
    if text[:1] in "rbuRBU":
        return None
    value = text.strip("\"'")
    return value if value.isidentifier() else None


def _call_argument_names(call: Node) -> set[str]:
    """Names passed as plain arguments anywhere in a (nested) call: `f(g(X), y=X)(Z)`."""
    out: set[str] = set()
    stack = [call]
    while stack:
        n = stack.pop()
        if n.type == "call":
            fn = n.child_by_field_name("function")
            args = n.child_by_field_name("arguments")
            if fn is not None and fn.type == "call":
                stack.append(fn)
            for a in args.named_children if args is not None else ():
                if a.type == "identifier":
                    out.add(_text(a))
                elif a.type == "call":
                    stack.append(a)
    return out


def _literal_names(value: Node) -> tuple[str, ...] | None:
    if value.type not in ("list", "tuple"):
        return None
    names: list[str] = []
    for child in value.named_children:
        if child.type != "string":
            return None
        names.append(_text(child).strip("\"'"))
    return tuple(names)
