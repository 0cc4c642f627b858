"""Repository walk: which `.py` files belong to the index.

Honours `.gitignore` files at every level and a `.codehopignore` at the root;
skips `.git`, virtualenvs, `__pycache__`, build output and our own `.codehop/`.
Never follows a symlink that leaves the root. May import: records, errors,
stdlib, pathspec.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pathspec import GitIgnoreSpec

from codehop.errors import RepoNotFoundError

SKIP_DIRS = frozenset(
    {".git", ".hg", ".svn", ".codehop", "__pycache__", ".venv", "venv", ".tox", ".nox",
     "node_modules", "build", "dist", ".eggs", ".mypy_cache", ".pytest_cache", ".ruff_cache",
     "site-packages"}
)


@dataclass(frozen=True, slots=True, kw_only=True)
class SourceFile:
    rel_path: str
    abs_path: str
    size: int
    mtime_ns: int


def repo_root(path: str | os.PathLike[str]) -> Path:
    """The resolved repository root, or RepoNotFoundError (exit 2)."""
    p = Path(path).expanduser()
    if not p.exists():
        raise RepoNotFoundError(f"repository path does not exist: {p}", path=str(p))
    if not p.is_dir():
        raise RepoNotFoundError(f"repository path is not a directory: {p}", path=str(p))
    return p.resolve()


def _spec(dir_path: str, name: str) -> GitIgnoreSpec | None:
    try:
        with open(os.path.join(dir_path, name), encoding="utf-8", errors="replace") as fh:
            return GitIgnoreSpec.from_lines(fh)
    except OSError:
        return None


def walk_python_files(root: Path, warnings: list[str] | None = None) -> Iterator[SourceFile]:
    """Every indexable `.py` file under `root`, in a stable order."""
    root_s = str(root)
    specs: list[tuple[str, GitIgnoreSpec]] = []  # (dir rel prefix, spec)
    top = _spec(root_s, ".codehopignore")
    if top is not None:
        specs.append(("", top))
    seen_dirs: set[tuple[int, int]] = set()

    def ignored(rel: str, is_dir: bool) -> bool:
        probe = rel + "/" if is_dir else rel
        for prefix, spec in specs:
            if prefix and not probe.startswith(prefix):
                continue
            if spec.match_file(probe[len(prefix):]):
                return True
        return False

    for dirpath, dirnames, filenames in os.walk(root_s, followlinks=False):
        rel_dir = os.path.relpath(dirpath, root_s).replace(os.sep, "/")
        rel_dir = "" if rel_dir == "." else rel_dir
        try:
            st = os.stat(dirpath)
            key = (st.st_dev, st.st_ino)
            if key in seen_dirs:
                dirnames[:] = []
                continue
            seen_dirs.add(key)
        except OSError:
            dirnames[:] = []
            continue
        spec = _spec(dirpath, ".gitignore")
        if spec is not None:
            specs.append((rel_dir + "/" if rel_dir else "", spec))
        keep = []
        for d in sorted(dirnames):
            rel = f"{rel_dir}/{d}" if rel_dir else d
            full = os.path.join(dirpath, d)
            if d in SKIP_DIRS or d.endswith(".egg-info") or os.path.islink(full):
                continue
            if os.path.exists(os.path.join(full, "pyvenv.cfg")) or ignored(rel, True):
                continue
            keep.append(d)
        dirnames[:] = keep
        for f in sorted(filenames):
            if not f.endswith(".py"):
                continue
            rel = f"{rel_dir}/{f}" if rel_dir else f
            full = os.path.join(dirpath, f)
            if ignored(rel, False):
                continue
            if os.path.islink(full):
                real = os.path.realpath(full)
                if not (real == root_s or real.startswith(root_s + os.sep)):
                    if warnings is not None:
                        warnings.append(f"{rel}: symlink leaves the repository; not followed")
                    continue
            try:
                st = os.stat(full)
            except OSError as exc:
                if warnings is not None:
                    warnings.append(f"{rel}: cannot stat ({exc.strerror}); skipped")
                continue
            yield SourceFile(rel_path=rel, abs_path=full, size=st.st_size, mtime_ns=st.st_mtime_ns)


def confine(root: Path, rel_or_abs: str) -> Path:
    """A path inside `root`, or OutsideRepoError; resolves `..` and symlinks."""
    from codehop.errors import OutsideRepoError

    p = Path(rel_or_abs)
    full = (p if p.is_absolute() else root / p).resolve()
    if full != root and root not in full.parents:
        raise OutsideRepoError(f"path is outside the repository: {rel_or_abs}", path=rel_or_abs)
    return full
