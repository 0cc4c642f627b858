"""Reference sites: the references indexed at PATH:LINE[:COL], and the one under a column.

`under` is codehop's one rule for "the reference at a column": an xref covers
the columns of its anchor text (`a.b.C` from its first to its last character;
an empty anchor one column). `codehop resolve` resolves every reference under
the column (all of the line's when none is); the MCP `resolve` tool and editor
navigation take one (`pick`: under the column, else the last one starting
before it, else the first).

May import: records, store, walk, errors, stdlib.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codehop.index.walk import confine, file_lines
from codehop.kernel.errors import UsageError
from codehop.kernel.records import PendingReference, Resolution, RungFailure, XRef

if TYPE_CHECKING:
    from codehop.index.store.sqlite import SqliteStore


# PATH:LINE[:COL], as every front-end takes a site (anything else is a symbol)
SITE = re.compile(r"^(?P<path>.+?):(?P<line>\d+)(?::(?P<col>\d+))?$")


def parse_site(target: str) -> tuple[str, int, int | None] | None:
    """(path, line, col or None) of a `PATH:LINE[:COL]` target; None when it is not one (a symbol)."""
    m = SITE.match(target.strip())
    if m is None:
        return None
    return m["path"], int(m["line"]), int(m["col"]) if m["col"] is not None else None


def under(xrefs: Sequence[XRef], col: int) -> list[XRef]:
    """The references whose anchor covers column `col` (0-based code points), in order."""
    return [x for x in xrefs if x.col <= col < x.col + max(1, len(x.anchor_text))]


def pick(xrefs: Sequence[XRef], col: int | None) -> XRef:
    """The one reference at `col`: under it, else the last one starting before it, else the first
    (the first when no column is given)."""
    if col is None:
        return xrefs[0]
    covering = under(xrefs, col)
    if covering:
        return covering[0]
    before = [x for x in xrefs if x.col <= col]
    return before[-1] if before else xrefs[0]


def pending(x: XRef) -> PendingReference:
    """An indexed reference as a pending one (what the ladder resolves)."""
    return PendingReference(
        anchor_text=x.anchor_text,
        ref_type=x.ref_type,
        ref_target=x.target,
        origin_path=x.rel_path,
        origin_line=x.line,
        origin_col=x.col,
    )


def refs_at(store: SqliteStore, root: Path, path: str, line: int, col: int) -> list[PendingReference]:
    """The xref rows at a site (those under COL when it is given and some are), as pending references."""
    full = confine(root, path)
    rel = full.relative_to(root).as_posix()
    check_site(store, full, rel, line, col)
    rows = store.xrefs(rel_path=rel, line=line)
    if col >= 0:
        rows = under(rows, col) or rows
    return [pending(x) for x in rows]


def check_site(store: SqliteStore, full: Path, rel: str, line: int, col: int) -> None:
    """UsageError (exit 2) naming what is wrong with a site: no such file, a file the index does
    not hold, a line past the end, a column past the end of its line (`col` < 0: none given).
    The one check of a PATH:LINE[:COL] for the CLI and the MCP tools (an editor's positions follow
    the LSP rules instead: past the end is clamped or null)."""
    if not full.is_file():
        raise UsageError(f"no such file in the repository: {rel}", path=rel)
    if store.module_of(rel) is None:
        raise UsageError(f"not an indexed Python file: {rel}", path=rel)
    lines = file_lines(full)
    if not lines and _size(full):
        raise UsageError(f"cannot read {rel}", path=rel)
    if line < 1 or line > len(lines):
        raise UsageError(f"line {line} is outside {rel} (it has {len(lines)} lines)", path=rel)
    if col > len(lines[line - 1]):
        raise UsageError(
            f"column {col} is past the end of {rel}:{line} ({len(lines[line - 1])} characters; columns start at 0)",
            path=rel,
        )


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


@dataclass(frozen=True, slots=True, kw_only=True)
class SiteResolution:
    """What a target (a dotted symbol, or PATH:LINE[:COL]) resolves to: the declaration and its
    chain; for a site, the reference picked there, the others on its line and the rungs that failed."""

    target: str  # as asked
    kind: str  # "symbol", "reference" or "declaration" (the site declares a name itself)
    resolution: Resolution
    reference: XRef | None = None
    others: tuple[XRef, ...] = ()
    failures: tuple[RungFailure, ...] = ()  # the rungs that gave no landing, and why

    def to_dict(self) -> dict[str, Any]:
        res = self.resolution
        out: dict[str, Any] = {"target": self.target, "kind": self.kind}
        x = self.reference
        if x is not None:
            out["reference"] = {
                "path": x.rel_path,
                "line": x.line,
                "col": x.col,
                "anchor_text": x.anchor_text,
                "ref_type": str(x.ref_type),
                "ref_target": x.target,
            }
        out["declaration"] = {"external": res.external} if res.is_external else res.target.to_dict()
        out["provenance"] = str(res.provenance)
        out["chain"] = [s.to_dict() for s in res.steps]
        if self.others:
            out["other_references"] = [
                {"anchor_text": o.anchor_text, "col": o.col, "ref_type": str(o.ref_type)} for o in self.others
            ]
        if self.failures:
            out["failures"] = [{"resolver": f.resolver, "reason": f.reason} for f in self.failures]
        return out
