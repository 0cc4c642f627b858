"""Which repository paths are test code: the one rule every ranking and listing uses (stdlib only).

A path is test code when a folder on it is `test`, `tests` or `testing`, or its file is
`test_*.py`, `*_test.py`, `*_tests.py` or `conftest.py` (pytest's fixtures are test code too).
"""

from __future__ import annotations

import re

_TEST_PATH = re.compile(r"(^|/)(tests?|testing)/|(^|/)test_[^/]*\.py$|_tests?\.py$|(^|/)conftest\.py$")


def is_test_path(rel_path: str) -> bool:
    """Is `rel_path` (repo-relative, `/`-separated) test code?"""
    return bool(_TEST_PATH.search(rel_path))
