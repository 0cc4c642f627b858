"""Records and closed sets shared by every layer (stdlib only).

Positions inside codehop: 1-based lines, 0-based code-point columns.
Paths: `rel_path` is repo-relative with forward slashes (what we store);
absolute paths exist only at file I/O.

Why one module of this size: these are the nouns every layer shares and the JSON contract's
shape (`to_dict`); one place keeps the contract readable in one sitting.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Completeness(StrEnum):
    COMPLETE = "complete"
    REFERENCES_UNRESOLVED = "references_unresolved"
    PARTIAL = "partial"


class State(StrEnum):
    COMPLETE = "complete"
    GIVE_UP_PARTIAL = "give_up_partial"


class RefType(StrEnum):
    IMPORT = "import"
    REEXPORT = "reexport"
    BASE_CLASS = "base_class"
    INHERITED_MEMBER = "inherited_member"
    INHERITED_CONFIG = "inherited_config"
    STAR_IMPORT = "star_import"
    ALIAS = "alias"
    CALL = "call"
    DECORATOR = "decorator"
    TYPE_ANNOTATION = "type_annotation"
    KWARGS_FORWARD = "kwargs_forward"  # a keyword passed on through **kwargs to another callable
    OTHER = "other"


class Provenance(StrEnum):
    """Who resolved a reference: a rung of the ladder. An xref row also carries EXTERNAL: the
    indexer found its target outside the trust boundary (named, never fetched)."""

    SYMBOL_TABLE = "symbol_table"
    JEDI = "jedi"
    LSP = "lsp"
    REGEX = "regex"
    LLM = "llm"
    EXTERNAL = "external"


class StopReason(StrEnum):
    """Which bound ended a give-up (`stats.stopped_by` in the JSON); NONE: the answer is complete."""

    NONE = ""
    MAX_LOOPS = "max_loops"
    MAX_FETCHES = "max_fetches"
    TIME_BUDGET = "time_budget"
    NO_PROGRESS = "no_progress"
    PARTIAL = "partial"  # the reader itself labelled the answer partial
    BUDGET = "budget"  # the declaration was pushed out of a packed context


class StepNote(StrEnum):
    """How one link of a resolution chain was made (a link read from an xref row carries its
    `RefType` instead)."""

    NONE = ""
    IMPORT = "import"
    ALIAS = "alias"
    STAR_IMPORT = "star_import"
    MRO = "mro"
    GOTO = "goto"  # Jedi
    DEFINITION = "definition"  # a language server's textDocument/definition
    CACHED = "cached"  # the xref row a previous loop wrote
    BRIDGED = "bridged"  # an installed package's row, written when the package was indexed


class FailureKind(StrEnum):
    """Why a rung of the ladder gave no landing."""

    NO_ANSWER = "no answer"
    RAISED = "raised"  # the resolver raised (or timed out); `detail` says what
    NOT_THE_MEMBER = "not_the_member"  # landed on a base that does not declare the member


class Via(StrEnum):
    BM25 = "bm25"
    GRAPH = "graph"
    RESOLVED = "resolved"


class ChunkKind(StrEnum):
    MODULE = "module"
    CLASS = "class"
    FUNCTION = "function"
    METHOD = "method"


class BindingKind(StrEnum):
    """What a name in a module or class namespace is bound to."""

    CLASS = "class"
    FUNCTION = "function"
    VALUE = "value"  # `X = <expression>` that is not a plain name
    ALIAS = "alias"  # `X = Y` / `X = a.b` (a name, resolved later)
    IMPORT = "import"  # `from m import X` / `import m as X` (target is dotted)
    MODULE = "module"  # `import a.b` binds `a`


class ChunkPart(StrEnum):
    """What part of a stored chunk a `Chunk` holds."""

    WHOLE = "whole"
    FITTED = "fitted"  # its first lines, cut to a token budget
    SLICE = "slice"  # one declaration's lines out of a big block
    SITE = "site"  # one line (a dependency site), not a stored chunk


@dataclass(frozen=True, slots=True, kw_only=True)
class Chunk:
    rel_path: str
    start_line: int
    end_line: int
    kind: ChunkKind
    qualname: str
    name: str
    signature: str
    docstring: str
    text: str
    identifiers: str  # space-joined, split on snake_case/camelCase, lowercased
    chunk_id: int = 0  # the store's row id (0: not a stored chunk, e.g. a one-line site)
    part: ChunkPart = ChunkPart.WHOLE
    part_line: int = 0  # SLICE: the declaration line it was cut at

    @property
    def key(self) -> tuple[int, str, str, int]:
        """Identity in a context: a stored chunk, its fitted copy and a slice of it are three
        items; two equal keys are the same item however they were fetched."""
        return (self.chunk_id, self.part, self.rel_path, self.part_line)


@dataclass(frozen=True, slots=True, kw_only=True)
class ChunkHead:
    """A stored chunk's name, place and signature, without its text."""

    qualname: str
    rel_path: str
    start_line: int
    kind: ChunkKind
    signature: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Binding:
    """One name bound in a scope (`scope` is a module or class qualname)."""

    scope: str
    name: str
    kind: BindingKind
    rel_path: str
    line: int
    col: int
    end_line: int
    target: str = ""  # dotted target for IMPORT / ALIAS / MODULE
    value: str = ""  # source text of the right-hand side for VALUE / ALIAS


@dataclass(frozen=True, slots=True, kw_only=True)
class XRef:
    """One reference site, as emitted by the indexer."""

    rel_path: str
    line: int
    col: int
    anchor_text: str
    ref_type: RefType
    target: str  # dotted, absolute where the indexer could tell
    scope: str  # qualname of the enclosing chunk
    target_path: str = ""
    target_line: int = 0
    provenance: Provenance | None = None  # who filled target_path (None: unresolved)


@dataclass(frozen=True, slots=True, kw_only=True)
class QueryLog:
    """What one query leaves in the index, written once after its read snapshot ended: counters
    to add to and loop-time landings to remember as xref rows."""

    counters: tuple[tuple[str, int], ...] = ()
    landings: tuple[XRef, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ClassInfo:
    qualname: str
    rel_path: str
    line: int
    bases: tuple[str, ...]  # dotted, module-absolute where possible


@dataclass(frozen=True, slots=True, kw_only=True)
class Edge:
    """One dependency edge the indexer derived from the cross-reference table (`type` names a
    `graphs.EdgeType`; `src`/`dst` are dotted names, `?name` for an unresolved end)."""

    src: str
    dst: str
    type: str
    rel_path: str
    line: int
    resolved: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Declaration:
    """A class, function or value binding as a graph node or symbol-search entry: `scope.name`
    declared at `rel_path:line` (`col` 0-based, `end_line` the statement's last line)."""

    scope: str
    name: str
    kind: BindingKind
    rel_path: str
    line: int
    col: int = 0
    end_line: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class TermHit:
    """A declaration found by its derived search terms (`SqliteStore.term_hits`): `score` is BM25
    over its term columns (higher is better), `name_terms` the stems of its name, `matched` the
    query terms among them."""

    qualname: str
    rel_path: str
    line: int
    end_line: int
    kind: str  # a ChunkKind (function, method, class) or a BindingKind (value, alias)
    score: float
    name_terms: tuple[str, ...]
    matched: tuple[str, ...]
    explained: tuple[str, ...] = ()  # the query terms any of its columns holds (name, path, params, doc, assigns)
    params: tuple[str, ...] = ()  # the query terms its parameters' names hold


@dataclass(frozen=True, slots=True, kw_only=True)
class StarImport:
    """`from <target> import *` in `module` (at `rel_path:line`)."""

    module: str
    target: str
    rel_path: str
    line: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Location:
    rel_path: str
    line: int
    qualname: str = ""
    end_line: int = 0

    def to_dict(self) -> dict[str, Any]:
        out = {"path": self.rel_path, "line": self.line, "qualname": self.qualname}
        src = source_fields(self.rel_path)
        return out | src if src["source"] == "environment" else out


@dataclass(frozen=True, slots=True, kw_only=True)
class Step:
    """One link of a resolution chain: from a site to where it points."""

    from_loc: Location
    to_loc: Location
    resolver: Provenance
    note: StepNote | RefType = StepNote.NONE

    def to_dict(self) -> dict[str, Any]:
        return {
            "from": self.from_loc.to_dict(),
            "to": self.to_loc.to_dict(),
            "resolver": str(self.resolver),
            "note": str(self.note),
        }

    def text(self) -> str:
        """The link as every front-end and the offline answer write it: `a.py:3 -[import, symbol_table]-> b.py:9`."""
        frm, to = self.from_loc, self.to_loc
        return f"{shown_path(frm.rel_path)}:{frm.line} -[{self.note}, {self.resolver}]-> {shown_path(to.rel_path)}:{to.line}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Resolution:
    """A reference resolved to its declaration (or to an external module)."""

    target: Location
    provenance: Provenance
    steps: tuple[Step, ...] = ()
    external: str = ""  # module name when the target is outside the indexed roots

    @property
    def is_external(self) -> bool:
        return bool(self.external)

    def where(self) -> str:
        """Where the chain ends, in one short form: `b.py:9 pkg.b.Name`, or `external pkg`."""
        t = self.target
        return f"external {self.external}" if self.is_external else f"{shown_path(t.rel_path)}:{t.line} {t.qualname}"

    def chain_text(self, sep: str = "; ") -> str:
        """Every link of the chain (`Step.text`), joined."""
        return sep.join(s.text() for s in self.steps)


@dataclass(frozen=True, slots=True, kw_only=True)
class PendingReference:
    anchor_text: str
    ref_type: RefType
    ref_target: str
    origin_path: str
    origin_line: int
    origin_col: int = 0  # 0-based code-point column of the name whose declaration is wanted
    # a resolution the reader already computed (handed over to the ladder, never recomputed)
    resolution: Resolution | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "anchor_text": self.anchor_text,
            "ref_type": str(self.ref_type),
            "ref_target": self.ref_target,
            "origin": {"path": self.origin_path, "line": self.origin_line},
        }


# Installed packages whose indexes are mounted in this process: the directory of a top-level
# module -> (its pin, `requests==2.34.2`; its import root). Items under one are "environment" items.
_PACKAGE_DIRS: dict[str, tuple[str, str]] = {}


def register_package(top_dir: str, pin: str, import_root: str) -> None:
    _PACKAGE_DIRS[top_dir] = (pin, import_root)


def package_of(abs_path: str) -> tuple[str, str] | None:
    """(pin, import root) of the installed package holding `abs_path`, if one is mounted."""
    for top, found in list(_PACKAGE_DIRS.items()):
        if abs_path == f"{top}.py" or abs_path.startswith(top + "/"):
            return found
    return None


def source_fields(path: str) -> dict[str, Any]:
    """`source` (and for a package `package`, `path` relative to its import root, `abs_path`)."""
    pkg = package_of(path) if path.startswith("/") else None
    if pkg is None:
        return {"source": "repo"}
    return {"source": "environment", "package": pkg[0], "path": path[len(pkg[1]) + 1 :], "abs_path": path}


def shown_path(path: str) -> str:
    """A path as a person reads it: repository paths as stored; a file of an installed package as
    its pin and its path from the package's import root (`requests==2.34.2 requests/sessions.py`),
    never the absolute path into the environment (that stays in the JSON's `abs_path`)."""
    f = source_fields(path)
    return f"{f['package']} {f['path']}" if f["source"] == "environment" else path


class Intent(StrEnum):
    """What a question asks of its subject: one closed set, read once (`reading.intent`). Each
    member names the pointers its answer needs (the table in `reading/intent.py`)."""

    DEFINITION = "definition"  # where it is declared, what it is
    VALUE = "value"  # its value or default, and where that comes from
    RAISES = "raises"  # the exceptions it raises
    TYPE = "type"  # its type, or what it returns
    INHERITED = "inherited"  # what it inherits, from where
    HOW = "how"  # how it behaves: its body and what the body calls
    WHY = "why"  # why it is so: the code that bears on it (an extractive answer states no reason)
    CALLERS = "callers"
    USERS = "users"
    IMPORTERS = "importers"
    SUBCLASSES = "subclasses"
    OVERRIDES = "overrides"
    CALLEES = "callees"


@dataclass(frozen=True, slots=True, kw_only=True)
class Question:
    """A question, read once (`reading.intent.read_question`) and handed to retrieval, both
    generators, navigation and `context`."""

    text: str
    intent: Intent = Intent.DEFINITION
    mentions: tuple[str, ...] = ()  # code-shaped: backticked, dotted, CamelCase, snake_case, `x()`, files
    words: tuple[str, ...] = ()  # the content words that describe a subject (lowercase; an acronym as written)
    qualifiers: tuple[str, ...] = ()  # the kinds the question names its subject by ("class", "method", "test")
    owners: tuple[str, ...] = ()  # words written possessive ("the priority queue's add()"): what holds the subject
    conditions: tuple[str, ...] = ()  # names whose call the question rules out ("if I never call configure()")


@dataclass(frozen=True, slots=True, kw_only=True)
class ContextItem:
    chunk: Chunk
    hop: int
    via: Via
    provenance: str = ""  # resolver name, or the edge path for graph items
    score: float = 0.0
    tokens: int = 0
    truncated: bool = False  # lines were cut to fit; the span is what was kept
    relation: str = ""  # a blast-radius site (one line): how it depends on the subject

    @property
    def untrusted_text(self) -> bool:
        """Repository text that addresses its reader: data to weigh, never to follow."""
        from codehop.kernel.untrusted import looks_like_instructions  # its patterns compile when needed

        return looks_like_instructions(self.chunk.text)

    def to_dict(self) -> dict[str, Any]:
        c = self.chunk
        out: dict[str, Any] = {
            "path": c.rel_path,
            "start_line": c.start_line,
            "end_line": c.end_line,
            "qualname": c.qualname,
            "kind": "site" if self.relation else str(c.kind),
            "hop": self.hop,
            "via": str(self.via),
            "provenance": self.provenance,
            "text": c.text,
            "truncated": self.truncated,
            **({"untrusted_text": True} if self.untrusted_text else {}),
        }
        out.update(source_fields(c.rel_path))
        if self.relation:
            out["relation"] = self.relation
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Generation:
    """What a generator returns: the three typed fields."""

    answer: str
    completeness: Completeness
    pending: tuple[PendingReference, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ResolvedRef:
    ref: PendingReference
    resolution: Resolution

    def to_dict(self) -> dict[str, Any]:
        r = self.resolution
        target: dict[str, Any] = r.target.to_dict()
        if r.external:
            target = {"external": r.external}
        return {
            "anchor_text": self.ref.anchor_text,
            "ref_type": str(self.ref.ref_type),
            "target": target,
            "provenance": str(r.provenance),
            "chain": [s.to_dict() for s in r.steps],
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class RungFailure:
    """A rung of the ladder that gave no landing for a reference, and why."""

    resolver: str
    kind: FailureKind
    detail: str = ""  # RAISED: `Type: message`; NOT_THE_MEMBER: where it landed
    ref_target: str = ""  # set when the failure is reported in a hop

    @property
    def reason(self) -> str:
        """The reason as the JSON contract writes it."""
        if self.kind is FailureKind.RAISED:
            return self.detail
        if self.kind is FailureKind.NOT_THE_MEMBER:
            return f"landed on {self.detail}, which does not declare the member"
        return str(self.kind)


@dataclass(frozen=True, slots=True, kw_only=True)
class Hop:
    loop: int
    resolved: tuple[ResolvedRef, ...] = ()
    unresolved: tuple[PendingReference, ...] = ()
    failures: tuple[RungFailure, ...] = ()  # the rungs that failed, each with its reference

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "loop": self.loop,
            "resolved": [r.to_dict() for r in self.resolved],
            "unresolved": [u.to_dict() for u in self.unresolved],
        }
        if self.failures:
            out["failures"] = [
                {"ref_target": f.ref_target, "resolver": f.resolver, "reason": f.reason} for f in self.failures
            ]
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Timings:
    """Milliseconds spent in each stage of the hop loop (rounded to 0.01)."""

    retrieve_ms: float = 0.0
    resolve_ms: float = 0.0
    generate_ms: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class Stats:
    """What an answer cost. `timings` is None for an answer read straight from the index (a
    navigation question); `sites` is None unless the answer lists dependency sites;
    `packages_indexed` names the installed distributions this answer had indexed (a first
    question into one pays for it; later ones read the shared cache)."""

    loops: int = 0
    context_tokens: int = 0
    total_ms: float | None = None
    timings: Timings | None = None
    sites: int | None = None
    packages_indexed: tuple[PackageIndexed, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        # the key order is the contract's: stage timings first; a navigation answer counts its
        # sites before its total time, a hop-loop answer after (added by the context builder)
        out: dict[str, Any] = {}
        if self.timings is not None:
            t = self.timings
            out |= {"retrieve_ms": t.retrieve_ms, "resolve_ms": t.resolve_ms, "generate_ms": t.generate_ms}
        out |= {"loops": self.loops, "context_tokens": self.context_tokens}
        if self.timings is None and self.sites is not None:
            out["sites"] = self.sites
        if self.total_ms is not None:
            out["total_ms"] = self.total_ms
        if self.timings is not None and self.sites is not None:
            out["sites"] = self.sites
        if self.packages_indexed:
            out["packages_indexed"] = [
                {"package": p.package, "files": p.files, "seconds": p.seconds} for p in self.packages_indexed
            ]
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class PackageIndexed:
    """An installed distribution indexed while answering (`stats.packages_indexed`)."""

    package: str  # its pin, `sqlalchemy==2.1.9`
    files: int
    seconds: float


@dataclass(frozen=True, slots=True, kw_only=True)
class Answer:
    question: str
    answer: str
    completeness: Completeness
    state: State
    pending: tuple[PendingReference, ...]
    context: tuple[ContextItem, ...]
    hops: tuple[Hop, ...]
    stats: Stats = field(default_factory=Stats)
    stopped_by: StopReason = StopReason.NONE  # which bound ended a give-up

    def to_dict(self) -> dict[str, Any]:
        stats = self.stats.to_dict()
        if self.stopped_by:
            stats["stopped_by"] = str(self.stopped_by)
        return {
            "question": self.question,
            "answer": self.answer,
            "answer_completeness": str(self.completeness),
            "state": str(self.state),
            "pending_references": [p.to_dict() for p in self.pending],
            "context": [c.to_dict() for c in self.context],
            "hops": [h.to_dict() for h in self.hops],
            "stats": stats,
        }
