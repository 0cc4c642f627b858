"""The index's rows and codehop's records: one converter per record, each reading the columns its
`*_COLS` names in that order (a row read by position anywhere else is a seam about to tear).

- row -> record: `chunk_record`, `chunk_head_record`, `binding_record`, `class_record`,
  `xref_record`, `edge_record`, `declaration_record`; the parser's rows (`chunking.FileRows`)
  share these layouts (a chunk without its id, a reference before it is resolved).
- record -> row: `xref_row` (a landing written back), and `landing`, the xref a resolved site
  leaves (the ladder's loop-time landings, an installed package's Jedi bridge).
- `SymbolRows`: the symbol tables of one index version, kept as rows and converted on lookup.

May import: records, stdlib.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from codehop.kernel.records import (
    Binding,
    BindingKind,
    Chunk,
    ChunkHead,
    ChunkKind,
    ClassInfo,
    Declaration,
    Edge,
    PendingReference,
    Provenance,
    RefType,
    XRef,
)

Row = tuple[Any, ...]

# dict lookups are several times cheaper than BindingKind(v), Provenance(v): a question converts
# a few thousand rows
_KINDS = {k.value: k for k in BindingKind}
_PROVENANCE = {p.value: p for p in Provenance}
_CHUNK_KINDS = {k.value: k for k in ChunkKind}

CHUNK_COLS = "id, rel_path, start_line, end_line, kind, qualname, name, signature, docstring, text"


def chunk_record(row: Row, *, identifiers: str = "") -> Chunk:
    """A `CHUNK_COLS` row (a parsed chunk, not yet stored, has id 0)."""
    return Chunk(
        chunk_id=row[0],
        rel_path=row[1],
        start_line=row[2],
        end_line=row[3],
        kind=_CHUNK_KINDS[row[4]],
        qualname=row[5],
        name=row[6],
        signature=row[7],
        docstring=row[8],
        text=row[9],
        identifiers=identifiers,
    )


CHUNK_HEAD_COLS = "qualname, rel_path, start_line, kind, signature"


def chunk_head_record(row: Row) -> ChunkHead:
    return ChunkHead(qualname=row[0], rel_path=row[1], start_line=row[2], kind=_CHUNK_KINDS[row[3]], signature=row[4])


BINDING_COLS = "scope, name, kind, rel_path, line, col, end_line, target, value"


def binding_record(row: Row) -> Binding:
    return Binding(
        scope=row[0],
        name=row[1],
        kind=_KINDS[row[2]],
        rel_path=row[3],
        line=row[4],
        col=row[5],
        end_line=row[6],
        target=row[7],
        value=row[8],
    )


CLASS_COLS = "qualname, rel_path, line, bases"


def class_record(row: Row) -> ClassInfo:
    """A `CLASS_COLS` row (bases as stored: JSON)."""
    return ClassInfo(qualname=row[0], rel_path=row[1], line=row[2], bases=tuple(json.loads(row[3])))


XREF_COLS = "rel_path, line, col, anchor_text, ref_type, target, scope, target_path, target_line, provenance"
_XREF_SITE = 7  # the parser's reference rows stop before target_path: not resolved yet


def xref_record(row: Row) -> XRef:
    """An `XREF_COLS` row, or the first seven columns of one (a site the parser found)."""
    resolved = len(row) > _XREF_SITE
    return XRef(
        rel_path=row[0],
        line=row[1],
        col=row[2],
        anchor_text=row[3],
        ref_type=RefType(row[4]),
        target=row[5],
        scope=row[6],
        target_path=row[7] if resolved else "",
        target_line=row[8] if resolved else 0,
        provenance=_PROVENANCE[row[9]] if resolved and row[9] else None,
    )


def xref_row(x: XRef) -> Row:
    """The `XREF_COLS` row of a reference (no provenance is stored as '')."""
    return (
        x.rel_path,
        x.line,
        x.col,
        x.anchor_text,
        str(x.ref_type),
        x.target,
        x.scope,
        x.target_path,
        x.target_line,
        str(x.provenance or ""),
    )


def landing(site: PendingReference, target_path: str, target_line: int, provenance: Provenance) -> XRef:
    """The xref that remembers where `site` resolved (found by reading, not by the indexer: no
    enclosing scope), so the next query reads it instead of asking a resolver again."""
    return XRef(
        rel_path=site.origin_path,
        line=site.origin_line,
        col=site.origin_col,
        anchor_text=site.anchor_text,
        ref_type=site.ref_type,
        target=site.ref_target,
        scope="",
        target_path=target_path,
        target_line=target_line,
        provenance=provenance,
    )


EDGE_COLS = "src, dst, type, rel_path, line, resolved"


def edge_record(row: Row) -> Edge:
    return Edge(src=row[0], dst=row[1], type=row[2], rel_path=row[3], line=row[4], resolved=bool(row[5]))


DECLARATION_COLS = "scope, name, kind, rel_path, line, col, end_line"


def declaration_record(row: Row) -> Declaration:
    return Declaration(
        scope=row[0], name=row[1], kind=_KINDS[row[2]], rel_path=row[3], line=row[4], col=row[5], end_line=row[6]
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class SymbolRows:
    """The symbol tables of one index version, keyed for lookup. Binding and class rows stay as
    SQLite returned them and become records on lookup: a question looks up a few hundred of
    Django's 22k bindings."""

    binding_rows: dict[tuple[str, str], Row]  # (scope, name) -> the binding in force
    class_rows: dict[str, Row]
    modules: dict[str, str]  # module -> its file
    all_names: dict[str, tuple[str, ...] | None]  # module -> its `__all__`
    stars: dict[str, list[tuple[str, int]]]  # module -> its star imports (target, line)

    def binding(self, scope: str, name: str) -> Binding | None:
        r = self.binding_rows.get((scope, name))
        return None if r is None else binding_record(r)

    def class_info(self, qualname: str) -> ClassInfo | None:
        r = self.class_rows.get(qualname)
        return None if r is None else class_record(r)
