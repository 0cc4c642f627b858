"""References and call hierarchy of codehop's language server beside basedpyright's, on one tree.

1. Probes, picked with `ast` and `tokenize` alone (no codehop), fixed seed:
   - references: `--refs` uniquely named module-level functions and classes (one `def`/`class` of
     that name in the tree, never bound as a variable, parameter or attribute) used in at least one
     other file; gold = the files holding the name as a NAME token (not in a string or comment, not
     a member of a module from outside the tree), the declaring line excepted;
   - outgoing calls: `--outgoing` functions or methods with 5-40 call expressions in their body;
   - incoming calls: `--incoming` uniquely named functions called (`name(`) in 2-8 files, and
     `--incoming-methods` uniquely named methods called (`.name(`) in 2-8 files.
2. Each server (`basedpyright-langserver --stdio`, then codehop with each `--codehop` source
   tree on PYTHONPATH, side by side in one run) is started over stdio by pygls's LanguageClient
   with the tree as root, warmed by one request, then asked textDocument/references
   (includeDeclaration false), prepareCallHierarchy + outgoingCalls, prepareCallHierarchy +
   incomingCalls at each probe's name; every request is timed.
   For codehop, the outgoing and incoming probes run twice: the *latency pass* right after the
   server is ready (each request as it comes: `p50_ms`/`p90_ms` are its times, `latency_pass`
   scores what those first answers held), then, once `codehop/landingStatus` says the land
   worker has placed every site those requests handed it (`worker_wait_s`; what an editor shows
   a few seconds later), the *recall pass*: the same probes again, whose answers are the recall
   figures below (`recall_pass_p50_ms` its times). An older codehop without that request (no
   worker) gets its recall pass at once. References are asked once. The first pass's answers are
   scored too (`latency_pass`, the `first` rows of the printed table): what a client that asks
   right after the start sees, which the recall figures do not show.
3. Scores against basedpyright: references: gold files found and files returned outside gold;
   outgoing: callees keyed by (path, line) inside the tree and by (name, file stem) outside it
   (`builtins.pyi` from Jedi's typeshed and from basedpyright's are the same stub); incoming:
   callers keyed by (path, line). Extras are printed for reading: basedpyright misses some too.

usage: python tests/benchmarks/calls_bench.py --tree /tmp/django [--codehop /tmp/base --codehop .]
       [--refs 30 --outgoing 13 --incoming 5 --seed 7] [--json out.json] [--settle-s 0] [--pending-wait-s 600]
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import io
import json
import os
import random
import statistics
import sys
import time
import tokenize
from collections import Counter
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls import uris
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parents[2]
SKIP_DIRS = {".codehop", "__pycache__"}


# ---- probes --------------------------------------------------------------------------------
def _files(tree: Path) -> dict[str, str]:
    out = {}
    for p in sorted(tree.rglob("*.py")):
        rel = p.relative_to(tree).as_posix()
        if SKIP_DIRS.intersection(rel.split("/")[:-1]):
            continue
        out[rel] = p.read_text(encoding="utf-8", errors="replace")
    return out


def _names(text: str, foreign: set[str]) -> list[tuple[int, int, str]]:
    """(line, col, name) of the NAME tokens of a file, but a member of a module from outside the
    tree (`httpx.Response` is not the tree's `Response`; `models.ForeignKey` is)."""
    out: list[tuple[int, int, str]] = []
    prev: list[str] = ["", ""]
    try:
        for t in tokenize.generate_tokens(io.StringIO(text).readline):
            if t.type == tokenize.NAME and not (prev[-1] == "." and prev[-2] in foreign):
                out.append((t.start[0], t.start[1], t.string))
            if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT):
                prev = [prev[-1], t.string]
    except (tokenize.TokenError, SyntaxError):
        pass
    return out


def _foreign(mod: ast.Module, tops: set[str]) -> set[str]:
    """The names a file binds to modules from outside the tree (`import httpx`, `import os.path as p`)."""
    out = set()
    for node in ast.walk(mod):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] not in tops:
                    out.add(a.asname or a.name.split(".")[0])
    return out


def _name_col(text: str, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> int:
    line = text.splitlines()[node.lineno - 1]
    return line.index(node.name, node.col_offset)


def pick(tree: Path, n_refs: int, n_out: int, n_in: int, n_methods: int, seed: int) -> dict[str, list[dict[str, Any]]]:
    files = _files(tree)
    parsed = {}
    for rel, text in files.items():
        try:
            parsed[rel] = ast.parse(text)
        except SyntaxError:
            continue
    defs: Counter[str] = Counter()
    bound: set[str] = set()  # names also bound as a variable, a parameter or an attribute somewhere
    top: list[tuple[str, str, int, int, str]] = []  # (name, rel, line, col, kind)
    bodies: list[tuple[str, str, int, int, int]] = []  # (name, rel, line, col, calls)
    members: list[tuple[str, str, int, int]] = []  # methods of module-level classes
    for rel, mod in parsed.items():
        for node in ast.walk(mod):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                defs[node.name] += 1
            elif isinstance(node, ast.arg):
                bound.add(node.arg)
            elif isinstance(node, ast.Import):  # `import random`: the module, not the tree's `random`
                bound.update(a.asname or a.name.split(".")[0] for a in node.names)
            elif isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Store):
                bound.add(node.id if isinstance(node, ast.Name) else node.attr)
        for node in mod.body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
                top.append((node.name, rel, node.lineno, _name_col(files[rel], node), type(node).__name__))
            if isinstance(node, ast.ClassDef):
                for sub in node.body:
                    if isinstance(sub, ast.FunctionDef) and not sub.name.startswith("_"):
                        members.append((sub.name, rel, sub.lineno, _name_col(files[rel], sub)))
        for node in ast.walk(mod):
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("__"):
                calls = sum(isinstance(c, ast.Call) for c in ast.walk(node))
                if 5 <= calls <= 40:
                    bodies.append((node.name, rel, node.lineno, _name_col(files[rel], node), calls))
    tops = {rel.split("/")[0].removesuffix(".py") for rel in files}
    tokens = {rel: _names(text, _foreign(parsed[rel], tops) if rel in parsed else set()) for rel, text in files.items()}
    users: dict[str, set[str]] = {}
    called: dict[str, set[str]] = {}
    dotted_calls: dict[str, set[str]] = {}  # `.name(`: a method called on an object
    for rel, toks in tokens.items():
        text_lines = files[rel].splitlines()
        for line, col, name in toks:
            users.setdefault(name, set()).add(f"{rel}\0{line}")
            after = text_lines[line - 1][col + len(name) : col + len(name) + 1]
            if after == "(":
                called.setdefault(name, set()).add(rel)
                if text_lines[line - 1][col - 1 : col] == ".":
                    dotted_calls.setdefault(name, set()).add(rel)
    rng = random.Random(seed)
    refs = []
    for name, rel, line, col, kind in top:
        if defs[name] != 1 or name in bound or len(name) < 5:
            continue
        gold = sorted({s.split("\0")[0] for s in users.get(name, set()) if s != f"{rel}\0{line}"})
        if not [g for g in gold if g != rel]:
            continue
        refs.append({"name": name, "path": rel, "line": line, "col": col, "kind": kind, "gold": gold})
    rng.shuffle(refs)
    outgoing = [{"name": n, "path": r, "line": ln, "col": c, "calls": k} for n, r, ln, c, k in bodies]
    rng.shuffle(outgoing)
    incoming = [
        {"name": name, "path": rel, "line": line, "col": col}
        for name, rel, line, col, kind in top
        if kind == "FunctionDef" and defs[name] == 1 and name not in bound and 2 <= len(called.get(name, ())) <= 8
    ]
    rng.shuffle(incoming)
    methods = [
        {"name": name, "path": rel, "line": line, "col": col}
        for name, rel, line, col in members
        if defs[name] == 1 and name not in bound and 2 <= len(dotted_calls.get(name, ())) <= 8
    ]
    rng.shuffle(methods)
    return {
        "refs": refs[:n_refs],
        "outgoing": outgoing[:n_out],
        "incoming": incoming[:n_in] + methods[:n_methods],
    }


# ---- one server ------------------------------------------------------------------------------
def _rel(tree: Path, uri: str) -> str:
    path = Path(uris.to_fs_path(uri) or "").resolve()
    try:
        return path.relative_to(tree.resolve()).as_posix()
    except ValueError:
        return str(path)


def _inside(tree: Path, uri: str) -> bool:
    return not _rel(tree, uri).startswith("/")


def _key(tree: Path, item: types.CallHierarchyItem) -> str:
    rel = _rel(tree, item.uri)
    if not rel.startswith("/"):
        return f"{rel}:{item.selection_range.start.line + 1}"
    return f"out:{item.name}@{Path(rel).name.split('.')[0]}"


async def serve(
    tree: Path,
    command: list[str],
    env: dict[str, str],
    probes: dict[str, Any],
    settle_s: float = 0.0,
    pending_wait_s: float = 600.0,
) -> dict[str, Any]:
    client = LanguageClient("codehop-calls-bench", "1")
    done = asyncio.Event()

    @client.feature(types.PROGRESS)
    def _progress(params: types.ProgressParams) -> None:
        value = params.value
        kind = value.get("kind") if isinstance(value, dict) else getattr(value, "kind", None)
        if kind == "end":
            done.set()

    @client.feature(types.WINDOW_WORK_DONE_PROGRESS_CREATE)
    def _create(params: types.WorkDoneProgressCreateParams) -> None:
        return None

    @client.feature(types.WORKSPACE_CONFIGURATION)
    def _configuration(params: types.ConfigurationParams) -> list[Any]:
        return [None for _ in params.items]

    await client.start_io(command[0], *command[1:], env=env, cwd=str(tree))
    server = client._server
    assert server is not None and server.stderr is not None

    async def drain() -> None:  # a server's stderr must be read, or a chatty server stalls
        while await server.stderr.readline():
            pass

    drainer = asyncio.create_task(drain())
    caps = types.ClientCapabilities(
        window=types.WindowClientCapabilities(work_done_progress=True),
        text_document=types.TextDocumentClientCapabilities(
            call_hierarchy=types.CallHierarchyClientCapabilities(dynamic_registration=False)
        ),
    )
    t0 = time.perf_counter()
    await client.initialize_async(
        types.InitializeParams(
            capabilities=caps,
            root_uri=uris.from_fs_path(str(tree)),
            workspace_folders=[types.WorkspaceFolder(uri=uris.from_fs_path(str(tree)) or "", name=tree.name)],
            initialization_options={"indexWaitSeconds": 900},
        )
    )
    client.initialized(types.InitializedParams())
    if "codehop" in " ".join(command):
        await asyncio.wait_for(done.wait(), 900)

    def doc(p: dict[str, Any]) -> types.TextDocumentIdentifier:
        return types.TextDocumentIdentifier(uri=uris.from_fs_path(str(tree / p["path"])) or "")

    def pos(p: dict[str, Any]) -> types.Position:
        return types.Position(line=p["line"] - 1, character=p["col"])

    first = probes["refs"][0]
    await client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc(first), position=pos(first), context=types.ReferenceContext(include_declaration=False)
        )
    )
    out: dict[str, Any] = {"ready_s": time.perf_counter() - t0, "refs": {}, "outgoing": {}, "incoming": {}}
    await asyncio.sleep(settle_s)  # an editor user opens the project, reads, then navigates
    out["ms"] = {"refs": [], "outgoing": [], "incoming": []}
    for p in probes["refs"]:
        t = time.perf_counter()
        res = await client.text_document_references_async(
            types.ReferenceParams(
                text_document=doc(p), position=pos(p), context=types.ReferenceContext(include_declaration=False)
            )
        )
        out["ms"]["refs"].append((time.perf_counter() - t) * 1000)
        out["refs"][p["name"]] = sorted({_rel(tree, loc.uri) for loc in res or []})

    async def calls_pass(ms: dict[str, list[float]], found: dict[str, dict[str, list[str]]]) -> None:
        for kind in ("outgoing", "incoming"):
            for p in probes[kind]:
                key = f"{p['path']}:{p['line']}"
                t = time.perf_counter()
                try:
                    items = await client.text_document_prepare_call_hierarchy_async(
                        types.CallHierarchyPrepareParams(text_document=doc(p), position=pos(p))
                    )
                    got: list[str] = []
                    if items:
                        if kind == "outgoing":
                            calls = await client.call_hierarchy_outgoing_calls_async(
                                types.CallHierarchyOutgoingCallsParams(item=items[0])
                            )
                            got = [_key(tree, c.to) for c in calls or []]
                        else:
                            inc = await client.call_hierarchy_incoming_calls_async(
                                types.CallHierarchyIncomingCallsParams(item=items[0])
                            )
                            got = [_key(tree, c.from_) for c in inc or []]
                except Exception as exc:  # an error response is a miss, said so
                    got = [f"error: {exc}"]
                ms[kind].append((time.perf_counter() - t) * 1000)
                found[kind][key] = sorted(set(got))

    # the latency pass: each request as it comes, right after the server is ready (what is timed)
    first: dict[str, dict[str, list[str]]] = {"outgoing": {}, "incoming": {}}
    await calls_pass(out["ms"], first)
    out["outgoing"], out["incoming"] = first["outgoing"], first["incoming"]
    if "codehop" in " ".join(command):
        # the recall pass: once the land worker has placed every site those requests handed it
        # (what an editor shows a few seconds later), the same probes again (what is scored)
        t = time.perf_counter()
        status: Any = None
        while time.perf_counter() - t < pending_wait_s:
            try:
                status = await client.protocol.send_request_async("codehop/landingStatus", {})
            except Exception:  # a server without a land worker's status (an older codehop)
                break
            pending = status.get("pending") if isinstance(status, dict) else getattr(status, "pending", None)
            if not pending:
                break
            await asyncio.sleep(0.5)
        out["worker_wait_s"] = round(time.perf_counter() - t, 1)
        out["worker_status"] = status if isinstance(status, dict) else getattr(status, "__dict__", str(status))
        out["first_pass"] = first
        out["ms_recall_pass"] = {"outgoing": [], "incoming": []}
        after: dict[str, dict[str, list[str]]] = {"outgoing": {}, "incoming": {}}
        await calls_pass(out["ms_recall_pass"], after)
        out["outgoing"], out["incoming"] = after["outgoing"], after["incoming"]
    await client.shutdown_async(None)
    client.exit(None)
    drainer.cancel()
    return out


# ---- scores -----------------------------------------------------------------------------------
def score(probes: dict[str, Any], peer: dict[str, Any], ours: dict[str, Any]) -> dict[str, Any]:
    gold_n = found = extra_files = 0
    peer_found = 0
    ref_misses = []
    for p in probes["refs"]:
        gold = set(p["gold"])
        got = set(ours["refs"][p["name"]])
        gold_n += len(gold)
        found += len(gold & got)
        peer_found += len(gold & set(peer["refs"][p["name"]]))
        extra_files += len(got - gold)
        if gold - got or got - gold:
            ref_misses.append((p["name"], sorted(gold - got)[:4], sorted(got - gold)[:4]))
    inside_n = inside_found = outside_n = outside_found = wrong = 0
    out_rows = []
    for key, theirs in peer["outgoing"].items():
        mine = set(ours["outgoing"][key])
        t_in = {k for k in theirs if not k.startswith("out:")}
        t_out = {k for k in theirs if k.startswith("out:")}
        inside_n += len(t_in)
        outside_n += len(t_out)
        inside_found += len(t_in & mine)
        outside_found += len(t_out & mine)
        extra = mine - set(theirs)
        wrong += len(extra)
        out_rows.append((key, sorted(t_in - mine), sorted(t_out - mine), sorted(extra)))
    in_n = in_found = in_extra = 0
    in_rows = []
    for key, theirs in peer["incoming"].items():
        mine = set(ours["incoming"][key])
        in_n += len(theirs)
        in_found += len(set(theirs) & mine)
        in_extra += len(mine - set(theirs))
        in_rows.append((key, sorted(set(theirs) - mine), sorted(mine - set(theirs))))

    def p50(kind: str) -> float:
        return round(statistics.median(ours["ms"][kind]), 1)

    def p90(kind: str) -> float:
        return _p90(ours["ms"][kind])

    first = ours.get("first_pass")
    first_found: dict[str, int] = {}
    if first is not None:  # the latency pass's answers, scored the same way (read, not the recall figure)
        first_found = {
            "out_found_inside": sum(
                len({k for k in theirs if not k.startswith("out:")} & set(first["outgoing"][key]))
                for key, theirs in peer["outgoing"].items()
            ),
            "out_found_outside": sum(
                len({k for k in theirs if k.startswith("out:")} & set(first["outgoing"][key]))
                for key, theirs in peer["outgoing"].items()
            ),
            "out_not_in_peer": sum(
                len(set(first["outgoing"][key]) - set(theirs)) for key, theirs in peer["outgoing"].items()
            ),
            "in_found": sum(len(set(theirs) & set(first["incoming"][key])) for key, theirs in peer["incoming"].items()),
            "in_not_in_peer": sum(
                len(set(first["incoming"][key]) - set(theirs)) for key, theirs in peer["incoming"].items()
            ),
        }
    recall_ms = ours.get("ms_recall_pass")
    return {
        "latency_pass": first_found,
        "worker_wait_s": ours.get("worker_wait_s"),
        "recall_pass_p50_ms": {k: round(statistics.median(v), 1) for k, v in recall_ms.items()} if recall_ms else {},
        "refs_gold_files": gold_n,
        "refs_found": found,
        "refs_found_by_peer": peer_found,
        "refs_files_outside_gold": extra_files,
        "out_peer_inside": inside_n,
        "out_found_inside": inside_found,
        "out_peer_outside": outside_n,
        "out_found_outside": outside_found,
        "out_not_in_peer": wrong,
        "in_peer_callers": in_n,
        "in_found": in_found,
        "in_not_in_peer": in_extra,
        "p50_ms": {k: p50(k) for k in ("refs", "outgoing", "incoming")},
        "p90_ms": {k: p90(k) for k in ("refs", "outgoing", "incoming")},
        "ref_rows": ref_misses,
        "out_rows": out_rows,
        "in_rows": in_rows,
    }


def _p90(ms: list[float]) -> float:
    return round(statistics.quantiles(ms, n=10, method="inclusive")[8], 1) if len(ms) > 1 else round(ms[0], 1)


def table(report: dict[str, Any]) -> str:
    """One row per codehop tree and pass: the first pass (its answers as they came right after ready,
    what a client asking at once sees; its p50/p90 are the latency figures) and the recall pass
    (after the land worker's wait; its answers are the recall figures)."""
    rows = [
        "| codehop | pass | out in-repo | out outside | callers | not in peer (out/in) | out p50/p90 ms | in p50/p90 ms |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for src, r in report["codehop"].items():
        s = r["score"]
        n_in, n_out, n_callers = s["out_peer_inside"], s["out_peer_outside"], s["in_peer_callers"]
        first = s["latency_pass"] or {
            "out_found_inside": s["out_found_inside"],
            "out_found_outside": s["out_found_outside"],
            "in_found": s["in_found"],
            "out_not_in_peer": s["out_not_in_peer"],
            "in_not_in_peer": s["in_not_in_peer"],
        }
        p50, p90 = s["p50_ms"], s["p90_ms"]
        rows.append(
            f"| {src} | first | {first['out_found_inside']}/{n_in} | {first['out_found_outside']}/{n_out}"
            f" | {first['in_found']}/{n_callers} | {first['out_not_in_peer']}/{first['in_not_in_peer']}"
            f" | {p50['outgoing']}/{p90['outgoing']} | {p50['incoming']}/{p90['incoming']} |"
        )
        recall = s["recall_pass_p50_ms"]
        rows.append(
            f"| {src} | after worker ({s['worker_wait_s']} s) | {s['out_found_inside']}/{n_in}"
            f" | {s['out_found_outside']}/{n_out} | {s['in_found']}/{n_callers}"
            f" | {s['out_not_in_peer']}/{s['in_not_in_peer']} | {recall.get('outgoing', '-')}/- | {recall.get('incoming', '-')}/- |"
        )
    return "\n".join(rows)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tree", type=Path, required=True)
    ap.add_argument("--codehop", type=Path, action="append", help="a codehop source tree (repeat: side by side)")
    ap.add_argument("--refs", type=int, default=30)
    ap.add_argument("--outgoing", type=int, default=13)
    ap.add_argument("--incoming", type=int, default=5)
    ap.add_argument("--incoming-methods", type=int, default=0, help="uniquely named methods called as `.name(`")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--settle-s", type=float, default=0.0, help="codehop: wait this long after ready before the probes")
    ap.add_argument(
        "--pending-wait-s",
        type=float,
        default=600.0,
        help="codehop: the longest wait for the land worker before the recall pass",
    )
    args = ap.parse_args()
    tree = args.tree.resolve()
    probes = pick(tree, args.refs, args.outgoing, args.incoming, args.incoming_methods, args.seed)
    env = dict(os.environ)
    peer = asyncio.run(serve(tree, ["basedpyright-langserver", "--stdio"], env, probes))
    peer["p90"] = {k: _p90(v) for k, v in peer["ms"].items()}
    peer["ms"] = {k: round(statistics.median(v), 1) for k, v in peer["ms"].items()}
    report: dict[str, Any] = {"tree": str(tree), "probes": probes, "basedpyright": peer, "codehop": {}}
    for src in args.codehop or [ROOT]:
        env = {k: v for k, v in os.environ.items() if k != "CODEHOP_INDEX_DIR"}
        env["PYTHONPATH"] = str(src.resolve())
        ours = asyncio.run(
            serve(
                tree,
                [sys.executable, "-m", "codehop.frontends.lsp_server"],
                env,
                probes,
                args.settle_s,
                args.pending_wait_s,
            )
        )
        report["codehop"][str(src)] = {"raw": ours, "score": score(probes, peer, ours)}
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    print(f"basedpyright p50 ms {peer['ms']}, p90 ms {peer['p90']}, ready {peer['ready_s']:.1f} s")
    print(table(report))
    for src, r in report["codehop"].items():
        s = r["score"]
        print(f"== codehop {src} (ready {r['raw']['ready_s']:.1f} s)")
        print(json.dumps({k: v for k, v in s.items() if not k.endswith("_rows")}))
        for name, missed, extra in s["ref_rows"]:
            print(f"  refs {name}: missed {missed} extra {extra}")
        for key, m_in, m_out, extra in s["out_rows"]:
            if m_in or m_out or extra:
                print(f"  out {key}: missed-in {m_in} missed-out {m_out} extra {extra}")
        for key, missed, extra in s["in_rows"]:
            if missed or extra:
                print(f"  in {key}: missed {missed} extra {extra}")


if __name__ == "__main__":
    main()
