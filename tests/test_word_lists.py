"""Word lists derived from a library or from Python itself cover what the hand-typed lists they
replaced held (issue 25 item 7): each test names the old list and the words of it that mattered."""

from __future__ import annotations

import pytest

from codehop.reading import builtin_bases

# the modules builtin_bases imported by a typed list before it read `sys.stdlib_module_names`
_TYPED_SAFE_MODULES = """typing collections collections.abc abc enum numbers io os pathlib contextlib threading
json argparse logging datetime decimal fractions string types weakref queue dataclasses functools http.cookiejar
http.client email.message urllib.parse unittest asyncio socket ssl re array codecs configparser""".split()


@pytest.mark.parametrize("module", _TYPED_SAFE_MODULES)
def test_stdlib_modules_cover_the_typed_safe_modules(module):
    assert builtin_bases.safe_module(module)


@pytest.mark.parametrize("module", ["this", "antigravity", "idlelib.idle", "_socket", "json.__main__", "werkzeug"])
def test_modules_that_act_on_import_or_are_not_stdlib_are_not_imported(module):
    assert not builtin_bases.safe_module(module)


def test_a_base_from_a_stdlib_module_the_typed_list_lacked():
    """`heapq`, `csv`, `shlex` were not in the typed list: their classes are Python's too."""
    assert builtin_bases.overrides("csv.DictReader", "__next__") is True
    assert builtin_bases.members("shlex.shlex") is not None
