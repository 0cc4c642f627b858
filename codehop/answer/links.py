"""The links code makes without imports, as manifest sites: settings, string keys, role-named families.

- A setting read by attribute or key (`settings.X`, `config.X`, `app.config["X"]`) leads to
  where `X` is defined or defaulted: a module-level assignment in a settings or defaults
  module, a settings class's field, a `"X": value` entry of a defaults mapping.
- A string key that names code (a route name `name="users:get-current-user"` and the
  `url_path_for("users:get-current-user")` that looks it up, a dotted registry key, an entry
  point; a plain hyphenated key where it is given as a name, `name="user-settings"`,
  `signal("request-started")`) leads to the other places that spell the same key.
- A family named by its role ("all response schema classes", "every exception") is the set of
  classes whose name, module path or bases hold every word of the role.

Each link is one line (`Site`), so a family of thirty classes costs what thirty lines cost.
Only text the task or its focus code already holds starts a link; the targets are read from
the index (declarations, chunk text).

May import: manifest (Site), retrieval (query terms), store, walk, words, question_words (STOP), records, stdlib.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from codehop.index.walk import line_of, repo_lines
from codehop.kernel.words import word_parts
from codehop.navigation.manifest import Site
from codehop.reading.question_words import STOP

if TYPE_CHECKING:
    from codehop.index.store.sqlite import SqliteStore
    from codehop.kernel.records import Chunk

MAX_SETTINGS = 8
MAX_PER_SETTING = 4
MAX_KEYS = 12
MAX_PER_KEY = 6
MAX_FAMILY = 40

# `settings.X`, `config.X`, `conf.X`, `self.settings.X`; `config["X"]`, `config.get("X")`, `config.setdefault("X")`
_SETTING_ATTR = re.compile(r"\b(?:settings|config|conf|cfg)\.([A-Za-z_][A-Za-z0-9_]*)\b(?!\s*\()")
_SETTING_KEY = re.compile(r"""\bconfig(?:\[|\.get\(|\.setdefault\()\s*["']([A-Za-z_][A-Za-z0-9_]*)["']""")
_UPPER = re.compile(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b")
_SETTINGS_PLACE = re.compile(r"settings|config|conf|default", re.IGNORECASE)
# a quoted key that names code: `a:b`, `a.b`, `a-b:c` (route names, registry keys, entry points)
_KEY = re.compile(r"""["']([A-Za-z_][\w-]*(?:[:.][\w-]+)+)["']""")
# a plain key where it is given as a name: `name="user-detail"`, `reverse("user-detail")`, `signal("request-started")`
_NAMED_KEY = re.compile(
    r"""\b(?:name|signal|reverse|url_for|url_path_for|redirect|event|emit|register|connect|entry_point)"""
    r"""\s*[=(]\s*["']([A-Za-z_][\w-]*-[\w-]+)["']"""
)
_FAMILY = re.compile(
    r"\b(?:all|every|each)\s+(?:of\s+)?(?:the\s+|our\s+)?((?:[A-Za-z][\w-]*\s+){0,3}[A-Za-z][\w-]*)", re.IGNORECASE
)
_GENERIC = frozenset("class classes type types one ones kind kinds thing things place places other same".split()) | STOP
_ATTR_NOT_SETTING = frozenset("get setdefault update items keys values pop from_object from_mapping".split())


def setting_sites(store: SqliteStore, root: Path, query: str, chunks: list[Chunk]) -> list[Site]:
    """Where each setting the task or its focus code reads is defined or defaulted."""
    names: list[str] = []
    for text in [query] + [c.text for c in chunks]:
        for m in _SETTING_ATTR.finditer(text):
            names.append(m.group(1))
        names += [m.group(1) for m in _SETTING_KEY.finditer(text)]
    names += _UPPER.findall(query)
    lines = _Lines(root)
    out: list[Site] = []
    seen: set[tuple[str, int]] = set()
    for name in list(dict.fromkeys(n for n in names if n not in _ATTR_NOT_SETTING))[:MAX_SETTINGS]:
        found: list[tuple[str, int]] = []
        upper = name.isupper()
        for d in store.declarations_named(name):
            if str(d.kind) != "value":
                continue
            # an UPPER_CASE name is a setting wherever it is assigned; a lower-case one only in a
            # settings or config place (a `Settings` class, a `config.py`, a `defaults` module)
            if upper or _SETTINGS_PLACE.search(f"{d.scope}.{d.rel_path}"):
                found.append((d.rel_path, d.line))
        for c in store.chunks_like(f"%{name}%", 40):
            for i, text in enumerate(c.text.split("\n")):
                if re.search(rf"""["']{re.escape(name)}["']\s*:""", text) or re.search(
                    rf"""\b(?:setdefault|default)\(\s*["']{re.escape(name)}["']""", text
                ):
                    found.append((c.rel_path, c.start_line + i))
        for rel_path, line in list(dict.fromkeys(found))[:MAX_PER_SETTING]:
            if (rel_path, line) in seen:
                continue
            seen.add((rel_path, line))
            out.append(_site(lines, rel_path, line, "defines setting", name))
    return out


def key_sites(store: SqliteStore, root: Path, query: str, chunks: list[Chunk]) -> list[Site]:
    """The other places that spell a key the task or its focus code spells (`"users:get-current-user"`)."""
    keys: dict[str, list[Chunk]] = {}  # key -> the focus chunks that spell it
    for m in _KEY.finditer(query):
        keys.setdefault(m.group(1), [])
    for c in chunks:
        for m in [*_KEY.finditer(c.text), *_NAMED_KEY.finditer(c.text)]:
            keys.setdefault(m.group(1), []).append(c)
    lines = _Lines(root)
    out: list[Site] = []
    seen: set[tuple[str, int]] = set()
    for key in [k for k in keys if not k.endswith(".py")][:MAX_KEYS]:
        held = {(c.rel_path, c.start_line, c.end_line) for c in keys[key]}
        found: list[tuple[str, int]] = []
        for c in store.chunks_like(f"%{key}%", 40):
            if str(c.kind) == "module" and any(c.rel_path == h[0] for h in held):
                continue  # the module block around the spelling the focus code already holds
            for i, text in enumerate(c.text.split("\n")):
                if f'"{key}"' in text or f"'{key}'" in text:
                    line = c.start_line + i
                    if not any(p == c.rel_path and a <= line <= b for p, a, b in held):
                        found.append((c.rel_path, line))
        found = list(dict.fromkeys(found))
        if len(found) > MAX_PER_KEY * 2:
            continue  # a key spelled everywhere names nothing in particular
        for rel_path, line in found[:MAX_PER_KEY]:
            if (rel_path, line) not in seen:
                seen.add((rel_path, line))
                out.append(_site(lines, rel_path, line, f'names "{key}"', ""))
    return out


def family_sites(store: SqliteStore, root: Path, query: str) -> list[Site]:
    """The classes of a family the task names by role ("all response schema classes"): the words after
    all / every / each, shortened from the end until at least two classes hold every one of them."""
    out: list[Site] = []
    lines = _Lines(root)
    seen: set[str] = set()
    for m in _FAMILY.finditer(query):
        words = [_singular(w.lower()) for w in m.group(1).split()]
        terms = [w for w in words if w not in _GENERIC and len(w) > 2]
        members: list[str] = []
        while terms and len(members) < 2:
            members = _family(store, terms)
            if len(members) < 2:
                terms = terms[:-1]  # "every cache backend should": the role ends before the verb
        for qual in members[:MAX_FAMILY]:
            info = store.class_info(qual)
            if info is None or qual in seen:
                continue
            seen.add(qual)
            out.append(_site(lines, info.rel_path, info.line, f"family {' '.join(terms)}", qual))
    return out


def _family(store: SqliteStore, terms: list[str]) -> list[str]:
    """Classes whose name, bases and module path hold every term (one at least in the name or a
    base), those with more terms in the name first."""
    scored: list[tuple[int, str]] = []
    for qual in store.class_names():
        name_parts = set(word_parts(qual.rpartition(".")[2]))
        if not any(t in name_parts or t + "s" in name_parts for t in terms):
            info = store.class_info(qual)
            bases = info.bases if info else ()
            base_parts = {p for b in bases for p in word_parts(b.rpartition(".")[2])}
            if not any(t in base_parts or t + "s" in base_parts for t in terms):
                continue
        else:
            info = store.class_info(qual)
            base_parts = {p for b in (info.bases if info else ()) for p in word_parts(b.rpartition(".")[2])}
        path_parts = {p for part in qual.split(".")[:-1] for p in word_parts(part)}
        every = name_parts | base_parts | path_parts
        if all(t in every or t + "s" in every for t in terms):
            scored.append((-sum(t in name_parts for t in terms), qual))
    return [q for _, q in sorted(scored)]


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ses", "xes")) and len(word) > 4:
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def _site(lines: _Lines, rel_path: str, line: int, relation: str, subject: str) -> Site:
    return Site(rel_path=rel_path, line=line, source=lines.get(rel_path, line), relation=relation, subject=subject)


class _Lines:
    """Source lines of repository files, read once each."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._files: dict[str, list[str]] = {}

    def get(self, rel_path: str, line: int) -> str:
        got = self._files.get(rel_path)
        if got is None:
            got = self._files[rel_path] = repo_lines(self.root, rel_path)
        return (line_of(got, line) or "").strip()[:160]
