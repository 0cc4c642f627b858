"""Shared fixtures: copies of fixtures_repos/ (indexing writes `.codehop/` inside a repo).

A copy never carries the fixture's own `.codehop/` (running the README's `codehop ask
--repo fixtures_repos/...` leaves one there, and a test must start from a clean repository).
Resolver deadlines are raised for the whole run (and the subprocesses it starts), so Jedi's
cold start on a loaded two-core machine is not mistaken for a failure; tests that measure a
timeout pass their own.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from shared import FIXTURES, copy_fixture

os.environ.setdefault("CODEHOP_RESOLVER_TIMEOUT_S", "60")


@pytest.fixture
def fixture_repo(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Factory: a fresh copy of fixtures_repos/<name> under tmp_path."""

    def make(name: str) -> Path:
        return copy_fixture(FIXTURES / name, tmp_path / name)

    return make
