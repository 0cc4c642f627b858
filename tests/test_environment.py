"""Finding the repository's Python environment (codehop/index/environment.py), with real virtualenvs.

Fixture: `fixtures_repos/app_with_venv/` (an app importing `minireq`) and the package
`tests/data/minireq/`, built into a real wheel and installed into a real `.venv` inside a copy
of the app by a session fixture. Nothing is mocked: interpreters are run, dist-infos read.
"""

from __future__ import annotations

import os
import sys
import venv
from pathlib import Path

import pytest

from codehop.index.environment import (
    EnvReason,
    distribution_of,
    distributions,
    find_environment,
    package_cache_dir,
)
from codehop.kernel.errors import UsageError

DATA = Path(__file__).resolve().parent / "data"


def _tree_state(root: Path) -> dict[str, tuple[int, int]]:
    return {str(p): (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*") if p.is_file()}


@pytest.mark.slow
def test_repo_venv_is_found_and_its_packages_named(app_with_venv: Path) -> None:
    """app_with_venv: `.venv` in the root wins; its site-packages holds minireq 1.2.0."""
    before = _tree_state(app_with_venv / ".venv")
    env = find_environment(app_with_venv, environ={})
    assert env is not None
    assert env.reason is EnvReason.REPO_VENV
    assert Path(env.python).parent.parent == app_with_venv / ".venv"
    assert any(Path(s).resolve().is_relative_to((app_with_venv / ".venv").resolve()) for s in env.site_dirs)
    dist = distribution_of(env, "minireq.sessions")
    assert dist is not None and dist.pin == "minireq==1.2.0"
    assert dist.top_level == ("minireq",)
    assert env.contains(Path(dist.site_dir) / "minireq" / "sessions.py")
    assert not env.contains(app_with_venv / "app" / "client.py")  # the repository is not the environment
    assert [d.name for d in distributions(env)] == ["minireq"]
    assert _tree_state(app_with_venv / ".venv") == before  # reading writes nothing inside it


@pytest.mark.slow
def test_explicit_interpreter_wins_over_repo_venv(app_with_venv: Path) -> None:
    """`--python` (then CODEHOP_PYTHON) beats `.venv`; `$VIRTUAL_ENV` only applies without one."""
    here = find_environment(app_with_venv, python=sys.executable, environ={})
    assert here is not None and here.reason is EnvReason.FLAG
    assert distribution_of(here, "minireq") is None  # this interpreter does not have minireq
    by_var = find_environment(app_with_venv, environ={"CODEHOP_PYTHON": sys.executable})
    assert by_var is not None and by_var.reason is EnvReason.ENV_VAR
    by_dir = find_environment(app_with_venv, python=str(app_with_venv / ".venv"), environ={})
    assert by_dir is not None and by_dir.python.startswith(str(app_with_venv / ".venv"))


@pytest.mark.slow
def test_active_virtualenv_when_the_repo_has_none(fixture_repo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """reexport_chain has no virtualenv: `$VIRTUAL_ENV` is used; without it, no environment."""
    root: Path = fixture_repo("reexport_chain")
    outside = tmp_path / "elsewhere-venv"
    venv.EnvBuilder(with_pip=False, symlinks=True).create(outside)
    env = find_environment(root, environ={"VIRTUAL_ENV": str(outside)})
    assert env is not None and env.reason is EnvReason.VIRTUAL_ENV
    assert find_environment(root, environ={}) is None


def test_a_virtualenv_named_only_by_pyvenv_cfg(fixture_repo) -> None:  # type: ignore[no-untyped-def]
    """reexport_chain + `tools/pyvenv.cfg` and an interpreter link: found without a conventional name."""
    root: Path = fixture_repo("reexport_chain")
    (root / "tools" / "bin").mkdir(parents=True)
    (root / "tools" / "pyvenv.cfg").write_text(f"home = {Path(sys.executable).parent}\n")
    os.symlink(sys.executable, root / "tools" / "bin" / "python")
    env = find_environment(root, environ={})
    assert env is not None and env.reason is EnvReason.REPO_VENV
    assert env.python == str(root / "tools" / "bin" / "python")


@pytest.mark.parametrize("bad", ["missing", "not-executable", "not-python"], ids=str)
def test_bad_interpreter_is_a_clear_usage_error(tmp_path: Path, bad: str) -> None:
    """A `--python` that does not exist, cannot run, or is not Python: UsageError naming it."""
    path = tmp_path / "python"
    if bad == "not-executable":
        path.write_text("")
    elif bad == "not-python":
        path.write_text("#!/bin/sh\necho garbage\nexit 0\n")
        path.chmod(0o755)
    (tmp_path / "repo").mkdir()
    with pytest.raises(UsageError, match=str(path)):
        find_environment(tmp_path / "repo", python=str(path), environ={})


def _hand_made_venv(root: Path, *, system_site: bool) -> Path:
    """A virtualenv of files only (no interpreter at all): what reading it must find."""
    venv_dir = root / ".venv"
    site = venv_dir / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    (site / "onepkg").mkdir(parents=True)
    (site / "onepkg" / "__init__.py").write_text("X = 1\n")
    (root / "src-linked").mkdir()
    flag = "true" if system_site else "false"
    base = Path(sys.base_prefix) / "bin"
    (venv_dir / "pyvenv.cfg").write_text(
        f"home = {base}\ninclude-system-site-packages = {flag}\nversion = {sys.version.split()[0]}\n"
    )
    # a path line (relative, from the site dir), a comment, and an import line Python would run
    (site / "extra.pth").write_text(f"# comment\n../../../../src-linked\nimport os; open({str(root / 'ran')!r}, 'w')\n")
    return venv_dir


@pytest.mark.parametrize("system_site", [False, True], ids=["isolated", "system-site"])
def test_a_repo_virtualenv_is_read_never_run(tmp_path: Path, system_site: bool) -> None:
    """A `.venv` with no interpreter in it: its site-packages, its `.pth` path line (never the
    import line), the base interpreter's standard library (from `home`) and, when pyvenv.cfg says
    so, the system site-packages; the environment is marked as read."""
    venv_dir = _hand_made_venv(tmp_path, system_site=system_site)
    env = find_environment(tmp_path, environ={})
    assert env is not None and env.reason is EnvReason.REPO_VENV and not env.executed
    assert env.interpreter is None and "read, never run" in env.describe()
    site = str(next((venv_dir / "lib").glob("python*/site-packages")))
    assert env.site_dirs[0] == site
    assert str(tmp_path / "src-linked") in env.sys_path and not any("import" in p for p in env.sys_path)
    assert any(Path(d, "os.py").is_file() for d in env.stdlib_dirs)
    assert env.version == sys.version.split()[0]
    system = [d for d in env.site_dirs if not Path(d).is_relative_to(tmp_path)]
    assert bool(system) is system_site
    assert not (tmp_path / "ran").exists()


def test_an_interpreter_inside_the_repo_is_read_whoever_names_it(tmp_path: Path) -> None:
    """`--python .venv/bin/python`, CODEHOP_PYTHON and `$VIRTUAL_ENV` pointing into the repository:
    the virtualenv is read (its interpreter here is a script that would leave a file if run)."""
    venv_dir = _hand_made_venv(tmp_path, system_site=False)
    (venv_dir / "bin").mkdir()
    exe = venv_dir / "bin" / "python"
    exe.write_text(f"#!/bin/sh\ntouch {tmp_path / 'ran'}\n")
    exe.chmod(0o755)
    for env in (
        find_environment(tmp_path, python=str(exe), environ={}),
        find_environment(tmp_path, environ={"CODEHOP_PYTHON": str(exe)}),
    ):
        assert env is not None and not env.executed and env.python == str(exe)
    deeper = tmp_path / "envs" / "dev"  # not a direct subfolder: only `$VIRTUAL_ENV` names it
    deeper.parent.mkdir()
    venv_dir.rename(deeper)
    env = find_environment(tmp_path, environ={"VIRTUAL_ENV": str(deeper)})
    assert env is not None and env.reason is EnvReason.VIRTUAL_ENV and not env.executed
    assert not (tmp_path / "ran").exists()


def test_half_installed_distribution_is_skipped(tmp_path: Path) -> None:
    """A `.dist-info` without METADATA names nothing; a complete one beside it is still read."""
    site = tmp_path / "site-packages"
    (site / "broken-1.0.dist-info").mkdir(parents=True)
    good = site / "Good_Pkg-2.0.dist-info"
    good.mkdir()
    (good / "METADATA").write_text("Metadata-Version: 2.1\nName: Good_Pkg\nVersion: 2.0\n\nName: not-this\n")
    (good / "RECORD").write_text("good_pkg/__init__.py,,\ngood_pkg/x.py,,\nGood_Pkg-2.0.dist-info/RECORD,,\n")
    from codehop.index.environment import PythonEnvironment

    env = PythonEnvironment(
        python=sys.executable,
        reason=EnvReason.FLAG,
        version="3",
        prefix="",
        sys_path=(str(site),),
        site_dirs=(str(site),),
        stdlib_dirs=(),
    )
    dists = distributions(env)
    assert [(d.name, d.version, d.top_level) for d in dists] == [("good-pkg", "2.0", ("good_pkg",))]
    key = package_cache_dir(dists[0], environ={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert key.parent == tmp_path / "cache" / "codehop" / "packages"
    assert key.name.startswith("good-pkg-2.0-")


def test_a_package_directory_linked_out_of_the_virtualenv_is_not_read(tmp_path: Path) -> None:
    """A hand-made `.venv` whose `lib/pythonX.Y/site-packages` is a link to a folder elsewhere:
    not taken as the environment's packages (the standard library still is)."""
    venv_dir = _hand_made_venv(tmp_path, system_site=False)
    site = next((venv_dir / "lib").glob("python*/site-packages"))
    elsewhere = tmp_path.parent / f"{tmp_path.name}-elsewhere"
    site.rename(elsewhere)
    site.symlink_to(elsewhere, target_is_directory=True)
    env = find_environment(tmp_path, environ={})
    assert env is not None and env.site_dirs == () and env.stdlib_dirs
    assert not any(p.startswith(str(elsewhere)) or p == str(site) for p in env.sys_path)
