"""codehop's exception tree (stdlib only). Inner layers raise; front-ends convert.

CodehopError                 exit 1
├── RepoNotFoundError        exit 2   the repository path is missing or not a directory
├── UsageError               exit 2   a bad argument (PATH:LINE:COL, unknown symbol form, ...)
├── OutsideRepoError         exit 2   a path that leaves the indexed roots
├── IndexSchemaError         exit 3   an index that cannot be opened, read or rebuilt (busy past the timeout)
│   ├── IndexLocationError   exit 3   a named index folder that cannot be created or written
│   ├── IndexWriteError      exit 3   the index could not be written (no space left)
│   └── IndexDamagedError    exit 3   SQLite could not read the index: each front-end repairs it once
├── LanguageServerError      exit 4   a language server failed (start, crash, timeout, garbage)
└── GenerationError          exit 5   the model could not produce a valid answer

A bound hit (budget, hops, time) is no error: the answer says `give_up_partial` and why.
SQLite's own exceptions never leave the store (`codehop.index.store.failures` translates them).
"""

from __future__ import annotations


class CodehopError(Exception):
    exit_code = 1

    def __init__(self, message: str, **context: object) -> None:
        super().__init__(message)
        self.message = message
        self.context = context


class RepoNotFoundError(CodehopError):
    exit_code = 2


class UsageError(CodehopError):
    exit_code = 2


class OutsideRepoError(CodehopError):
    exit_code = 2


class IndexSchemaError(CodehopError):
    exit_code = 3


class IndexLocationError(IndexSchemaError):
    """`--index-dir` or `CODEHOP_INDEX_DIR` names a place codehop cannot write (a file, a
    read-only folder); the message says what to do instead."""


class IndexWriteError(IndexSchemaError):
    """A write of the index failed for want of room (a full disk, a file size limit); the message
    names the folder, and nothing was replaced."""


class IndexDamagedError(IndexSchemaError):
    """SQLite failed on the index file (a malformed page, not a database, an I/O error): the
    front-end asks `repair_index`, which moves the file aside only when a check finds it damaged,
    and runs the command once more; when the file is sound the message stands. `reason` is
    SQLite's word for it."""

    def __init__(self, reason: str, **context: object) -> None:
        super().__init__(f"the index could not be read: {reason}", **context)
        self.reason = reason


class LanguageServerError(CodehopError):
    exit_code = 4


class GenerationError(CodehopError):
    exit_code = 5
