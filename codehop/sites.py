"""Reference sites: the pending references found at PATH:LINE[:COL] (for `codehop resolve`)."""

from __future__ import annotations

from typing import Any

from codehop.records import PendingReference


def refs_at(app: Any, path: str, line: int, col: int) -> list[PendingReference]:
    """The xref rows at a site (the one under COL when given), as pending references."""
    from codehop.walk import confine

    rel = confine(app.root, path).relative_to(app.root).as_posix()
    rows = app.store.xrefs(rel_path=rel, line=line)
    if col >= 0:
        under = [x for x in rows if x.col <= col < x.col + max(1, len(x.anchor_text))]
        rows = under or rows
    return [PendingReference(anchor_text=x.anchor_text, ref_type=x.ref_type, ref_target=x.target,
                             origin_path=x.rel_path, origin_line=x.line, origin_col=x.col)
            for x in rows]
