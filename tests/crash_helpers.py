"""Helpers for the crash and concurrency tests: a generated medium repository whose every file
says which version it is, and the reader / writer loops run as real subprocesses.

Run as a script: `python tests/crash_helpers.py reader REPO SECONDS` or `... writer REPO SECONDS`;
each prints one JSON line of counts when done.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from pathlib import Path

PACKAGES = 10
MODULES = 15  # 150 files


def module_text(rel: str, version: int) -> str:
    """A module whose declarations all carry `version`: MARKER, a class, functions named `_v<version>`."""
    stem = rel[:-3].replace("/", "_")
    lines = [f'"""{rel} at version {version}."""', "", f"MARKER = {version}", ""]
    for j in range(6):
        lines += [
            "",
            f"class Thing{j}:",
            f'    """Thing {j} of {stem}, version {version}."""',
            "",
            f"    LIMIT = {version}",
            "",
            f"    def run_v{version}(self, x):",
            f"        return x + {version}",
            "",
            "",
            f"def func_{j}_v{version}(x):",
            f'    """Version {version}."""',
            f"    return Thing{j}().run_v{version}(x) + MARKER",
        ]
    return "\n".join(lines) + "\n"


def digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def initial_files() -> dict[str, str]:
    files = {}
    for p in range(PACKAGES):
        files[f"pkg{p}/__init__.py"] = f'"""Package {p}."""\n'
        for m in range(MODULES - 1):
            rel = f"pkg{p}/mod{m}.py"
            files[rel] = module_text(rel, 0)
    return files


def next_files(files: dict[str, str], version: int) -> dict[str, str]:
    """Version `version` of the tree: a third of the modules rewritten, two deleted, two added."""
    out = dict(files)
    modules = sorted(rel for rel in files if not rel.endswith("__init__.py"))
    for i, rel in enumerate(modules):
        if i % 3 == version % 3:
            out[rel] = module_text(rel, version)
    for rel in [r for r in modules if r.startswith("pkg9/extra")][:2]:
        del out[rel]
    for k in range(2):
        rel = f"pkg9/extra_{version}_{k}.py"
        out[rel] = module_text(rel, version)
    return out


def write_tree(root: Path, old: dict[str, str], new: dict[str, str]) -> None:
    for rel in old.keys() - new.keys():
        (root / rel).unlink()
    for rel, text in new.items():
        if old.get(rel) != text:
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)


# ---------------------------------------------------------------- concurrency: one file, two classes


def pair_texts(version: int) -> dict[str, str]:
    """pair/models.py at one version: `Child.LIMIT` is inherited from `Base`, both carry the version.

    One file, so a writer's save is atomic on disk; two answers of different versions can only mix
    if a query reads across two index commits.
    """
    return {
        "pair/__init__.py": '"""Two classes that always change together."""\n',
        "pair/models.py": f'"""Models at version {version}."""\n\n\nclass Base:\n    """Base, version {version}."""\n\n'
        f"    LIMIT = {version}\n    VERSION_{version} = {version}\n\n\n"
        f'class Child(Base):\n    """Child, version {version}."""\n\n    NAME = "child-{version}"\n',
    }


QUESTION = "What is `pair.models.Child.LIMIT`?"


def versions_in(answer: dict) -> set[int]:  # type: ignore[type-arg]
    """The versions the pair's context items and answer come from (one, unless half-updated)."""
    import re

    seen = {int(v) for v in re.findall(r"LIMIT = (\d+)", answer["answer"])}
    for item in answer.get("_texts", []):
        seen.update(int(v) for v in re.findall(r"version (\d+)", item))
    return seen


def answer_record(answer) -> dict:  # type: ignore[no-untyped-def,type-arg]
    d = answer.to_dict()
    d["_texts"] = [c.chunk.text for c in answer.context if c.chunk.rel_path.startswith("pair/")]
    return d


def reader(repo: str, seconds: float) -> dict[str, object]:
    import codehop

    counts: dict[str, object] = {"queries": 0, "errors": [], "mixed": [], "complete": 0}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            d = answer_record(codehop.ask(QUESTION, repo=repo))
        except Exception as exc:  # counted, never hidden
            counts["errors"].append(f"{type(exc).__name__}: {exc}")  # type: ignore[union-attr]
            continue
        counts["queries"] += 1  # type: ignore[operator]
        counts["complete"] += d["state"] == "complete"  # type: ignore[operator]
        if len(versions_in(d)) > 1:
            counts["mixed"].append(sorted(versions_in(d)))  # type: ignore[union-attr]
    return counts


def writer(repo: str, seconds: float) -> dict[str, object]:
    from codehop.index.indexer import index_repo

    root = Path(repo)
    counts: dict[str, object] = {"updates": 0, "errors": []}
    version = int((root / ".version").read_text()) if (root / ".version").exists() else 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        version += 1
        for rel, text in pair_texts(version).items():
            tmp = root / (rel + ".tmp")
            tmp.write_text(text)
            os.replace(tmp, root / rel)  # an editor's atomic save
        try:
            index_repo(root)
        except Exception as exc:
            counts["errors"].append(f"{type(exc).__name__}: {exc}")  # type: ignore[union-attr]
            continue
        counts["updates"] += 1  # type: ignore[operator]
    return counts


if __name__ == "__main__":
    role, repo_arg, secs = sys.argv[1], sys.argv[2], float(sys.argv[3])
    result = reader(repo_arg, secs) if role == "reader" else writer(repo_arg, secs)
    print(json.dumps(result))
