"""SQLite's exceptions become codehop's here, at the store's boundary: no layer above the store
sees a `sqlite3` exception.

    sqlite3.Error on the index at `path`
    ├── out of room (SQLITE_FULL; SQLITE_IOERR when the disk or the
    │   file size limit says so)                    -> IndexWriteError (names the folder)
    ├── read-only (SQLITE_READONLY)                  -> IndexSchemaError (where to write instead)
    ├── busy past the timeout (SQLITE_BUSY, _LOCKED) -> IndexSchemaError (run it again)
    └── anything else (malformed, not a database,
        an I/O error, a missing table, ...)          -> IndexDamagedError (front-ends repair once)

`SqliteStore` translates on every public method and around its snapshot and transaction bodies
(`translating`, `translated`); the indexer's few statements outside them go through `translated`.
May import: errors, stdlib (sqlite3).
"""

from __future__ import annotations

import functools
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol, TypeVar

from codehop.kernel.errors import IndexDamagedError, IndexSchemaError, IndexWriteError


def index_error(exc: sqlite3.Error, path: Path) -> IndexSchemaError:
    """codehop's error for what SQLite raised on the index file at `path` (SQLite's words kept)."""
    code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF
    if code in (sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR):
        why = room_left(path.parent) or ("no space left on the device" if code == sqlite3.SQLITE_FULL else "")
        if why:
            return out_of_room(path.parent, why, exc)
    if code == sqlite3.SQLITE_READONLY:
        return IndexSchemaError(
            f"the index cannot be written: its file or folder is read-only ({exc}); "
            "make it writable, or pass --index-dir DIR on a writable folder",
            path=str(path),
        )
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return IndexSchemaError(
            f"the index is busy: another process held it longer than the timeout ({exc}); run the command again",
            path=str(path),
        )
    return IndexDamagedError(str(exc), path=str(path))


def out_of_room(idx_dir: Path, why: str, exc: BaseException) -> IndexWriteError:
    """The error of a write that failed for want of room; `exc`'s words are kept at the end."""
    return IndexWriteError(
        f"cannot write the index in {idx_dir}: {why} ({exc}); nothing was replaced, "
        "free some space (or pass --index-dir DIR on another device) and run the command again",
        path=str(idx_dir),
    )


def room_left(idx_dir: Path) -> str:
    """Why a write in `idx_dir` may have failed for want of room, or '' when there is room."""
    import resource

    try:
        st = os.statvfs(idx_dir)
        if st.f_bavail * st.f_frsize < 1 << 20:
            return "no space left on the device"
    except OSError:
        pass
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    if soft != resource.RLIM_INFINITY:
        return f"no space left under the process's file size limit ({soft} bytes, RLIMIT_FSIZE)"
    return ""


@contextmanager
def translated(path: Path) -> Iterator[None]:
    """Run the block with SQLite's errors on the index at `path` raised as codehop's."""
    try:
        yield
    except sqlite3.Error as exc:
        raise index_error(exc, path) from exc


class _HasPath(Protocol):
    path: Path


F = TypeVar("F", bound=Callable[..., Any])
C = TypeVar("C", bound=type)


def _guarded(fn: F) -> F:
    @functools.wraps(fn)
    def guarded(self: _HasPath, *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(self, *args, **kwargs)
        except sqlite3.Error as exc:
            raise index_error(exc, self.path) from exc

    return guarded  # type: ignore[return-value]


def translating(*, skip: frozenset[str]) -> Callable[[C], C]:
    """A class decorator: every public method of the class (its own, plain functions; not those
    in `skip`, which translate inside) raises codehop's errors instead of SQLite's, naming the
    file at `self.path`. A method returns its rows read whole, so nothing is read after it."""

    def decorate(cls: C) -> C:
        for name, value in list(vars(cls).items()):
            if not name.startswith("_") and name not in skip and callable(value) and not isinstance(value, type):
                setattr(cls, name, _guarded(value))
        return cls

    return decorate
