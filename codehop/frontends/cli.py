"""The `codehop` command line (click). Errors become messages and exit codes here, in one place
(`handle_errors`: a damaged index is repaired once). Why one module of ~700 lines: it is the
whole command line, read top to bottom like `codehop --help`; the options shared by several
commands are defined once at the top, and nothing here decides anything the door does not return.

Heavy modules are imported inside commands, so `codehop --help` stays instant. Every command
has one shape: parse the options, ask the door (codehop.app / codehop.api), print its record
(text, or JSON with --json).
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def _echo(text: str = "", err: bool = False) -> None:
    """Every human-facing line: repository text (names, docstrings, paths) reaches a terminal only
    without control sequences (newline and tab survive)."""
    from codehop.frontends.plain import terminal_safe

    click.echo(terminal_safe(text), err=err)


def _fail(message: str, code: int) -> None:
    _echo(f"codehop: error: {message}", err=True)
    sys.exit(code)


def handle_errors(fn: F) -> F:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from codehop.kernel.errors import CodehopError, IndexDamagedError

        try:
            try:
                return fn(*args, **kwargs)
            except IndexDamagedError:
                # a damaged index is moved aside and the command runs once more (rebuilding it);
                # an index found sound keeps the error as it was
                from codehop.api import repair_index

                repo = kwargs.get("repo") or kwargs.get("path") or "."
                why = repair_index(repo, kwargs.get("index_dir"))
                if why is None:
                    raise
                _echo(f"codehop: {why}", err=True)
            try:
                return fn(*args, **kwargs)
            except IndexDamagedError as exc:
                _fail(f"the index could not be read even after a rebuild: {exc.reason}", exc.exit_code)
        except CodehopError as exc:
            _fail(exc.message, exc.exit_code)
        except KeyboardInterrupt:
            _fail("interrupted", 130)

    return wrapper  # type: ignore[return-value]


def _emit_json(data: Any) -> None:
    from codehop.frontends.plain import json_text

    click.echo(json_text(data))


def _console() -> Any:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


def _discover(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """No --repo (or no PATH): the project the current folder is in, found as git finds its root."""
    if value is not None:
        return value
    from codehop.api import discover_root
    from codehop.kernel.errors import CodehopError, UsageError

    try:
        return str(discover_root("."))
    except UsageError as exc:  # no project here, and not one to crawl (home, /tmp, a large folder)
        _fail(exc.message, exc.exit_code)
    except CodehopError:
        return "."
    return None


repo_option = click.option(
    "--repo",
    "repo",
    default=None,
    callback=_discover,
    type=click.Path(file_okay=False, path_type=str),
    help="Repository root (default: the nearest folder up from here with .codehop/, "
    ".git, pyproject.toml, setup.cfg or setup.py).",
)
index_dir_option = click.option(
    "--index-dir",
    default=None,
    help="The folder the index lives in (default <repo>/.codehop; "
    "CODEHOP_INDEX_DIR=DIR keeps one subfolder per repository in DIR).",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")
max_loops_option = click.option(
    "--max-loops", default=1, show_default=True, type=click.IntRange(0, 10), help="Hops allowed after the first answer."
)
budget_option = click.option(
    "--budget-tokens",
    default=2000,
    show_default=True,
    type=click.IntRange(64, 1_000_000),
    help="Context size, in tokens (about four characters each).",
)
resolvers_option = click.option(
    "--resolvers",
    "resolvers",
    envvar="CODEHOP_RESOLVERS",
    default=None,
    help="The resolver ladder, in order (comma-separated; default symbol_table,jedi,lsp,regex; also llm).",
)


def _set_environment(ctx: click.Context, param: click.Parameter, value: Any) -> None:
    # read by find_environment and Config in this process and by the Apps a server builds
    if param.name == "python" and value:
        os.environ["CODEHOP_PYTHON"] = value
    if param.name == "no_env" and value:
        os.environ["CODEHOP_NO_ENV"] = "1"


def env_options(f: Any) -> Any:
    """--python PATH and --no-env: which installed packages the repository's chains may enter."""
    f = click.option(
        "--no-env",
        "no_env",
        is_flag=True,
        expose_value=False,
        callback=_set_environment,
        help="Read only the repository: no installed packages.",
    )(f)
    return click.option(
        "--python",
        "python",
        default=None,
        expose_value=False,
        callback=_set_environment,
        help="The interpreter (or virtualenv) whose installed packages the repository uses "
        "(default: a .venv/venv in the repository, else $VIRTUAL_ENV).",
    )(f)


def _ladder(resolvers: str | None, *, for_server: bool = False) -> dict[str, Any]:
    """Config keyword for a --resolvers value (nothing when not given: the default ladder).
    A server builds its Apps itself: it reads the choice from CODEHOP_RESOLVERS."""
    from codehop.app import parse_resolvers

    names = parse_resolvers(resolvers)
    if names is not None and for_server:
        os.environ["CODEHOP_RESOLVERS"] = ",".join(names)
    return {"resolvers": names} if names else {}


def _app(repo: str, index_dir: str | None, **config: Any) -> Any:
    from codehop.app import App, Config

    # slow work (an installed distribution indexed on a first question) is told on a terminal
    progress = (lambda msg: _echo(f"codehop: {msg}", err=True)) if sys.stderr.isatty() else None
    app = App(repo, Config(index_dir=index_dir, progress=progress, **config))
    if app.report.note:
        _echo(app.report.note, err=True)
    _require_python(app.report)
    return app


def _require_python(report: Any) -> None:
    """An index of no files answers nothing: say why (exit 2) instead of answering from nothing."""
    from codehop.kernel.errors import UsageError

    if report.files == 0:
        skipped = f"; {len(report.warnings)} skipped (see `codehop index`)" if report.warnings else ""
        raise UsageError(
            f"no Python files to index under {report.root}{skipped} "
            "(codehop reads .py files not excluded by .gitignore or .codehopignore)"
        )


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="codehop")
def main() -> None:
    """Answer questions about a Python repository, resolving pointers to their declarations."""


@main.command()
@click.argument(
    "path", required=False, default=None, callback=_discover, type=click.Path(file_okay=True, path_type=str)
)
@index_dir_option
@click.option("--max-file-bytes", default=1_000_000, show_default=True, help="Skip larger files.")
@json_option
@handle_errors
def index(path: str, index_dir: str | None, max_file_bytes: int, as_json: bool) -> None:
    """Index (or incrementally update) the repository at PATH."""
    from codehop.api import index as index_repo

    line = _ProgressLine() if sys.stderr.isatty() and not as_json else None
    try:
        report = index_repo(path, index_dir=index_dir, max_file_bytes=max_file_bytes, progress=line, verify=True)
    finally:
        if line is not None:
            line.clear()
    if as_json:
        _emit_json(report.to_dict())
        return
    if report.note:
        _echo(report.note, err=True)
    for w in report.warnings:
        _echo(f"warning: {w}", err=True)
    _require_python(report)
    # the summary is a status line, like the progress: stderr (stdout stays empty on a pipe)
    _echo(report.summary(), err=True)


@main.command("index-many")
@click.argument("paths", nargs=-1, type=click.Path(path_type=str))
@click.option(
    "--dist",
    "dists",
    multiple=True,
    metavar="NAME",
    help="An installed distribution of the environment (--python), indexed into the shared package cache; repeatable.",
)
@click.option(
    "--out",
    default=None,
    type=click.Path(file_okay=False, path_type=str),
    help="Keep every index in this folder, one subfolder each (default: where `codehop index` keeps it).",
)
@click.option("--jobs", "-j", default=None, type=click.IntRange(min=1), help="Trees at once (default: the CPU count).")
@click.option(
    "--ray",
    "ray_address",
    default=None,
    metavar="ADDRESS|auto|local",
    help="Each tree as a Ray task: a cluster's address, `auto`, or `local` (a private instance of --jobs CPUs). "
    "Needs `pip install 'codehop[ray]'`; every node must see the paths.",
)
@json_option
@env_options
@handle_errors
def index_many(
    paths: tuple[str, ...],
    dists: tuple[str, ...],
    out: str | None,
    jobs: int | None,
    ray_address: str | None,
    as_json: bool,
) -> None:
    """Index many repositories (PATHS) and installed distributions (--dist), one index file each.

    Each tree is one task on a local process pool, or a Ray task with --ray; a task writes its
    index atomically, and a failing tree does not stop the others (exit 1 if any failed)."""
    from codehop.api import index_many as run

    def progress(result: Any, done: int, total: int) -> None:
        r = result.to_dict()
        status = (
            f"ok ({r['files']} files, {r['seconds']:.2f} s) -> {r['index']}" if r["ok"] else f"failed: {r['error']}"
        )
        _echo(f"[{done}/{total}] {r['path']}: {status}", err=True)

    report = run(paths, dists, out=out, jobs=jobs, ray=ray_address, report=progress)
    if as_json:
        _emit_json(report.to_dict())
    failed = sum(not r.ok for r in report.results)
    _echo(
        f"indexed {len(report.results) - failed} of {len(report.results)} trees in {report.seconds:.1f} s "
        f"({report.backend}, {report.jobs} at once)" + (f"; {failed} failed" if failed else ""),
        err=True,
    )
    if failed:
        sys.exit(1)


class _ProgressLine:
    """One status line on a terminal's stderr: the phase (walk, parse, resolve, write) and file
    counts, redrawn in place at most ten times a second and on every phase change."""

    def __init__(self) -> None:
        self.phase = ""
        self.last = 0.0

    def __call__(self, phase: str, done: int, total: int) -> None:
        import time

        now = time.monotonic()
        if phase == self.phase and now - self.last < 0.1 and done != total:
            return
        self.phase, self.last = phase, now
        counts = f"{done}/{total} files" if total else f"{done} files"
        if phase == "walk":
            counts = f"{done} files found"
        sys.stderr.write(f"\r\x1b[K{phase}: {counts}")
        sys.stderr.flush()

    def clear(self) -> None:
        if self.phase:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


@main.command()
@click.argument("query")
@repo_option
@index_dir_option
@click.option("-k", "k", default=10, show_default=True, help="How many hits.")
@json_option
@handle_errors
def search(query: str, repo: str, index_dir: str | None, k: int, as_json: bool) -> None:
    """BM25 search over chunks (for debugging retrieval)."""
    app = _app(repo, index_dir)
    hits = app.search(query, k)
    rows = [
        {
            "path": c.rel_path,
            "start_line": c.start_line,
            "end_line": c.end_line,
            "qualname": c.qualname,
            "kind": str(c.kind),
            "score": round(s, 3),
        }
        for c, s in hits
    ]
    if as_json:
        _emit_json(rows)
        return
    for r in rows:
        _echo(f"{r['score']:8.3f}  {r['path']}:{r['start_line']}-{r['end_line']}  {r['qualname']} ({r['kind']})")


@main.command()
@repo_option
@index_dir_option
@click.option("--type", "ref_type", default=None, help="Only this ref_type (import, reexport, ...).")
@click.option("--file", "file", default=None, help="Only references in this repo-relative file.")
@click.option("--stats", is_flag=True, help="Counts, and how hops were served (table vs resolver).")
@click.option("--limit", default=200, show_default=True, type=click.IntRange(min=1), help="At most this many rows.")
@json_option
@handle_errors
def xrefs(
    repo: str, index_dir: str | None, ref_type: str | None, file: str | None, stats: bool, limit: int, as_json: bool
) -> None:
    """The cross-reference table."""
    app = _app(repo, index_dir)
    if stats:
        data = app.xref_stats()
        rebuilds, queries = data["rebuilds"], data["queries"]
        if as_json:
            _emit_json(data)
            return
        for k, v in data["by_type"].items():
            _echo(f"{k:16s} {v['rows']:7d} rows, {v['resolved_at_index_time']:7d} resolved at index time")
        _echo(
            f"rebuilds {rebuilds}, queries {queries}, ratio {data['rebuild_to_query_ratio']}; "
            f"hops served by the table {data['hops_from_table']}, by a resolver at loop time "
            f"{data['hops_from_resolver']}, by rows bridged at index time {data['hops_from_index']}"
        )
        for pin, v in data.get("packages", {}).items():
            _echo(
                f"package {pin}: {v['rows']} rows, {v['resolved_at_index_time']} resolved at index time "
                f"({v['bridged_at_index_time']} bridged by Jedi; {v['bridge_asked']}/{v['bridge_sites']} sites asked"
                f"{', complete' if v['bridge_complete'] else ''})"
            )
        return
    from codehop.kernel.errors import UsageError
    from codehop.kernel.records import RefType

    kinds = [t.value for t in RefType]
    if ref_type is not None and ref_type not in kinds:
        raise UsageError(f"unknown --type {ref_type!r}; one of: {', '.join(kinds)}")
    if file is not None:
        file = app.rel_path(file)
        if app.store.module_of(file) is None:
            raise UsageError(f"--file {file}: not an indexed Python file of the repository", path=file)
    rows = app.xrefs(rel_path=file, ref_type=ref_type, limit=limit)
    total = app.xref_total(rel_path=file, ref_type=ref_type) if len(rows) >= limit else len(rows)
    if total > len(rows):  # the cap said on stderr, so stdout (and --json) stays the rows themselves
        _echo(f"codehop: the first {len(rows)} of {total} references (--limit {limit})", err=True)
    out = [
        {
            "path": x.rel_path,
            "line": x.line,
            "col": x.col,
            "anchor_text": x.anchor_text,
            "ref_type": str(x.ref_type),
            "target": x.target,
            "target_path": x.target_path,
            "target_line": x.target_line,
            "provenance": str(x.provenance or ""),
        }
        for x in rows
    ]
    if as_json:
        _emit_json(out)
        return
    for r in out:
        where = f"{r['target_path']}:{r['target_line']}" if r["target_path"] else (r["provenance"] or "unresolved")
        _echo(
            f"{r['path']}:{r['line']}:{r['col']}  {r['ref_type']:15s} {r['anchor_text'][:40]:40s} -> {r['target']}  [{where}]"
        )


@main.command()
@click.argument("site")
@repo_option
@index_dir_option
@click.option(
    "--via",
    type=click.Choice(["symbol_table", "jedi", "lsp", "regex", "all"]),
    default=None,
    help="Use one resolver, or all of them side by side.",
)
@json_option
@env_options
@handle_errors
def resolve(site: str, repo: str, index_dir: str | None, via: str | None, as_json: bool) -> None:
    """Resolve the reference at PATH:LINE[:COL] (or a SYMBOL: dotted, or a short name) to its
    declaration, with the chain."""
    from codehop.app import parse_site
    from codehop.kernel.errors import UsageError

    parsed = parse_site(site)
    names = ("symbol_table", "jedi", "lsp", "regex") if via == "all" else ((via,) if via else None)
    app = _app(repo, index_dir, resolvers=names or ("symbol_table", "jedi", "regex"))
    if parsed is None:  # a symbol, as the MCP `resolve` tool takes it
        if via is not None:
            app.close()
            raise UsageError(f"--via chooses the resolver of a reference site (PATH:LINE[:COL]), not of {site!r}")
        found = app.resolve(site)
        app.close()
        if as_json:
            _emit_json(found.to_dict())
            return
        for st in found.resolution.steps:
            _echo(f"  {st.text()} {st.to_loc.qualname}")
        _echo(f"{site} => {found.resolution.where()} [{found.resolution.provenance}]")
        return
    path, line, col = parsed
    refs = app.refs_at(path, line, -1 if col is None else col)
    if not refs:
        raise UsageError(f"no reference at {site}")
    runs = [(ref, name, app.resolve_ref(ref, via=name, resolvers=names)) for ref in refs for name in (names or (None,))]
    app.close()
    if via == "lsp":  # the one rung asked for could not run: that is the language server's failure (exit 4)
        broken = [f.reason for _, _, lr in runs if lr.resolution is None for f in lr.failures if f.resolver == "lsp"]
        if broken and len(broken) == len(runs):
            from codehop.kernel.errors import LanguageServerError

            raise LanguageServerError(f"the language server failed: {broken[0].removeprefix('LanguageServerError: ')}")
    if as_json:
        _emit_json(
            [
                {
                    "reference": ref.to_dict(),
                    "via": name or "ladder",
                    "resolution": None
                    if lr.resolution is None
                    else {
                        "target": (
                            {"external": lr.resolution.external}
                            if lr.resolution.is_external
                            else lr.resolution.target.to_dict()
                        ),
                        "provenance": str(lr.resolution.provenance),
                        "chain": [s.to_dict() for s in lr.resolution.steps],
                    },
                    "failures": [{"resolver": f.resolver, "reason": f.reason} for f in lr.failures],
                    "ms": {k: round(v, 2) for k, v in lr.timings_ms},
                }
                for ref, name, lr in runs
            ]
        )
        return
    from codehop.kernel.records import shown_path

    for ref, name, lr in runs:
        _echo(
            f"{shown_path(ref.origin_path)}:{ref.origin_line} {ref.anchor_text} ({ref.ref_type}) via {name or 'ladder'}:"
        )
        res = lr.resolution
        if res is None:
            _echo("  unresolved" + "".join(f"\n  {f.resolver} failed: {f.reason}" for f in lr.failures))
            continue
        for st in res.steps:
            _echo(f"  {st.text()} {st.to_loc.qualname}")
        _echo(f"  => {res.where()} [{res.provenance}]")


@main.command()
@click.argument("question")
@repo_option
@index_dir_option
@max_loops_option
@budget_option
@click.option("--generator", type=click.Choice(["offline", "anthropic"]), default="offline", show_default=True)
@resolvers_option
@click.option(
    "--svg",
    "svg_path",
    default=None,
    help="Also draw the answer's neighbourhood, the chain it followed highlighted (needs Graphviz).",
)
@json_option
@env_options
@handle_errors
def ask(
    question: str,
    repo: str,
    index_dir: str | None,
    max_loops: int,
    budget_tokens: int,
    generator: str,
    resolvers: str | None,
    svg_path: str | None,
    as_json: bool,
) -> None:
    """Answer QUESTION about the repository (one bounded hop by default)."""
    app = _app(repo, index_dir, generator=generator, **_ladder(resolvers))
    answer = app.ask(question, max_loops=max_loops, budget_tokens=budget_tokens)
    if svg_path:
        _write(svg_path, app.svg(app.answer_picture(answer)))
    app.close()
    if as_json:
        _emit_json(answer.to_dict())
        return
    from codehop.frontends.render import print_answer

    print_answer(_console(), answer)


@main.command()
@click.argument("query")
@repo_option
@index_dir_option
@budget_option
@max_loops_option
@click.option("--format", "fmt", type=click.Choice(["json", "markdown"]), default="markdown", show_default=True)
@resolvers_option
@env_options
@handle_errors
def context(
    query: str, repo: str, index_dir: str | None, budget_tokens: int, max_loops: int, fmt: str, resolvers: str | None
) -> None:
    """The context an agent should read for QUERY (a question or a task), packed to a budget."""
    from codehop.frontends.render import render_markdown

    app = _app(repo, index_dir, **_ladder(resolvers))
    answer = app.context(query, budget_tokens=budget_tokens, max_loops=max_loops)
    app.close()
    if fmt == "json":
        _emit_json(answer.to_dict())
    else:
        _echo(render_markdown(answer))


@main.command("map")
@repo_option
@index_dir_option
@click.option(
    "--budget-tokens",
    default=1000,
    show_default=True,
    type=click.IntRange(64, 1_000_000),
    help="Map size, in tokens (about four characters each).",
)
@click.option("--focus", default="", help="A repository path or a dotted symbol to centre the map on.")
@json_option
@handle_errors
def repo_map(repo: str, index_dir: str | None, budget_tokens: int, focus: str, as_json: bool) -> None:
    """The most central declarations (PageRank over the graph) as signatures, grouped by file."""
    app = _app(repo, index_dir)
    result = app.map(budget_tokens=budget_tokens, focus=focus)
    app.close()
    if as_json:
        _emit_json(result.to_dict())
    else:
        _echo(result.text.rstrip("\n"))


@main.command()
@click.argument("symbol", required=False)
@repo_option
@index_dir_option
@click.option("--depth", default=1, show_default=True, type=click.IntRange(1, 4))
@click.option("--stats", is_flag=True, help="Node and edge counts.")
@click.option("--dot", "dot_path", default=None, help="Write Graphviz DOT to this file ('-' for stdout).")
@click.option("--svg", "svg_path", default=None, help="Render SVG (needs the `dot` program).")
@click.option(
    "--expand-packages", is_flag=True, help="Follow an installed package's node into its own edges (else a leaf)."
)
@json_option
@handle_errors
def graph(
    symbol: str | None,
    repo: str,
    index_dir: str | None,
    depth: int,
    stats: bool,
    dot_path: str | None,
    svg_path: str | None,
    expand_packages: bool,
    as_json: bool,
) -> None:
    """A symbol's neighbourhood in the static-dependency graph."""
    app = _app(repo, index_dir)
    if stats:
        data = app.graph_stats()
        if as_json:
            _emit_json(data)
        else:
            for k, v in data.items():
                _echo(f"{k:24s} {v}")
        return
    node = app.graph_node(symbol or "")
    if dot_path or svg_path:
        dot = app.picture(node, depth)
        if dot_path == "-":
            _echo(dot)
        elif dot_path:
            with open(dot_path, "w", encoding="utf-8") as fh:
                fh.write(dot)
        if svg_path:
            _write(svg_path, app.svg(dot))
        return
    rows = app.neighbourhood(node, depth)
    if as_json:
        _emit_json({"symbol": node, "edges": rows})
        return
    _echo(node)
    for r in rows:
        arrow = "->" if r["direction"] == "out" else "<-"
        if r.get("from_package"):  # an expanded package node's own edge
            where = f"{r['package']} {r['path']}:{r['line']}"
            _echo(f"      {r['from_package']} {arrow} {r['type']:12s} {r['other']}  ({where})")
            continue
        pkg = f"  [{r['package']} {r['package_path']}, leaf]" if r.get("leaf") else ""
        _echo(f"  {arrow} {r['type']:12s} {r['other']}{pkg}  ({r['path']}:{r['line']})")


def _write(path: str, data: bytes) -> None:
    with open(path, "wb") as fh:
        fh.write(data)


@main.command()
@click.option("--tcp", default=None, help="HOST:PORT instead of stdio.")
@resolvers_option
@env_options
@handle_errors
def lsp(tcp: str | None, resolvers: str | None) -> None:
    """Run the codehop language server (stdio by default)."""
    from codehop.frontends.lsp_server import serve

    _ladder(resolvers, for_server=True)
    serve(tcp)


@main.command()
@repo_option
@resolvers_option
@env_options
@handle_errors
def mcp(repo: str, resolvers: str | None) -> None:
    """Run the codehop MCP server over stdio."""
    from codehop.frontends.mcp_server import serve

    _ladder(resolvers, for_server=True)
    serve(repo)


@main.command()
@repo_option
@index_dir_option
@json_option
@env_options
@handle_errors
def doctor(repo: str, index_dir: str | None, as_json: bool) -> None:
    """Check the index, the language servers and the Anthropic configuration."""
    from codehop.api import doctor as run_checks

    checks = run_checks(repo, index_dir)
    if as_json:
        import dataclasses

        _emit_json([dataclasses.asdict(c) for c in checks])
    else:
        for c in checks:
            mark = "ok  " if c.ok else "FAIL"
            _echo(f"[{mark}] {c.name}: {c.detail}" + ("" if c.ok or not c.fix else f"\n       fix: {c.fix}"))
    if not all(c.ok for c in checks):
        sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    main()
