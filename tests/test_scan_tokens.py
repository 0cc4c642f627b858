"""codehop.navigation.source.scan_tokens: the NAME and OP tokens `tokenize` gives, from one regular
expression (the call hierarchy tokenizes a request's files on the request path), and
SourceScan.span_tokens: a declaration's span tokenized alone, numbered as in its file.

Fixtures: every file of fixtures_repos/ (the hostile ones that `tokenize` rejects excepted), and
snippets of each string, number and comment form that could read as a name or an operator.
"""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

import pytest

from codehop.navigation.source import SourceScan, scan_tokens

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures_repos"


def by_tokenize(text: str) -> list[tuple[int, int, str, int]]:
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.NAME:
            out.append((tok.start[0], tok.start[1], tok.string, 1))
        elif tok.type == tokenize.OP:
            out.append((tok.start[0], tok.start[1], tok.string, 0))
    return out


SNIPPETS = {
    "prefixed-strings": "a = rb'x' + Rb\"y\" + f'{b}' + fr'''{c}''' + u\"z\" + br'\\'' + bar('s')\n",
    "escapes": "s = 'it\\'s # no comment' + \"q\\\"uote\" + '''a\\''' + 'b''' + \"\"\"x \\\"\"\" y\"\"\"\n",
    "multiline": "def f():\n    '''doc with def g(): and x.y(\n    '''\n    return g(1)  # h(2)\n",
    "numbers": "x = .5 + 1e5 + 0x1F + 1_000j + 0o17 + 0b1 + 3.14e-2 + 1.real + 7 .bit_length()\n",
    "operators": "a **= b // c ... d -> e; f @= g != h := i << j >>= k\n",
    "continuation": "x = (1,\n     2) + \\\n    y[3]\n",
    "unicode": "naïve = ünï(π)  # ü\n",
}


@pytest.mark.parametrize("text", list(SNIPPETS.values()), ids=list(SNIPPETS))
def test_same_tokens_as_tokenize_on_snippets(text: str) -> None:
    assert scan_tokens(text) == by_tokenize(text)


def _tokenizable(path: Path) -> str | None:
    try:
        text = path.read_text(encoding="utf-8")
        by_tokenize(text)
        ast.parse(text)
    except (UnicodeDecodeError, SyntaxError, tokenize.TokenError, RecursionError, ValueError):
        return None
    return text


def test_same_tokens_as_tokenize_on_every_fixture_file() -> None:
    files = sorted(FIXTURES.rglob("*.py"))
    checked = 0
    for path in files:
        text = _tokenizable(path)
        if text is None:
            continue
        assert scan_tokens(text) == by_tokenize(text), path
        checked += 1
    assert checked > 100


def test_a_span_alone_has_the_file_tokens_of_its_lines(tmp_path: Path) -> None:
    """Each function and method of fixtures_repos/call_sites (decorators and all), tokenized
    alone, is the slice of the file's tokens; kept, and the file's used once it is read."""
    root = FIXTURES / "call_sites"
    scan = SourceScan(None, root)  # type: ignore[arg-type]  # (the store is not read for tokens)
    spans = 0
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                alone = SourceScan(None, root).span_tokens(rel, first, node.end_lineno or first)  # type: ignore[arg-type]
                whole = [t for t in scan.tokens(rel) if first <= t[0] <= (node.end_lineno or first)]
                assert alone == whole and alone, (rel, first)
                assert scan.span_tokens(rel, first, node.end_lineno or first) == whole
                spans += 1
    assert spans > 5
