"""142 questions over requests 2.32.3, starlette 0.41.3, attrs 24.2.0, urllib3 2.2.3, marshmallow 3.23.1, httpcore 1.0.7,
cattrs 24.1.2, tomlkit 0.13.2, h11 0.14.0, anyio 4.6.2, cachetools 5.5.0 and
more-itertools 10.5.0, written by hand the way a colleague asks (re-exports, inherited members,
data-model phrasings, defaults set elsewhere, attribute types, callers, absent members, members that live outside the
package), with gold taken from `inspect` on the real packages (a value with no source of its own, a constant, is
located by its assignment in the module or class that holds it).

usage: python tests/benchmarks/lead_questions/make_set.py DEST
  downloads the wheels with pip into DEST/.wheels, unpacks each into DEST/repos/<name>-<version>,
  writes DEST/lead.jsonl (run.py's schema); then
  python ../shared/bench/run.py DEST/lead.jsonl --repos DEST/repos --sweep 1 -v
Each line of questions.txt: package|kind|question|module:qualname (empty for `expect: partial`).
"""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

PINS = {
    "requests": "2.32.3",
    "starlette": "0.41.3",
    "attrs": "24.2.0",
    "urllib3": "2.2.3",
    "marshmallow": "3.23.1",
    "httpcore": "1.0.7",
    "cattrs": "24.1.2",
    "tomlkit": "0.13.2",
    "h11": "0.14.0",
    "anyio": "4.6.2",
    "cachetools": "5.5.0",
    "more_itertools": "10.5.0",
}
_GOLD = """import ast, importlib, inspect, json, os, sys, textwrap
root, mod, qual = sys.argv[1:4]
sys.path.insert(0, root)
o = owner = importlib.import_module(mod)
for p in qual.split("."):
    owner, o = o, getattr(o, p)
o = inspect.unwrap(o)
o = getattr(o, "fget", o)
if inspect.isclass(o):  # httpcore re-labels its classes' __module__ as the package; the pin names the declaring module
    o.__module__ = mod
try:
    lines, start = inspect.getsourcelines(o)
    span = [start, start + len(lines) - 1]
    source = inspect.getsourcefile(o)
except TypeError:  # a value: the assignment that names it in its module or class body
    lines, start = inspect.getsourcelines(owner)
    name, base = qual.split(".")[-1], max(start, 1)
    body = ast.parse(textwrap.dedent("".join(lines))).body
    if inspect.isclass(owner):
        body = body[0].body
    span = next(
        [base + n.lineno - 1, base + n.end_lineno - 1]
        for n in body
        if isinstance(n, (ast.Assign, ast.AnnAssign))
        and name in [t.id for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Name)]
    )
    source = inspect.getsourcefile(owner)
print(json.dumps([os.path.relpath(source, root), *span]))
"""


def main(dest: Path) -> None:
    wheels, repos = dest / ".wheels", dest / "repos"
    wheels.mkdir(parents=True, exist_ok=True)
    for name, version in PINS.items():
        out = repos / f"{name}-{version}"
        if not out.is_dir():
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "-q", "--no-deps", f"{name}=={version}", "-d", str(wheels)],
                check=True,
            )
            whl = next(wheels.glob(f"{name}-{version}-*.whl"))
            zipfile.ZipFile(whl).extractall(out)
    with open(dest / "lead.jsonl", "w") as fh:
        for i, line in enumerate((Path(__file__).parent / "questions.txt").read_text().splitlines()):
            pkg, kind, question, gold = line.split("|")
            repo = f"{pkg}-{PINS[pkg]}"
            item: dict[str, object] = {
                "id": f"x{i:02d}-{pkg}",
                "repo": repo,
                "kind": kind,
                "question": question,
                "gold": [],
            }
            if kind in ("absent", "outside"):
                item.update(expect="partial", partial_reason=kind)
            else:
                mod, qual = gold.split(":")
                done = subprocess.run(
                    [sys.executable, "-c", _GOLD, str(repos / repo), mod, qual],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                path, start, end = json.loads(done.stdout)
                item["gold"] = [{"path": path, "start_line": start, "end_line": end, "qualname": f"{mod}.{qual}"}]
            fh.write(json.dumps(item) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
