"""What codehop opens, writes and renames of its own, never through a symbolic link.

A repository is data: a `.codehop` folder, an `index.db` (or its `-wal`, `-shm`, `-journal`,
`-verified`), a `walk-memo.json` or an ignore file may be a link planted to make codehop write,
rename or read somewhere else. The index folder is refused when it is a link (unless the user
named it: `--index-dir`), and so is any of our files in it that is a link or not a regular file;
our small files are opened with `O_NOFOLLOW` (and `O_NONBLOCK`: a FIFO never blocks a read).
May import: errors, stdlib.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from codehop.kernel.errors import IndexLocationError

# every file codehop keeps in an index folder, besides `index.db.tmp-*` and `.probe-*`
INDEX_FILES = (
    "index.db",
    "index.db-wal",
    "index.db-shm",
    "index.db-journal",
    "index.db-verified",
    "walk-memo.json",
    "landings.db",
    "landings.db-wal",
    "landings.db-shm",
    "landings.db-journal",
    "landings.lock",
)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def refuse_linked_folder(folder: Path, named_by: str) -> None:
    """IndexLocationError when `folder` (an index folder codehop chose: `<repo>/.codehop`, a
    subfolder of CODEHOP_INDEX_DIR or of the per-user cache) is a symbolic link."""
    try:
        st = os.lstat(folder)
    except OSError:
        return  # absent (created next) or unreachable (probing says why)
    if stat.S_ISLNK(st.st_mode):
        where = f" (named by {named_by})" if named_by else ""
        raise IndexLocationError(
            f"refusing the index folder {folder}{where}: it is a symbolic link (to {os.readlink(folder)}); "
            "codehop writes its index only in a real folder; remove the link, or pass --index-dir DIR",
            path=str(folder),
        )


def foreign_file(path: Path) -> bool:
    """Whether `path` exists as something other than a regular file (a link, a FIFO, a folder)."""
    try:
        return not stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def refuse_foreign_files(folder: Path) -> None:
    """IndexLocationError when one of codehop's files in `folder` is a symbolic link or not a
    regular file (a FIFO, a device, a folder): SQLite and our readers would follow or block on it."""
    for name in INDEX_FILES:
        path = folder / name
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            continue
        what = f"a symbolic link (to {os.readlink(path)})" if stat.S_ISLNK(st.st_mode) else "not a regular file"
        raise IndexLocationError(
            f"refusing {path}: it is {what}; codehop never reads or writes its index through one; "
            "remove it (the index is rebuilt)",
            path=str(path),
        )


def read_own(path: Path, limit: int = 1 << 24) -> bytes:
    """Up to `limit` bytes of one of codehop's own small files (a memo), never through a link
    nor from anything but a regular file (OSError otherwise)."""
    fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path}: not a regular file")
        chunks = []
        left = limit
        while left > 0:
            data = os.read(fd, min(left, 1 << 20))
            if not data:
                break
            chunks.append(data)
            left -= len(data)
        return b"".join(chunks)
    finally:
        os.close(fd)


def write_own(path: Path, data: bytes) -> None:
    """Create (or truncate) one of codehop's own small files, never through a link (OSError)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW | _NONBLOCK | _CLOEXEC, 0o644)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path}: not a regular file")
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def replace_own(src: Path, dst: Path) -> None:
    """`os.replace` of one of our files: the rename itself never follows a link; a `src` that is
    not a regular file (a link planted under our name) is removed instead of moved."""
    st = os.lstat(src)
    if not stat.S_ISREG(st.st_mode):
        os.unlink(src)
        return
    os.replace(src, dst)


def live_lock(lock: Path) -> bool:
    """True while the process whose pid `lock` holds runs (a lock left by a dead one is stale);
    read never through a link (a planted one is no lock)."""
    try:
        pid = int(read_own(lock, 32).decode().strip() or 0)
    except (OSError, ValueError, UnicodeDecodeError):
        return False
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
