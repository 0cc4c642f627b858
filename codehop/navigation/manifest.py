"""The blast radius of a change as a manifest: every site that depends on the task's subjects.

One line a site (`path:line  <source line>  relation`), so a small budget can
name dozens of them. Sites come from one engine (`_dependents_of`, the single
call site to switch when the dependents engine lands) plus the module-level
facts that engine does not walk: importers and re-exporters of a subject
module, and the registries that name a subject's string keys (a style name
looked up in `default_styles.py`, a policy key in a defaults module).

Order: every file once (the first site of each file, subjects in the order the
task named them), then the remaining sites, so a cut manifest still names as
many files as it can; the manifest says how many sites it left out.

May import: dependents, records, tokens, paths, store, symbols, walk, stdlib.
"""

from __future__ import annotations

import io
import itertools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from codehop.index.walk import line_of, repo_lines
from codehop.kernel.paths import is_test_path
from codehop.kernel.records import Chunk, ChunkKind, ChunkPart, Location, RefType
from codehop.kernel.tokens import count_tokens

if TYPE_CHECKING:
    from codehop.index.store.sqlite import SqliteStore
    from codehop.index.symbols import SymbolTable
    from codehop.navigation.dependents import DependentsFinder

MAX_SITES_PER_SUBJECT = 400
# members every file object, string or container has: `x.read()` names no class of ours
_COMMON_MEMBERS = frozenset(
    n for t in (str, bytes, list, dict, set, io.IOBase, io.BufferedReader, io.TextIOWrapper) for n in dir(t)
)
_STRING_KEY = re.compile(r"""["']([a-z][\w-]*(?:\.[\w-]+)+)["']""")


class Subject(Protocol):
    """A declaration whose blast radius is asked (a task's subject, codehop.answer.task.Subject):
    what this module reads of it."""

    @property
    def qualname(self) -> str: ...
    @property
    def rel_path(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def kind(self) -> str: ...  # class | function | value | alias | module


@dataclass(frozen=True, slots=True, kw_only=True)
class Site:
    rel_path: str
    line: int
    source: str  # the source line, stripped
    relation: str  # calls, imports, reexports, inherits, overrides, names key ...
    subject: str  # the qualname the site depends on

    @property
    def is_test(self) -> bool:
        return is_test_path(self.rel_path)

    def render(self) -> str:
        test = ", test" if self.is_test else ""
        return f"{self.rel_path}:{self.line}  {self.source}  [{self.relation} {self.subject.rpartition('.')[2]}{test}]"

    @property
    def tokens(self) -> int:
        return count_tokens(self.render())

    def chunk(self) -> Chunk:
        """The site as a one-line chunk (what a context item carries)."""
        return Chunk(
            rel_path=self.rel_path,
            start_line=self.line,
            end_line=self.line,
            kind=ChunkKind.FUNCTION,
            qualname=self.subject,
            name=self.subject.rpartition(".")[2],
            signature="",
            docstring="",
            text=self.source,
            identifiers="",
            part=ChunkPart.SITE,
            part_line=self.line,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Manifest:
    sites: tuple[Site, ...]
    complete: bool  # every kind of dependency was walked for every subject and nothing was capped


# relations an edit must follow first; type annotations and plain imports after
_PRIORITY = {
    "overrides": 0,
    "calls": 0,
    "inherits": 0,
    "uses_inherited": 0,
    "reexports": 1,
    "aliases": 1,
    "decorates": 1,
    "reads": 2,
    "tests import": 2,
    "uses by name": 3,
    "imports": 3,
    "annotates": 4,
}


def blast_radius(
    store: SqliteStore, table: SymbolTable, root: Path, subjects: tuple[Subject, ...], *, tests: bool = True
) -> Manifest:
    """The sites that depend on `subjects`: one per file first (subjects round-robin), then the rest.
    With `tests`, also the test files that import a subject's module (they exercise its behaviour)."""
    from codehop.navigation.dependents import DependentsFinder

    finder = DependentsFinder(store, table, root)
    lines = _Lines(root)
    subjects = _without_owners(subjects)
    per_subject: list[list[Site]] = []
    seen: set[tuple[str, int]] = set()
    complete = True
    for s in subjects:
        if s.kind == "module":
            raw = _module_sites(store, s)
        else:
            raw, whole = _dependents_of(finder, s)
            complete = complete and whole
            raw += _member_uses_by_name(store, s)
        raw += _registry_sites(store, s)
        if tests:
            raw += _test_importers(store, s)
        raw.sort(key=lambda r: _PRIORITY.get(r[2], 2))
        if len(raw) > MAX_SITES_PER_SUBJECT:
            complete = False
            raw = raw[:MAX_SITES_PER_SUBJECT]
        sites: list[Site] = []
        for rel_path, line, relation in raw:
            if (rel_path, line) in seen or (rel_path, line) == (s.rel_path, s.line):
                continue
            seen.add((rel_path, line))
            sites.append(
                Site(
                    rel_path=rel_path,
                    line=line,
                    source=lines.get(rel_path, line),
                    relation=relation,
                    subject=s.qualname,
                )
            )
        per_subject.append(sites)
    return Manifest(sites=tuple(_files_first(per_subject)), complete=complete)


def reexport_sites(store: SqliteStore, table: SymbolTable, root: Path, qualnames: list[str]) -> list[Site]:
    """Where each declaration is re-exported (a package `__init__`, `__all__`): the public
    registration a sibling added next to it needs too."""
    lines = _Lines(root)
    out: list[Site] = []
    for qual in qualnames:
        res = table.resolve(qual)
        if res is None or res.is_external:
            continue
        for at in store.reexport_sites(res.target.rel_path, res.target.line):
            rel_path, line = at.rel_path, at.line
            out.append(
                Site(rel_path=rel_path, line=line, source=lines.get(rel_path, line), relation="reexports", subject=qual)
            )
        module, _, name = res.target.qualname.rpartition(".")
        if name.startswith("_"):
            continue
        # `from .m import *` passes the public names of m on (those in its `__all__`, when it has one)
        for at in store.star_import_sites(module):
            rel_path, line = at.rel_path, at.line
            names = store.all_names(module)
            if names is None or name in names:
                out.append(
                    Site(
                        rel_path=rel_path,
                        line=line,
                        source=lines.get(rel_path, line),
                        relation="reexports",
                        subject=res.target.qualname,
                    )
                )
    return out


def imported_sites(store: SqliteStore, root: Path, rel_paths: list[str], limit: int = 60) -> list[Site]:
    """What the focus files import from the repository, as the imported declaration's own line
    (`flask/json/tag.py:243  class TaggedJSONSerializer:  [imported by flask/sessions.py]`):
    the defaults, constants, types and helpers a change in those files reads, one line each."""
    lines = _Lines(root)
    per_file: list[list[Site]] = []
    seen: set[tuple[str, int]] = set()
    for rel_path in rel_paths:
        out: list[Site] = []
        per_file.append(out)
        module = store.module_of(rel_path) or rel_path
        for imported in store.imports_in(rel_path):
            target_path, target_line, target = imported.rel_path, imported.line, imported.qualname
            if not target_path:
                target_path, target_line = _declared(store, target)
            if not target_path or target_path == rel_path or (target_path, target_line) in seen:
                continue
            seen.add((target_path, target_line))
            out.append(
                Site(
                    rel_path=target_path,
                    line=max(1, target_line),
                    source=lines.get(target_path, target_line),
                    relation=f"imported by {rel_path}",
                    subject=target or module,
                )
            )
    # the focus files take turns, so the first file's long import list does not crowd out the next
    merged = [site for row in itertools.zip_longest(*per_file) for site in row if site is not None]
    return merged[:limit]


def _declared(store: SqliteStore, dotted: str) -> tuple[str, int]:
    """Where a repository module declares `dotted` itself (a class, function or value), when the
    symbol table left the import unresolved (a later re-binding of the name, as in an
    `if __name__ == "__main__":` demo that imports the module's own class)."""
    module, _, name = dotted.rpartition(".")
    if not module or store.module_path(module) is None:
        return "", 0
    found = store.first_declaration(module, name)
    return (found.rel_path, found.line) if found else ("", 0)


def _without_owners(subjects: tuple[Subject, ...]) -> tuple[Subject, ...]:
    """A class named only as the owner of a named member (`Flask.ensure_sync`) is not a subject of its own."""
    names = {s.qualname for s in subjects}
    return tuple(s for s in subjects if not (s.kind == "class" and any(n.startswith(s.qualname + ".") for n in names)))


def _files_first(per_subject: list[list[Site]]) -> list[Site]:
    first: list[Site] = []
    rest: list[Site] = []
    files: set[str] = set()
    for row in itertools.zip_longest(*per_subject):
        for site in row:
            if site is None:
                continue
            if site.rel_path in files:
                rest.append(site)
            else:
                files.add(site.rel_path)
                first.append(site)
    return first + rest


# ---- the engines ----------------------------------------------------------------------
def _dependents_of(finder: DependentsFinder, s: Subject) -> tuple[list[tuple[str, int, str]], bool]:
    """(path, line, relation) of every site that uses the declaration, and whether the walk was whole."""
    found = finder.dependents(Location(rel_path=s.rel_path, line=s.line, qualname=s.qualname), transitive=True)
    return [(x.rel_path, x.line, str(x.relation)) for x in found.sites], found.complete


def _member_uses_by_name(store: SqliteStore, s: Subject) -> list[tuple[str, int, str]]:
    """`obj.name` sites for a member whose name few classes declare: calls through objects of
    unknown type (`current_app.ensure_sync`), which no resolver traces statically."""
    owner, _, name = s.qualname.rpartition(".")
    if name.startswith("__") or len(name) < 4 or name in _COMMON_MEMBERS or store.class_info(owner) is None:
        return []
    if store.classes_declaring(name) > 3:
        return []
    pattern = re.compile(rf"\.{re.escape(name)}\b")
    out: list[tuple[str, int, str]] = []
    for c in store.chunks_like(f"%.{name}%", 400):
        rel_path, start, text = c.rel_path, c.start_line, c.text
        for i, line in enumerate(text.split("\n")):
            if pattern.search(line) and not line.lstrip().startswith(("from ", "import ", "#")):
                out.append((rel_path, start + i, "uses by name"))
    return out


def _module_sites(store: SqliteStore, s: Subject) -> list[tuple[str, int, str]]:
    """Importers and re-exporters of anything the module declares, and of the module itself."""
    rel = {RefType.IMPORT: "imports", RefType.REEXPORT: "reexports", RefType.STAR_IMPORT: "reexports"}
    return [(at.rel_path, at.line, rel[t]) for at, t in store.module_import_sites(s.rel_path, s.qualname)]


def _test_importers(store: SqliteStore, s: Subject) -> list[tuple[str, int, str]]:
    """Test files that import anything from the subject's module."""
    module = s.qualname if s.kind == "module" else (store.module_of(s.rel_path) or "")
    if not module:
        return []
    return [
        (at.rel_path, at.line, "tests import") for at in store.first_imports_of(module) if is_test_path(at.rel_path)
    ]


def _registry_sites(store: SqliteStore, s: Subject) -> list[tuple[str, int, str]]:
    """Registries that hold the subject's dotted string keys (`"progress.elapsed"` -> a styles table)."""
    chunks = store.chunks_named(s.qualname)[:1] if s.kind != "module" else store.chunks_of_file(s.rel_path)
    keys: list[str] = []
    for c in chunks:
        for m in _STRING_KEY.finditer(c.text):
            if m.group(1) not in keys:
                keys.append(m.group(1))
    out: list[tuple[str, int, str]] = []
    for key in keys[:12]:
        for c in store.chunks_like(f'%"{key}"%', 5, modules_only=True, not_in=s.rel_path):
            rel_path, start, text = c.rel_path, c.start_line, c.text
            for i, line in enumerate(text.split("\n")):
                if f'"{key}"' in line or f"'{key}'" in line:
                    out.append((rel_path, start + i, f'names "{key}"'))
                    break
    return out


class _Lines:
    """Source lines of repository files, read once each (the index's paths only)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._files: dict[str, list[str]] = {}

    def get(self, rel_path: str, line: int) -> str:
        lines = self._files.get(rel_path)
        if lines is None:
            lines = self._files[rel_path] = repo_lines(self.root, rel_path)
        return (line_of(lines, line) or "").strip()[:160]
