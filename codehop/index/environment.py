"""The Python environment whose installed packages a repository uses (stdlib only).

Found the way Python tools find it, first rule that applies wins:

  1. an explicit interpreter (`--python PATH`, or `CODEHOP_PYTHON`);
  2. a virtualenv inside the repository: `.venv/`, `venv/`, or any direct
     subfolder holding a `pyvenv.cfg`;
  3. the active virtualenv (`$VIRTUAL_ENV`);
  4. none: only the repository is trusted.

A repository is data: nothing in it is ever run. A virtualenv inside the repository (and an
interpreter named there, whoever named it) is *read*: `pyvenv.cfg` (home, version,
include-system-site-packages), `lib/pythonX.Y/site-packages` (`lib64`, Windows
`Lib/site-packages`) and the path lines of its `.pth` files, read as data (their `import` lines
never run). Only an interpreter outside the repository that the user chose (`--python`,
`CODEHOP_PYTHON`, `$VIRTUAL_ENV` outside the repository) is run, once, to read its `sys.path`
(`python -I -c ...`, with a deadline); its packages are never imported into codehop's process.
The trusted corpus beyond the repository is that environment's package directories
(`site_dirs`) and its standard library (`stdlib_dirs`): a path anywhere else (another
directory, a symlink out) is outside.

Each installed distribution is named by `*.dist-info` (name, version, the
sha256 of its RECORD, its top-level modules), which is what keys a shared,
per-user package index: `$XDG_CACHE_HOME/codehop/packages/<name>-<version>-<hash>/`.
Reading an environment never writes inside it.
May import: errors, stdlib.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from codehop.kernel.errors import UsageError

_PROBE = (
    "import json, sys, sysconfig; "
    "p = sysconfig.get_paths(); "
    "print(json.dumps({'version': '%d.%d.%d' % sys.version_info[:3], 'prefix': sys.prefix, "
    "'sys_path': [x for x in sys.path if x], 'stdlib': [p.get('stdlib', ''), p.get('platstdlib', '')], "
    "'site': [p.get('purelib', ''), p.get('platlib', '')]}))"
)
_VENV_DIRS = (".venv", "venv")
_NORMALISE = re.compile(r"[-_.]+")


class EnvReason(StrEnum):
    """Why this environment was chosen (shown by `codehop doctor`)."""

    FLAG = "--python"
    ENV_VAR = "CODEHOP_PYTHON"
    REPO_VENV = "a virtualenv in the repository"
    VIRTUAL_ENV = "$VIRTUAL_ENV"


@dataclass(frozen=True, slots=True, kw_only=True)
class PythonEnvironment:
    python: str  # the interpreter, absolute
    reason: EnvReason
    version: str
    prefix: str
    sys_path: tuple[str, ...]
    site_dirs: tuple[str, ...]  # package directories: site-packages / dist-packages
    stdlib_dirs: tuple[str, ...]
    # True when `python` was run to read these paths (an interpreter outside the repository that
    # the user chose); False when a virtualenv was read (nothing of it may ever run)
    executed: bool = False

    @property
    def interpreter(self) -> str | None:
        """The interpreter a tool may run for this environment (Jedi's, a language server's), or None."""
        return self.python if self.executed else None

    @property
    def search_paths(self) -> tuple[str, ...]:
        """Where imports are looked up beyond the repository: package directories, `.pth` paths and
        the standard library, in `sys.path` order."""
        return tuple(p for p in self.sys_path if p and not p.endswith(".zip"))

    @property
    def extra_paths(self) -> tuple[str, ...]:
        """The search paths beyond the standard library (package directories, `.pth` paths)."""
        std = {Path(d) for d in self.stdlib_dirs}
        return tuple(
            p for p in self.search_paths if Path(p) not in std and Path(p).name != "lib-dynload" and Path(p).is_dir()
        )

    def roots(self) -> tuple[Path, ...]:
        """Every directory of the trusted corpus beyond the repository, resolved."""
        return tuple(Path(p).resolve() for p in dict.fromkeys(self.site_dirs + self.stdlib_dirs) if p)

    def contains(self, path: str | os.PathLike[str]) -> bool:
        """True if `path` (resolved, so a symlink out is outside) lies in a trusted directory."""
        p = Path(path).resolve()
        return any(p == r or r in p.parents for r in self.roots())

    def describe(self) -> str:
        how = "run to read its paths" if self.executed else "read, never run"
        return f"{self.python} (Python {self.version or 'version unknown'}; chosen by {self.reason}; {how})"


@dataclass(frozen=True, slots=True, kw_only=True)
class Distribution:
    """One installed distribution, as its `.dist-info` describes it."""

    name: str  # normalised (PEP 503): lowercase, runs of -_. as -
    version: str
    record_sha256: str  # of its RECORD file: changes with every (re)install of other content
    site_dir: str  # the package directory it is installed in (its import root)
    top_level: tuple[str, ...]  # importable top-level modules and packages

    @property
    def key(self) -> str:
        return f"{self.name}-{self.version}-{self.record_sha256[:12]}"

    @property
    def pin(self) -> str:
        return f"{self.name}=={self.version}"


def find_environment(
    root: str | os.PathLike[str],
    python: str | None = None,
    environ: dict[str, str] | None = None,
    *,
    timeout_s: float = 20.0,
) -> PythonEnvironment | None:
    """The environment the repository at `root` uses, or None (see the module docstring)."""
    env = os.environ if environ is None else environ
    repo = Path(root).absolute()
    if python:
        return _chosen(_interpreter(python), EnvReason.FLAG, repo, timeout_s)
    if env.get("CODEHOP_PYTHON"):
        return _chosen(_interpreter(env["CODEHOP_PYTHON"]), EnvReason.ENV_VAR, repo, timeout_s)
    venv = repo_virtualenv(repo)
    if venv is not None:
        return read_virtualenv(venv, EnvReason.REPO_VENV)
    if env.get("VIRTUAL_ENV"):
        folder = Path(env["VIRTUAL_ENV"]).absolute()
        if _inside(folder, repo) and (folder / "pyvenv.cfg").is_file():
            return read_virtualenv(folder, EnvReason.VIRTUAL_ENV)
        exe = _venv_python(folder)
        if exe is not None:
            return _chosen(exe, EnvReason.VIRTUAL_ENV, repo, timeout_s)
    return None


def repo_virtualenv(root: Path) -> Path | None:
    """A virtualenv folder directly inside `root` (`.venv`, `venv`, then any with a `pyvenv.cfg`)."""
    candidates = [root / d for d in _VENV_DIRS]
    try:
        candidates += sorted(p for p in root.iterdir() if p.is_dir() and p.name not in _VENV_DIRS)
    except OSError:
        return None
    for d in candidates:
        if (d / "pyvenv.cfg").is_file():
            return d.absolute()
    return None


def read_virtualenv(venv: Path, reason: EnvReason) -> PythonEnvironment:
    """A virtualenv's paths, read from its files without running anything in it: `pyvenv.cfg`,
    its package directories, the path lines of their `.pth` files, and the base interpreter's
    standard library (found from `home`)."""
    cfg = _read_cfg(venv / "pyvenv.cfg")
    version = cfg.get("version") or cfg.get("version_info") or ""
    xy = ".".join(version.split(".")[:2]) if version else ""
    site: list[Path] = []
    for lib in ("lib", "lib64"):
        for d in sorted((venv / lib).glob(f"python{xy}*/site-packages")) + sorted(
            (venv / lib).glob("pypy*/site-packages")
        ):
            site.append(d)
    site.append(venv / "Lib" / "site-packages")
    base = _base_prefix(cfg.get("home", ""))
    stdlib: list[Path] = []
    system_site: list[Path] = []
    if base is not None:
        libs = sorted(base.glob(f"lib/python{xy}*" if xy else "lib/python3*")) + [base / "Lib"]
        stdlib = [d for d in libs if (d / "os.py").is_file()]
        if cfg.get("include-system-site-packages", "").lower() == "true":
            system_site = [d / "site-packages" for d in stdlib]
            system_site += [
                base / "lib" / "python3" / "dist-packages",
                base / "local" / "lib" / f"python{xy}" / "dist-packages",
            ]
    if not xy and stdlib:
        version = xy = stdlib[0].name.removeprefix("python")
    # the virtualenv's own package directories stay inside it (`lib64` -> `lib` does); one linked
    # out of it (to another project, to /etc) is not read as its packages
    real = venv.resolve()
    site = [d for d in site if d.resolve() == real or real in d.resolve().parents]
    site_dirs = _dirs([*site, *system_site])
    sys_path = _dirs([*stdlib, *(d / "lib-dynload" for d in stdlib)])
    for site_dir in site_dirs:
        sys_path += (site_dir, *_pth_paths(Path(site_dir)))
    exe = _venv_python(venv)
    return PythonEnvironment(
        python=str(exe or venv / "bin" / "python"),
        reason=reason,
        version=version,
        prefix=str(venv),
        sys_path=tuple(dict.fromkeys(sys_path)),
        site_dirs=site_dirs,
        stdlib_dirs=_dirs(stdlib),
        executed=False,
    )


def distributions(env: PythonEnvironment) -> list[Distribution]:
    """Every distribution installed in the environment's package directories, sorted by name."""
    out: dict[tuple[str, str], Distribution] = {}
    for site in env.site_dirs:
        try:
            infos = sorted(Path(site).glob("*.dist-info"))
        except OSError:
            continue
        for info in infos:
            dist = _read_dist_info(info, site)
            if dist is not None:
                out.setdefault((dist.name, dist.site_dir), dist)
    return sorted(out.values(), key=lambda d: (d.name, d.site_dir))


def distribution_of(env: PythonEnvironment, module: str) -> Distribution | None:
    """The distribution that provides the top-level module of `module` (`requests.sessions` -> requests)."""
    top = module.split(".")[0]
    for dist in distributions(env):
        if top in dist.top_level:
            return dist
    return None


STDLIB = "python-stdlib"  # the name the interpreter's standard library goes by, as a distribution


def stdlib_module(env: PythonEnvironment, top: str) -> Distribution | None:
    """The interpreter's own standard-library module `top` (`Lib/http/`, `Lib/enum.py`) as a
    distribution of its own: the standard library is large, so each top-level module a chain
    reaches is indexed by itself (pin `python-stdlib==3.11.7`, keyed by the interpreter's version,
    the library's folder and the module). Modules built into the interpreter have no file: None."""
    if not top.isidentifier() or top in ("site-packages", "dist-packages"):
        return None
    for d in env.stdlib_dirs:
        base = Path(d)
        if (base / top / "__init__.py").is_file() or (base / f"{top}.py").is_file():
            digest = hashlib.sha256(f"{base.resolve()}\0{top}\0{env.version}".encode()).hexdigest()
            return Distribution(name=STDLIB, version=env.version, record_sha256=digest, site_dir=d, top_level=(top,))
    return None


def package_cache_dir(dist: Distribution, environ: dict[str, str] | None = None) -> Path:
    """Where a distribution's shared index lives: one per name, version and RECORD hash."""
    env = os.environ if environ is None else environ
    base = Path(env.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "codehop" / "packages" / dist.key


# ---- internals -----------------------------------------------------------------
def _interpreter(python: str) -> Path:
    p = Path(python).expanduser()
    if p.is_dir():  # a virtualenv's folder named instead of its interpreter
        exe = _venv_python(p)
        if exe is None:
            if (p / "pyvenv.cfg").is_file():
                return p.absolute() / "bin" / "python"  # read, never run: it need not exist
            raise UsageError(f"no Python interpreter in {p} (expected bin/python)", path=str(p))
        return exe
    if not p.is_file() or not os.access(p, os.X_OK):
        raise UsageError(f"not an executable Python interpreter: {p}", path=str(p))
    return p.absolute()


def _inside(path: Path, root: Path) -> bool:
    """`path` lies in `root`, as written or once its links are followed (a link out of the
    repository to a script in it, or into it from outside, counts as inside)."""
    real = root.resolve()
    a = path.absolute()
    return any(x == r or r in x.parents for x in (a, a.resolve()) for r in (root, real))


def _chosen(exe: Path, reason: EnvReason, repo: Path, timeout_s: float) -> PythonEnvironment:
    """The chosen interpreter: run when it lies outside the repository; inside it, its virtualenv
    is read instead (a repository is data, whoever points at it)."""
    if not _inside(exe, repo):
        return _probe(exe, reason, timeout_s)
    for venv in (exe.parent.parent, exe.parent):  # bin/python, Scripts/python.exe; or the folder named
        if (venv / "pyvenv.cfg").is_file():
            return read_virtualenv(venv, reason)
    raise UsageError(
        f"{exe} is inside the repository and codehop never runs the repository's files; "
        "name a virtualenv folder (one with a pyvenv.cfg) or an interpreter outside the repository",
        path=str(exe),
    )


def _venv_python(venv: Path) -> Path | None:
    for rel in ("bin/python", "bin/python3", "Scripts/python.exe"):
        exe = venv / rel
        if exe.is_file():
            return exe.absolute()
    return None


_CFG_MAX_BYTES = 64 * 1024  # a pyvenv.cfg or a .pth is a few lines; anything larger is not read whole


def _read_small(path: Path) -> str:
    """A small regular file's text (empty when it is not one: a FIFO, a device, a huge file)."""
    try:
        if not path.is_file():
            return ""
        with open(path, "rb") as fh:
            return fh.read(_CFG_MAX_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return ""


def _read_cfg(path: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in _read_small(path).splitlines():
        key, sep, value = line.partition("=")
        if sep:
            out.setdefault(key.strip().lower(), value.strip())
    return out


def _base_prefix(home: str) -> Path | None:
    """The base interpreter's prefix from `pyvenv.cfg`'s `home` (the folder of its executable:
    `/usr/bin` -> `/usr`; on Windows the folder itself)."""
    if not home:
        return None
    h = Path(home)
    for base in (h.parent, h):
        if (base / "lib").is_dir() or (base / "Lib").is_dir():
            return base
    return None


def _pth_paths(site: Path) -> list[str]:
    """The folders named by the `.pth` files of a package directory, read as data: `import` lines
    (which Python would run) and comments are skipped, relative paths are taken from `site`."""
    out: list[str] = []
    try:
        pths = sorted(site.glob("*.pth"))
    except OSError:
        return out
    for pth in pths:
        for line in _read_small(pth).splitlines():
            line = line.rstrip()
            if not line or line.startswith("#") or line.startswith(("import ", "import\t")):
                continue
            d = Path(os.path.normpath(site / line))
            if d.is_dir():
                out.append(str(d))
    return out


def _dirs(paths: list[Path]) -> tuple[str, ...]:
    """Existing folders, each once (by real path: `lib64` is often a link to `lib`), as given."""
    seen: set[Path] = set()
    out: list[str] = []
    for p in paths:
        try:
            real = p.resolve()
        except OSError:
            continue
        if p.is_dir() and real not in seen:
            seen.add(real)
            out.append(str(p))
    return tuple(out)


def _probe(python: Path, reason: EnvReason, timeout_s: float) -> PythonEnvironment:
    """Run the interpreter once (isolated mode: no user site, no cwd on the path) and read its paths."""
    try:
        done = subprocess.run(
            [str(python), "-I", "-c", _PROBE],
            capture_output=True,
            text=True,
            timeout=timeout_s,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise UsageError(f"cannot run the Python interpreter {python}: {exc}", path=str(python)) from exc
    try:
        data = json.loads(done.stdout.strip().splitlines()[-1]) if done.returncode == 0 else None
    except (ValueError, IndexError):
        data = None
    if not isinstance(data, dict):
        why = done.stderr.strip().splitlines()[-1:] or [f"exit {done.returncode}"]
        raise UsageError(f"the Python interpreter {python} did not report its paths: {why[0]}", path=str(python))
    sys_path = tuple(str(x) for x in data.get("sys_path", []))
    site = tuple(dict.fromkeys(str(x) for x in data.get("site", []) if x))
    # dist-packages and other package dirs on sys.path (Debian) count as package directories too
    site += tuple(p for p in sys_path if p.rstrip("/").endswith(("site-packages", "dist-packages")) and p not in site)
    stdlib = tuple(dict.fromkeys(str(x) for x in data.get("stdlib", []) if x))
    return PythonEnvironment(
        python=str(python),
        reason=reason,
        version=str(data.get("version", "")),
        prefix=str(data.get("prefix", "")),
        sys_path=sys_path,
        site_dirs=tuple(p for p in site if Path(p).is_dir()),
        stdlib_dirs=stdlib,
        executed=True,
    )


def _read_dist_info(info: Path, site: str) -> Distribution | None:
    """Name and version from METADATA; top-level modules from top_level.txt, else from RECORD."""
    try:
        meta = (info / "METADATA").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None  # a half-installed distribution: no metadata, nothing to name
    fields: dict[str, str] = {}
    for line in meta.splitlines():
        if not line.strip():
            break  # the headers end at the first blank line; the description follows
        key, sep, value = line.partition(":")
        if sep and key in ("Name", "Version") and key not in fields:
            fields[key] = value.strip()
    if "Name" not in fields or "Version" not in fields:
        return None
    try:
        record = (info / "RECORD").read_bytes()
    except OSError:
        record = b""
    top: list[str] = []
    try:
        top = [t.strip() for t in (info / "top_level.txt").read_text(encoding="utf-8").splitlines() if t.strip()]
    except OSError:
        for row in record.decode("utf-8", errors="replace").splitlines():
            first = row.split(",", 1)[0].split("/", 1)[0]
            if first.endswith(".py"):
                first = first[:-3]
            if first and not first.endswith((".dist-info", ".data", ".pth")) and first != "..":
                top.append(first)
    return Distribution(
        name=_NORMALISE.sub("-", fields["Name"]).lower(),
        version=fields["Version"],
        record_sha256=hashlib.sha256(record).hexdigest(),
        site_dir=site,
        top_level=tuple(dict.fromkeys(top)),
    )
