"""textDocument/references and workspace/symbol of codehop's language server on Django 5.2,
against Jedi's `Script.get_references`.

1. Picks `--functions` public module-level functions of Django (not in tests, name not private,
   with a fixed seed) from the index.
2. A real LSP client (pygls `LanguageClient`) starts `python -m codehop.frontends.lsp_server` over stdio on
   the tree, waits for the index, and asks textDocument/references (includeDeclaration true, so
   re-export lines count as Jedi counts them; the declaration itself is dropped) at each
   declaration's name: latency of each request, the sites returned.
3. workspace/symbol: each of `--queries` queries (names of the picked functions, their 3-letter
   prefixes, a subsequence) asked once cold and then 5 times warm; warm p50/p95.
4. Jedi, bounded: for each function, the files whose text holds the name as a word; in each,
   `Script.get_references(line, col, scope="file")` at the first occurrence whose
   `goto(follow_imports=True)` lands on the declaration (at most 8 tries a file), and at the
   declaration itself; a function's Jedi side stops after `--jedi-cap-s` seconds (counted).
   Sites compared by (path, line), declarations excluded on both sides.

usage: python tests/benchmarks/refs_bench.py --tree /tmp/django-editor [--functions 50] [--seed 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls import uris
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def pick_functions(tree: Path, n: int, seed: int) -> list[tuple[str, str, int, int]]:
    """(qualname, rel_path, line, name col) of public module-level functions, sampled."""
    from codehop.app import App

    app = App(tree)
    rows = []
    modules = {m for _p, m in app.store.file_modules()}
    for d in app.store.declaration_sites():
        scope, name, kind, rel_path, line, col = d.scope, d.name, d.kind, d.rel_path, d.line, d.col
        if kind != "function" or scope not in modules or name.startswith("_"):
            continue
        if "/tests/" in f"/{rel_path}" or "/test/" in f"/{rel_path}":
            continue
        rows.append((f"{scope}.{name}", rel_path, line, col + 4))
    rows.sort()
    app.close()
    random.Random(seed).shuffle(rows)
    out = []
    for q, rel, line, _col in rows:
        text = (tree / rel).read_text(encoding="utf-8", errors="replace").splitlines()[line - 1]
        name = q.rpartition(".")[2]
        m = re.search(rf"\bdef\s+({re.escape(name)})\b", text)
        if m is None:
            continue  # async def or an odd layout: keep the sample simple
        out.append((q, rel, line, m.start(1)))
        if len(out) == n:
            break
    return out


async def lsp_side(tree: Path, funcs: list[tuple[str, str, int, int]], queries: list[str]) -> dict[str, Any]:
    client = LanguageClient("codehop-refs-bench", "1")
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

    env = {k: v for k, v in os.environ.items() if k != "CODEHOP_INDEX_DIR"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    await client.start_io(sys.executable, "-m", "codehop.frontends.lsp_server", env=env, cwd=str(tree))
    server = client._server
    assert server is not None and server.stderr is not None

    async def drain() -> None:
        while await server.stderr.readline():
            pass

    drainer = asyncio.create_task(drain())
    caps = types.ClientCapabilities(window=types.WindowClientCapabilities(work_done_progress=True))
    await client.initialize_async(
        types.InitializeParams(
            capabilities=caps,
            root_uri=uris.from_fs_path(str(tree)),
            work_done_token="bench",
            initialization_options={"indexWaitSeconds": 600},
        )
    )
    client.initialized(types.InitializedParams())
    await asyncio.wait_for(done.wait(), 900)
    out: dict[str, Any] = {"refs": {}, "ms": []}
    for q, rel, line, col in funcs:
        doc = types.TextDocumentIdentifier(uri=uris.from_fs_path(str(tree / rel)) or "")
        t = time.perf_counter()
        res = await client.text_document_references_async(
            types.ReferenceParams(
                text_document=doc,
                position=types.Position(line=line - 1, character=col),
                context=types.ReferenceContext(include_declaration=True),
            )
        )
        out["ms"].append((time.perf_counter() - t) * 1000)
        sites = []
        for loc in res or []:
            path = Path(uris.to_fs_path(loc.uri) or "").resolve().relative_to(tree.resolve()).as_posix()
            sites.append((path, loc.range.start.line + 1))
        # with the re-export lines (Jedi counts them too), without the declaration itself
        out["refs"][q] = sorted(set(sites) - {(rel, line)})
    cold, warm = [], []
    for query in queries:
        t = time.perf_counter()
        await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=query))
        cold.append((time.perf_counter() - t) * 1000)
        for _ in range(5):
            t = time.perf_counter()
            await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=query))
            warm.append((time.perf_counter() - t) * 1000)
    out["symbol_cold_ms"], out["symbol_warm_ms"] = cold, warm
    await client.shutdown_async(None)
    client.exit(None)
    drainer.cancel()
    return out


def jedi_side(tree: Path, funcs: list[tuple[str, str, int, int]], cap_s: float) -> dict[str, Any]:
    import jedi

    project = jedi.Project(str(tree), added_sys_path=[str(tree)])
    texts = {
        p.relative_to(tree).as_posix(): p.read_text(encoding="utf-8", errors="replace") for p in tree.rglob("*.py")
    }
    out: dict[str, Any] = {"refs": {}, "capped": [], "seconds": {}}
    for q, rel, line, col in funcs:
        name = q.rpartition(".")[2]
        word = re.compile(rf"(?<![\w.]){re.escape(name)}\b|(?<=\.){re.escape(name)}\b")
        t0 = time.perf_counter()
        sites: set[tuple[str, int]] = set()
        decl = (rel, line)
        candidates = [rel] + sorted(p for p, text in texts.items() if p != rel and word.search(text))
        capped = False
        for path in candidates:
            if time.perf_counter() - t0 > cap_s:
                capped = True
                break
            script = jedi.Script(texts[path], path=str(tree / path), project=project)
            lines = texts[path].splitlines()
            positions = [(i + 1, m.start()) for i, ln in enumerate(lines) for m in word.finditer(ln)]
            if path == rel:
                positions = [(line, col)]
            for ln, c in positions[:8]:
                try:
                    hits = script.goto(ln, c, follow_imports=True)
                except Exception:
                    continue
                if not any(
                    h.module_path and Path(h.module_path).resolve() == (tree / rel).resolve() and h.line == line
                    for h in hits
                ):
                    continue
                try:
                    refs = script.get_references(ln, c, scope="file")
                except Exception:
                    break
                for r in refs:  # uses, and `from m import f` lines (which bind f): all but the declaration
                    if r.module_path is None:
                        continue
                    site = (Path(r.module_path).resolve().relative_to(tree.resolve()).as_posix(), r.line)
                    if site != decl:
                        sites.add(site)
                break
        out["refs"][q] = sorted(sites)
        out["seconds"][q] = time.perf_counter() - t0
        if capped:
            out["capped"].append(q)
    return out


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p * (len(s) - 1))))] if s else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tree", type=Path, required=True)
    ap.add_argument("--functions", type=int, default=50)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--jedi-cap-s", type=float, default=60.0)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    tree = args.tree.resolve()
    funcs = pick_functions(tree, args.functions, args.seed)
    names = [q.rpartition(".")[2] for q, *_ in funcs]
    queries = (
        names[:10] + [n[:3] for n in names[10:15]] + ["gtobj", "rndr", "HttpResp", "QuerySet.filter", "models.Model"]
    )
    lsp = asyncio.run(lsp_side(tree, funcs, queries))
    jed = jedi_side(tree, funcs, args.jedi_cap_s)
    found = total = extra = 0
    rows = []
    for q, *_ in funcs:
        ours = set(map(tuple, lsp["refs"][q]))
        theirs = set(map(tuple, jed["refs"][q]))
        found += len(ours & theirs)
        total += len(theirs)
        extra += len(ours - theirs)
        rows.append(
            {
                "qualname": q,
                "jedi": len(theirs),
                "ours": len(ours),
                "both": len(ours & theirs),
                "missed": sorted(theirs - ours)[:5],
                "extra": sorted(ours - theirs)[:5],
                "jedi_s": round(jed["seconds"][q], 1),
                "capped": q in jed["capped"],
            }
        )
    report = {
        "functions": len(funcs),
        "jedi_sites": total,
        "found_of_jedi": found,
        "ours_not_jedi": extra,
        "jedi_capped": len(jed["capped"]),
        "refs_p50_ms": round(statistics.median(lsp["ms"]), 1),
        "refs_p95_ms": round(pct(lsp["ms"], 0.95), 1),
        "symbol_warm_p50_ms": round(statistics.median(lsp["symbol_warm_ms"]), 2),
        "symbol_warm_p95_ms": round(pct(lsp["symbol_warm_ms"], 0.95), 2),
        "symbol_cold_max_ms": round(max(lsp["symbol_cold_ms"]), 1),
        "rows": rows,
    }
    text = json.dumps(report, indent=1)
    if args.json:
        args.json.write_text(text)
    summary = {k: v for k, v in report.items() if k != "rows"}
    print(json.dumps(summary, indent=1))
    for r in rows:
        if r["missed"] or r["extra"]:
            print(
                f"{r['qualname']}: jedi {r['jedi']} ours {r['ours']} both {r['both']}"
                f" missed {r['missed']} extra {r['extra']}"
            )


if __name__ == "__main__":
    main()
