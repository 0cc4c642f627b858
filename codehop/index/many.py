"""Index many trees, one index file each, on a local process pool or a Ray cluster.

A target is one tree: a repository (a folder) or an installed distribution (its own top-level
packages in the environment's package directory). Each task indexes one target with the same
`index_repo` as `codehop index` and shares nothing with the others: its own index folder, its own
SQLite file, no cache between tasks. So the same task runs in a local process (`run_local`) or as
a Ray task on any node that sees the same paths (`run_on_ray`; Ray is imported only there).

A task builds in a fresh folder beside the final index (`<index folder>/.building-<host>-<pid>-*`)
and moves the finished `index.db` into place with `os.replace()`: a task that fails removes its
folder, and one that is killed leaves only that folder (removed by the next task on the same
index once its process is gone), never a half-written `index.db`. An existing index whose
process closed it cleanly is copied into the build folder first, so a re-run only parses what
changed.

May import: kernel (errors), index (walk, indexer, environment), stdlib; ray inside `run_on_ray`.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import tempfile
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codehop.index.environment import (
    Distribution,
    PythonEnvironment,
    distributions,
    find_environment,
    package_cache_dir,
)
from codehop.index.indexer import index_repo, locate_index, repo_key
from codehop.index.pool import start_method
from codehop.index.walk import repo_root
from codehop.kernel.errors import CodehopError, UsageError

# report(result, done, total): called in the caller's process as each task finishes
Report = Callable[["TaskResult", int, int], None]
_BUILDING = ".building-"


@dataclass(frozen=True, slots=True, kw_only=True)
class Target:
    """One tree to index and the folder its `index.db` goes to."""

    name: str  # as the user named it: a path, or a distribution's pin
    root: str  # absolute
    index_dir: str  # absolute
    include: tuple[str, ...] = ()  # a distribution's top-level modules (empty: the whole tree)


@dataclass(frozen=True, slots=True, kw_only=True)
class TaskResult:
    target: Target
    ok: bool
    index_path: str = ""  # empty when the task failed: it left no index
    files: int = 0
    parsed: int = 0
    chunks: int = 0
    seconds: float = 0.0  # wall, inside the task
    cpu_seconds: float = 0.0  # this process's CPU in the task, and its parse workers' (when it had some)
    error: str = ""
    worker: str = ""  # host:pid that ran the task
    warnings: int = 0

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.target.name,
            "root": self.target.root,
            "index": self.index_path,
            "ok": self.ok,
            "error": self.error,
            "files": self.files,
            "parsed": self.parsed,
            "chunks": self.chunks,
            "seconds": round(self.seconds, 3),
            "cpu_seconds": round(self.cpu_seconds, 3),
            "worker": self.worker,
            "warnings": self.warnings,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class ManyReport:
    backend: str  # "local" or "ray"
    jobs: int  # tasks at once (local) or CPUs asked of a private Ray instance
    results: tuple[TaskResult, ...]
    seconds: float
    setup_seconds: float = 0.0  # starting or joining the Ray instance (0 for the local pool)

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.results)

    def to_dict(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "backend": self.backend,
            "jobs": self.jobs,
            "pid": os.getpid(),
            "seconds": round(self.seconds, 3),
            "setup_seconds": round(self.setup_seconds, 3),
            "repositories": [r.to_dict() for r in self.results],
        }


def index_many(
    paths: Iterable[str],
    dists: Iterable[str] = (),
    *,
    out: str | None = None,
    jobs: int | None = None,
    ray: str | None = None,
    report: Report | None = None,
) -> ManyReport:
    """Index every repository path and installed distribution named, one index each.

    Every name is checked first (a missing path, a file, an unknown distribution: one UsageError
    naming them all, nothing indexed). Distributions are looked up in the environment
    `find_environment` chooses (`--python` / CODEHOP_PYTHON, a virtualenv here, $VIRTUAL_ENV)."""
    t0 = time.perf_counter()
    dists = list(dists)
    env = find_environment(Path.cwd()) if dists and not os.environ.get("CODEHOP_NO_ENV") else None
    targets = unique(repository_targets(paths, out) + distribution_targets(dists, env, out))
    if not targets:
        raise UsageError("nothing to index: name repository folders, or installed distributions with --dist NAME")
    jobs = jobs or os.cpu_count() or 1
    if ray:
        results, setup = run_on_ray(targets, ray, jobs, report)
    else:
        results, setup = run_local(targets, jobs, report), 0.0
    order = {t.index_dir: i for i, t in enumerate(targets)}
    results.sort(key=lambda r: order[r.target.index_dir])
    return ManyReport(
        backend="ray" if ray else "local",
        jobs=jobs,
        results=tuple(results),
        seconds=time.perf_counter() - t0,
        setup_seconds=setup,
    )


# ---- naming the targets (in the caller's process) --------------------------------
def repository_targets(paths: Iterable[str], out: str | None = None) -> list[Target]:
    """One target per repository path; every bad path is named in one UsageError (exit 2), before
    any index folder is made."""
    roots: list[tuple[str, Path]] = []
    bad: list[str] = []
    for p in paths:
        try:
            roots.append((p, repo_root(p)))
        except CodehopError as exc:
            bad.append(exc.message)
    if bad:
        raise UsageError("; ".join(bad))
    targets: list[Target] = []
    for p, root in roots:
        if out:
            idx = Path(out).expanduser().absolute() / repo_key(root)
        else:
            idx, _note = locate_index(root)  # the repository's .codehop/, else the per-user cache
        targets.append(Target(name=p, root=str(root), index_dir=str(idx)))
    return targets


def distribution_targets(names: Iterable[str], env: PythonEnvironment | None, out: str | None = None) -> list[Target]:
    """One target per installed distribution named (normalised as pip does), found in `env`."""
    names = list(names)
    if not names:
        return []
    if env is None:
        raise UsageError("--dist needs a Python environment: pass --python PATH (or run inside a virtualenv)")
    by_name: dict[str, Distribution] = {}
    for d in distributions(env):
        by_name.setdefault(d.name, d)
    targets: list[Target] = []
    missing: list[str] = []
    for raw in names:
        dist = by_name.get(_normalise(raw))
        if dist is None:
            missing.append(raw)
            continue
        site = Path(dist.site_dir).resolve()
        tops = tuple(t for t in dist.top_level if (site / t).is_dir() or (site / f"{t}.py").is_file())
        if not tops:
            missing.append(f"{raw} (installed, but none of its top-level modules is in {site})")
            continue
        idx = Path(out).expanduser().absolute() / dist.key if out else package_cache_dir(dist)
        targets.append(Target(name=dist.pin, root=str(site), index_dir=str(idx), include=tops))
    if missing:
        raise UsageError(f"not installed in {env.python}: {', '.join(missing)}")
    return targets


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def unique(targets: list[Target]) -> list[Target]:
    """One task per index folder: two names for one tree would otherwise write one file twice."""
    seen: dict[str, Target] = {}
    for t in targets:
        seen.setdefault(t.index_dir, t)
    return list(seen.values())


# ---- one task (runs in a worker: a pool process or a Ray worker) -------------------
def index_one(target: Target, parse_workers: int = 1) -> TaskResult:
    """Index one target into a build folder beside its index, then move `index.db` into place."""
    t0, cpu0 = time.perf_counter(), _cpu()
    worker = f"{socket.gethostname()}:{os.getpid()}"
    final_dir = Path(target.index_dir)
    build: Path | None = None
    try:
        final_dir.mkdir(parents=True, exist_ok=True)
        _remove_dead_builds(final_dir)
        build = Path(tempfile.mkdtemp(prefix=f"{_BUILDING}{socket.gethostname()}-{os.getpid()}-", dir=final_dir))
        final = final_dir / "index.db"
        if final.is_file() and not Path(f"{final}-wal").exists():
            shutil.copyfile(final, build / "index.db")  # closed cleanly: update it, parse only what changed
        store, report = index_repo(
            target.root,
            index_dir=build,
            workers=parse_workers,
            include=frozenset(target.include) or None,
            verify=True,
        )
        store.close()
        for suffix in ("-wal", "-shm"):
            Path(f"{final}{suffix}").unlink(missing_ok=True)
        os.replace(build / "index.db", final)
        return TaskResult(
            target=target,
            ok=True,
            index_path=str(final),
            files=report.files,
            parsed=report.parsed,
            chunks=report.chunks,
            seconds=time.perf_counter() - t0,
            cpu_seconds=_cpu() - cpu0,
            worker=worker,
            warnings=len(report.warnings),
        )
    except Exception as exc:  # one failing tree is a result, not the end of the run
        message = _describe(exc)
        return TaskResult(
            target=target,
            ok=False,
            error=message,
            seconds=time.perf_counter() - t0,
            cpu_seconds=_cpu() - cpu0,
            worker=worker,
        )
    finally:
        if build is not None:
            shutil.rmtree(build, ignore_errors=True)


def _cpu() -> float:
    """CPU seconds of this process and of its children reaped so far (the indexer's parse pool)."""
    import resource

    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + kids.ru_utime + kids.ru_stime


def _describe(exc: BaseException) -> str:
    """The error and, when it was raised while handling another (a rollback after a failed
    write), the first one too: that is the cause a user can act on."""
    parts: list[str] = []
    seen: BaseException | None = exc
    while seen is not None and len(parts) < 4:
        parts.append(seen.message if isinstance(seen, CodehopError) else f"{type(seen).__name__}: {seen}")
        seen = seen.__cause__ or seen.__context__
    return parts[0] if len(parts) == 1 else f"{parts[-1]} (then {'; '.join(reversed(parts[:-1]))})"


def _remove_dead_builds(final_dir: Path) -> None:
    """Build folders left by a killed task of this host (its process is gone)."""
    host = socket.gethostname()
    for folder in final_dir.glob(f"{_BUILDING}{host}-*"):
        pid = folder.name.removeprefix(f"{_BUILDING}{host}-").split("-")[0]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
        except OSError:  # alive, owned by someone else
            pass


def _exit_with_parent(parent: int) -> None:
    """In a pool worker: exit when the caller dies (killed, it never closes the pipes, and an
    orphaned worker would wait on them forever)."""
    import threading

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


# ---- backends ----------------------------------------------------------------------
def run_local(targets: list[Target], jobs: int, report: Report | None = None) -> list[TaskResult]:
    """Every target on a pool of `jobs` processes (one tree per task); with one job, in this
    process, the indexer parsing on two processes as `codehop index` does."""
    tell = report or (lambda r, done, total: None)
    results: list[TaskResult] = []
    # fork is cheapest; beside other threads forkserver, unless its workers would run the caller's
    # unguarded `__main__` again: then one target after another here (codehop.index.pool)
    method = start_method() if jobs > 1 and len(targets) > 1 else None
    if method is None:
        for t in targets:
            results.append(index_one(t, parse_workers=min(2, os.cpu_count() or 1)))
            tell(results[-1], len(results), len(targets))
        return results
    import multiprocessing

    with ProcessPoolExecutor(
        max_workers=min(jobs, len(targets)),
        mp_context=multiprocessing.get_context(method),
        initializer=_exit_with_parent,
        initargs=(os.getpid(),),
    ) as pool:
        pending: set[Future[TaskResult]] = {pool.submit(index_one, t) for t in targets}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                results.append(f.result())
                tell(results[-1], len(results), len(targets))
    return results


def _reachable(address: str, timeout_s: float = 10.0) -> None:
    """A `host:port` that accepts no connection is a UsageError now; Ray would retry for minutes.
    (`auto` fails fast by itself when no instance runs on this machine.)"""
    if address == "auto":
        return
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        raise UsageError(f"--ray takes HOST:PORT, auto or local, not {address!r}")
    try:
        socket.create_connection((host, int(port)), timeout=timeout_s).close()
    except OSError as exc:
        raise UsageError(f"cannot reach the Ray cluster at {address}: {exc.strerror or exc}") from None


def run_on_ray(
    targets: list[Target], address: str, jobs: int, report: Report | None = None
) -> tuple[list[TaskResult], float]:
    """Every target as a Ray task (one CPU each). `address`: a cluster's address, `auto` (the
    cluster this machine belongs to), or `local` (a private instance of `jobs` CPUs started for
    this run and stopped after it). Each node must have codehop installed and see the paths.
    Returns the results and the seconds spent starting or joining the instance."""
    try:
        import ray
    except ImportError:
        raise UsageError("--ray needs Ray: pip install 'codehop[ray]'") from None
    import logging

    tell = report or (lambda r, done, total: None)
    started = False
    t0 = time.perf_counter()
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.WARNING, "configure_logging": True}
        try:
            if address == "local":  # a new instance even when `ray start` left one (or its address) here
                ray.init(address="local", num_cpus=max(1, jobs), include_dashboard=False, **kwargs)
            else:
                _reachable(address)
                ray.init(address=address, **kwargs)
        except (ConnectionError, ValueError, RuntimeError) as exc:
            # the address answered (`_reachable`), so the cluster may have refused us: Ray 2.59+
            # starts clusters with token authentication, which its own error does not name
            hint = (
                ""
                if address == "local"
                else "; a cluster with token authentication needs RAY_AUTH_MODE=token and its token in "
                "RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH or ~/.ray/auth_token"
            )
            raise UsageError(f"cannot reach the Ray cluster at {address!r}: {exc}{hint}") from None
        started = True
    setup = time.perf_counter() - t0
    try:
        task = ray.remote(num_cpus=1, max_retries=0)(index_one)
        refs = {task.remote(t): t for t in targets}
        results: list[TaskResult] = []
        pending = list(refs)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                try:
                    results.append(ray.get(ref))
                except Exception as exc:  # the worker died (killed, out of memory): that task failed
                    results.append(TaskResult(target=refs[ref], ok=False, error=f"Ray task failed: {exc}"))
                tell(results[-1], len(results), len(targets))
        return results, setup
    finally:
        if started:
            ray.shutdown()
