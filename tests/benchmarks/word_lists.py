"""Count the hand-typed words of question reading (issue 25 item 7): every string literal of a
word list at module level (or in a class body) of the reading modules: `frozenset("a b".split())`,
`{"a", "b"}`, tuples and lists of strings, dict keys and values that are words, and the same
inside a comprehension; a phrase counts each of its words (a string of more than three words is
prose: documentation or a message). Usage:

    python tests/benchmarks/word_lists.py [--min N] [FILE ...]   # default: codehop/reading/*.py, answer/navquestion.py, answer/task.py

A list counts from 3 words (`--min 3`, the default: a pair is a pair of markers, "on"/"from");
`--min 1` counts every word literal, pairs and single words too. `--inline` adds the tuples, sets
and lists of words typed inside functions (`low[k] in ("of", "to", "for", "on")`), which the
module-level count leaves out.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = [
    *sorted((ROOT / "codehop" / "reading").glob("*.py")),
    ROOT / "codehop" / "answer" / "navquestion.py",
    ROOT / "codehop" / "answer" / "task.py",
    ROOT / "codehop" / "kernel" / "words.py",
]
_WORD = re.compile(r"^[A-Za-z][A-Za-z' -]*$")
_PHRASE = 3  # a longer string is prose (a table's documentation column, a message), not a cue


def words_in(node: ast.AST) -> list[str]:
    """The words a literal spells (a `.split()` string counts each word)."""
    out: list[str] = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr == "split":
            target = sub.func.value
            if isinstance(target, ast.Constant) and isinstance(target.value, str):
                out += target.value.split()
                target.value = ""  # counted once
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str) and _WORD.match(sub.value):
            if len(sub.value.split()) <= _PHRASE:
                out += sub.value.split()  # a phrase ("call site") counts each word
    return out


def lists(path: Path, least: int = 3) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text())
    found: list[tuple[str, int]] = []
    for stmt in [*tree.body, *(s for c in tree.body if isinstance(c, ast.ClassDef) for s in c.body)]:
        if not isinstance(stmt, ast.Assign | ast.AnnAssign) or stmt.value is None:
            continue
        if not isinstance(
            stmt.value, ast.Call | ast.Set | ast.Tuple | ast.List | ast.Dict | ast.BinOp | ast.DictComp | ast.SetComp
        ):
            continue
        name = ast.unparse(stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target)
        if name in ("__all__", "__slots__"):
            continue  # the module's exported names, a class's attribute names: not words
        words = words_in(stmt.value)
        if len(words) >= least:  # a word list, not a pair of markers
            found.append((name, len(words)))
    return found


def inline(path: Path, least: int = 3) -> list[tuple[str, int]]:
    """The word tuples, sets and lists written inside a function, each as `function:line`."""
    found: list[tuple[str, int]] = []
    for fn in ast.walk(ast.parse(path.read_text())):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for sub in ast.walk(fn):
            if isinstance(sub, ast.Tuple | ast.Set | ast.List) and sub.elts:
                words = [e.value for e in sub.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
                if len(words) == len(sub.elts) and len(words) >= least and all(_WORD.match(w) for w in words):
                    found.append((f"{fn.name}:{sub.lineno}", len(words)))
    return found


def main() -> None:
    args = sys.argv[1:]
    least = 3
    with_inline = "--inline" in args
    args = [a for a in args if a != "--inline"]
    if args[:1] == ["--min"]:
        least, args = int(args[1]), args[2:]
    paths = [Path(p) for p in args] or DEFAULT
    total = 0
    for path in paths:
        found = lists(path, least) + (inline(path, least) if with_inline else [])
        for name, n in found:
            total += n
            print(f"{n:5d}  {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}:{name}")
    print(f"{total:5d}  words in {len(paths)} files")


if __name__ == "__main__":
    main()
