"""Third-party trees for the benchmarks: a wheel from the package registry (pip), unzipped into the
user cache without its dist-info, once. Never committed, never inside the repository."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path


def unpacked(requirement: str, wheel_prefix: str, dest: Path, wheels: Path) -> Path:
    """`dest` holding the wheel pip downloads for `requirement` (`django==5.2.*`), the first of
    `wheels` whose name starts with `wheel_prefix` (case-insensitive); `dest/.ok` marks it done."""
    if (dest / ".ok").exists():
        return dest
    wheels.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:", requirement]
        + ["-d", str(wheels)],
        check=True,
    )
    found = sorted(w for w in wheels.glob("*.whl") if w.name.lower().startswith(wheel_prefix.lower()))
    if not found:
        raise SystemExit(f"pip downloaded no wheel named {wheel_prefix}* for {requirement} into {wheels}")
    shutil.rmtree(dest, ignore_errors=True)
    with zipfile.ZipFile(found[-1]) as z:
        z.extractall(dest)
    for extra in dest.glob("*.dist-info"):
        shutil.rmtree(extra)
    (dest / ".ok").touch()
    return dest
