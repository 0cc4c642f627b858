"""Reference sites: the pending references found at PATH:LINE[:COL] (for `codehop resolve`)."""

from __future__ import annotations

from typing import Any

from codehop.kernel.records import PendingReference


def refs_at(app: Any, path: str, line: int, col: int) -> list[PendingReference]:
    """The xref rows at a site (the one under COL when given), as pending references."""
    from codehop.index.walk import confine

    full = confine(app.root, path)
    rel = full.relative_to(app.root).as_posix()
    _check_site(app, full, rel, line, col)
    rows = app.store.xrefs(rel_path=rel, line=line)
    if col >= 0:
        under = [x for x in rows if x.col <= col < x.col + max(1, len(x.anchor_text))]
        rows = under or rows
    return [
        PendingReference(
            anchor_text=x.anchor_text,
            ref_type=x.ref_type,
            ref_target=x.target,
            origin_path=x.rel_path,
            origin_line=x.line,
            origin_col=x.col,
        )
        for x in rows
    ]


def _check_site(app: Any, full: Any, rel: str, line: int, col: int) -> None:
    """UsageError (exit 2) naming what is wrong with a site: no such file, a file the index does
    not hold, a line past the end, a column past the end of its line."""
    from codehop.kernel.errors import UsageError

    if not full.is_file():
        raise UsageError(f"no such file in the repository: {rel}", path=rel)
    if app.store.module_of(rel) is None:
        raise UsageError(f"not an indexed Python file: {rel}", path=rel)
    try:
        lines = full.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as exc:
        raise UsageError(f"cannot read {rel}: {exc.strerror}", path=rel) from None
    if line < 1 or line > len(lines):
        raise UsageError(f"line {line} is outside {rel} (it has {len(lines)} lines)", path=rel)
    if col > len(lines[line - 1]):
        raise UsageError(
            f"column {col} is past the end of {rel}:{line} ({len(lines[line - 1])} characters; columns start at 0)",
            path=rel,
        )
