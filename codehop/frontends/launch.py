"""The `codehop` command's entry point: the one quick path, then the command line (click).

`codehop index` on a repository whose index is current is the command a hook or an editor runs
most, and its work (a stat of every folder and file) takes less time than importing click and
the records. So `index` with the arguments this module understands first asks the door whether
the index is current (`codehop.api.current_index`, which reads only) and, when it is, prints
what the command line would print. Anything else, including an index that is not current or
an argument this parser does not know, goes to the full command line, which does the work and
reports errors in its one place.
"""

from __future__ import annotations

import sys


def main() -> None:
    args = sys.argv[1:]
    try:
        if args[:1] == ["index"] and _quick_index(args[1:]):
            return
    except KeyboardInterrupt:
        sys.stderr.write("codehop: error: interrupted\n")
        sys.exit(130)
    from codehop.frontends.cli import main as cli

    cli()


def _index_args(args: list[str]) -> tuple[str | None, str | None, bool] | None:
    """(PATH, --index-dir, --json) of `codehop index ARGS`, or None when ARGS hold anything else."""
    path: str | None = None
    index_dir: str | None = None
    as_json = False
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--json":
            as_json = True
        elif arg == "--index-dir" and i + 1 < len(args) and args[i + 1]:
            index_dir = args[i + 1]
            i += 1
        elif arg.startswith("--index-dir=") and len(arg) > len("--index-dir="):
            index_dir = arg.removeprefix("--index-dir=")
        elif arg and not arg.startswith("-") and path is None:
            path = arg
        else:
            return None
        i += 1
    return path, index_dir, as_json


def _quick_index(args: list[str]) -> bool:
    """True when the index was current and the report is printed; False: run the full command."""
    parsed = _index_args(args)
    if parsed is None:
        return False
    path, index_dir, as_json = parsed
    from codehop.api import current_index, discover_root
    from codehop.frontends.plain import json_text, terminal_safe
    from codehop.kernel.errors import CodehopError

    try:
        if path is None:  # as the command line's --repo / PATH default: the project we are in
            try:
                path = str(discover_root("."))
            except CodehopError:  # (no project here): the command line says why
                return False
        report = current_index(path, index_dir=index_dir)
    except Exception:  # whatever it is, the full command meets it again and reports it
        return False
    if report is None:
        return False
    if as_json:
        sys.stdout.write(json_text(report.to_dict()) + "\n")
        sys.stdout.flush()
        return True
    if report.note:
        sys.stderr.write(terminal_safe(report.note) + "\n")
    sys.stderr.write(terminal_safe(report.summary()) + "\n")
    sys.stderr.flush()
    return True
