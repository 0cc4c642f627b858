"""Time indexing one installed distribution into a fresh shared cache (the first question's cost),
and, with `--bridge S`, the index-time Jedi bridging of its inferred pointers run in the foreground
for at most S seconds (in use it runs in a background worker; this measures its cost).

usage: PYTHONPATH=<worktree> python tests/benchmarks/pkg_index_time.py APP_ROOT TOP [TOP ...] [--bridge S]
APP_ROOT holds a `.venv`; each TOP is a top-level module (requests, django). The cache is a
temporary directory; nothing is written in the environment.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("root")
    p.add_argument("tops", nargs="+")
    p.add_argument("--bridge", type=float, default=0.0, help="seconds of foreground bridging (0: none)")
    a = p.parse_args()
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="codehop-pkgtime-")
    from codehop.app import App, Config
    from codehop.resolve.jedi_bridge import bridge_distribution

    app = App(Path(a.root), Config(bridge_packages=False))
    try:
        assert app.packages is not None and app.env is not None, "no environment found"
        for top in a.tops:
            t0 = time.perf_counter()
            pkg = app.packages.package(top)
            wall = time.perf_counter() - t0
            if pkg is None:
                print(f"{top}: not indexed; {app.packages.warnings}")
                continue
            store = pkg.mount.store
            counts = store.xref_type_counts()
            rows = sum(v[0] for v in counts.values())
            resolved = sum(v[1] or 0 for v in counts.values())
            print(
                f"{pkg.dist.pin}: index {wall:.2f} s wall ({pkg.seconds:.2f} s indexing), {pkg.files} files, "
                f"xref rows {rows}, resolved by the symbol table {resolved}"
            )
            if a.bridge > 0:
                r = bridge_distribution(store, pkg.mount.root, pkg.mount.tops, python=app.env.python, budget_s=a.bridge)
                print(
                    f"  bridge: {r.seconds:.2f} s, sites {r.candidates}, asked {r.asked}, "
                    f"rows bridged {r.bridged}{', complete' if r.complete else ''}"
                )
    finally:
        app.close()


if __name__ == "__main__":
    main()
