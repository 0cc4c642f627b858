"""Shared fixtures: copies of fixtures_repos/ (indexing writes `.codehop/` inside a repo).

A copy never carries the fixture's own `.codehop/` (running the README's `codehop ask
--repo fixtures_repos/...` leaves one there, and a test must start from a clean repository).
Resolver deadlines are raised for the whole run (and the subprocesses it starts), so Jedi's
cold start on a loaded two-core machine is not mistaken for a failure; tests that measure a
timeout pass their own. The virtualenv the suite itself runs in (`$VIRTUAL_ENV`, when the README's
commands run in an activated one) is codehop's environment, not a fixture's: it is dropped, and
the tests that exercise an environment name theirs.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from shared import FIXTURES, copy_fixture

os.environ.setdefault("CODEHOP_RESOLVER_TIMEOUT_S", "60")
# the servers the tests start fill no landing cache in the background (tests/test_landings.py asks for it)
os.environ.setdefault("CODEHOP_PRECOMPUTE", "0")
os.environ.pop("VIRTUAL_ENV", None)


@pytest.fixture
def fixture_repo(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Factory: a fresh copy of fixtures_repos/<name> under tmp_path."""

    def make(name: str) -> Path:
        return copy_fixture(FIXTURES / name, tmp_path / name)

    return make


DATA = Path(__file__).resolve().parent / "data"


def build_wheel(src: Path, name: str, version: str, out: Path) -> Path:
    """A real, minimal wheel (PEP 427) of the package folder `src/<name>`: written with zipfile, so no
    build backend or network is needed; pip installs it like any other."""
    import base64
    import hashlib
    import zipfile

    dist_info = f"{name}-{version}.dist-info"
    files = {
        f"{name}/{p.relative_to(src / name).as_posix()}": p.read_bytes() for p in sorted((src / name).rglob("*.py"))
    }
    files[f"{dist_info}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode()
    files[f"{dist_info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: codehop-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    files[f"{dist_info}/top_level.txt"] = f"{name}\n".encode()
    record = []
    for path, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    record.append(f"{dist_info}/RECORD,,")
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel = out / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for path, data in files.items():
            zf.writestr(path, data)
    return wheel


@pytest.fixture(scope="session")
def minireq_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real wheel of tests/data/minireq (version 1.2.0)."""
    return build_wheel(DATA / "minireq", "minireq", "1.2.0", tmp_path_factory.mktemp("wheels"))


@pytest.fixture
def app_with_venv(fixture_repo, minireq_wheel: Path) -> Path:  # type: ignore[no-untyped-def]
    """fixtures_repos/app_with_venv with a real `.venv` holding minireq 1.2.0."""
    root: Path = fixture_repo("app_with_venv")
    install_wheel(root / ".venv", minireq_wheel, create=True)
    return root


def install_wheel(env_dir: Path, wheel: Path, *, create: bool = False) -> Path:
    """pip-install a wheel into the virtualenv `env_dir` (created first if asked); its site dir."""
    if create:
        venv.EnvBuilder(with_pip=False, symlinks=True).create(env_dir)
    site = next((env_dir / "lib").glob("python3*/site-packages"))
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--no-index",
            "--upgrade",
            "--target",
            str(site),
            str(wheel),
        ],
        check=True,
        timeout=240,
    )
    return site
