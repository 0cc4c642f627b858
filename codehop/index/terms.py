"""Search terms derived from the code: an identifier split into its words, prose split into words,
both stemmed the same way, and the rule by which a short identifier part abbreviates a word.

- `name_parts`: snake_case and camelCase parts, and a run-together part that is not a dictionary
  word split by a word-frequency segmenter (`stripnl` -> strip nl, `tabsize` -> tab size) when the
  split is plausible (`_plausible`); lowercase, unstemmed.
- `stem`: Snowball English (PyStemmer, the C build of the Snowball stemmers), cached.
- `text_terms`: a question's or a docstring's words, stemmed in order; code-shaped tokens are split
  on snake and camel case only (no segmenter: cheap enough for question time).
- `abbreviates`: `delim` ~ delimiter (a prefix), `nl` ~ newline, `msg` ~ message, `cfg` ~ config
  (the consonant skeleton: an in-order subsequence with the same first letter).
- `is_word`: the dictionary of wordsegment (178k English words), bisected in its text as read.

The segmenter (wordninja's 126k-word frequency model and its dynamic program, `_ZipfSegmenter`)
loads only when a run of letters needs it that the index has not seen (`segmented`,
`learn_segmented`): at index time. Question time needs the stemmer (a C extension, about 1 ms
to import) and the dictionary's text (about 1 ms). The comparison that chose these libraries
is in docs/vocabulary.md.

May import: stdlib, Stemmer (PyStemmer); reads wordninja's and wordsegment's word lists.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from collections.abc import Callable, Iterable
from functools import lru_cache
from importlib import resources
from itertools import chain
from pathlib import Path

_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_POSSESSIVE = re.compile(r"(?<=[A-Za-z])['\u2019]s\b")
_VOWELS = frozenset("aeiou")
# a part this short is kept whole: the segmenter's splits of short runs are guesses (`delim` ->
# de lim, `ctx` -> c tx)
_MIN_SEGMENTED = 5


@lru_cache(maxsize=1)
def _stem_word() -> Callable[[str], str]:
    import Stemmer

    return Stemmer.Stemmer("english").stemWord  # type: ignore[no-any-return]


@lru_cache(maxsize=131072)
def stem(word: str) -> str:
    """The Snowball (English) stem of a lowercase word."""
    return _stem_word()(word)


@lru_cache(maxsize=1)
def _dictionary() -> str:
    """wordsegment's `words.txt` as read: one word a line, sorted (`tests/test_terms.py` checks
    the installed list is), so a word is found by bisection in the text itself. Reading it takes
    about a millisecond; a set of its 178k words took 30-60 ms, paid by every process that
    derives a term, question time included."""
    return resources.files("wordsegment").joinpath("words.txt").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _dictionary_lines() -> list[str]:
    """The dictionary's words as a list (about 15 ms to split): for many lookups (`is_word`)."""
    lines = _dictionary().split("\n")
    if lines and not lines[-1]:  # the text's last newline
        lines.pop()
    return lines


# the lookups after which `is_word` bisects the split list (C `bisect`, about 1 us) instead of the
# text (about 15 us): a question stays below, an index build (thousands of parts) goes past
_LOOKUPS_BEFORE_SPLIT = 300
_lookups = 0


@lru_cache(maxsize=131072)
def is_word(part: str) -> bool:
    """Is `part` (lowercase) an ordinary English word (wordsegment's dictionary)? `nl`, `msg`,
    `cfg`, `delim` are not; `strip`, `tab`, `delimiter` are. A bisection over the list's lines
    (about 18 probes), of its text for the first lookups, then of the list split from it."""
    global _lookups
    if part.split() != [part]:  # empty, or holding a space: never a word of the list
        return False
    _lookups += 1
    if _lookups > _LOOKUPS_BEFORE_SPLIT:
        lines = _dictionary_lines()
        i = bisect_left(lines, part)
        return i < len(lines) and lines[i] == part
    text = _dictionary()
    lo, hi = 0, len(text)  # the line `part` would be starts in [lo, hi); both are line starts
    while lo < hi:
        mid = (lo + hi) // 2
        start = text.rfind("\n", lo, mid) + 1 or lo
        end = text.find("\n", mid)
        line = text[start : end if end >= 0 else len(text)]
        if line == part:
            return True
        if line < part:
            if end < 0:
                return False
            lo = end + 1
        else:
            hi = start
    return False


class _ZipfSegmenter:
    """wordninja's model and its dynamic program, for a lowercase run of letters: the words of
    its list ranked by frequency, a word's cost log(rank) + log(log(N)) (Zipf's law), the split
    of least total cost. wordninja builds that model when it is imported, with a generator (about
    0.2 s); built here from the same file as a dict of ranks (about 0.03 s), a cost computed only
    for the words a run holds. The splits are wordninja's own (`tests/test_terms.py` compares
    them)."""

    __slots__ = ("base", "rank")

    def __init__(self, words: list[str]) -> None:
        self.base = math.log(math.log(len(words)))
        self.rank = dict(zip(words, range(1, len(words) + 1), strict=True))  # a word repeated: its last rank

    def split(self, run: str) -> list[str]:
        rank, base, log, inf = self.rank, self.base, math.log, math.inf
        best = [0.0]
        step = [0]
        for i in range(1, len(run) + 1):
            c_min, k_min = inf, 1
            for k in range(1, i + 1):  # a piece longer than the longest word has no rank
                r = rank.get(run[i - k : i])
                if r is None:  # not a word: an infinite cost, never the least
                    continue
                c = best[i - k] + (log(r) + base)
                if c < c_min:
                    c_min, k_min = c, k
            best.append(c_min)
            step.append(k_min)
        out: list[str] = []
        i = len(run)
        while i > 0:
            out.append(run[i - step[i] : i])
            i -= step[i]
        return out[::-1]


@lru_cache(maxsize=1)
def _segmenter() -> Callable[[str], list[str]]:
    import gzip  # index time only: a question never builds the model
    import importlib.util

    # beside wordninja.py, as wordninja itself finds it (found without importing wordninja)
    spec = importlib.util.find_spec("wordninja")
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError("wordninja is not installed", name="wordninja")
    path = Path(spec.origin).parent / "wordninja" / "wordninja_words.txt.gz"
    return _ZipfSegmenter(gzip.decompress(path.read_bytes()).decode().split()).split


def _plausible(pieces: list[str]) -> bool:
    """A segmentation we believe: two or more pieces, none of one letter, at most one of two
    letters and that one a word unless it ends the run (`strip nl`, `line no`, `is instance`), and
    one piece of four or more letters that is a word. Rejected: `get at tr`, `k war gs`, `de lim`."""
    if len(pieces) < 2 or any(len(p) < 2 for p in pieces):
        return False
    short = [i for i, p in enumerate(pieces) if len(p) == 2]
    if len(short) > 1 or (short and short[0] != len(pieces) - 1 and not is_word(pieces[short[0]])):
        return False
    return any(len(p) >= 4 and is_word(p) for p in pieces)


# what `_run_parts` found for each run it gave the segmenter, in this process (`segmented`)
# and as read from an index (`learn_segmented`): a process that knows every run of its code
# never builds the segmenter's model (60-100 ms)
_SEGMENTED: dict[str, tuple[str, ...]] = {}
_COMPUTED: set[str] = set()


@lru_cache(maxsize=131072)
def _run_parts(run: str) -> tuple[str, ...]:
    """A lowercase run of one case: itself, or the words the segmenter finds in it."""
    if len(run) < _MIN_SEGMENTED or not run.isalpha() or is_word(run):
        return (run,)
    known = _SEGMENTED.get(run)
    if known is None:
        pieces = _segmenter()(run)
        known = tuple(pieces) if _plausible(pieces) else (run,)
        _SEGMENTED[run] = known
        _COMPUTED.add(run)
    return known


def segmented() -> dict[str, tuple[str, ...]]:
    """The runs this process gave the segmenter, with what `name_parts` made of each (for an
    index to keep: `learn_segmented` in a later process)."""
    return {run: _SEGMENTED[run] for run in list(_COMPUTED)}


def learn_segmented(known: dict[str, tuple[str, ...]]) -> None:
    """What an index kept of `segmented`: those runs are not segmented again. The splits are the
    segmenter's own, so the terms derived are the same."""
    for run, parts in known.items():
        _SEGMENTED.setdefault(run, parts)


def _case_parts(identifier: str) -> list[str]:
    """Snake and camel case parts, lowercased, no segmentation (the pattern matches no `_`)."""
    if identifier.islower() and identifier.replace("_", "").isalpha():  # snake_case: most names
        return [p for p in identifier.split("_") if p]
    return [p.lower() for p in _CAMEL.findall(identifier)]


@lru_cache(maxsize=131072)
def name_parts(identifier: str) -> tuple[str, ...]:
    """Lowercase unstemmed parts of an identifier, in order, once each: `DEFAULT_WHITE_CHARS` ->
    (default, white, chars), `maxMismatches` -> (max, mismatches), `stripnl` -> (strip, nl)."""
    out: list[str] = []
    for part in _case_parts(identifier):
        out.extend(_run_parts(part))
    return tuple(dict.fromkeys(out))


@lru_cache(maxsize=131072)
def name_terms(identifier: str) -> tuple[str, ...]:
    """The stems of `name_parts`, once each, in order."""
    return tuple(dict.fromkeys(stem(p) for p in name_parts(identifier)))


def names_terms(identifiers: Iterable[str]) -> tuple[str, ...]:
    """The terms of several identifiers (a parameter list, the names a body assigns), once each."""
    return tuple(dict.fromkeys(t for ident in identifiers for t in name_terms(ident)))


def text_terms(text: str) -> tuple[str, ...]:
    """The words of prose (a question, a docstring sentence), stemmed, in order: split on what is
    not a letter or digit, a code-shaped token (`max_size`, `maxSize`) on snake and camel case;
    lowercased; no stop words removed (the reader decides)."""
    if "'" in text or "\u2019" in text:  # a possessive to drop (a scan for the quote is cheaper)
        text = _POSSESSIVE.sub("", text)
    out: list[str] = []
    for token in _TOKEN.findall(text):
        out.extend(_token_stems(token))
    return tuple(out)


@lru_cache(maxsize=131072)
def _token_stems(token: str) -> tuple[str, ...]:
    """The stems one token of prose gives `text_terms` (prose repeats its words: cached)."""
    if "_" in token or not (token.islower() or token.isupper() or token.istitle()):
        return tuple(stem(p) for p in _case_parts(token))
    return (stem(token.lower()),)


def first_sentence(doc: str) -> str:
    """A docstring's first sentence (up to the first '. ' or blank line; at most 300 characters)."""
    head = doc.strip().split("\n\n", 1)[0]
    end = head.find(". ")
    return (head if end < 0 else head[: end + 1])[:300]


def abbreviates(part: str, word: str) -> bool:
    """Does identifier part `part` abbreviate `word` (both lowercase, unstemmed)? By rule: the
    same first letter, shorter than the word, and either a prefix of three or more letters
    (`delim` ~ delimiter, `env` ~ environment) or its consonant skeleton, an in-order subsequence
    whose letters after the first are consonants (`nl` ~ newline, `msg` ~ message, `cfg` ~ config,
    `idx` ~ index). Apply it to parts that are not words themselves (`name_part_vocabulary`):
    `is_word` is not consulted here, so question time loads no word list."""
    if len(part) < 2 or len(part) >= len(word) or part[0] != word[0] or not part.isalpha():
        return False
    if len(part) >= 3 and word.startswith(part):
        return True
    if any(c in _VOWELS for c in part[1:]):
        return False
    i = 1
    for c in part[1:]:
        i = word.find(c, i) + 1
        if i == 0:
            return False
    return True


@lru_cache(maxsize=131072)
def _ident_terms(identifier: str) -> tuple[tuple[str, ...], str, tuple[str, ...]]:
    """(`name_terms`, the same space-joined, the parts that are not dictionary words: `nl`, `msg`,
    `cfg`, `delim`), computed in one pass: an index build asks this once per distinct identifier
    (Django: 13k), so it does not go through the separately cached `name_parts` and `name_terms`."""
    if identifier.isalpha() and identifier.islower():  # one lowercase word: the commonest name
        parts = _run_parts(identifier)
        if len(parts) == 1:
            one = stem(identifier)
            return (one,), one, (() if len(identifier) < 2 or is_word(identifier) else (identifier,))
    seen: set[str] = set()
    stems: list[str] = []
    odd: list[str] = []
    for part in _case_parts(identifier):
        for p in _run_parts(part):  # the parts in order, once each (`name_parts`)
            if p in seen:
                continue
            seen.add(p)
            s = stem(p)
            if s not in stems:  # a few parts: a list is cheaper than a dict
                stems.append(s)
            if len(p) >= 2 and p.isalpha() and not is_word(p):
                odd.append(p)
    return tuple(stems), " ".join(stems), tuple(odd)


@lru_cache(maxsize=65536)
def _joined_terms(identifiers: str) -> tuple[str, tuple[str, ...]]:
    """Space-joined identifiers (a parameter list, a body's assigned names, a dotted path): their
    terms space-joined, once each, and their odd parts (a parameter list recurs: cached whole)."""
    idents = identifiers.split()
    if len(idents) == 1:
        _, joined, odd = _ident_terms(idents[0])
        return joined, odd
    got = list(map(_ident_terms, idents))
    stems = dict.fromkeys(chain.from_iterable([g[0] for g in got]))
    odds = [g[2] for g in got if g[2]]
    return " ".join(stems), (tuple(dict.fromkeys(chain.from_iterable(odds))) if odds else ())


@lru_cache(maxsize=65536)
def _path_terms(scope: str) -> str:
    """The terms of a qualname's scope (`pkg.mod.Class`), space-joined (a scope recurs: cached)."""
    return _joined_terms(scope.replace(".", " "))[0]


def declaration_terms(qualname: str, params: str = "", doc: str = "", assigns: str = "") -> tuple[str, ...]:
    """The term columns of one declaration, stems space-joined: (name, path, params, doc, assigns),
    then its odd parts, unstemmed (the parts of its name, parameters and assigned names that are
    not dictionary words). `params` and `assigns` are space-joined identifiers; `doc` its
    docstring (the first sentence counts)."""
    scope, _, name = qualname.rpartition(".")
    _, name_col, odd = _ident_terms(name)
    if not (params or doc or assigns):  # a module constant, a class attribute
        return (name_col, _path_terms(scope), "", "", "", " ".join(odd))
    param_col, param_odd = _joined_terms(params) if params else ("", ())
    assign_col, assign_odd = _joined_terms(assigns) if assigns else ("", ())
    if param_odd or assign_odd:
        odd = tuple(dict.fromkeys((*odd, *param_odd, *assign_odd)))
    return (
        name_col,
        _path_terms(scope),
        param_col,
        " ".join(dict.fromkeys(text_terms(first_sentence(doc)))) if doc else "",
        assign_col,
        " ".join(odd),
    )
