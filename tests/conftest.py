"""Shared fixtures: copies of fixtures_repos/ (indexing writes `.codehop/` inside a repo)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures_repos"


@pytest.fixture
def fixture_repo(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Factory: a fresh copy of fixtures_repos/<name> under tmp_path."""

    def make(name: str) -> Path:
        dest = tmp_path / name
        shutil.copytree(FIXTURES / name, dest, symlinks=True)
        return dest

    return make
