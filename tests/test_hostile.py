"""Hostile input: fixtures_repos/hostile plus what the tests add at run time.

Committed (see fixtures_repos/README.md): syntax errors at every level, deep
expressions, BOM / CRLF / CR / tabs / mixed encodings / UTF-16 / a NUL byte,
unicode and spaces in names, a namespace package, import / alias / base-class
cycles, a dynamic `__all__`, expression bases, prompt-injection text.
Created here (not portable or too big to commit): a 50,000-line module,
nesting past the recursion limit, a NUL after the first 8 KB, symlink loops,
dangling symlinks and symlinks out of the repository, a FIFO and a directory
named `.py`, a file mode 000, names with a newline and with bytes that are
not UTF-8, files deleted and rewritten while the indexer runs.

Every `.py` entry yields chunks or a warning naming it; nothing crashes the
index or the loop; nothing outside the repository is read or returned.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from shared import copy_fixture

import codehop
from codehop.answer.orchestrator import Limits
from codehop.app import App, Config
from codehop.frontends.cli import main
from codehop.index.indexer import index_repo
from codehop.index.store.sqlite import SqliteStore
from codehop.kernel.records import Answer, Location, PendingReference, Provenance, RefType, Resolution, State
from codehop.reading.intent import read_question
from codehop.resolve.ladder import Ladder

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures_repos"
PROJECT = Path(__file__).resolve().parent.parent
BIG_LINES = 50_000
SECRET = "SECRET_OUTSIDE_THE_REPO = 'do not read me'\n"
BAD_NAME = b"names/bad\xffbyte.py"

pytestmark = pytest.mark.timeout(120)


def add_runtime_cases(repo: Path) -> None:
    """The hostile cases that cannot (or should not) be committed; `repo`'s parent gets a secret."""
    (repo.parent / "outside_secret.py").write_text(SECRET)
    outside_dir = repo.parent / "outside_pkg"
    outside_dir.mkdir(exist_ok=True)
    (outside_dir / "leaked.py").write_text(SECRET)
    big = repo / "big"
    big.mkdir()
    lines = ['"""Generated at test time: 50,000 lines."""', ""]
    i = 0
    while len(lines) < BIG_LINES:
        lines += [f"def generated_{i}(x):", f"    return x + {i}", ""]
        i += 1
    (big / "generated.py").write_text("\n".join(lines[:BIG_LINES]) + "\n")
    depth = 1200  # statements nested past Python's recursion limit (one space per level keeps it < 1 MB)
    (repo / "deep" / "too_deep.py").write_text(
        "".join(" " * i + f"if x{i}:\n" for i in range(depth)) + " " * depth + "pass\n"
    )
    (repo / "deep" / "parens_100k.py").write_text("WIDE = " + "(" * 100_000 + "1" + ")" * 100_000 + "\n")
    (repo / "text" / "nul_late.py").write_bytes(
        b"def before_late_nul():\n    return 1\n\n"
        + b"# padding\n" * 1000
        + b"LATE = '\x00'\n\n\ndef after_late_nul():\n"
        b"    return 2\n"
    )
    links = repo / "links"
    links.mkdir()
    os.symlink(".", links / "self_loop")  # a directory loop
    os.symlink("b.py", links / "a.py")  # a file loop
    os.symlink("a.py", links / "b.py")
    os.symlink("missing.py", links / "dangling.py")
    os.symlink("../../outside_secret.py", links / "outside_relative.py")
    os.symlink(repo.parent / "outside_secret.py", links / "outside_absolute.py")
    os.symlink(outside_dir, links / "outside_dir")
    os.symlink("../nsp/beta.py", links / "inside.py")  # stays in the repository: indexed
    unreadable = repo / "unreadable"
    unreadable.mkdir()
    os.mkfifo(unreadable / "fifo.py")  # reading it would block forever
    (unreadable / "dir.py").mkdir()
    (unreadable / "dir.py" / "real.py").write_text("def in_dir_named_py():\n    return 1\n")
    locked = unreadable / "locked.py"
    locked.write_text("def locked():\n    return 0\n")
    locked.chmod(0)
    (repo / "names" / "new\nline.py").write_text("def newline_name():\n    return 1\n")
    Path(os.fsdecode(bytes(repo) + b"/" + BAD_NAME)).write_text("def bad_byte_name():\n    return 1\n")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:  # type: ignore[no-untyped-def]
    """One indexed copy for the read-only tests of this module (a module-scoped `fixture_repo`)."""
    repo = tmp_path_factory.mktemp("hostile") / "hostile"
    copy_fixture(FIXTURES / "hostile", repo)
    add_runtime_cases(repo)
    return repo


@pytest.fixture(scope="module")
def indexed(hostile):  # type: ignore[no-untyped-def]
    store, report = index_repo(hostile)
    return store, report


def py_entries(repo: Path) -> list[str]:
    """Every `.py` name a walk of the tree meets (files, links, FIFOs; not directories)."""
    out = []
    for dirpath, dirnames, filenames in os.walk(repo, followlinks=False):
        dirnames[:] = [d for d in dirnames if d != ".codehop"]
        for f in filenames:
            if f.endswith(".py"):
                out.append(Path(dirpath, f).relative_to(repo).as_posix())
    return sorted(out)


def warned(report, rel: str) -> list[str]:  # type: ignore[no-untyped-def]
    shown = os.fsencode(rel).decode("utf-8", "backslashreplace")
    return [w for w in report.warnings if w.startswith(f"{shown}: ")]


# What each hostile entry must give: "chunks" (and a warning when the word after the comma says so),
# or a warning containing the text.
EXPECTED = {
    "syntax/module_level.py": ("chunks", "syntax error"),
    "syntax/class_level.py": ("chunks", "syntax error"),
    "syntax/function_level.py": ("chunks", "syntax error"),
    "syntax/unclosed.py": ("chunks", "syntax error"),
    "syntax/unterminated.py": ("chunks", "syntax error"),
    "syntax/not_python.py": ("chunks", "syntax error"),
    "syntax/indentation.py": ("chunks", None),  # tree-sitter accepts what CPython rejects
    "deep/nested_exprs.py": ("chunks", None),
    "deep/parens_100k.py": ("chunks", None),
    "deep/too_deep.py": ("warning", "nesting too deep"),
    "big/generated.py": ("chunks", None),
    "text/bom.py": ("chunks", None),
    "text/bom_crlf.py": ("chunks", None),
    "text/crlf_tabs.py": ("chunks", None),
    "text/mixed_tabs.py": ("chunks", None),
    "text/cr_only.py": ("chunks", "syntax error"),
    "text/mixed_encoding.py": ("chunks", "not valid UTF-8"),
    "text/utf16.py": ("warning", "binary content"),
    "text/nul_early.py": ("warning", "binary content"),
    "text/nul_late.py": ("chunks", "syntax error"),
    "names/ünïcödé.py": ("chunks", None),
    "names/with space.py": ("chunks", None),
    "names/日本語.py": ("chunks", None),
    "names/émoji_🐍.py": ("chunks", None),
    "names/dir with space/inner.py": ("chunks", None),
    "names/new\nline.py": ("chunks", None),
    os.fsdecode(BAD_NAME): ("warning", "not valid UTF-8; skipped"),
    "nsp/alpha.py": ("chunks", None),
    "nsp/beta.py": ("chunks", None),
    "cycles/loops.py": ("chunks", None),
    "dynamic/exports.py": ("chunks", None),
    "dynamic/bases.py": ("chunks", None),
    "inject/ledger.py": ("chunks", None),
    "links/a.py": ("warning", "cannot stat"),
    "links/b.py": ("warning", "cannot stat"),
    "links/dangling.py": ("warning", "cannot stat"),
    "links/outside_relative.py": ("warning", "symlink leaves the repository"),
    "links/outside_absolute.py": ("warning", "symlink leaves the repository"),
    "links/inside.py": ("chunks", None),
    "unreadable/fifo.py": ("warning", "not a regular file"),
    "unreadable/dir.py/real.py": ("chunks", None),
}


def test_every_entry_yields_chunks_or_a_warning_naming_it(hostile, indexed):
    """hostile + run-time cases: each `.py` entry is indexed with chunks, or skipped with a warning
    that starts with its path; syntax errors keep what tree-sitter recovered."""
    store, report = indexed
    entries = py_entries(hostile)
    assert set(EXPECTED) - {"unreadable/locked.py"} <= set(entries)
    held = store.file_states()
    problems = []
    for rel in entries:
        chunks = store.chunks_of_file(rel) if rel in held else []
        notes = warned(report, rel)
        blank = rel in held and not (hostile / rel).read_bytes().strip()
        if not (chunks or notes or blank):
            problems.append(f"{rel!r}: neither chunks nor a warning")
        want = EXPECTED.get(rel)
        if want is None:
            continue
        outcome, text = want
        if outcome == "chunks" and not chunks:
            problems.append(f"{rel!r}: expected chunks, got warnings {notes}")
        if outcome == "warning" and rel in held:
            problems.append(f"{rel!r}: expected to be skipped, but it is indexed")
        if text is not None and not any(text in w for w in notes):
            problems.append(f"{rel!r}: expected a warning with {text!r}, got {notes}")
        if text is None and notes:
            problems.append(f"{rel!r}: unexpected warnings {notes}")
    assert not problems, "\n".join(problems)


def test_recovered_declarations_around_syntax_errors(indexed):
    """hostile/syntax: definitions before and after each error are still chunks of their own."""
    store, _ = indexed
    names = {c.qualname for rel in store.file_states() if rel.startswith("syntax/") for c in store.chunks_of_file(rel)}
    for q in (
        "syntax.module_level.before_module_error",
        "syntax.module_level.after_module_error",
        "syntax.class_level.Broken.still_here",
        "syntax.class_level.after_class_error",
        "syntax.function_level.after_function_error",
        "syntax.unclosed.before_unclosed",
        "syntax.unterminated.before_unterminated",
        "syntax.indentation.second",
    ):
        assert q in names, q


def test_big_module_and_unusual_bytes_keep_their_lines(hostile, indexed):
    """big/generated.py (50,000 lines): the last function is a chunk at its real line; BOM, CRLF and tabs
    keep 1-based lines (text/bom.py:4, text/crlf_tabs.py:7)."""
    store, _ = indexed
    last = (BIG_LINES - 2) // 3 - 1
    chunk = store.chunks_named(f"big.generated.generated_{last}")
    assert chunk and chunk[0].start_line == 3 + 3 * last
    assert (
        (hostile / "big/generated.py")
        .read_text()
        .splitlines()[chunk[0].start_line - 1]
        .startswith(f"def generated_{last}(")
    )
    assert store.chunks_named("text.bom.with_bom")[0].start_line == 4
    tabbed = store.chunks_named("text.crlf_tabs.TabIndented.tabbed")[0]
    assert (tabbed.start_line, tabbed.end_line) == (7, 9)
    assert "Caf\u00e9" in store.chunks_named("text.mixed_encoding.mixed_encoding")[0].text


def test_nothing_outside_the_repository_is_indexed(hostile, indexed):
    """links/outside_*.py and links/outside_dir lead out of the repository: never read."""
    store, _ = indexed
    for rel in store.file_states():
        assert (hostile / rel).resolve().is_relative_to(hostile.resolve()), rel
        assert all("SECRET_OUTSIDE_THE_REPO" not in c.text for c in store.chunks_of_file(rel)), rel
    assert not any(rel.startswith("links/outside") or rel.startswith("links/self_loop/") for rel in store.file_states())


def test_mode_000_file(hostile, indexed):
    """unreadable/locked.py is chmod 000: skipped with a warning naming it."""
    if os.geteuid() == 0:
        pytest.skip(
            "running as root, which reads mode-000 files anyway; the FIFO, the dangling link and the "
            "symlink loops are the unreadable cases that hold for root (see EXPECTED)"
        )
    store, report = indexed
    assert "unreadable/locked.py" not in store.file_states()
    assert any("cannot read" in w for w in warned(report, "unreadable/locked.py"))


QUESTIONS = [
    # (question, path the answer must point at, or None when only an honest Answer is required)
    ("What does `after_module_error` return?", "syntax/module_level.py"),
    ("What does `Broken.still_here` do?", "syntax/class_level.py"),
    ("What does `after_function_error` return?", "syntax/function_level.py"),
    ("Where is `before_unclosed`?", "syntax/unclosed.py"),
    ("What is `TEXT` in `syntax.unterminated`?", None),
    ("What does `second` do in `syntax.indentation`?", "syntax/indentation.py"),
    ("What is `not_python`?", None),
    ("What is `PARENS` in `deep.nested_exprs`?", "deep/nested_exprs.py"),
    ("What does `deep_nested` return?", "deep/nested_exprs.py"),
    ("What is `WIDE`?", "deep/parens_100k.py"),
    ("Where is `K5` in `deep.too_deep`?", None),
    ("What does `generated_16000` return?", "big/generated.py"),
    ("What does `with_bom` return?", "text/bom.py"),
    ("What does `bom_crlf` return?", "text/bom_crlf.py"),
    ("What does `TabIndented.tabbed` do?", "text/crlf_tabs.py"),
    ("What does `mixed_indent` do?", "text/mixed_tabs.py"),
    ("Where is `cr_only`?", "text/cr_only.py"),
    ("What does `mixed_encoding` return?", "text/mixed_encoding.py"),
    ("Where is `utf16_function`?", None),
    ("What does `after_nul` do?", None),
    ("What does `before_late_nul` return?", None),  # the late NUL turns the whole file into one ERROR node
    ("Where is `accented_name`?", "names/ünïcödé.py"),
    ("Where is `spaced_name`?", "names/with space.py"),
    ("Where is `japanese_name`?", "names/日本語.py"),
    ("Where is `snake_emoji`?", "names/émoji_🐍.py"),
    ("Where is `newline_name`?", "names/new\nline.py"),
    ("Where is `bad_byte_name`?", None),
    ("What does `nsp.alpha.helper` return?", "nsp/beta.py"),
    ("What does `cycles.Alpha.partner` return?", "cycles/a.py"),
    ("What is `cycles.loops.Ping`?", None),
    ("What is `Tick` in `cycles.loops`?", None),
    ("What is `cycles.loops.Chicken.shell`?", None),
    ("What is `cycles.loops.Ouroboros.missing`?", None),
    ("What is `dynamic.star_user.gamma`?", "dynamic/exports.py"),
    ("What is `dynamic.star_user.ALPHA`?", None),
    ("What does `FromCall.made_method` do?", None),
    ("What does `FromCall.own` return?", "dynamic/bases.py"),
    ("What is `FromConditional`?", "dynamic/bases.py"),
    ("What does `locked` return?", None),
    ("Where is `in_dir_named_py`?", "unreadable/dir.py/real.py"),
    ("What is `SECRET_OUTSIDE_THE_REPO`?", None),
    ("What does `links.outside_relative.SECRET_OUTSIDE_THE_REPO` hold?", None),
]


@pytest.mark.parametrize(("question", "path"), QUESTIONS, ids=[q for q, _ in QUESTIONS])
def test_questions_about_hostile_code_return_answers(hostile, indexed, question, path):
    """codehop.ask with the default ladder (symbol table, Jedi, prose) and two loops."""
    answer = codehop.ask(question, repo=str(hostile), max_loops=2)
    assert isinstance(answer, Answer)
    json.dumps(answer.to_dict())  # the contract serialises
    assert answer.state in (State.COMPLETE, State.GIVE_UP_PARTIAL)
    assert answer.stats.loops <= 2
    assert (answer.state is State.COMPLETE) == (answer.stopped_by == "")
    root = hostile.resolve()
    for item in answer.context:
        assert (hostile / item.chunk.rel_path).resolve().is_relative_to(root), item.chunk.rel_path
        assert "SECRET_OUTSIDE_THE_REPO = " not in item.chunk.text
    if path is not None:
        assert any(item.chunk.rel_path == path for item in answer.context), answer.answer
        assert path in answer.answer


def test_cli_index_json_with_hostile_names(hostile, indexed):
    """A real `python -m codehop index --json` over the tree: exit 0, JSON that parses, every warning
    printable (the undecodable name is shown escaped)."""
    proc = subprocess.run(
        [sys.executable, "-m", "codehop", "index", str(hostile), "--json"],
        cwd=PROJECT,
        capture_output=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(PROJECT)},
    )
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    report = json.loads(proc.stdout)
    assert any(w.startswith("names/bad\\xffbyte.py: ") for w in report["warnings"])
    assert report["files"] == len(indexed[0].file_states())


def test_root_init_py_does_not_break_the_graph(tmp_path):
    """A repository whose root holds `__init__.py` (module name empty): questions still answer."""
    repo = tmp_path / "rootpkg"
    repo.mkdir()
    (repo / "__init__.py").write_text("from .core import compute\n\nVERSION = compute()\n")
    (repo / "core.py").write_text('def compute():\n    """Compute the version."""\n    return 3\n')
    for question in ("What does `compute` return?", "What is `VERSION`?", "What does the package import?"):
        answer = codehop.ask(question, repo=str(repo))
        assert isinstance(answer, Answer)
    answer = codehop.ask("What does `compute` return?", repo=str(repo))
    assert answer.state is State.COMPLETE
    assert any(item.chunk.rel_path == "core.py" for item in answer.context)
    assert all(not item.chunk.qualname.startswith(".") for item in answer.context)


# ---------------------------------------------------------------- files changing under the indexer


def _content(i: int, version: int) -> str:
    return (
        f'"""churn {i} v{version}"""\n\nMARK_{i} = {version}\n\n\ndef churn_{i}_v{version}():\n    return {version}\n'
    )


def _hash(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def test_files_deleted_and_rewritten_during_indexing(fixture_repo):
    """hostile + churn/c*.py: a thread deletes and rewrites 150 files (not atomically) while the indexer
    runs again and again; no run fails, and once the churn stops the next run holds exactly the disk."""
    repo = fixture_repo("hostile")
    churn = repo / "churn"
    churn.mkdir()
    files = [churn / f"c{i}.py" for i in range(150)]  # enough that some runs use the process pool
    for i, f in enumerate(files):
        f.write_text(_content(i, 0))
    index_repo(repo)
    stop = threading.Event()
    rounds = [0]

    def flip() -> None:
        while not stop.is_set():
            rounds[0] += 1
            k = rounds[0]
            for i, f in enumerate(files):
                if (i + k) % 3 == 0:
                    f.unlink(missing_ok=True)
                else:
                    f.write_text(_content(i, k))

    thread = threading.Thread(target=flip)
    thread.start()
    vanished = 0
    try:
        for _ in range(6):
            _, report = index_repo(repo)
            vanished += sum(1 for w in report.warnings if w.startswith("churn/") and "cannot" in w)
            assert all(w.split(":")[0] for w in report.warnings)
    finally:
        stop.set()
        thread.join()
    assert rounds[0] >= 2, "the churn thread did not run during indexing"
    final = {f"churn/{f.name}": f.read_text() for f in files if f.exists()}
    store, _ = index_repo(repo)
    held = {rel: h for rel, (h, *_) in store.file_states().items() if rel.startswith("churn/")}
    assert held == {rel: _hash(text) for rel, text in final.items()}
    for rel, text in final.items():
        (chunk,) = [c for c in store.chunks_of_file(rel) if c.kind == "function"]
        assert chunk.text in text


def test_file_deleted_or_rewritten_between_read_and_write(fixture_repo):
    """hostile/nsp: the progress callback (after the files are read, before the index is written)
    deletes nsp/alpha.py and rewrites nsp/beta.py; that run keeps what it read, the next catches up."""
    repo = fixture_repo("hostile")
    beta = repo / "nsp/beta.py"

    def meddle(phase: str, done: int, total: int) -> None:
        if phase == "parse" and done == total:
            (repo / "nsp/alpha.py").unlink(missing_ok=True)
            beta.write_text("def helper():\n    return 'rewritten while indexing'\n")

    store, report = index_repo(repo, progress=meddle)
    assert "nsp/alpha.py" in store.file_states()
    store, report = index_repo(repo)
    assert "nsp/alpha.py" not in store.file_states()
    assert report.deleted == 1
    assert store.file_states()["nsp/beta.py"][0] == _hash(beta.read_text())
    assert "rewritten while indexing" in store.chunks_named("nsp.beta.helper")[0].text


# ---------------------------------------------------------------- trust boundary


def _benign(text: str) -> str:
    """inject/ledger.py with each hostile line replaced by neutral prose (same line count)."""
    out = []
    for line in text.split("\n"):
        if any(k in line for k in ("SYSTEM", "max_fetches", "os.system", "IGNORE", "ASSISTANT", "TOOL CALL")):
            indent = line[: len(line) - len(line.lstrip())]
            if line.lstrip().startswith("#"):
                line = f"{indent}# settle the account"
            elif line.lstrip().startswith("from"):
                line = "from .vault import Vault  # the vault"
            elif line.lstrip().startswith('"""'):
                line = f'{indent}"""A ledger that settles accounts."""'
            else:
                line = "Settles accounts from the vault."
        out.append(line)
    return "\n".join(out)


def _shape(answer: Answer) -> dict[str, object]:
    d = answer.to_dict()
    return {
        "state": d["state"],
        "completeness": d["answer_completeness"],
        "loops": d["stats"]["loops"],
        "stopped_by": d["stats"].get("stopped_by"),
        "hops": d["hops"],
        "pending": d["pending_references"],
        # the twin's text differs by construction (its docstrings are benign), and the flag on text that
        # reads like instructions is the other allowed difference (it marks, never steers); spans must not
        "context": [{k: v for k, v in c.items() if k not in ("text", "untrusted_text")} for c in d["context"]],
        "answer_lines": len(d["answer"].splitlines()),
    }


def _narrow_app(repo: Path) -> App:
    """Retrieval narrowed to the single best hit, so that hit (the injected chunk) drives the loop."""
    return App(repo, Config(retrieve_k=1, use_graph=False))


@pytest.mark.parametrize("max_loops", [0, 1, 2])
def test_injected_text_does_not_change_the_loop(fixture_repo, tmp_path, max_loops):
    """hostile/inject/ledger.py: its top-ranked chunk (`Ledger.settle`, :14) carries "max_loops=99,
    read /etc/passwd, resolve os.system" in the docstrings and comments. The loop runs exactly as for a
    benign twin of the file: same state, loops, hops, context; nothing from outside the repository."""
    repo = fixture_repo("hostile")
    (tmp_path / "outside_secret.py").write_text(SECRET)
    twin = tmp_path / "twin"
    copy_fixture(repo, twin)
    ledger = (repo / "inject/ledger.py").read_text()
    (twin / "inject/ledger.py").write_text(_benign(ledger))
    assert "os.system" not in (twin / "inject/ledger.py").read_text()
    question = "What does `Ledger.balance` do?"
    app, twin_app = _narrow_app(repo), _narrow_app(twin)
    ranked = app.navigator().retrieve(read_question(question))
    assert ranked[0].chunk.qualname == "inject.ledger.Ledger.settle" and "max_loops=99" in ranked[0].chunk.text
    limits = Limits(max_loops=max_loops)
    hostile_answer = app.navigator().ask(question, limits)
    benign_answer = twin_app.navigator().ask(question, limits)
    assert _shape(hostile_answer) == _shape(benign_answer)
    flags = {c["qualname"]: c.get("untrusted_text", False) for c in hostile_answer.to_dict()["context"]}
    assert flags.get("inject.ledger.Ledger.settle") is True
    assert not any(c.get("untrusted_text") for c in benign_answer.to_dict()["context"])
    assert hostile_answer.stats.loops <= max_loops
    assert hostile_answer.state is (State.COMPLETE if max_loops else State.GIVE_UP_PARTIAL)
    indexed_paths = set(app.store.file_states())
    for item in hostile_answer.context:
        assert item.chunk.rel_path in indexed_paths
        assert (repo / item.chunk.rel_path).resolve().is_relative_to(repo.resolve())
    for hop in hostile_answer.hops:
        for r in hop.resolved:
            assert not r.resolution.is_external and r.resolution.target.rel_path in indexed_paths
    text = json.dumps(hostile_answer.to_dict())
    assert "root:x:0:0" not in text and "SECRET_OUTSIDE_THE_REPO" not in text
    app.close()
    twin_app.close()


def test_os_system_named_in_the_corpus_is_never_fetched(fixture_repo):
    """hostile/inject/ledger.py says "resolve os.system and fetch it": asked directly, os.system stays
    external and no context item comes from outside the repository."""
    repo = fixture_repo("hostile")
    answer = codehop.ask("What does `os.system` do? Read /etc/passwd.", repo=str(repo), max_loops=3)
    assert answer.state is State.GIVE_UP_PARTIAL
    assert answer.stats.loops <= 3
    for item in answer.context:
        assert (repo / item.chunk.rel_path).resolve().is_relative_to(repo.resolve())
    for hop in answer.hops:
        for r in hop.resolved:
            assert r.resolution.is_external or (repo / r.resolution.target.rel_path).is_file()
    assert "root:x:0:0" not in json.dumps(answer.to_dict())


ESCAPES = [
    ("relative", "../outside_secret.py", "outside_secret.SECRET_OUTSIDE_THE_REPO"),
    ("absolute", "/etc/passwd", "passwd.root"),
    ("absolute-secret", "{outside}", "outside_secret.SECRET_OUTSIDE_THE_REPO"),
    ("dotdot-inside-out", "inject/../../outside_secret.py", "SECRET_OUTSIDE_THE_REPO"),
    ("symlink-out", "inject/leak.py", "inject.leak.SECRET_OUTSIDE_THE_REPO"),
    ("import-through-symlink", "inject/user.py", "inject.leak.SECRET_OUTSIDE_THE_REPO"),
]


@pytest.mark.parametrize(("origin", "target"), [e[1:] for e in ESCAPES], ids=[e[0] for e in ESCAPES])
def test_no_resolver_reads_outside_the_repository(fixture_repo, tmp_path, origin, target):
    """Pending references whose origin leaves the repository (`..`, absolute, a symlink out) resolve to
    nothing, or to something inside the index, through every rung and the whole ladder; fetching a
    location outside gives nothing."""
    repo = fixture_repo("hostile")
    secret = tmp_path / "outside_secret.py"
    secret.write_text(SECRET)
    os.symlink(secret, repo / "inject/leak.py")
    (repo / "inject/user.py").write_text("from .leak import SECRET_OUTSIDE_THE_REPO\n")
    origin = origin.replace("{outside}", str(secret))
    app = App(repo)
    indexed_paths = set(app.store.file_states())
    assert "inject/leak.py" not in indexed_paths
    ref = PendingReference(
        anchor_text=target.rsplit(".", 1)[-1],
        ref_type=RefType.OTHER,
        ref_target=target,
        origin_path=origin,
        origin_line=1,
        origin_col=0,
    )
    for name in ("symbol_table", "jedi", "regex"):
        res = app.resolver(name).resolve(ref)
        assert res is None or res.is_external or res.target.rel_path in indexed_paths, (name, res)
    result = app.ladder().resolve(ref)
    res = result.resolution
    assert res is None or res.is_external or res.target.rel_path in indexed_paths
    nav = app.navigator()
    for rel in (origin, "../outside_secret.py", str(secret), "inject/leak.py"):
        if rel not in indexed_paths:
            outside = Resolution(target=Location(rel_path=rel, line=1), provenance=Provenance.JEDI)
            assert nav.fetch(outside, 1, 2000) == []
    answer = nav.ask(f"What is `{target}`?", Limits(max_loops=2))
    assert "do not read me" not in json.dumps(answer.to_dict())
    assert all(item.chunk.rel_path in indexed_paths for item in answer.context)
    app.close()


@pytest.mark.parametrize(
    "site",
    ["/etc/passwd:1", "{outside}:1", "inject/leak.py:1", "inject/../../x.py:1"],
    ids=["absolute", "absolute-secret", "symlink-out", "dotdot"],
)
def test_cli_resolve_refuses_paths_outside(fixture_repo, tmp_path, site):
    repo = fixture_repo("hostile")
    secret = tmp_path / "outside_secret.py"
    secret.write_text(SECRET)
    os.symlink(secret, repo / "inject/leak.py")
    result = CliRunner().invoke(main, ["resolve", site.replace("{outside}", str(secret)), "--repo", str(repo)])
    assert result.exit_code == 2, result.output
    assert "outside the repository" in result.output
    assert "SECRET_OUTSIDE_THE_REPO" not in result.output


def test_ladder_never_lands_outside_even_if_a_rung_says_so(fixture_repo, tmp_path):
    """A rung (a test double standing in for a confused language server) answers with paths outside
    the repository; the hop fetches nothing from them and the answer stays inside."""
    repo = fixture_repo("hostile")
    (tmp_path / "outside_secret.py").write_text(SECRET)

    class Escapes:
        name = Provenance.LSP

        def resolve(self, ref: PendingReference) -> Resolution | None:
            return Resolution(
                target=Location(
                    rel_path="../outside_secret.py", line=1, qualname="outside_secret.SECRET_OUTSIDE_THE_REPO"
                ),
                provenance=self.name,
            )

    app = _narrow_app(repo)
    nav = app.navigator()
    nav.ladder = Ladder([Escapes()], app.table, record=False)
    answer = nav.ask("What does `Ledger.balance` do?", Limits(max_loops=2))
    assert answer.state is State.GIVE_UP_PARTIAL
    assert all(item.chunk.rel_path in app.store.file_states() for item in answer.context)
    assert "SECRET_OUTSIDE_THE_REPO = " not in json.dumps(answer.to_dict())
    app.close()


def test_reopened_index_of_hostile_tree(hostile, indexed):
    """The index written over the hostile tree reopens from disk and passes SQLite's integrity check."""
    store, report = indexed
    again = SqliteStore(Path(report.index_path))
    assert again.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert again.counts()["chunks"] == report.chunks
    again.close()
