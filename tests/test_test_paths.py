"""The one test-path rule (codehop.kernel.paths): which repository paths are test code."""

from __future__ import annotations

import pytest

from codehop.kernel.paths import is_test_path

CASES = [
    ("tests/test_api.py", True),
    ("pkg/tests/helpers.py", True),
    ("testing/fixtures.py", True),
    ("test/unit.py", True),
    ("conftest.py", True),
    ("tests/conftest.py", True),
    ("src/pkg/conftest.py", True),
    ("pkg/test_utils.py", True),
    ("pkg/utils_test.py", True),
    ("pkg/utils_tests.py", True),
    ("pkg/testing.py", False),  # `testing` as a folder only, not as a module name
    ("pkg/contest.py", False),
    ("pkg/latest/api.py", False),
    ("pkg/attestation.py", False),
]


@pytest.mark.parametrize(("rel_path", "expected"), CASES, ids=[c[0] for c in CASES])
def test_is_test_path(rel_path: str, expected: bool) -> None:
    assert is_test_path(rel_path) is expected
