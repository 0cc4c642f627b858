"""The first question on an application with a virtualenv (issue 29 item 8), timed as a process.

`tests/data/first_question_app/` is a small FastAPI-style shop (routes, models, security, db) whose
pyproject names its 13 direct dependencies. Build it once (pip, into DEST/.venv):

    python tests/benchmarks/first_question.py --build DEST

then time the first `codehop ask` of each question (a fresh `XDG_CACHE_HOME`, no `.codehop/`),
for each code tree given (its folder is put first on PYTHONPATH), side by side, then the same
questions once every distribution of the venv is in the cache (indexed by the last tree), and
whether the answers are the same; and which processes each `ask` left running:

    python tests/benchmarks/first_question.py DEST --code before=/work/main --code after=.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
QUESTIONS = (
    "Which parameters does CryptContext take?",
    "Where is APIRouter defined?",
    "What does create_access_token return?",
)


def build(dest: Path) -> None:
    shutil.copytree(HERE.parent / "data" / "first_question_app", dest, dirs_exist_ok=True)
    subprocess.run([sys.executable, "-m", "venv", str(dest / ".venv")], check=True)
    deps = [
        "fastapi==0.79.*", "pydantic==1.10.*", "SQLAlchemy>=2,<3", "passlib[bcrypt]", "pyjwt", "loguru",
        "python-slugify", "email-validator", "databases", "asyncpg", "alembic", "pypika", "aiosql",
    ]  # fmt: skip
    subprocess.run([str(dest / ".venv" / "bin" / "pip"), "install", "-q", *deps], check=True)


def _left(tag: str) -> int:
    want = f"CODEHOP_TEST_TAG={tag}".encode()
    n = 0
    for d in Path("/proc").iterdir():
        try:
            n += d.name.isdigit() and want in (d / "environ").read_bytes().split(b"\0")
        except OSError:
            pass
    return n


def ask(app: Path, code: str, question: str, cache: str) -> dict[str, object]:
    shutil.rmtree(app / ".codehop", ignore_errors=True)
    tag = uuid.uuid4().hex
    env = {k: v for k, v in os.environ.items() if k not in ("CODEHOP_BRIDGE", "VIRTUAL_ENV", "CODEHOP_PYTHON")}
    env |= {"PYTHONPATH": code, "XDG_CACHE_HOME": cache, "CODEHOP_TEST_TAG": tag}
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "codehop", "ask", question, "--json", "--repo", str(app)],
        capture_output=True, text=True, env=env, cwd=app, check=False,
    )  # fmt: skip
    wall = time.perf_counter() - t0
    left = _left(tag)
    data = json.loads(done.stdout) if done.returncode == 0 else {}
    for pid in [d.name for d in Path("/proc").iterdir() if d.name.isdigit()]:  # end what it left
        try:
            if f"CODEHOP_TEST_TAG={tag}".encode() in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0"):
                os.kill(int(pid), 15)
        except OSError:
            pass
    return {"wall_s": round(wall, 2), "left": left, "data": data}


def index_everything(app: Path, code: str, cache: str) -> None:
    script = (
        "import sys; from codehop.app import App, Config; a = App(sys.argv[1], Config(resolvers=('symbol_table',)));"
        "from codehop.index.environment import distributions;"
        "[a.packages.package(t) for d in distributions(a.env) for t in d.top_level[:1]]; a.close()"
    )
    env = os.environ | {"PYTHONPATH": code, "XDG_CACHE_HOME": cache}
    subprocess.run([sys.executable, "-c", script, str(app)], check=True, env=env)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("app", type=Path)
    p.add_argument("--build", action="store_true")
    p.add_argument("--code", action="append", default=[], help="NAME=PATH of a codehop tree")
    a = p.parse_args()
    if a.build:
        build(a.app)
        return 0
    codes = [c.split("=", 1) for c in a.code]
    for q in QUESTIONS:
        answers = {}
        for name, path in codes:
            with tempfile.TemporaryDirectory(prefix="codehop-fq-") as cache:
                r = ask(a.app, str(Path(path).resolve()), q, cache)
            d = r["data"]
            assert isinstance(d, dict)
            stats = d.get("stats", {})
            answers[name] = d.get("answer")
            print(f"{q!r:45} {name:8} first ask {r['wall_s']:6.2f} s  state {d.get('state')}  "
                  f"stopped_by {stats.get('stopped_by', '-')}  processes left {r['left']}  "
                  f"indexed {[x['package'] for x in stats.get('packages_indexed', [])]}")  # fmt: skip
        name, path = codes[-1]
        with tempfile.TemporaryDirectory(prefix="codehop-fq-all-") as cache:
            index_everything(a.app, str(Path(path).resolve()), cache)
            r = ask(a.app, str(Path(path).resolve()), q, cache)
        d = r["data"]
        assert isinstance(d, dict)
        same = {n: ans == d.get("answer") for n, ans in answers.items()}
        print(f"{q!r:45} {name:8} all indexed {r['wall_s']:6.2f} s  state {d.get('state')}  same answer as {same}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
