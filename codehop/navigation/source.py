"""Reading a repository's source for the dependents engine: a file's lines and its NAME/OP
tokens (cached by stat), the token shapes of a use (a bare name, a dotted name, a member on a
class or an instance), the scope around a line, and the one map of sites keyed by position
(`add_site`: a table row wins over a scan of the same spot).

`SourceScan` is the base of `DependentsFinder`; `callees` reads through it too.
May import: records, store, walk, paths, sites, stdlib.
"""

from __future__ import annotations

import bisect
import io
import re
import tokenize
from pathlib import Path
from typing import TYPE_CHECKING

from codehop.index.walk import file_lines
from codehop.kernel.paths import is_test_path
from codehop.navigation.sites import Found, Relation, Site

if TYPE_CHECKING:
    from codehop.index.store.sqlite import SqliteStore


Token = tuple[int, int, str, int]  # (line, col, text, kind: 1 name, 0 operator)

_STRING = re.compile(  # a string from its opening quote: triple-quoted first, escapes read
    r"'''[\s\S]*?(?<!\\)(?:\\\\)*'''|\"\"\"[\s\S]*?(?<!\\)(?:\\\\)*\"\"\""
    r"|'(?:[^'\\\n]|\\[\s\S])*'|\"(?:[^\"\\\n]|\\[\s\S])*\""
)
_STRING_PREFIXES = frozenset({"r", "b", "u", "f", "rb", "br", "fr", "rf"})
_TOKEN = re.compile(
    r"(?P<name>[^\W\d]\w*)|" + tokenize.Number + r"|(?P<op>" + tokenize.Special + r")|(?P<quote>['\"])|#[^\r\n]*"
)


def scan_tokens(text: str, first_line: int = 1) -> list[Token]:
    """The NAME and OP tokens of Python source, as `tokenize` gives them (Python 3.11: an f-string
    is one string), numbered from `first_line`: strings, comments and numbers are skipped by one
    regular expression. About 1.7x faster than `tokenize` (Django, 885 files: 1.5 s -> 0.9 s) and
    the same tokens on every file of Django, Starlette, codehop and the benchmark packages; a
    file of an `outgoing` or `incoming` request is tokenized on the request path."""
    starts = [0, *(m.end() for m in _NEWLINE.finditer(text))]
    shift = first_line - 1
    out: list[Token] = []
    append = out.append
    search, string = _TOKEN.search, _STRING.match
    pos = 0
    while (m := search(text, pos)) is not None:
        name, op, quote = m.group("name", "op", "quote")
        start, pos = m.start(), m.end()
        if name is not None:
            if text[pos : pos + 1] in ("'", '"') and name.lower() in _STRING_PREFIXES:
                s = string(text, pos)  # a prefixed string: rb"...", f'...'
                if s is None:
                    break  # unterminated: `tokenize` stops there too
                pos = s.end()
                continue
            line = bisect.bisect_right(starts, start)
            append((line + shift, start - starts[line - 1], name, 1))
        elif op is not None:
            line = bisect.bisect_right(starts, start)
            append((line + shift, start - starts[line - 1], op, 0))
        elif quote is not None:
            s = string(text, start)
            if s is None:
                break
            pos = s.end()
    return out


_NEWLINE = re.compile("\n")


def _tokenize_until_error(source: bytes) -> list[Token]:
    """`tokenize`'s NAME and OP tokens up to its first error (a file that does not decode)."""
    out: list[Token] = []
    try:
        for tok in tokenize.tokenize(io.BytesIO(source).readline):
            if tok.type == tokenize.NAME:
                out.append((tok.start[0], tok.start[1], tok.string, 1))
            elif tok.type == tokenize.OP:
                out.append((tok.start[0], tok.start[1], tok.string, 0))
    except (tokenize.TokenError, SyntaxError, UnicodeDecodeError, ValueError):
        pass  # keep what was read before the error
    return out


def _tokens_of_lines(lines: list[str], first: int, last: int) -> list[Token]:
    """The NAME and OP tokens of lines first..last alone (a declaration's span), numbered as in the file."""
    return scan_tokens("\n".join(lines[first - 1 : last]) + "\n", first)


class SourceScan:
    """The source files of one index's repository, read and tokenized on demand, cached by stat."""

    def __init__(self, store: SqliteStore, root: Path) -> None:
        self.store = store
        self.root = Path(root)
        self._tokens: dict[tuple[str, int, int], list[tuple[int, int, str, int]]] = {}
        self._lines: dict[str, tuple[int, list[str]]] = {}  # rel_path -> (mtime_ns, lines)

    def tokens(self, rel_path: str) -> list[tuple[int, int, str, int]]:
        """(line, col, text, kind) of the file's NAME (kind 1) and OP (kind 0) tokens, cached by stat."""
        return self._tokens_of(rel_path)

    def span_tokens(self, rel_path: str, first: int, last: int) -> list[tuple[int, int, str, int]]:
        """`tokens` on lines first..last only (a declaration's body): sliced from the file's when
        they are kept, else read from those lines alone (a request on a body of a 2000-line file
        tokenizes its 30 lines, not the file: tokenizing was most of a first outgoing request's time
        on Django). A span that does not tokenize alone (it starts inside a bracket) gets the file's."""
        path = self.root / rel_path
        try:
            st = path.stat()
        except OSError:
            return []
        whole = self._tokens.get((rel_path, st.st_mtime_ns, st.st_size))
        if whole is None:
            key = (f"{rel_path}\0{first}:{last}", st.st_mtime_ns, st.st_size)
            whole = self._tokens.get(key)
            if whole is None:
                whole = _tokens_of_lines(self._file_lines(rel_path), first, last)
                if len(self._tokens) > 2000:
                    self._tokens.clear()
                self._tokens[key] = whole
        lo = bisect.bisect_left(whole, (first,))
        hi = bisect.bisect_left(whole, (last + 1,))
        return whole[lo:hi]

    def _tokens_of(self, rel_path: str) -> list[tuple[int, int, str, int]]:
        """(line, col, text, kind) of the file's NAME and OP tokens (kind: 1 name, 0 op); cached by stat."""
        path = self.root / rel_path
        try:
            st = path.stat()
        except OSError:
            return []
        key = (rel_path, st.st_mtime_ns, st.st_size)
        hit = self._tokens.get(key)
        if hit is not None:
            return hit
        try:
            source = path.read_bytes()
            encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
            out = scan_tokens(source.decode(encoding).removeprefix("\ufeff"))
        except OSError:
            out = []
        except (SyntaxError, UnicodeDecodeError, LookupError):
            out = _tokenize_until_error(source)
        if len(self._tokens) > 2000:
            self._tokens.clear()
        self._tokens[key] = out
        return out

    def _name_tokens(self, rel_path: str, names: set[str]) -> list[tuple[int, int, str, int]]:
        """Loads of a bare name: not an attribute (`x.name`), not a keyword argument, not a def."""
        toks = self._tokens_of(rel_path)
        out = []
        for i, (line, col, text, kind) in enumerate(toks):
            if kind != 1 or text not in names:
                continue
            prev = toks[i - 1][2] if i else ""
            nxt = toks[i + 1][2] if i + 1 < len(toks) else ""
            if prev in (".", "def", "class", "import", "as") or (nxt == "=" and prev in ("(", ",")):
                continue
            out.append((line, col, text, ord(nxt[0]) if nxt else 0))
        return out

    def _dotted_tokens(self, rel_path: str, head: str, name: str) -> list[tuple[int, int, str, int]]:
        toks = self._tokens_of(rel_path)
        parts = head.split(".") + [name]
        out = []
        n = 2 * len(parts) - 1
        for i in range(len(toks) - n + 1):
            if toks[i][2] != parts[0] or (i and toks[i - 1][2] == "."):
                continue
            window = [t[2] for t in toks[i : i + n]]
            if window[0::2] == parts and all(w == "." for w in window[1::2]):
                nxt = toks[i + n][2] if i + n < len(toks) else ""
                last = toks[i + n - 1]
                out.append((last[0], last[1], ".".join(parts), ord(nxt[0]) if nxt else 0))
        return out

    def _member_tokens(self, rel_path: str, classes: set[str], members: set[str]) -> list[tuple[int, int, str]]:
        """`C.m`, `C(...).m`, and `v.m` after `v = C(...)` or `with C(...) as v` in the same scope;
        the column is the member's."""
        toks = self._tokens_of(rel_path)
        out: list[tuple[int, int, str]] = []
        instances: dict[str, int] = {}  # variable -> line where it was bound to an instance
        for i, (line, _col, text, kind) in enumerate(toks):
            if kind != 1 or text not in classes or (i and toks[i - 1][2] == "."):
                continue
            j = i + 1
            if j + 1 < len(toks) and toks[j][2] == "." and toks[j + 1][2] in members:
                out.append((toks[j + 1][0], toks[j + 1][1], f"{text}.{toks[j + 1][2]}"))
                continue
            if j < len(toks) and toks[j][2] == "(":
                depth, k = 0, j
                while k < len(toks):
                    if toks[k][2] in "([{" and toks[k][3] == 0:
                        depth += 1
                    elif toks[k][2] in ")]}" and toks[k][3] == 0:
                        depth -= 1
                        if depth == 0:
                            break
                    k += 1
                if k + 2 < len(toks) and toks[k + 1][2] == "." and toks[k + 2][2] in members:
                    out.append((toks[k + 2][0], toks[k + 2][1], f"{text}().{toks[k + 2][2]}"))
                elif i >= 2 and toks[i - 1][2] == "=" and toks[i - 2][3] == 1:
                    instances[toks[i - 2][2]] = line
                elif k + 2 < len(toks) and toks[k + 1][2] == "as" and toks[k + 2][3] == 1:
                    instances[toks[k + 2][2]] = line
        if instances:
            for i, (line, _col, text, kind) in enumerate(toks[:-2]):
                bound = instances.get(text)
                if (
                    kind == 1
                    and bound is not None
                    and line >= bound
                    and toks[i + 1][2] == "."
                    and toks[i + 2][2] in members
                    and not (i and toks[i - 1][2] == ".")
                    and self._scope_at(rel_path, line) == self._scope_at(rel_path, bound)
                ):
                    out.append((toks[i + 2][0], toks[i + 2][1], f"{text}.{toks[i + 2][2]}"))
        return out

    # ---- lines and scopes ---------------------------------------------------------------

    def line_text(self, rel_path: str, line: int) -> str:
        lines = self._file_lines(rel_path)
        return lines[line - 1].strip() if 0 < line <= len(lines) else ""

    def _file_lines(self, rel_path: str) -> list[str]:
        path = self.root / rel_path
        try:
            stamp = path.stat().st_mtime_ns
        except OSError:
            return []
        hit = self._lines.get(rel_path)
        if hit is not None and hit[0] == stamp:
            return hit[1]
        lines = file_lines(path)
        if len(self._lines) > 2000:
            self._lines.clear()
        self._lines[rel_path] = (stamp, lines)
        return lines

    def col_of(self, rel_path: str, line: int, word: str) -> int:
        text = self._raw_line(rel_path, line)
        m = re.search(rf"\b{re.escape(word)}\b", text) if word else None
        return m.start() if m else len(text) - len(text.lstrip())

    def _raw_line(self, rel_path: str, line: int) -> str:
        lines = self._file_lines(rel_path)
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def _scope_at(self, rel_path: str, line: int) -> str:
        chunks = [c for c in self.store.chunks_at(rel_path, line) if str(c.kind) != "module"]
        if chunks:
            return chunks[0].qualname
        return self.store.module_of(rel_path) or ""

    def _is_package_init(self, rel_path: str) -> bool:
        return rel_path.endswith("__init__.py")

    def _function_span(self, rel_path: str, line: int) -> tuple[int, int] | None:
        for c in self.store.chunks_at(rel_path, line):
            if str(c.kind) in ("function", "method"):
                return c.start_line, c.end_line
        return None

    def _shadowed(self, rel_path: str, line: int, name: str) -> bool:
        """Is `name` a parameter or a local of a function enclosing `line`?"""
        n = re.escape(name)
        binds = re.compile(
            rf"^\s*(?:async\s+)?def\s+\w+\s*\((?:[^)]*[(,\s*])?{n}\s*[:=,)]"
            rf"|^\s*{n}\s*(?::[^=]*)?=[^=]|^\s*for\s+(?:[\w,\s]*\b)?{n}\b[\w,\s]*\bin\b"
            rf"|\bas\s+{n}\s*[:,)]|^\s*(?:global|nonlocal)\s",
            re.M,
        )
        for c in self.store.chunks_at(rel_path, line):
            if str(c.kind) not in ("function", "method"):
                continue
            if any(not m.group(0).lstrip().startswith(("global", "nonlocal")) for m in binds.finditer(c.text)):
                return True
        return False

    # ---- the sites found ------------------------------------------------------------------

    def add_site(
        self,
        found: Found,
        rel_path: str,
        line: int,
        col: int,
        relation: Relation,
        anchor: str,
        scope: str,
        via: str = "",
    ) -> None:
        # one site per position: a table row wins over a scan of the same spot
        if any((rel_path, line, col, r) in found for r in Relation):
            return
        found[(rel_path, line, col, relation)] = Site(
            rel_path=rel_path,
            line=line,
            col=col,
            code=self.line_text(rel_path, line),
            relation=relation,
            anchor_text=anchor,
            scope=scope,
            via=via,
            is_test=is_test_path(rel_path),
        )
