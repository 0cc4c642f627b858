"""Ignore files (`.gitignore`, `.codehopignore`): which may be read, and their patterns matched in
time linear in the path.

Read only a regular file whose real path stays in the repository, up to `MAX_IGNORE_BYTES`;
anything else (a link out, a FIFO, a device, a folder, a larger file) is refused with a
`UsageError` naming it, before a byte is read.

Patterns follow gitignore(5): `#` comments, `!` negation (the last matching pattern decides),
a trailing `/` for folders only, a pattern with a `/` before its end anchored to the ignore
file's folder, `**` for any number of folders, `*`, `?` and `[...]` within one name. The walk
asks about a folder before it lists it and never enters an ignored one (as git does), so a
pattern without a `/` is matched against the last name only. Matching never backtracks: a name
pattern is split at its `*`s into fixed-length pieces, each middle piece taken at its leftmost
place inside an atomic group (which is always right for fixed-length pieces), and a path pattern
is run as a set of states over the path's names. `*a*a*a*a*a*a*a*a*a*a*a*a*b` against 32 a's
costs microseconds (a backtracking regex took 13 s).
May import: errors, stdlib.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable

from codehop.kernel.errors import UsageError

MAX_IGNORE_BYTES = 1 << 20  # 1 MiB: git's own ignore files are a few kilobytes

_STAR = 0  # `**` as a whole name: zero or more names
_ANY = 1  # one name, whatever it is (the first of a trailing `/**`)


def read_ignore_file(path: str, root: str) -> list[str] | None:
    """The lines of the ignore file at `path` (None when there is none), or UsageError when it is
    a link leaving `root`, not a regular file, or over the cap."""
    rel = os.path.relpath(path, root)
    try:
        lst = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise UsageError(f"cannot read the ignore file {rel} ({exc.strerror})", path=path) from exc
    target = path
    if stat.S_ISLNK(lst.st_mode):
        target = os.path.realpath(path)
        if not (target == root or target.startswith(root.rstrip(os.sep) + os.sep)):
            raise UsageError(
                f"refusing the ignore file {rel}: it is a symbolic link leaving the repository (to {target}); "
                "codehop reads nothing outside the repository",
                path=path,
            )
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(target, flags)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise UsageError(f"cannot read the ignore file {rel} ({exc.strerror})", path=path) from exc
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UsageError(f"refusing the ignore file {rel}: it is not a regular file", path=path)
        if st.st_size > MAX_IGNORE_BYTES:
            raise UsageError(
                f"refusing the ignore file {rel}: {st.st_size} bytes is over the {MAX_IGNORE_BYTES}-byte cap",
                path=path,
            )
        data = os.read(fd, MAX_IGNORE_BYTES + 1)
        if len(data) > MAX_IGNORE_BYTES:
            raise UsageError(f"refusing the ignore file {rel}: it grew past the {MAX_IGNORE_BYTES}-byte cap")
    except OSError as exc:
        raise UsageError(f"cannot read the ignore file {rel} ({exc.strerror})", path=path) from exc
    finally:
        os.close(fd)
    return data.decode("utf-8", "replace").splitlines()


class IgnoreSpec:
    """The patterns of one ignore file; `match(rel, is_dir)` with `rel` relative to its folder.

    A pattern repeated is kept once, at its last place (an earlier copy can never be the last
    match); a run of name patterns alike (negated or not, folders only or not) is one set of
    literal names and a few regexes of at most `_RUN` alternatives each; over `MAX_IGNORE_PATTERNS`
    distinct patterns or `MAX_IGNORE_WILDCARDS` wildcards the file is refused (UsageError:
    compiling them would take seconds)."""

    __slots__ = ("_rules",)

    def __init__(self, lines: Iterable[str], source: str = "") -> None:
        parsed: list[_Rule] = []
        seen: set[_Rule] = set()
        for line in reversed(list(lines)):
            rule = _rule(line)
            if rule is None or rule in seen:
                continue
            seen.add(rule)
            parsed.append(rule)
        wildcards = sum(r[3].count(".*") + sum(str(t).count(".*") + 1 for t in r[4]) for r in parsed)
        if len(parsed) > MAX_IGNORE_PATTERNS or wildcards > MAX_IGNORE_WILDCARDS:
            raise UsageError(
                f"refusing the ignore file {source}: {len(parsed)} distinct patterns with {wildcards} wildcards "
                f"is over the cap ({MAX_IGNORE_PATTERNS} patterns, {MAX_IGNORE_WILDCARDS} wildcards)",
                path=source,
            )
        parsed.reverse()
        # (negated, folders only, literal names, name regexes, path tokens): last first
        rules: list[tuple[bool, bool, frozenset[str], tuple[re.Pattern[str], ...], tuple[object, ...]]] = []
        i = 0
        while i < len(parsed):
            neg, dir_only, _, _, tokens = parsed[i]
            if tokens:
                path = tuple(t if isinstance(t, int) else re.compile(str(t), re.DOTALL) for t in tokens)
                rules.append((neg, dir_only, frozenset(), (), path))
                i += 1
                continue
            names: set[str] = set()
            regexes: list[str] = []
            while i < len(parsed) and parsed[i][:2] == (neg, dir_only) and not parsed[i][4]:
                _, _, literal, rx, _ = parsed[i]
                if literal is not None:
                    names.add(literal)
                else:
                    regexes.append(rx)
                i += 1
            compiled = tuple(
                re.compile("|".join(regexes[j : j + _RUN]), re.DOTALL) for j in range(0, len(regexes), _RUN)
            )
            rules.append((neg, dir_only, frozenset(names), compiled, ()))
        self._rules = tuple(reversed(rules))  # the last matching pattern decides

    def match(self, rel: str, is_dir: bool) -> bool:
        name = rel.rpartition("/")[2]
        parts: list[str] | None = None
        for neg, dir_only, names, regexes, tokens in self._rules:
            if dir_only and not is_dir:
                continue
            if tokens:
                if parts is None:
                    parts = rel.split("/")
                hit = _match_parts(tokens, parts)
            else:
                hit = name in names or any(rx.fullmatch(name) is not None for rx in regexes)
            if hit:
                return not neg
        return False


MAX_IGNORE_PATTERNS = 10_000
MAX_IGNORE_WILDCARDS = 20_000  # `*`s over the whole file: compiling them costs about 0.1 ms each
_RUN = 256  # alternatives a regex: compiling grows faster than its size
# (negated, folders only, the name when it has no wildcard, a regex on the last name ('' for a path
# pattern), the path pattern's tokens: _STAR, _ANY or a regex on one name)
_Rule = tuple[bool, bool, str | None, str, tuple[object, ...]]


def _rule(line: str) -> _Rule | None:
    if not line or line.startswith("#"):
        return None
    while line.endswith(" ") and not line.endswith("\\ "):
        line = line[:-1]
    neg = line.startswith("!")
    if neg:
        line = line[1:]
    elif line.startswith(("\\!", "\\#")):
        line = line[1:]
    dir_only = line.endswith("/")
    line = line.rstrip("/")
    if not line:
        return None
    anchored = "/" in line
    names = [n for n in line.split("/") if n]
    if not names:
        return None
    if not anchored:
        if names[0] == "**":
            return neg, dir_only, None, "(?s:.*)", ()
        literal = None if any(c in names[0] for c in "*?[\\") else names[0]
        return neg, dir_only, literal, _name_regex(names[0]), ()
    tokens: list[object] = []
    for i, name in enumerate(names):
        if name == "**":
            if i == len(names) - 1:
                tokens.append(_ANY)  # `a/**`: everything inside `a`, not `a` itself
            if not tokens or tokens[-1] is not _STAR:
                tokens.append(_STAR)
        else:
            tokens.append(_name_regex(name))
    return neg, dir_only, None, "", tuple(tokens)


def _match_parts(tokens: tuple[object, ...], parts: list[str]) -> bool:
    """Does the path (its names) match the tokens? A set of states, one pass over the names."""
    n = len(tokens)

    def closure(states: set[int]) -> set[int]:
        out = set(states)
        for i in sorted(states):
            j = i
            while j < n and tokens[j] is _STAR:
                j += 1
                out.add(j)
        return out

    states = closure({0})
    for part in parts:
        nxt: set[int] = set()
        for i in states:
            if i == n:
                continue
            tok = tokens[i]
            if tok is _STAR:
                nxt.add(i)
            elif tok is _ANY or tok.fullmatch(part) is not None:  # type: ignore[attr-defined]
                nxt.add(i + 1)
        if not nxt:
            return False
        states = closure(nxt)
    return n in states


def _name_regex(glob: str) -> str:
    """A regex for one name's glob that never backtracks more than one piece at a time: fixed-length
    pieces between `*`s; each middle piece at its leftmost place, in an atomic group."""
    pieces: list[list[str]] = [[]]
    i = 0
    while i < len(glob):
        c = glob[i]
        if c == "*":
            pieces.append([])
        elif c == "?":
            pieces[-1].append(".")
        elif c == "\\" and i + 1 < len(glob):
            i += 1
            pieces[-1].append(re.escape(glob[i]))
        elif c == "[":
            cls, end = _char_class(glob, i)
            if cls is None:  # an unclosed `[`: git's wildmatch matches nothing then
                pieces[-1].append("(?!)")
            else:
                pieces[-1].append(cls)
                i = end
        else:
            pieces[-1].append(re.escape(c))
        i += 1
    parts = ["".join(p) for p in pieces]
    if len(parts) == 1:
        return f"(?:{parts[0]})"
    middle = "".join(f"(?>.*?{p})" for p in parts[1:-1] if p)
    return f"(?:{parts[0]}{middle}.*{parts[-1]})"


def _char_class(glob: str, start: int) -> tuple[str | None, int]:
    """(`[...]` as a regex class, index of its `]`), or (None, start) when it is not closed."""
    i = start + 1
    negated = i < len(glob) and glob[i] in "!^"
    if negated:
        i += 1
    items: list[str] = []
    first = True
    while i < len(glob):
        c = glob[i]
        if c == "]" and not first:
            if not items:  # only reversed ranges: nothing (or, negated, anything)
                return ("." if negated else "(?!)"), i
            body = "".join(items)
            return (f"[^{body}]" if negated else f"[{body}]"), i
        first = False
        if c == "\\" and i + 1 < len(glob):
            i += 1
            c = glob[i]
        if i + 2 < len(glob) and glob[i + 1] == "-" and glob[i + 2] != "]":
            hi = glob[i + 2]
            if hi == "\\" and i + 3 < len(glob):
                hi = glob[i + 3]
                i += 1
            if ord(hi) >= ord(c):
                items.append(f"{re.escape(c)}-{re.escape(hi)}")
            i += 3
            continue
        items.append(re.escape(c))
        i += 1
    return None, start
