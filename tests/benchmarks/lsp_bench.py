"""Hover and definition latency of codehop's language server on Django 5.2 (pip-downloaded).

A real LSP client (pygls `LanguageClient`) starts `python -m codehop.frontends.lsp_server` over stdio,
initializes it on a copy of the Django tree and waits for the index build (`$/progress` end).
Positions are identifiers at cross-reference sites of the index (imports, re-exports, aliases,
base classes, decorators, plain calls, attribute calls), sampled per kind with a fixed seed; the
cursor sits in the middle of the anchor's last segment (`utils.parse_rst` -> `parse_rst`).

Two server sessions on the same tree, so neither kind of request is warmed by the other:
session 1 builds the index cold and times hover, session 2 (index already on disk) times
definition. In each session every position is asked once in order (first touch, "cold"; the
very first request of the session is reported on its own too), then again in the same order
("warm"). One request at a time. Every figure comes from one run of this script.

usage: python tests/benchmarks/lsp_bench.py [--version 5.2] [--positions 200] [--seed 7]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(__file__))
from django_bench import fetch  # noqa: E402
from lsprotocol import types  # noqa: E402
from pygls import uris  # noqa: E402
from pygls.exceptions import JsonRpcException  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
REQUEST_TIMEOUT_S = 120.0

# positions per stratum (sum = default --positions 200); scaled when --positions differs
QUOTAS = {
    "import": 40,
    "reexport": 15,
    "alias": 15,
    "base_class": 25,
    "decorator": 15,
    "call": 40,  # a bare name: foo(...)
    "attr_call": 50,  # an attribute use: a.b(...), self.m(...)
}


@dataclass
class Position:
    stratum: str
    rel_path: str
    line: int  # 1-based
    col: int  # 0-based code points, in the middle of the identifier
    ident: str
    anchor: str
    target: str
    target_path: str
    target_line: int
    character: int = 0  # UTF-16 column sent to the server

    @property
    def where(self) -> str:
        return f"{self.rel_path}:{self.line}:{self.col + 1}"

    @property
    def klass(self) -> str:
        """in-repo: the index resolved the site to a file of the tree; external: another package
        (stdlib, asgiref, ...); unresolved: a django.* name the index could not place."""
        if self.target_path:
            return "in-repo"
        return "unresolved" if self.target.startswith("django.") else "external"


@dataclass
class Sample:
    pos: Position
    ms: float
    answered: bool
    error: str = ""
    landed: tuple[str, int] | None = None
    text: str = ""


@dataclass
class Session:
    index_wall_s: float = 0.0
    index_msg: str = ""
    first_ms: float = 0.0
    first: list[Sample] = field(default_factory=list)
    warm: list[Sample] = field(default_factory=list)
    vmhwm_mb: float = 0.0
    vmrss_mb: float = 0.0
    children_hwm_mb: float = 0.0
    stderr: list[str] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)


# ---- positions --------------------------------------------------------------------------------
def pick_positions(root: Path, index_dir: Path, n: int, seed: int) -> tuple[list[Position], dict[str, Any]]:
    from codehop.index.indexer import index_repo

    store, report = index_repo(root, index_dir=index_dir)
    xrefs = store.xrefs()
    store.close()
    lines_of: dict[str, list[str]] = {}
    strata: dict[str, list[Position]] = {k: [] for k in QUOTAS}
    skipped = 0
    for x in xrefs:
        stratum = str(x.ref_type)
        if stratum == "call" and "." in x.anchor_text:
            stratum = "attr_call"
        if stratum not in strata:
            continue
        if x.rel_path not in lines_of:
            lines_of[x.rel_path] = (root / x.rel_path).read_text(encoding="utf-8", errors="replace").splitlines()
        text = lines_of[x.rel_path][x.line - 1] if x.line <= len(lines_of[x.rel_path]) else ""
        if text[x.col : x.col + len(x.anchor_text)] != x.anchor_text:
            skipped += 1  # an anchor spread over lines, or written with spaces (`a . b`)
            continue
        ident = x.anchor_text.rsplit(".", 1)[-1]
        if not ident.isidentifier():
            continue
        start = x.col + len(x.anchor_text) - len(ident)
        col = start + len(ident) // 2
        strata[stratum].append(
            Position(
                stratum,
                x.rel_path,
                x.line,
                col,
                ident,
                x.anchor_text,
                x.target,
                x.target_path,
                x.target_line,
                character=len(text[:col].encode("utf-16-le")) // 2,
            )
        )
    rng = random.Random(seed)
    total = sum(QUOTAS.values())
    out: list[Position] = []
    for k, quota in QUOTAS.items():
        want = max(1, round(quota * n / total))
        pool = strata[k]
        out.extend(rng.sample(pool, min(want, len(pool))))
    rng.shuffle(out)
    info = {
        "files": report.files,
        "xrefs": len(xrefs),
        "skipped_multiline": skipped,
        "pool": {k: len(v) for k, v in strata.items()},
    }
    return out, info


# ---- the client -------------------------------------------------------------------------------
def proc_status(pid: int) -> dict[str, float]:
    out: dict[str, float] = {}
    try:
        for row in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _, rest = row.partition(":")
            if key in ("VmHWM", "VmRSS"):
                out[key] = int(rest.split()[0]) / 1024
    except OSError:
        pass
    return out


def children_hwm(pid: int) -> float:
    total = 0.0
    try:
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0.0
    for kid in kids:
        total += proc_status(int(kid)).get("VmHWM", 0.0) + children_hwm(int(kid))
    return total


async def run_session(root: Path, positions: list[Position], method: str) -> Session:
    s = Session()
    client = LanguageClient("codehop-bench", "1")
    done = asyncio.Event()

    @client.feature(types.PROGRESS)
    def _progress(params: types.ProgressParams) -> None:
        value = params.value
        kind = value.get("kind") if isinstance(value, dict) else getattr(value, "kind", None)
        if kind == "end":
            s.index_msg = (value.get("message") if isinstance(value, dict) else getattr(value, "message", "")) or ""
            done.set()

    @client.feature(types.WINDOW_WORK_DONE_PROGRESS_CREATE)
    def _create(params: types.WorkDoneProgressCreateParams) -> None:
        return None

    @client.feature(types.WINDOW_SHOW_MESSAGE)
    def _show(params: types.ShowMessageParams) -> None:
        s.messages.append(params.message)

    @client.feature(types.WINDOW_LOG_MESSAGE)
    def _log(params: types.LogMessageParams) -> None:
        s.messages.append(params.message)

    env = {k: v for k, v in os.environ.items() if k != "CODEHOP_INDEX_DIR"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    await client.start_io(sys.executable, "-m", "codehop.frontends.lsp_server", env=env, cwd=str(root))
    server = client._server
    assert server is not None and server.stderr is not None

    async def drain() -> None:  # an unread stderr pipe would block the server once it fills
        while line := await server.stderr.readline():
            s.stderr.append(line.decode("utf-8", "replace").rstrip())

    drainer = asyncio.create_task(drain())
    caps = types.ClientCapabilities(
        window=types.WindowClientCapabilities(work_done_progress=True),
        text_document=types.TextDocumentClientCapabilities(
            hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
        ),
        general=types.GeneralClientCapabilities(position_encodings=[types.PositionEncodingKind.Utf16]),
    )
    t0 = time.perf_counter()
    await client.initialize_async(
        types.InitializeParams(
            capabilities=caps,
            root_uri=uris.from_fs_path(str(root)),
            work_done_token="bench-index",
            initialization_options={"indexWaitSeconds": 600},
        )
    )
    client.initialized(types.InitializedParams())
    await asyncio.wait_for(done.wait(), 900)
    s.index_wall_s = time.perf_counter() - t0

    async def ask(p: Position) -> Sample:
        doc = types.TextDocumentIdentifier(uri=uris.from_fs_path(str(root / p.rel_path)) or "")
        at = types.Position(line=p.line - 1, character=p.character)
        t = time.perf_counter()
        try:
            if method == "hover":
                coro = client.text_document_hover_async(types.HoverParams(text_document=doc, position=at))
            else:
                coro = client.text_document_definition_async(types.DefinitionParams(text_document=doc, position=at))
            result = await asyncio.wait_for(coro, REQUEST_TIMEOUT_S)
        except (TimeoutError, JsonRpcException) as exc:
            return Sample(p, (time.perf_counter() - t) * 1000, False, error=f"{type(exc).__name__}: {exc}")
        ms = (time.perf_counter() - t) * 1000
        sample = Sample(p, ms, result is not None)
        if isinstance(result, types.Hover):
            sample.text = getattr(result.contents, "value", str(result.contents))
        elif isinstance(result, types.Location):
            path = Path(uris.to_fs_path(result.uri) or "").resolve()
            try:
                sample.landed = (path.relative_to(root.resolve()).as_posix(), result.range.start.line + 1)
            except ValueError:
                sample.landed = (str(path), result.range.start.line + 1)
        elif isinstance(result, list) and result:
            loc = result[0]
            sample.landed = (str(getattr(loc, "uri", loc)), 0)
        return sample

    for i, p in enumerate(positions):
        sample = await ask(p)
        if i == 0:
            s.first_ms = sample.ms
        s.first.append(sample)
    for p in positions:
        s.warm.append(await ask(p))

    st = proc_status(server.pid)
    s.vmhwm_mb, s.vmrss_mb = st.get("VmHWM", 0.0), st.get("VmRSS", 0.0)
    s.children_hwm_mb = children_hwm(server.pid)
    try:
        await asyncio.wait_for(client.shutdown_async(None), 30)
        client.exit(None)
        await asyncio.wait_for(client.stop(), 30)
    except (TimeoutError, JsonRpcException, RuntimeError):
        if server.returncode is None:
            server.kill()
    await asyncio.wait_for(drainer, 10)
    return s


# ---- report -------------------------------------------------------------------------------------
def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[int(q * (len(xs) - 1))] if xs else float("nan")


def row(label: str, samples: list[Sample]) -> str:
    ms = [x.ms for x in samples]
    ok = sum(x.answered for x in samples)
    errs = sum(bool(x.error) for x in samples)
    return (
        f"| {label} | {len(samples)} | {ok / len(samples):.1%} | {errs} | {statistics.median(ms):.1f} "
        f"| {pct(ms, 0.95):.1f} | {max(ms):.1f} |"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--version", default="5.2")
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    print(
        f"load at start: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} "
        f"(1/5/15 min), {os.cpu_count()} cores",
        flush=True,
    )
    src = fetch(a.version)
    work = Path(tempfile.mkdtemp(prefix="codehop-lspbench-"))
    root = work / "django"
    shutil.copytree(src, root)
    try:
        positions, info = pick_positions(root, work / "select-index", a.positions, a.seed)
        hover = asyncio.run(run_session(root, positions, "hover"))
        definition = asyncio.run(run_session(root, positions, "definition"))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    strata = {k: sum(p.stratum == k for p in positions) for k in QUOTAS}
    print(
        f"Django {a.version}: {info['files']} files, {info['xrefs']} xrefs; "
        f"{len(positions)} positions, seed {a.seed}: " + ", ".join(f"{k} {v}" for k, v in strata.items())
    )
    print(
        f"  (site kinds: in-repo {sum(p.klass == 'in-repo' for p in positions)}, "
        f"external {sum(p.klass == 'external' for p in positions)}, "
        f"django.* not placed by the index {sum(p.klass == 'unresolved' for p in positions)}; "
        f"{info['skipped_multiline']} xrefs skipped whose anchor is not verbatim on its line)"
    )
    print()
    print("| request | n | answered (non-null) | errors | p50 ms | p95 ms | max ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, s in (("hover", hover), ("definition", definition)):
        print(row(f"{name}, first touch", s.first))
        print(row(f"{name}, warm (2nd ask)", s.warm))
        for klass in ("in-repo", "external", "unresolved"):
            sub = [x for x in s.first if x.pos.klass == klass]
            if sub:
                print(row(f"{name}, first touch, {klass} sites", sub))
    print()
    print("| figure | hover session | definition session |")
    print("|---|---:|---:|")
    print(
        f"| initialize -> `$/progress` end | {hover.index_wall_s:.2f} s (cold build) "
        f"| {definition.index_wall_s:.2f} s (index on disk) |"
    )
    print(f"| server's own message | {hover.index_msg} | {definition.index_msg} |")
    print(f"| very first request | {hover.first_ms:.1f} ms | {definition.first_ms:.1f} ms |")
    print(
        f"| server RSS: VmHWM / VmRSS at end | {hover.vmhwm_mb:.0f} / {hover.vmrss_mb:.0f} MB "
        f"| {definition.vmhwm_mb:.0f} / {definition.vmrss_mb:.0f} MB |"
    )
    print(f"| child processes' VmHWM (sum) | {hover.children_hwm_mb:.0f} MB | {definition.children_hwm_mb:.0f} MB |")
    print()

    print("per stratum, first touch (answered share, p50 / max ms):")
    for k in QUOTAS:
        parts = []
        for name, s in (("hover", hover), ("definition", definition)):
            sub = [x for x in s.first if x.pos.stratum == k]
            if sub:
                ms = [x.ms for x in sub]
                parts.append(
                    f"{name} {sum(x.answered for x in sub)}/{len(sub)}, {statistics.median(ms):.1f} / {max(ms):.1f}"
                )
        print(f"  {k:11s} " + "; ".join(parts))

    ext = [x for x in hover.first if x.answered and "outside the indexed repository" in x.text]
    print(
        f"hover answers that only say the name comes from outside the repository: {len(ext)}/"
        f"{sum(x.answered for x in hover.first)} (definition returns null for those by design)"
    )
    inside = [x for x in ext if "comes from `django." in x.text]
    print(f"  of which name a django.* module, i.e. a module of this very tree: {len(inside)}")
    for x in inside[:6]:
        print(f"    {x.pos.where} `{x.pos.anchor}`: {x.text[:110]}")
    agree = [x for x in definition.first if x.pos.klass == "in-repo" and x.landed is not None]
    same = [x for x in agree if x.landed == (x.pos.target_path, x.pos.target_line)]
    print(f"definition landed on the index's own xref target (in-repo sites answered): {len(same)}/{len(agree)}")
    differ = [x for x in agree if x.landed != (x.pos.target_path, x.pos.target_line)]
    for x in differ[:8]:
        print(
            f"  {x.pos.where} `{x.pos.anchor}` ({x.pos.stratum}): xref -> {x.pos.target_path}:{x.pos.target_line}, "
            f"definition -> {x.landed[0]}:{x.landed[1]}"
        )

    for name, s in (("hover", hover), ("definition", definition)):
        nulls = [x for x in s.first if not x.answered and x.pos.klass == "in-repo"]
        print(f"{name}: null/error on in-repo sites (the index itself resolved them): {len(nulls)}")
        for x in nulls[:12]:
            print(
                f"  {x.pos.where} `{x.pos.anchor}` ({x.pos.stratum}) -> {x.pos.target_path}:{x.pos.target_line}"
                + (f"  [{x.error[:120]}]" if x.error else "")
            )
        others = [x for x in s.first if not x.answered and x.pos.klass == "unresolved"]
        if others and name == "hover":
            print(f"{name}: null on django.* sites the index did not place: {len(others)}")
            for x in others[:12]:
                print(f"  {x.pos.where} `{x.pos.anchor}` (index target {x.pos.target})")
        errs = [x for x in s.first + s.warm if x.error]
        for x in errs[:5]:
            print(f"  error at {x.pos.where}: {x.error[:200]}")
        slow = sorted(s.first + s.warm, key=lambda x: -x.ms)[:5]
        print(f"{name}: slowest requests")
        for x in slow:
            phase = "first" if any(x is y for y in s.first) else "warm"
            print(f"  {x.ms:8.1f} ms  {phase:5s} {x.pos.where} `{x.pos.anchor}` ({x.pos.stratum}, {x.pos.klass})")
        tracebacks = sum("Traceback" in line for line in s.stderr)
        if tracebacks or s.messages:
            print(f"{name}: server stderr tracebacks {tracebacks}; messages {s.messages[:3]}")
            for line in [ln for ln in s.stderr if ln.strip()][-6:]:
                print(f"    {line[:200]}")
    print(f"load at end: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} (1/5/15 min)")


if __name__ == "__main__":
    main()
