"""Where a repository's index lives and what an index run would change, decided before anything
is parsed or written: the folder (created, probed by writing), a sound existing index (pages
checked), the walk, and the files whose size or time differ from the index's.

Light on purpose: it imports the walk and the schema, not the store's readers and writers nor the
records (~30 ms of imports), so `current_report` can tell a no-change `codehop index` that there is
nothing to do in about the time it takes to stat the tree. May import: errors, walk, store.schema,
stdlib.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from codehop.index.confine import refuse_foreign_files, refuse_linked_folder
from codehop.index.store.schema import check_schema, connect, damage, file_states, index_size, move_aside
from codehop.index.walk import SourceFile, TreeStamp, repo_root, walk_python_files
from codehop.kernel.errors import IndexLocationError, IndexSchemaError


class IndexReport:
    """What an index run found and did. (A plain class, and `Survey` a named tuple: the quick path
    of a no-change `codehop index` loads no dataclasses, ~8 ms of its ~60.)"""

    __slots__ = (
        "root",
        "index_path",
        "files",
        "parsed",
        "deleted",
        "chunks",
        "xrefs",
        "seconds",
        "rebuilt",
        "note",
        "warnings",
        "stamp",
    )

    def __init__(self, *, root: str, index_path: str, note: str = "") -> None:
        self.root = root
        self.index_path = index_path
        self.files = 0
        self.parsed = 0
        self.deleted = 0
        self.chunks = 0
        self.xrefs = 0
        self.seconds = 0.0
        self.rebuilt = False
        self.note = note  # one line when the index is not where the user would look (the per-user cache)
        self.warnings: list[str] = []
        self.stamp: TreeStamp | None = None  # what the walk saw, for a cheap "anything changed?" later

    def __repr__(self) -> str:
        return f"IndexReport({self.to_dict()!r})"

    def summary(self) -> str:
        """The one status line `codehop index` prints."""
        return (
            f"indexed {self.files} files ({self.parsed} parsed, {self.deleted} removed): "
            f"{self.chunks} chunks, {self.xrefs} xrefs in {self.seconds:.2f} s -> {self.index_path}"
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "root": self.root,
            "index": self.index_path,
            "files": self.files,
            "parsed": self.parsed,
            "deleted": self.deleted,
            "chunks": self.chunks,
            "xrefs": self.xrefs,
            "seconds": round(self.seconds, 3),
            "rebuilt": self.rebuilt,
            "note": self.note,
            "warnings": self.warnings,
        }


def repo_key(root: Path) -> str:
    """One folder name per repository root: readable, and unique by a hash of the full path."""
    import hashlib  # (here and where a changed file is hashed: a no-change run needs neither)

    digest = hashlib.sha256(os.fsencode(str(root))).hexdigest()[:16]
    return f"{root.name or 'root'}-{digest}"


def user_cache_dir() -> Path:
    """Where an index goes when the repository cannot hold one (`$XDG_CACHE_HOME/codehop/repos`)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "codehop" / "repos"


def _candidates(root: Path, index_dir: str | os.PathLike[str] | None) -> tuple[list[Path], str]:
    """(folders to try in order, what named them: '--index-dir', 'CODEHOP_INDEX_DIR' or '').
    A folder the user named may be reached through links (it is resolved); a folder codehop
    chose (`.codehop`, a subfolder of CODEHOP_INDEX_DIR or of the cache) never is."""
    shared = os.environ.get("CODEHOP_INDEX_DIR")
    for named, value in (("--index-dir", index_dir), ("CODEHOP_INDEX_DIR", shared)):
        if value and "\x00" in os.fspath(value):
            raise IndexLocationError(f"{named} cannot contain a NUL byte: {value!r}", path=repr(value))
    if index_dir:
        return [Path(index_dir).expanduser().resolve()], "--index-dir"
    if shared:  # one subfolder per repository: repositories sharing it never evict each other
        return [Path(shared).expanduser().resolve() / repo_key(root)], "CODEHOP_INDEX_DIR"
    return [root / ".codehop", user_cache_dir().resolve() / repo_key(root)], ""


def _refuse_links(folders: list[Path], named_by: str) -> None:
    for folder in folders:
        if named_by != "--index-dir":
            refuse_linked_folder(folder, named_by)
        refuse_foreign_files(folder)


def _unusable(folder: Path) -> str | None:
    """Why codehop cannot keep an index in `folder` (creating it if needed), or None if it can.
    Probed by writing, not by permission bits (which say nothing to root or on a read-only mount).
    Never opens `index.db` itself: closing any descriptor of a database file drops every POSIX
    lock this process's SQLite connections hold on it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".probe-{os.getpid()}-{threading.get_ident()}"
        probe.unlink(missing_ok=True)  # (a link planted under this name goes; never written through)
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600))
        probe.unlink()
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    return None


def index_dir_for(root: Path, index_dir: str | os.PathLike[str] | None = None) -> Path:
    """Where the index of `root` is (or would be), without creating anything: the first
    candidate that holds an index, else the first one."""
    folders, named_by = _candidates(root, index_dir)
    _refuse_links(folders, named_by)
    return next((f for f in folders if (f / "index.db").exists()), folders[0])


def locate_index(root: Path, index_dir: str | os.PathLike[str] | None = None) -> tuple[Path, str]:
    """The folder to keep the index of `root` in, created, and a one-line note when it is not
    the usual place. A folder the user named that cannot be used is an IndexLocationError (exit 3);
    an unwritable repository falls back to the per-user cache."""
    folders, named_by = _candidates(root, index_dir)
    _refuse_links(folders, named_by)  # before the probe writes anything through one
    reasons: list[str] = []
    for folder in folders:
        why = _unusable(folder)
        if why is None:
            note = (
                ""
                if folder == folders[0]
                else (f"note: cannot write {folders[0]} ({reasons[0]}); the index lives in {folder}")
            )
            return folder, note
        reasons.append(why)
    if named_by:
        raise IndexLocationError(
            f"cannot keep the index in {folders[0]} (named by {named_by}): {reasons[0]}; "
            f"name a writable folder, or leave {named_by} out to use {root / '.codehop'}",
            path=str(folders[0]),
        )
    raise IndexLocationError(
        f"cannot write an index in {folders[0]} ({reasons[0]}) nor in {folders[1]} ({reasons[1]}); "
        "pass a writable folder with --index-dir",
        path=str(folders[0]),
    )


def remove_stale_builds(idx_dir: Path) -> None:
    """Delete `index.db.tmp-<pid>*` left by a full build whose process was killed."""
    for path in idx_dir.glob("index.db.tmp-*"):
        pid = path.name.removeprefix("index.db.tmp-").split("-")[0]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            path.unlink(missing_ok=True)
        except OSError:  # alive, owned by someone else
            pass


def sound_index(
    path: Path, *, verify: bool = False, warnings: list[str] | None = None, passive: bool = False
) -> dict[str, tuple[str, int, int, int, int]] | None:
    """The file states (rel_path -> hash, size, mtime_ns, ctime_ns, inode) of the index at `path` if it opens and
    matches our schema; else None, the file moved aside (or, `passive`, left where it is for
    a caller that will move it). `verify` also checks every page (`codehop index`, and after a
    query met a database error)."""
    if not path.exists():
        return None
    if verify:  # pages already checked are not read again while the file is the one checked
        why = damage(path, remember=True)
        if why is not None:
            if not passive:
                aside = move_aside(path, "corrupt")
                if warnings is not None:
                    warnings.append(f"the index was damaged ({why}); moved aside to {aside.name} and rebuilt")
            return None
    try:
        conn = connect(path)
        try:
            check_schema(conn)
            return file_states(conn)
        finally:
            conn.close()
    except IndexLocationError:
        raise
    except (IndexSchemaError, sqlite3.DatabaseError) as exc:
        if not passive:
            move_aside(path, "foreign" if isinstance(exc, IndexSchemaError) else "corrupt")
        return None


class Survey(NamedTuple):
    """What an index run found before writing: `old` is None when there is no sound index yet."""

    report: IndexReport
    idx_dir: Path
    old: dict[str, tuple[str, int, int, int, int]] | None
    files: list[SourceFile]
    changed: list[SourceFile]  # new, or size, mtime, ctime or inode differ from the index's
    deleted: list[str]


def survey(
    repo: str | os.PathLike[str],
    index_dir: str | os.PathLike[str] | None = None,
    *,
    stamp: TreeStamp | None = None,
    include: frozenset[str] | None = None,
    verify: bool = False,
    passive: bool = False,
    tell: Callable[[str, int, int], None] | None = None,
) -> Survey:
    """Locate the index of `repo`, open it (see `sound_index`) and walk the tree (or, given the
    `stamp` of an earlier walk in this process, stat what it saw when no folder changed).
    `passive` (a probe) leaves a bad index in place and, without a sound index, walks nothing."""
    root = repo_root(repo)
    idx_dir, note = locate_index(root, index_dir)
    remove_stale_builds(idx_dir)
    report = IndexReport(root=str(root), index_path=str(idx_dir / "index.db"), note=note)
    old = sound_index(idx_dir / "index.db", verify=verify, warnings=report.warnings, passive=passive)
    if passive and old is None:  # a build comes next: its own survey walks
        return Survey(report, idx_dir, None, [], [], [])
    files = stamp.restat() if stamp is not None and old is not None else None
    if files is None:
        dirs: list[tuple[str, int]] = []
        files = []
        # the walk's memo serves a cold start; a warm stamp that saw a folder change walks at once
        memo = idx_dir / "walk-memo.json" if stamp is None else None
        for sf in walk_python_files(root, report.warnings, dirs, include, memo=memo):
            files.append(sf)
            if tell is not None and len(files) % 256 == 0:
                tell("walk", len(files), 0)
        if tell is not None:
            tell("walk", len(files), len(files))
        report.stamp = TreeStamp(tuple(dirs), tuple(files))
    else:
        assert stamp is not None
        report.stamp = TreeStamp(stamp.dirs, tuple(files))
    report.files = len(files)
    known = old or {}
    current = {sf.rel_path for sf in files}
    deleted = [rel for rel in known if rel not in current]
    changed = [sf for sf in files if (known[sf.rel_path][1:] if sf.rel_path in known else ()) != sf.stamp]
    return Survey(report, idx_dir, old, files, changed, deleted)


def current_report(repo: str | os.PathLike[str], index_dir: str | os.PathLike[str] | None = None) -> IndexReport | None:
    """The report of a `codehop index` (pages verified) that finds nothing to do, or None when
    that run would do something: build, parse, delete, re-stamp a touched file, warn, or repair.
    Reads only: a damaged or foreign index is left for that run to move aside and say so."""
    t0 = time.perf_counter()
    s = survey(repo, index_dir, verify=True, passive=True)
    if s.old is None or s.changed or s.deleted or s.report.warnings or not s.files:
        return None
    report = s.report
    try:
        conn = connect(Path(report.index_path))
        try:
            report.files, report.chunks, report.xrefs = index_size(conn)
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        return None
    report.seconds = time.perf_counter() - t0
    return report
