"""A repository is data: codehop writes, renames and reads nothing outside it (issue 29).

Every case runs the real `codehop` command in a subprocess on a copy of `fixtures_repos/reexport_chain`
(`shop/api/cart.py:4` declares `Cart`) into which a hostile link or file is planted, and checks
what happened on disk outside the repository.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest


def codehop(*args: str, cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CODEHOP_INDEX_DIR"}
    return subprocess.run(
        [sys.executable, "-m", "codehop", *args], capture_output=True, text=True, timeout=timeout, cwd=cwd, env=env
    )


def _tree(folder: Path) -> dict[str, tuple[int, int, bytes]]:
    """Every file under `folder`: (inode, mtime, first bytes): what a stray write or rename would change."""
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_file() and not p.is_symlink():
            st = p.stat()
            out[str(p.relative_to(folder))] = (st.st_ino, st.st_mtime_ns, p.read_bytes()[:200])
    return out


def _rollback_sqlite(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x)")
    conn.execute("INSERT INTO t VALUES (1)")
    conn.commit()
    conn.close()


@pytest.mark.slow
def test_a_codehop_folder_linked_elsewhere_is_refused(fixture_repo, tmp_path):  # type: ignore[no-untyped-def]
    """`.codehop` -> another folder holding an `index.db`: nothing written there, nothing renamed, exit 3."""
    repo = fixture_repo("reexport_chain")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "index.db").write_bytes(b"not an index, someone's file")
    (elsewhere / "notes.txt").write_text("keep")
    before = _tree(elsewhere)
    (repo / ".codehop").symlink_to(elsewhere)
    for args in (("index", str(repo)), ("ask", "Where is `Cart` defined?", "--repo", str(repo))):
        out = codehop(*args)
        assert out.returncode == 3, out.stderr
        assert "symbolic link" in out.stderr and ".codehop" in out.stderr
        assert _tree(elsewhere) == before
        assert sorted(p.name for p in elsewhere.iterdir()) == ["index.db", "notes.txt"]


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["index.db", "index.db-wal", "index.db-shm", "index.db-verified", "walk-memo.json"], ids=str
)
def test_an_index_file_linked_elsewhere_is_refused(fixture_repo, tmp_path, name):  # type: ignore[no-untyped-def]
    """`.codehop/<name>` -> a file outside (another repository's index, an unrelated SQLite file in
    rollback mode): the file is neither overwritten, renamed nor switched to WAL; exit 3."""
    repo = fixture_repo("reexport_chain")
    other = tmp_path / "other"
    other.mkdir()
    _rollback_sqlite(other / "data.db")
    before = _tree(other)
    (repo / ".codehop").mkdir()
    (repo / ".codehop" / name).symlink_to(other / "data.db")
    out = codehop("index", str(repo))
    assert out.returncode == 3, out.stderr
    assert "symbolic link" in out.stderr and name in out.stderr
    assert _tree(other) == before
    assert (other / "data.db").read_bytes()[18:20] == b"\x01\x01"  # still a rollback-journal database


@pytest.mark.slow
def test_a_fifo_planted_as_the_index_is_refused_without_blocking(fixture_repo):  # type: ignore[no-untyped-def]
    repo = fixture_repo("reexport_chain")
    (repo / ".codehop").mkdir()
    os.mkfifo(repo / ".codehop" / "index.db")
    out = codehop("index", str(repo), timeout=60)
    assert out.returncode == 3, out.stderr
    assert "not a regular file" in out.stderr


# ---- ignore files: read only when regular, inside, small; matched in linear time ----------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "plant", "says"),
    [
        (".gitignore", lambda p, out: p.symlink_to(out), "leaving the repository"),
        (".codehopignore", lambda p, out: p.symlink_to("/dev/zero"), "leaving the repository"),
        (".gitignore", lambda p, out: os.mkfifo(p), "not a regular file"),
        (".codehopignore", lambda p, out: p.write_bytes(b"#" * (1 << 20) + b"\n"), "1048576-byte cap"),
    ],
    ids=["link-out", "dev-zero", "fifo", "over-cap"],
)
def test_an_ignore_file_that_may_not_be_read_is_refused(fixture_repo, tmp_path, name, plant, says):  # type: ignore[no-untyped-def]
    """A `.gitignore` linked to a file outside (never opened: its atime stays), to /dev/zero, a FIFO,
    or a `.codehopignore` over 1 MiB: exit 2 naming the file, in seconds, nothing read."""
    repo = fixture_repo("reexport_chain")
    outside = tmp_path / "secret.txt"
    outside.write_text("*.py\n")
    os.utime(outside, ns=(1_000_000_000, 1_000_000_000))
    plant(repo / "shop" / name if name == ".gitignore" else repo / name, outside)
    out = codehop("index", str(repo), timeout=60)
    assert out.returncode == 2, out.stderr
    assert name in out.stderr and says in out.stderr, out.stderr
    assert outside.stat().st_atime_ns == 1_000_000_000  # never opened


@pytest.mark.slow
def test_a_link_to_an_ignore_file_inside_is_read(fixture_repo):  # type: ignore[no-untyped-def]
    repo = fixture_repo("reexport_chain")
    (repo / "rules.txt").write_text("app.py\n")
    (repo / ".gitignore").symlink_to("rules.txt")
    out = codehop("index", str(repo), "--json")
    assert out.returncode == 0, out.stderr
    assert '"files": 4' in out.stdout


@pytest.mark.slow
def test_a_pathological_pattern_is_matched_in_linear_time(fixture_repo):  # type: ignore[no-untyped-def]
    """`*a*a*a*a*a*a*a*a*a*a*a*a*b` against a folder named with 32 a's: 13 s with a backtracking
    matcher, here a whole `codehop index` in well under its 20 s timeout (the match itself: µs)."""
    repo = fixture_repo("reexport_chain")
    (repo / ".gitignore").write_text("*a*a*a*a*a*a*a*a*a*a*a*a*b\n")
    deep = repo / ("a" * 32) / ("a" * 40)
    deep.mkdir(parents=True)
    (deep / "mod.py").write_text("X = 1\n")
    (repo / ("a" * 31 + "b")).mkdir()
    (repo / ("a" * 31 + "b") / "gone.py").write_text("Y = 1\n")
    out = codehop("index", str(repo), "--json", timeout=20)
    assert out.returncode == 0, out.stderr
    assert '"files": 6' in out.stdout  # the five of the fixture and mod.py; gone.py ignored


_GIT_CASES = [
    ["*.py", "!keep.py"],
    ["build/", "a/**/b", "!a/x/y/b"],
    ["/top.py", "docs/*.py", "[a-c]z.py"],
    ["*", "!*/", "!*.py", "sub/*", "!sub/keep.py"],
    ["gen/**", "**/deep/*.py", "x?y.py", "lit[.py"],
    ["a*b*c.py", "[!a]x.py", "\\#hash.py", "trail.py   "],
]
_GIT_PATHS = [
    "a.py", "build/x.py", "src/build/y.py", "docs/a.py", "docs/sub/a.py", "a/b/c.py", "a/x/y/b/c.py", "gen/z.py",
    "q/gen/z.py", "keep.py", "xzy.py", "bx.py", "ax.py", "azbzc.py", "deep/q.py", "w/deep/q.py", "#hash.py",
    "trail.py", "sub/keep.py", "sub/o.py", "bz.py", "lit[.py", "top.py", "s/top.py",
]  # fmt: skip


@pytest.mark.parametrize("patterns", _GIT_CASES, ids=lambda p: " ".join(p))
def test_ignore_patterns_agree_with_git(tmp_path, patterns):  # type: ignore[no-untyped-def]
    """The matcher against git itself (`git status --ignored`), file by file, folders pruned as the walk does."""
    from codehop.index.ignore import IgnoreSpec

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("\n".join(patterns) + "\n")
    for rel in _GIT_PATHS:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    status = subprocess.run(
        ["git", "-C", str(tmp_path), "status", "--porcelain", "--untracked-files=all"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    shown = {line[3:] for line in status.splitlines()}
    spec = IgnoreSpec(patterns)
    for rel in _GIT_PATHS:
        names = rel.split("/")
        ours = any(spec.match("/".join(names[:i]), True) for i in range(1, len(names))) or spec.match(rel, False)
        assert ours == (rel not in shown), rel


# ---- change detection a restore cannot fool -------------------------------------------------------

_RESTORE_SCRIPT = """
import json, os, sys
from codehop.app import app_for
repo = sys.argv[1]
cart = os.path.join(repo, "shop", "api", "cart.py")
def where(name):
    hits = [(c.rel_path, c.qualname) for c, _ in app_for(repo).search(name, k=20)]
    return sorted(q for _, q in hits if q.split(".")[-1] == name)
print(json.dumps(where("Cart")))
st = os.stat(cart)
text = open(cart).read()
with open(cart, "w") as fh:  # same size, same mtime put back: what cp -p / rsync -a / tar x leave
    fh.write(text.replace("class Cart:", "class Kart:"))
os.utime(cart, ns=(st.st_atime_ns, st.st_mtime_ns))
assert os.stat(cart).st_size == st.st_size and os.stat(cart).st_mtime_ns == st.st_mtime_ns
print(json.dumps(where("Cart")))
print(json.dumps(where("Kart")))
"""


@pytest.mark.slow
def test_a_same_size_rewrite_with_its_mtime_put_back_is_read_again(fixture_repo):  # type: ignore[no-untyped-def]
    """fixtures_repos/reexport_chain, `shop/api/cart.py:4` `class Cart` rewritten as `class Kart` (same
    size) with the mtime restored: a warm process (the servers' path) and a new `codehop index` both
    read it again; `Cart` is no longer answered from it."""
    repo = fixture_repo("reexport_chain")
    out = subprocess.run(
        [sys.executable, "-c", _RESTORE_SCRIPT, str(repo)], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    before, after, renamed = out.stdout.splitlines()
    assert "shop.api.cart.Cart" in before
    assert "shop.api.cart.Cart" not in after
    assert "shop.api.cart.Kart" in renamed
    # and a new process, through the quick no-change path of `codehop index`, after one more restore
    cart = repo / "shop" / "api" / "cart.py"
    st = cart.stat()
    cart.write_text(cart.read_text().replace("class Kart:", "class Cart:"))
    os.utime(cart, ns=(st.st_atime_ns, st.st_mtime_ns))
    done = codehop("index", str(repo), "--json")
    assert done.returncode == 0, done.stderr
    assert '"parsed": 1' in done.stdout
    ask = codehop("ask", "Where is `Cart` defined?", "--repo", str(repo), "--json")
    assert ask.returncode == 0, ask.stderr
    assert "shop/api/cart.py" in ask.stdout


# ---- every failure leaves nothing behind; a full disk says so -------------------------------------


def _medium_tree(root: Path, files: int = 300) -> Path:
    """`files` modules of ten small classes each (about 2 MB of index): a build that takes a while."""
    for i in range(files):
        pkg = root / f"pkg{i % 10}"
        pkg.mkdir(parents=True, exist_ok=True)
        body = "".join(
            f'class C{i}_{j}(object):\n    """Class {j} of module {i}."""\n\n    def run_{j}(self, x):\n'
            f"        return helper_{j}(x) + {j}\n\n\ndef helper_{j}(x):\n    return x * {j}\n\n\n"
            for j in range(10)
        )
        (pkg / f"mod{i}.py").write_text(body)
    (root / "pyproject.toml").write_text("[project]\nname = 'medium'\n")
    return root


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".tmp-" in p.name or p.name.startswith(".probe-"))


@pytest.mark.slow
@pytest.mark.parametrize("signum", [2, 15, 1], ids=["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_build_interrupted_by_a_signal_leaves_no_temporary_file(tmp_path, signum):  # type: ignore[no-untyped-def]
    """A full build stopped by Ctrl-C, SIGTERM or SIGHUP once its `index.db.tmp-<pid>` exists: the
    process exits (128 + the signal) and removes it (before, SIGTERM and SIGHUP left it for the next
    run to find)."""
    import time

    repo = _medium_tree(tmp_path / "medium")
    idx = repo / ".codehop"
    proc = subprocess.Popen([sys.executable, "-m", "codehop", "index", str(repo)], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not (idx.is_dir() and any(p.name.startswith("index.db.tmp-") for p in idx.iterdir())):
        assert proc.poll() is None, "the build finished before it could be interrupted"
        assert time.monotonic() < deadline
        time.sleep(0.01)
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=120)
    if proc.returncode == 0:
        pytest.skip("the build finished before the signal arrived")
    assert proc.returncode == 128 + signum, err
    assert _leftovers(idx) == [], err


_TINY_FS = """
set -e
mount -t tmpfs -o size=256k tmpfs "$1"
set +e
"$2" -m codehop index "$3" --index-dir "$1/idx"
echo "EXIT $?"
ls -a "$1/idx"
"""


@pytest.mark.slow
@pytest.mark.parametrize("how", ["tmpfs", "rlimit", "rlimit-update"])
def test_a_full_disk_says_so_and_leaves_nothing(tmp_path, how):  # type: ignore[no-untyped-def]
    """The index folder on a real 256 KiB tmpfs (mounted in a private mount namespace, when this
    machine allows it), or the process under a 256 KiB RLIMIT_FSIZE (EFBIG, a real file size
    limit): exit 3, the folder and "no space left" in the message, no temporary file left (before:
    "the index could not be read: cannot rollback - no transaction is active" and the temp file)."""
    import resource
    import shutil

    repo = _medium_tree(tmp_path / "medium")
    if how == "tmpfs":
        unshare = shutil.which("unshare")
        mnt = tmp_path / "mnt"
        mnt.mkdir()
        if unshare is None:
            pytest.skip("unshare is not installed")
        out = subprocess.run(
            [
                unshare,
                "-m",
                "--propagation",
                "private",
                "sh",
                "-c",
                _TINY_FS,
                "sh",
                str(mnt),
                sys.executable,
                str(repo),
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        if "EXIT" not in out.stdout:
            pytest.skip(f"cannot mount a tmpfs here: {out.stderr.strip()[:200]}")
        code = int(out.stdout.split("EXIT ")[1].split()[0])
        listing = out.stdout.split("EXIT ")[1].split()[1:]
        idx = f"{mnt}/idx"
    else:
        idx_dir = tmp_path / "idx"
        if how == "rlimit-update":  # an index built without the limit, then an update of every file
            built = codehop("index", str(repo), "--index-dir", str(idx_dir))
            assert built.returncode == 0, built.stderr
            for p in repo.rglob("mod*.py"):
                p.write_text(p.read_text().replace("return x *", "return x **") + "\n\nEXTRA = 1\n")

        def limit() -> None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (256 << 10, 256 << 10))

        out = subprocess.run(
            [sys.executable, "-m", "codehop", "index", str(repo), "--index-dir", str(idx_dir)],
            capture_output=True,
            text=True,
            timeout=300,
            preexec_fn=limit,
        )
        code = out.returncode
        listing = [p.name for p in idx_dir.iterdir()]
        idx = str(idx_dir)
    assert code == 3, out.stderr
    assert "no space left" in out.stderr and idx in out.stderr, out.stderr
    assert "Traceback" not in out.stderr
    if how == "rlimit-update":  # rolled back: the old index still opens, whole
        assert not [n for n in listing if ".tmp-" in n], listing
        conn = sqlite3.connect(f"{idx}/index.db")
        assert conn.execute("SELECT count(*) FROM files").fetchone()[0] == 300
        assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        conn.close()
        return
    assert not [n for n in listing if ".tmp-" in n or n.startswith("index.db")], listing


# ---- a damaged index in the Python API --------------------------------------------------------------

_API_SCRIPT = """
import sqlite3, sys
import codehop
from codehop.api import index
from codehop.kernel.errors import CodehopError
repo = sys.argv[1]
db = repo + "/.codehop/index.db"
index(repo)
codehop.ask("Where is `shop.Cart` defined?", repo=repo)  # a warm session, as a script keeps one

def zero(table):
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    pages = [p for (p,) in conn.execute("SELECT pageno FROM dbstat WHERE name=?", (table,))]
    conn.close()
    with open(db, "r+b") as fh:
        for p in pages:
            fh.seek((p - 1) * size)
            fh.write(bytes(size))

for table in ("chunks_fts_data", "chunks"):
    zero(table)
    try:
        answer = codehop.ask("Where is `shop.Cart` defined?", repo=repo)
    except CodehopError as exc:
        print("CODEHOP", table, exc.message)
        continue
    print("ANSWER", table, any(i.chunk.rel_path == "shop/api/cart.py" for i in answer.context))
with open(db, "r+b") as fh:  # a header that is not SQLite's
    fh.write(b"garbage" * 20)
print("INDEX", index(repo).rebuilt)
"""


@pytest.mark.slow
def test_the_api_repairs_a_damaged_index_as_the_cli_does(fixture_repo):  # type: ignore[no-untyped-def]
    """fixtures_repos/reexport_chain: `codehop.ask` from a plain script, on an index whose full-text
    pages, then chunk pages, are zeroed under a warm session: answered after the index is moved aside
    and rebuilt (before: a raw sqlite3.DatabaseError); `codehop.index` on a garbage header rebuilds."""
    repo = fixture_repo("reexport_chain")
    out = subprocess.run([sys.executable, "-c", _API_SCRIPT, str(repo)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "ANSWER chunks_fts_data True",
        "ANSWER chunks True",
        "INDEX True",
    ], out.stdout + out.stderr
    assert "damaged" in out.stderr
    assert len(list((repo / ".codehop").glob("index.db.corrupt-*"))) >= 2


# ---- no project, no crawl ---------------------------------------------------------------------------


def _cli_in(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "codehop", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env={**{k: v for k, v in os.environ.items() if k != "CODEHOP_INDEX_DIR"}, **env},
    )


@pytest.mark.slow
def test_a_large_folder_without_a_project_marker_is_not_crawled(tmp_path):  # type: ignore[no-untyped-def]
    """`cd big && codehop ask ...` where no folder up holds a marker and `big` holds 2,001 Python files:
    exit 2 naming --repo, nothing written; the same folder given as PATH or --repo is indexed."""
    big = tmp_path / "big"
    for i in range(2001):
        sub = big / f"d{i // 100}"
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"m{i}.py").write_text(f"X{i} = {i}\n")
    for args in (("ask", "Where is `X7` defined?"), ("index",), ("map",)):
        out = _cli_in(big, *args)
        assert out.returncode == 2, out.stderr
        assert "--repo" in out.stderr and "no project here" in out.stderr, out.stderr
        assert not (big / ".codehop").exists()
    out = _cli_in(big, "index", ".", "--json")
    assert out.returncode == 0, out.stderr
    assert '"files": 2001' in out.stdout


@pytest.mark.slow
def test_a_small_folder_without_a_marker_is_used(tmp_path):  # type: ignore[no-untyped-def]
    small = tmp_path / "small"
    small.mkdir()
    (small / "cart.py").write_text("class Cart:\n    pass\n")
    out = _cli_in(small, "ask", "Where is `Cart` defined?", "--json")
    assert out.returncode == 0, out.stderr
    assert "cart.py" in out.stdout


@pytest.mark.slow
@pytest.mark.parametrize("where", ["home", "tmpdir", "home-with-git"])
def test_home_and_temporary_folders_are_never_crawled_unasked(tmp_path, where):  # type: ignore[no-untyped-def]
    """The home folder ($HOME), the temporary folder ($TMPDIR: tempfile.gettempdir()), even small, and a
    folder under a home that holds `.git` (dotfiles): exit 2 naming --repo, no index written."""
    home = tmp_path / "home"
    (home / "scratch").mkdir(parents=True)
    (home / "cart.py").write_text("class Cart:\n    pass\n")
    env = {"HOME": str(home), "TMPDIR": str(tmp_path / "tmpdir")}
    (tmp_path / "tmpdir").mkdir()
    (tmp_path / "tmpdir" / "cart.py").write_text("class Cart:\n    pass\n")
    cwd = {"home": home, "tmpdir": tmp_path / "tmpdir", "home-with-git": home / "scratch"}[where]
    if where == "home-with-git":
        (home / ".git").mkdir()
    out = _cli_in(cwd, "ask", "Where is `Cart` defined?", **env)
    assert out.returncode == 2, out.stderr
    assert "--repo" in out.stderr, out.stderr
    assert not list(tmp_path.rglob(".codehop"))


@pytest.mark.slow
@pytest.mark.parametrize("distinct", [False, True], ids=["repeated", "distinct"])
def test_a_large_ignore_file_of_wildcards_costs_seconds_at_most(fixture_repo, distinct):  # type: ignore[no-untyped-def]
    """30,000 lines of `*a*a*a*a*a*a*a*a*a*a*a*a*b` (800 kB, under the size cap): the same line
    repeated is one pattern (indexed); 30,000 distinct ones are over the wildcard cap (exit 2, said at
    once). Before: compiled one by one, then matched by backtracking, for minutes."""
    repo = fixture_repo("reexport_chain")
    lines = [f"*a*a*a*a*a*a*a*a*a*a*a*a*b{i if distinct else ''}" for i in range(30_000)]
    (repo / ".gitignore").write_text("\n".join(lines) + "\n")
    (repo / ("a" * 32)).mkdir()
    (repo / ("a" * 32) / "mod.py").write_text("X = 1\n")
    out = codehop("index", str(repo), "--json", timeout=30)
    if distinct:
        assert out.returncode == 2, out.stderr
        assert ".gitignore" in out.stderr and "cap" in out.stderr
    else:
        assert out.returncode == 0, out.stderr
        assert '"files": 6' in out.stdout


_FIFO_SCRIPT = """
import os, sys
from codehop.app import App
repo = sys.argv[1]
app = App(repo)
cart = os.path.join(repo, "shop", "api", "cart.py")
folder = os.path.dirname(cart)
st = os.stat(folder)
os.unlink(cart)
os.mkfifo(cart)
os.utime(folder, ns=(st.st_atime_ns, st.st_mtime_ns))  # the folder's mtime put back
report = app.refresh()
print([w for w in report.warnings if "cart.py" in w])
"""


@pytest.mark.slow
def test_a_source_file_turned_into_a_fifo_is_skipped_not_waited_on(fixture_repo):  # type: ignore[no-untyped-def]
    """fixtures_repos/reexport_chain under a warm App (a server's): `shop/api/cart.py` replaced by a
    FIFO with its folder's mtime put back: skipped with a warning (before: the refresh re-stated the
    files only, and the read blocked forever). Since folders are compared by ctime the refresh walks
    and the walk skips it; the read's own non-blocking open covers a FIFO made between walk and read."""
    repo = fixture_repo("reexport_chain")
    out = subprocess.run([sys.executable, "-c", _FIFO_SCRIPT, str(repo)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "not a regular file" in out.stdout, out.stdout


_ADDED_SCRIPT = """
import os, sys
from codehop.app import App
repo = sys.argv[1]
app = App(repo)
folder = os.path.join(repo, "shop", "api")
st = os.stat(folder)
with open(os.path.join(folder, "extra.py"), "w") as fh:
    fh.write("class Extra:\\n    pass\\n")
os.utime(folder, ns=(st.st_atime_ns, st.st_mtime_ns))  # as `tar x` leaves a folder it filled
app.refresh()
print(bool(app.store.chunks_named("shop.api.extra.Extra")))
"""


@pytest.mark.slow
def test_a_file_added_to_a_folder_whose_mtime_is_put_back_is_found(fixture_repo):  # type: ignore[no-untyped-def]
    """fixtures_repos/reexport_chain under a warm App: `shop/api/extra.py` added and the folder's mtime
    restored (what `tar x` does): the refresh walks (the folder's ctime moved) and indexes it."""
    repo = fixture_repo("reexport_chain")
    out = subprocess.run([sys.executable, "-c", _ADDED_SCRIPT, str(repo)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True"


def test_the_api_raises_codehop_errors_for_a_nul_in_a_path(fixture_repo):  # type: ignore[no-untyped-def]
    """`codehop.ask` with a NUL byte in `index_dir` (an agent's argument): a CodehopError, not ValueError."""
    import codehop
    from codehop.kernel.errors import CodehopError

    repo = fixture_repo("reexport_chain")
    with pytest.raises(CodehopError, match="NUL"):
        codehop.ask("Where is `Cart` defined?", repo=str(repo), index_dir="/tmp/x\x00y")
    assert not (repo / ".codehop").exists()


def test_two_indexes_moved_aside_in_one_second_are_both_kept(tmp_path):  # type: ignore[no-untyped-def]
    """Two damaged files moved aside back to back: two files aside, neither replaced by the other."""
    from codehop.index.store.schema import move_aside

    db = tmp_path / "index.db"
    asides = []
    for text in (b"first", b"second"):
        db.write_bytes(text)
        asides.append(move_aside(db, "corrupt"))
    assert sorted(p.read_bytes() for p in asides) == [b"first", b"second"]
