"""The Python API wherever Python runs (issue 29 item 7): real scripts in real interpreters.

Each script asks about a generated repository of 60 modules (enough for the indexer's parse
pool) while another thread runs, as it does once a hop has started Jedi, or from a thread of its
own. Without an `if __name__ == "__main__":` guard, a forkserver worker imports the script again
and dies ("before the current process has finished its bootstrapping phase", BrokenProcessPool),
or runs the script's question a second time: the indexer parses in-process instead. A guarded
script, a script from stdin (a notebook's case: no file to import) and `python -m codehop` keep
the pool.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from shared import FIXTURES, copy_fixture

PROJECT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.timeout(180)

BACKGROUND = """\
import threading
import codehop
stop = threading.Event()
threading.Thread(target=stop.wait, daemon=True).start()
{body}
"""

ASK = 'print("answer", codehop.ask("where is K7", repo={repo!r}).state)'

FROM_THREAD = """\
import threading
import codehop
out = []
t = threading.Thread(target=lambda: out.append(codehop.ask("where is K7", repo={repo!r}).state))
t.start()
t.join()
print("answer", out[0] if out else None)
"""


def make_repo(root: Path, modules: int = 60) -> Path:
    pkg = root / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    for i in range(modules):
        (pkg / f"m{i}.py").write_text(f"class K{i}:\n    def f(self):\n        return {i}\n")
    return root


def run_script(tmp_path: Path, source: str, *, stdin: bool = False) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    if stdin:
        return subprocess.run(
            [sys.executable, "-"], input=source, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=150
        )
    script = tmp_path / "plain_script.py"
    script.write_text(source)
    return subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=150
    )


# the issue's own shape: a first question whose hop starts Jedi (its worker thread stays), then a
# second, larger repository (fixtures_repos/inferred_callee: "what does Queue.push call?")
JEDI_THEN_LARGER = """\
import codehop
print("first", codehop.ask("what does Queue.push call?", repo={small!r}).state)
print("answer", codehop.ask("where is K7", repo={repo!r}).state)
"""

CASES = {
    "no-guard-jedi-then-larger-repo": (JEDI_THEN_LARGER.format(small="small", repo="repo"), False),
    "no-guard-background-thread": (BACKGROUND.format(body=ASK.format(repo="repo")), False),
    "no-guard-asked-from-thread": (FROM_THREAD.format(repo="repo"), False),
    "guarded-background-thread": (
        BACKGROUND.format(body='if __name__ == "__main__":\n    ' + ASK.format(repo="repo")),
        False,
    ),
    "stdin-background-thread": (BACKGROUND.format(body=ASK.format(repo="repo")), True),
}


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_api_from_a_script(tmp_path: Path, case: str) -> None:
    """A first build of fixture-less `repo/` (60 generated modules) from each kind of caller: the
    answer comes once, complete, and nothing dies in a worker."""
    make_repo(tmp_path / "repo")
    copy_fixture(FIXTURES / "inferred_callee", tmp_path / "small")
    source, stdin = CASES[case]
    run = run_script(tmp_path, source, stdin=stdin)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    lines = [line for line in run.stdout.splitlines() if not line.startswith("first ")]
    assert lines == ["answer complete"], run.stdout


@pytest.mark.parametrize(
    ("source", "as_file", "safe"),
    [
        ('import codehop\ncodehop.ask("x")\n', True, False),
        ('def main():\n    pass\n\nif __name__ == "__main__":\n    main()\n', True, True),
        ("if '__main__' == __name__:\n    pass\n", True, True),
        ('if __name__ != "__main__":\n    pass\n', True, False),
        ("print(1)\n", False, True),
    ],
    ids=["unguarded", "guarded", "guard-reversed", "not-a-guard", "no-file"],
)
def test_main_reimport_safe(tmp_path: Path, source: str, as_file: bool, safe: bool) -> None:
    """`main_reimport_safe` read in the process whose `__main__` it judges (a file, or `python -c`)."""
    probe = "from codehop.index.pool import main_reimport_safe; print(main_reimport_safe())"
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    if as_file:
        script = tmp_path / "s.py"
        script.write_text(f"{probe}\nimport sys\nsys.exit(0)\n{source}")
        args = [sys.executable, str(script)]
    else:
        args = [sys.executable, "-c", probe]
    out = subprocess.run(args, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(safe)


def test_api_from_an_ipython_session(tmp_path: Path) -> None:
    """A notebook's kernel runs code as IPython does: `__main__` is a module with no file, so the
    forkserver pool is kept (and nothing is imported again). Guards the case; it passed before too."""
    pytest.importorskip("IPython")
    make_repo(tmp_path / "repo")
    code = BACKGROUND.format(body=ASK.format(repo="repo"))
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    run = subprocess.run(
        [sys.executable, "-m", "IPython", "--quick", "--no-banner", "--colors=NoColor", "-c", code],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=150,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert "Traceback" not in run.stdout + run.stderr
    assert run.stdout.splitlines()[-1] == "answer complete", run.stdout
