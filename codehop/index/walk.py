"""Repository walk: which `.py` files belong to the index.

Honours `.gitignore` files at every level and a `.codehopignore` at the root;
skips `.git`, virtualenvs, `__pycache__`, build output and our own `.codehop/`.
Never follows a symlink that leaves the root. May import: records, errors,
ignore, confine, stdlib.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from codehop.kernel.errors import RepoNotFoundError

if TYPE_CHECKING:  # the matcher loads only for a tree that has an ignore file
    from codehop.index.ignore import IgnoreSpec

SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".codehop",
        "__pycache__",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        "node_modules",
        "build",
        "dist",
        ".eggs",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        "site-packages",
    }
)


class SourceFile(NamedTuple):
    # (named tuples, not dataclasses: a no-change `codehop index` loads no dataclasses, ~8 ms);
    # the fields from `size` on are the stamp, in its order (`TreeStamp.unchanged` reads `sf[2:]`)
    rel_path: str
    abs_path: str
    size: int
    mtime_ns: int
    ctime_ns: int = 0  # a chmod changes only this: a file made unreadable is noticed
    inode: int = 0

    @property
    def stamp(self) -> tuple[int, int, int, int]:
        """(size, mtime, ctime, inode): what git compares to tell a changed file. A rewrite with its
        size and mtime put back (`cp -p`, `rsync -a`, `tar x`) moves the ctime (no call sets it) or
        the inode (a new file renamed over the old)."""
        return (self.size, self.mtime_ns, self.ctime_ns, self.inode)


def _source_file(rel: str, path: str, st: os.stat_result) -> SourceFile:
    """A walked file and the stat fields its stamp compares."""
    return SourceFile(
        rel_path=rel, abs_path=path, size=st.st_size, mtime_ns=st.st_mtime_ns, ctime_ns=st.st_ctime_ns, inode=st.st_ino
    )


def repo_root(path: str | os.PathLike[str]) -> Path:
    """The resolved repository root, or RepoNotFoundError (exit 2)."""
    p = Path(path).expanduser()
    if not p.exists():
        raise RepoNotFoundError(f"repository path does not exist: {p}", path=str(p))
    if not p.is_dir():
        raise RepoNotFoundError(f"repository path is not a directory: {p}", path=str(p))
    return p.resolve()


ROOT_MARKERS = (".git", "pyproject.toml", "setup.cfg", "setup.py")


# A folder with no project marker above it is taken as the repository only when it holds at most
# this many Python files (and its walk lists at most MAX_UNMARKED_DIRS folders): `cd /tmp && codehop
# ask ...` must not crawl every tree under it.
MAX_UNMARKED_PY_FILES = 2000
MAX_UNMARKED_DIRS = 5000


def discover_root(start: str | os.PathLike[str] = ".") -> Path:
    """The repository `start` is in, found as git finds its own: the nearest folder, from `start`
    upward, holding an existing `.codehop/` index folder or a project marker (`.git`,
    `pyproject.toml`, `setup.cfg`, `setup.py`); `start` itself when none does and it is small
    (`MAX_UNMARKED_PY_FILES`). The home folder, the temporary folder and the filesystem root are
    never found this way (a `~/.git` of dotfiles would make every folder under home one project):
    UsageError, naming `--repo`, as for a large folder without a marker."""
    import tempfile

    from codehop.kernel.errors import UsageError

    here = repo_root(start)
    found = next(
        (f for f in (here, *here.parents) if (f / ".codehop").is_dir() or any((f / m).exists() for m in ROOT_MARKERS)),
        None,
    )
    root = found or here
    whole = {Path(os.path.expanduser("~")).resolve(), Path(tempfile.gettempdir()).resolve(), Path(root.anchor)}
    if root in whole:
        raise UsageError(
            f"{root} is your home, temporary or root folder{' (it holds a project marker)' if found else ''}, "
            f"and codehop does not crawl it whole unless told to: run it inside a project "
            f"(a folder with .git, pyproject.toml, setup.cfg or setup.py), or name one with --repo PATH",
            path=str(root),
        )
    if found is None and not _small(here):
        raise UsageError(
            f"no project here: no folder from {here} up holds .git, pyproject.toml, setup.cfg or setup.py, "
            f"and {here} holds more than {MAX_UNMARKED_PY_FILES} Python files (or {MAX_UNMARKED_DIRS} folders); "
            "name the repository with --repo PATH (or run inside one)",
            path=str(here),
        )
    return root


def _small(folder: Path) -> bool:
    """Does `folder` hold at most MAX_UNMARKED_PY_FILES `.py` files in at most MAX_UNMARKED_DIRS
    folders (skipping what the walk skips)? Stops listing as soon as it knows it does not."""
    files = dirs = 0
    stack = [str(folder)]
    while stack:
        dirs += 1
        if dirs > MAX_UNMARKED_DIRS:
            return False
        try:
            with os.scandir(stack.pop()) as it:
                for e in it:
                    try:
                        if e.is_dir(follow_symlinks=False):
                            if e.name not in SKIP_DIRS:
                                stack.append(e.path)
                        elif e.name.endswith(".py"):
                            files += 1
                            if files > MAX_UNMARKED_PY_FILES:
                                return False
                    except OSError:
                        continue
        except OSError:
            continue
    return True


def _spec(root_s: str, dir_path: str, name: str, seen: _Seen | None = None) -> IgnoreSpec | None:
    """The ignore file `name` of `dir_path`, or None; UsageError when it may not be read (a link
    leaving the repository, not a regular file, over the size cap: see `codehop.index.ignore`)."""
    path = os.path.join(dir_path, name)
    if seen is not None:
        seen.ignores.append((path, _key(path)))
    if not os.path.lexists(path):
        return None
    from codehop.index.ignore import IgnoreSpec, read_ignore_file

    lines = read_ignore_file(path, root_s)
    return IgnoreSpec(lines, os.path.relpath(path, root_s)) if lines is not None else None


def walk_python_files(
    root: Path,
    warnings: list[str] | None = None,
    dirs: list[tuple[str, int]] | None = None,
    include: frozenset[str] | None = None,
    memo: Path | None = None,
) -> Iterator[SourceFile]:
    """Every indexable `.py` file under `root`, in a stable order.

    `include` (an installed distribution's top-level modules) keeps, at the root, only the
    packages and modules it names, without their `tests/` folders: a site-packages directory is
    indexed one distribution at a time.

    One `scandir` per directory: directory entries carry their type, so only
    `.py` files are stat'ed.

    `memo` (a file beside the index): what the last walk of this tree saw is replayed with one
    stat per directory and per file, no listing, while every directory it listed and every
    ignore file it read is the one it saw (device, inode, mtime, ctime: an entry added, removed
    or renamed moves its directory's times; an edited ignore file its own); else the tree is
    walked and remembered. A no-change `codehop index` of Django lists 2,455 directories to find
    883 files, most of its time before this.
    """
    if memo is not None and include is None:
        replayed = _replay(root, memo, dirs)
        if replayed is not None:
            yield from replayed
            return
    seen = _Seen() if memo is not None and include is None else None
    found: list[SourceFile] = []
    for sf in _walk(root, warnings, dirs, include, seen):
        found.append(sf)
        yield sf
    if seen is not None and memo is not None:
        _remember(root, memo, seen, found, dirs)


class _Seen:
    """What a walk listed and read, for its memo; `clean` is False once it warned of anything or
    met a symlinked file (whose target a later change elsewhere could move)."""

    __slots__ = ("dirs", "ignores", "clean", "started_ns")

    def __init__(self) -> None:
        self.dirs: list[tuple[str, int, int, int, int]] = []  # (rel_dir, dev, ino, mtime, ctime)
        self.ignores: list[tuple[str, list[int]]] = []  # (abs path, _key)
        self.clean = True
        self.started_ns = time.time_ns()


def _walk(
    root: Path,
    warnings: list[str] | None,
    dirs: list[tuple[str, int]] | None,
    include: frozenset[str] | None,
    seen: _Seen | None,
) -> Iterator[SourceFile]:
    root_s = str(root)
    specs: list[tuple[str, IgnoreSpec]] = []  # (dir rel prefix, spec)
    if warnings is None and seen is not None:
        warnings = []  # a walk that warned is not remembered (an unreadable file may become readable)
    n_warnings = len(warnings) if warnings is not None else 0
    top = _spec(root_s, root_s, ".codehopignore", seen)
    if top is not None:
        specs.append(("", top))
    seen_dirs: set[tuple[int, int]] = set()
    py_dirs: set[str] = set()
    stat_ = os.stat
    isreg = stat.S_ISREG
    access = os.access
    sep = os.sep

    def ignored(rel: str, is_dir: bool) -> bool:
        for prefix, spec in specs:
            if prefix and not rel.startswith(prefix):
                continue
            if spec.match(rel[len(prefix) :], is_dir):
                return True
        return False

    stack: list[tuple[str, str]] = [(root_s, "")]
    while stack:
        dir_abs, rel_dir = stack.pop()
        try:
            st = stat_(dir_abs)
            with os.scandir(dir_abs) as it:
                entries = sorted(it, key=_name)
        except OSError as exc:
            if seen is not None:
                seen.clean = False  # (the root itself fails without a warning)
            if warnings is not None and rel_dir:
                warnings.append(f"{rel_dir}/: cannot list ({exc.strerror}); skipped")
            continue
        key = (st.st_dev, st.st_ino)
        if key in seen_dirs:
            continue
        seen_dirs.add(key)
        if seen is not None:
            seen.dirs.append((rel_dir, st.st_dev, st.st_ino, st.st_mtime_ns, st.st_ctime_ns))
        has_python = False
        names = {e.name for e in entries}
        if rel_dir and "pyvenv.cfg" in names:
            continue  # a virtualenv
        if ".gitignore" in names:
            spec = _spec(root_s, dir_abs, ".gitignore", seen)
            if spec is not None:
                specs.append((rel_dir + "/" if rel_dir else "", spec))
        prefix = rel_dir + "/" if rel_dir else ""
        subdirs: list[tuple[str, str]] = []
        for e in entries:
            name = e.name
            try:
                is_link = e.is_symlink()
                is_dir = not is_link and e.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_dir:
                if include is not None and not rel_dir and name not in include:
                    continue
                if include is not None and rel_dir and name == "tests":
                    continue  # an installed distribution's own test suite is not what it offers
                if name in SKIP_DIRS or name.endswith(".egg-info"):
                    continue
                rel = prefix + name
                if specs and ignored(rel, True):
                    continue
                subdirs.append((e.path, rel))
                continue
            if not name.endswith(".py"):
                # `.pyi` only inside an installed stub-only package (`requests-stubs/`, PEP 561)
                if include is None or not name.endswith(".pyi"):
                    continue
                if not (rel_dir or name).split("/", 1)[0].endswith("-stubs"):
                    continue
            if include is not None and not rel_dir and name.removesuffix(".py") not in include:
                continue
            rel = prefix + name
            if specs and ignored(rel, False):
                continue
            try:
                rel.encode("utf-8")
            except UnicodeEncodeError:  # undecodable bytes in the name: SQLite text cannot hold it
                if warnings is not None:
                    shown = os.fsencode(rel).decode("utf-8", "backslashreplace")
                    warnings.append(f"{shown}: file name is not valid UTF-8; skipped")
                continue
            path = e.path
            if is_link:
                if seen is not None:
                    seen.clean = False
                real = os.path.realpath(path)
                if not (real == root_s or real.startswith(root_s + sep)):
                    if warnings is not None:
                        warnings.append(f"{rel}: symlink leaves the repository; not followed")
                    continue
            try:
                fst = stat_(path)
            except OSError as exc:
                if warnings is not None:
                    warnings.append(f"{rel}: cannot stat ({exc.strerror}); skipped")
                continue
            if not isreg(fst.st_mode):
                if warnings is not None:
                    warnings.append(f"{rel}: not a regular file; skipped")
                continue
            if not access(path, os.R_OK):  # left out, so an index never answers from it
                if warnings is not None:
                    warnings.append(f"{rel}: cannot read (permission denied); skipped")
                continue
            has_python = True
            yield _source_file(rel, path, fst)
        # the stamp watches directories that hold Python or lead to more; a leaf of data files
        # (`locale/xx/LC_MESSAGES`) gaining a `.py` is seen by the next full walk, not the stamp
        if dirs is not None and (has_python or subdirs or not rel_dir):
            dirs.append((dir_abs, st.st_ctime_ns))  # (not the mtime: `tar x` puts that back)
            if has_python:
                py_dirs.add(dir_abs)
        stack.extend(reversed(subdirs))
    if dirs is not None:
        _keep_python_dirs(root_s, dirs, py_dirs)
    if seen is not None and warnings is not None and len(warnings) != n_warnings:
        seen.clean = False


def _name(e: os.DirEntry[str]) -> str:
    return e.name


def _keep_python_dirs(root_s: str, dirs: list[tuple[str, int]], py_dirs: set[str]) -> None:
    # ...and likewise a subtree with no Python at all (Django's 1,100 `contrib/*/locale/xx`
    # folders): a warm process stats what is left on every question
    keep = {root_s}
    for d in py_dirs:
        while d not in keep and len(d) > len(root_s):
            keep.add(d)
            d = os.path.dirname(d)
    dirs[:] = [(d, m) for d, m in dirs if d in keep]


# ---- the walk's memo ------------------------------------------------------------------------
# Bump when what a walk keeps or skips changes (SKIP_DIRS is part of the memo itself).
_MEMO_VERSION = 1
# A directory changed within a clock tick of the walk could change again unseen (its times
# unmoved): such a walk is not remembered, the next one lists everything again.
_RACY_NS = 100_000_000


def _key(path: str) -> list[int]:
    """An ignore file's (device, inode, size, mtime, ctime); [] when it cannot be stat'ed."""
    try:
        st = os.stat(path)
    except OSError:
        return []
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def _who() -> list[object]:
    """Who walks: what a file's readability depends on besides its own mode (root without the
    capability to override permission bits reads less than root)."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as fh:
            caps = [ln for ln in fh.read().splitlines() if ln.startswith("CapEff")]
    except OSError:
        caps = []
    return [os.geteuid(), os.getegid(), sorted(os.getgroups()), caps]


def _memo_head(root_s: str) -> list[object]:
    return [_MEMO_VERSION, root_s, sorted(SKIP_DIRS), _who()]


def _remember(root: Path, memo: Path, seen: _Seen, found: list[SourceFile], dirs: list[tuple[str, int]] | None) -> None:
    import json

    times = [t for d in seen.dirs for t in d[3:]] + [t for _, k in seen.ignores for t in k[3:]]
    fresh = any(t >= seen.started_ns - _RACY_NS for t in times)
    if not seen.clean or fresh:
        memo.unlink(missing_ok=True)
        return
    root_s = str(root)
    index = {rel: i for i, (rel, *_) in enumerate(seen.dirs)}
    kept = []
    if dirs is not None:
        n = len(root_s) + 1
        kept = [index.get(d[n:] if d != root_s else "", -1) for d, _ in dirs]
        if -1 in kept:  # a watched folder the walk did not list: nothing to replay it from
            memo.unlink(missing_ok=True)
            return
    data = {
        "head": _memo_head(root_s),
        "dirs": seen.dirs,
        "ignores": seen.ignores,
        "files": [[sf.rel_path, sf.ctime_ns] for sf in found],
        "kept": kept if dirs is not None else None,
    }
    tmp = memo.with_name(f"{memo.name}.tmp-{os.getpid()}-{time.monotonic_ns()}")
    from codehop.index.confine import write_own

    try:
        write_own(tmp, json.dumps(data, separators=(",", ":")).encode("utf-8"))
        os.replace(tmp, memo)  # (a rename replaces a link at `memo` itself, never its target)
    except OSError:  # a read-only index folder, a full disk: every run walks
        tmp.unlink(missing_ok=True)
    except BaseException:  # interrupted: nothing left behind
        tmp.unlink(missing_ok=True)
        raise


def _replay(root: Path, memo: Path, dirs: list[tuple[str, int]] | None) -> list[SourceFile] | None:
    """The files the remembered walk found, fresh from one stat each, or None when anything it
    listed or read changed (or who walks did, or the memo is not ours)."""
    import json

    from codehop.index.confine import read_own

    try:
        data = json.loads(read_own(memo))
    except (OSError, ValueError):
        return None
    root_s = str(root)
    try:
        if data["head"] != _memo_head(root_s) or (dirs is not None and data["kept"] is None):
            return None
        stat_ = os.stat
        mtimes = {}
        for rel_dir, dev, ino, mtime, ctime in data["dirs"]:
            if ".." in rel_dir and ".." in rel_dir.split("/"):
                return None
            path = f"{root_s}/{rel_dir}" if rel_dir else root_s
            st = stat_(path)
            if st.st_ctime_ns != ctime or st.st_mtime_ns != mtime or st.st_ino != ino or st.st_dev != dev:
                return None
            mtimes[rel_dir] = path, ctime
        for path, key in data["ignores"]:
            if _key(path) != key:
                return None
        out = []
        isreg = stat.S_ISREG
        for rel, ctime in data["files"]:
            if rel.rpartition("/")[0] not in mtimes:  # only a file of a directory it listed
                return None
            path = f"{root_s}/{rel}"
            st = stat_(path)
            if st.st_ctime_ns != ctime and not (isreg(st.st_mode) and os.access(path, os.R_OK)):
                return None  # its mode changed: a walk decides whether it stays
            out.append(_source_file(rel, path, st))
        if dirs is not None:
            rels = [data["dirs"][i][0] for i in data["kept"]]
            dirs.extend(mtimes[r] for r in rels)
    except (OSError, KeyError, TypeError, ValueError, IndexError):
        return None
    return out


class TreeStamp(NamedTuple):
    """What a walk saw: each directory's ctime and each file's size, mtime, ctime and inode.

    Adding, removing or renaming a file changes its directory's ctime (its mtime too, but a
    restore, `tar x`, puts that back; no call sets a ctime), and an edit changes the file's own; so `unchanged()` answers "would a walk find
    anything new?" with one stat per directory and per file, and no listing.
    """

    dirs: tuple[tuple[str, int], ...]
    files: tuple[SourceFile, ...]

    def dirs_unchanged(self) -> bool:
        try:
            return all(os.stat(path).st_ctime_ns == ctime for path, ctime in self.dirs)
        except OSError:
            return False

    def unchanged(self) -> bool:
        if not self.dirs_unchanged():
            return False
        try:
            stat = os.stat
            for sf in self.files:  # a warm question stats every file: `sf[2:]` is its stamp, read in C
                st = stat(sf[1])
                if (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino) != sf[2:]:
                    return False
        except OSError:
            return False
        return True

    def restat(self) -> list[SourceFile] | None:
        """The same files with fresh sizes and times, or None when a walk is needed."""
        if not self.dirs_unchanged():
            return None
        out = []
        for sf in self.files:
            try:
                st = os.stat(sf.abs_path)
            except OSError:
                return None
            if (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino) == sf.stamp:
                out.append(sf)  # as it was (most files, after one edit)
                continue
            if st.st_ctime_ns != sf.ctime_ns and not os.access(sf.abs_path, os.R_OK):
                return None  # its mode changed: a walk decides whether it stays
            out.append(
                SourceFile(
                    rel_path=sf.rel_path,
                    abs_path=sf.abs_path,
                    size=st.st_size,
                    mtime_ns=st.st_mtime_ns,
                    ctime_ns=st.st_ctime_ns,
                    inode=st.st_ino,
                )
            )
        return out


def confine(root: Path, rel_or_abs: str) -> Path:
    """A path inside `root`, or OutsideRepoError; resolves `..` and symlinks."""
    from codehop.kernel.errors import OutsideRepoError, UsageError

    if "\x00" in rel_or_abs:  # the OS would raise ValueError; a user or an agent typed it
        raise UsageError(f"a path cannot contain a NUL byte: {rel_or_abs!r}", path=rel_or_abs)
    p = Path(rel_or_abs)
    full = (p if p.is_absolute() else root / p).resolve()
    if full != root and root not in full.parents:
        raise OutsideRepoError(f"path is outside the repository: {rel_or_abs}", path=rel_or_abs)
    return full


def split_lines(text: str) -> list[str]:
    """Lines numbered as the index numbers them: split on newlines only (a form feed or U+2028
    inside a line does not start another, as it would for str.splitlines), a CR before one dropped."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]


_LINES: dict[str, tuple[tuple[int, int, int, int], list[str]]] = {}  # path -> (stat, lines): `file_lines`
_LINES_MAX = 256  # files kept (an editor's request reads the same few files many times)


def file_lines(path: Path) -> list[str]:
    """The one reader of source lines: `split_lines` of a file decoded as UTF-8 (undecodable bytes
    replaced); [] when the file cannot be read. Kept by stat (size, mtime, ctime, inode): a call
    hierarchy converts each of its items and sites through here, a hundred reads of a few files."""
    try:
        st = path.stat()
        stamp = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
        kept = _LINES.get(str(path))
        if kept is not None and kept[0] == stamp:
            return list(kept[1])
        lines = split_lines(path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return []
    if len(_LINES) >= _LINES_MAX:
        _LINES.clear()
    _LINES[str(path)] = (stamp, lines)
    return list(lines)


_CONFINED: dict[tuple[Path, str], tuple[float, Path]] = {}  # (root, rel_path) -> (until, path)
_CONFINED_S = 2.0  # `confine` resolves every component of a path: one answer serves this long


def repo_lines(root: Path, rel_path: str) -> list[str]:
    """`file_lines` of a repository file, through `confine` (a path outside reads nothing). A
    path confined in the last _CONFINED_S is not resolved again: an editor's request reads a few
    files a hundred times. The kept path is the resolved one, inside the root (a component turned
    into a symbolic link within that window is the race an open after `confine` has anyway)."""
    from codehop.kernel.errors import CodehopError

    now = time.monotonic()
    kept = _CONFINED.get((root, rel_path))
    if kept is not None and kept[0] > now:
        return file_lines(kept[1])
    try:
        full = confine(root, rel_path)
    except CodehopError:
        return []
    if len(_CONFINED) >= _LINES_MAX:
        _CONFINED.clear()
    _CONFINED[(root, rel_path)] = (now + _CONFINED_S, full)
    return file_lines(full)


def line_of(lines: list[str], line: int) -> str | None:
    """Line `line` (1-based) of `lines`, or None past either end."""
    return lines[line - 1] if 1 <= line <= len(lines) else None
