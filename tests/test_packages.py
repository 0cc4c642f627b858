"""Navigating into installed packages (codehop/index/packages.py, the mounted store, the layered symbol table).

Fixture: `fixtures_repos/app_with_venv/` with a real `.venv` holding a real wheel of
`tests/data/minireq` (conftest). Real indexes in a per-test `$XDG_CACHE_HOME`; nothing mocked.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import DATA, build_wheel, install_wheel

from codehop.answer.orchestrator import Limits
from codehop.app import App, Config
from codehop.index.environment import distribution_of, find_environment, package_cache_dir

QUESTIONS = [
    ("Where is RetrySession.get defined?", "minireq.sessions.Session.get", "minireq/sessions.py"),
    ("What does RetrySession.mount do?", "minireq.sessions.Session.mount", "minireq/sessions.py"),
    ("Which parameters does HTTPAdapter take?", "minireq.adapters.HTTPAdapter.__init__", "minireq/adapters.py"),
    ("What does minireq.get return?", "minireq.get", "minireq/__init__.py"),
]


def _tree_state(root: Path) -> dict[str, tuple[int, int]]:
    return {str(p): (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*") if p.is_file()}


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "xdg-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(d))
    monkeypatch.delenv("CODEHOP_PYTHON", raising=False)
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.setenv("CODEHOP_BRIDGE", "0")  # no background Jedi worker unless a test asks for one
    return d


def _ask(app: App, question: str) -> dict:  # type: ignore[type-arg]
    return app.navigator(resolvers=("symbol_table",)).ask(question, Limits()).to_dict()


@pytest.mark.slow
@pytest.mark.parametrize(("question", "qualname", "path"), QUESTIONS)
def test_questions_answered_from_the_package(
    app_with_venv: Path, cache: Path, question: str, qualname: str, path: str
) -> None:
    """The package's declaration is in context, marked as environment, and the answer is complete."""
    venv_before = _tree_state(app_with_venv / ".venv")
    app = App(app_with_venv)
    try:
        out = _ask(app, question)
    finally:
        app.close()
    assert out["state"] == "complete", out["answer"]
    items = [c for c in out["context"] if c["qualname"] == qualname]
    assert items, [c["qualname"] for c in out["context"]]
    item = items[0]
    assert item["source"] == "environment" and item["package"] == "minireq==1.2.0"
    assert item["path"] == path
    assert Path(item["abs_path"]).is_file() and item["abs_path"].endswith("site-packages/" + path)
    assert all(c["source"] == "repo" for c in out["context"] if c["path"].startswith("app/"))
    # nothing inside the environment changed; the index lives in the user cache
    assert _tree_state(app_with_venv / ".venv") == venv_before
    env = find_environment(app_with_venv, environ={})
    assert env is not None
    dist = distribution_of(env, "minireq")
    assert dist is not None and (package_cache_dir(dist) / "index.db").is_file()


@pytest.mark.slow
def test_no_env_keeps_the_package_external(app_with_venv: Path, cache: Path) -> None:
    app = App(app_with_venv, Config(use_env=False))
    try:
        out = _ask(app, "Where is RetrySession.get defined?")
    finally:
        app.close()
    assert out["state"] != "complete"
    assert all(c["source"] == "repo" for c in out["context"])
    assert not (cache / "codehop").exists()


@pytest.mark.slow
def test_index_is_shared_and_paid_once(app_with_venv: Path, cache: Path, tmp_path: Path) -> None:
    """A second App (another repository using the same interpreter) reuses the cached index."""
    first = App(app_with_venv)
    try:
        _ask(first, "Where is RetrySession.get defined?")
        assert first.packages is not None
        [pkg] = first.packages.indexed()
        assert pkg.seconds > 0 and pkg.files == 4
    finally:
        first.close()
    other = tmp_path / "second-app"  # a second repository, pointed at the first one's interpreter
    shutil.copytree(app_with_venv / "app", other / "app")
    second = App(other, Config(python=str(app_with_venv / ".venv")))
    try:
        out = _ask(second, "Where is RetrySession.get defined?")
        assert second.packages is not None
        [again] = second.packages.indexed()
        assert again.seconds == 0.0  # nothing parsed: the shared index was up to date
    finally:
        second.close()
    assert out["state"] == "complete"


@pytest.mark.slow
def test_upgrade_gets_a_new_cache_entry_and_old_answers_do_not_leak(
    app_with_venv: Path, cache: Path, tmp_path: Path
) -> None:
    app = App(app_with_venv)
    try:
        old = _ask(app, "What does RetrySession.mount do?")
    finally:
        app.close()
    assert old["state"] == "complete"
    # minireq 1.3.0: `mount` moved to a mixin and documented differently
    src = tmp_path / "minireq-src"
    shutil.copytree(DATA / "minireq", src)
    sessions = src / "minireq" / "sessions.py"
    text = sessions.read_text()
    text = text.replace(
        '"""Register a connection adapter to a prefix."""', '"""Attach ADAPTER to every URL under PREFIX (1.3)."""'
    )
    sessions.write_text(text)
    wheel = build_wheel(src, "minireq", "1.3.0", tmp_path)
    site = install_wheel(app_with_venv / ".venv", wheel)
    shutil.rmtree(site / "minireq-1.2.0.dist-info")  # what pip's uninstall-then-install leaves (not --target)
    app = App(app_with_venv)
    try:
        new = _ask(app, "What does RetrySession.mount do?")
    finally:
        app.close()
    assert new["state"] == "complete"
    [item] = [c for c in new["context"] if c["qualname"] == "minireq.sessions.Session.mount"]
    assert item["package"] == "minireq==1.3.0"
    assert "(1.3)" in item["text"] and "(1.3)" in new["answer"]
    entries = sorted(p.name for p in (cache / "codehop" / "packages").iterdir())
    assert len(entries) == 2 and entries[0].startswith("minireq-1.2.0-") and entries[1].startswith("minireq-1.3.0-")


@pytest.mark.slow
def test_broken_distribution_is_a_warning_not_a_traceback(app_with_venv: Path, cache: Path) -> None:
    """A dist-info whose package folder is gone (half-installed): the chain stays external, honestly."""
    site = next((app_with_venv / ".venv" / "lib").glob("python3*/site-packages"))
    shutil.rmtree(site / "minireq")
    app = App(app_with_venv)
    try:
        out = _ask(app, "Where is RetrySession.get defined?")
        assert app.packages is not None
        assert any("minireq==1.2.0" in w and "not indexed" in w for w in app.packages.warnings)
    finally:
        app.close()
    assert out["state"] != "complete"


@pytest.mark.slow
@pytest.mark.parametrize("rung", ["jedi", "lsp"])
def test_position_rungs_land_in_the_package_given_python(
    app_with_venv: Path, cache: Path, tmp_path: Path, rung: str
) -> None:
    """A repository without a virtualenv of its own, `--python` naming one elsewhere: Jedi (its
    environment_path) and basedpyright (`python.pythonPath` over workspace/configuration) land in
    the package, the boundary accepts the landing, and the declaration is fetched from its index."""
    from codehop.kernel.records import PendingReference, RefType
    from codehop.navigation.excerpt import declaration_chunk

    repo = tmp_path / "bare-app"
    shutil.copytree(app_with_venv / "app", repo / "app")
    app = App(repo, Config(python=str(app_with_venv / ".venv" / "bin" / "python"), resolver_timeout_s=20.0))
    try:
        ref = PendingReference(
            anchor_text="s.get",
            ref_type=RefType.CALL,
            ref_target="s.get",
            origin_path="app/client.py",
            origin_line=12,
            origin_col=11,
        )
        res = app.resolver(rung).resolve(ref)
        assert res is not None and not res.is_external, res
        site = next((app_with_venv / ".venv" / "lib").glob("python3*/site-packages")).resolve()
        assert (res.target.rel_path, res.target.line) == (str(site / "minireq" / "sessions.py"), 26)
        chunk = declaration_chunk(app.store, res.target)
        assert chunk is not None and chunk.qualname == "minireq.sessions.Session.get"
    finally:
        app.close()


@pytest.mark.slow
def test_a_landing_outside_repository_and_environment_stays_external(
    app_with_venv: Path, cache: Path, tmp_path: Path
) -> None:
    """The boundary: a file in neither the repository nor the environment's package dirs is never placed."""
    app = App(app_with_venv)
    try:
        boundary = app.boundary()
        outside = tmp_path / "elsewhere" / "mod.py"
        outside.parent.mkdir()
        outside.write_text("x = 1\n")
        assert boundary.place(outside) is None
        assert boundary.place(app_with_venv / "app" / "client.py") == "app/client.py"
        site = next((app_with_venv / ".venv" / "lib").glob("python3*/site-packages")).resolve()
        assert boundary.place(site / "minireq" / "adapters.py") == str(site / "minireq" / "adapters.py")
        link = app_with_venv / "app" / "escape.py"
        link.symlink_to(outside)
        assert boundary.place(link) is None  # a symlink out is outside
    finally:
        app.close()


@pytest.mark.slow
def test_a_distribution_over_the_file_bound_is_skipped_with_a_warning(app_with_venv: Path, cache: Path) -> None:
    from codehop.index.packages import PackageIndexes

    app = App(app_with_venv)
    try:
        assert app.env is not None
        small = PackageIndexes(app.env, app.store, max_files=2)  # minireq has 4 files
        assert small.package("minireq") is None
        assert any("more than 2 Python files" in w for w in small.warnings)
        assert not (cache / "codehop").exists()  # nothing indexed
    finally:
        app.close()


@pytest.mark.slow
def test_a_warm_app_notices_an_upgrade(app_with_venv: Path, cache: Path, tmp_path: Path) -> None:
    """A server's App kept across an upgrade: refresh() drops the old package index before the next question."""
    import os
    import time

    app = App(app_with_venv)
    try:
        assert "minireq==1.2.0" in str(_ask(app, "What does RetrySession.mount do?")["context"])
        src = tmp_path / "minireq-src"
        shutil.copytree(DATA / "minireq", src)
        sessions = src / "minireq" / "sessions.py"
        sessions.write_text(sessions.read_text().replace("Register a connection adapter", "Attach an adapter (2.0)"))
        site = install_wheel(app_with_venv / ".venv", build_wheel(src, "minireq", "2.0.0", tmp_path))
        shutil.rmtree(site / "minireq-1.2.0.dist-info")
        later = time.time() + 5  # a coarse-mtime filesystem still sees the directory change
        os.utime(site, (later, later))
        app.refresh()
        out = _ask(app, "What does RetrySession.mount do?")
    finally:
        app.close()
    assert out["state"] == "complete"
    [item] = [c for c in out["context"] if c["qualname"] == "minireq.sessions.Session.mount"]
    assert item["package"] == "minireq==2.0.0" and "(2.0)" in item["text"]


@pytest.mark.slow
def test_xrefs_stats_report_the_package_side(app_with_venv: Path, cache: Path) -> None:
    import json
    import subprocess
    import sys

    app = App(app_with_venv)
    try:
        _ask(app, "Where is RetrySession.get defined?")  # indexes minireq into the cache
    finally:
        app.close()
    root = Path(__file__).resolve().parent.parent
    env = {**__import__("os").environ, "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-m", "codehop", "xrefs", "--stats", "--json", "--repo", str(app_with_venv)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=True,
    )
    pkgs = json.loads(done.stdout)["packages"]
    assert set(pkgs) == {"minireq==1.2.0"}
    assert pkgs["minireq==1.2.0"]["rows"] > 0 and pkgs["minireq==1.2.0"]["resolved_at_index_time"] > 0
    assert {"bridged_at_index_time", "bridge_sites", "bridge_asked", "bridge_complete"} <= set(pkgs["minireq==1.2.0"])
    stats = json.loads(done.stdout)
    assert {"hops_from_index", "hops_from_resolver", "hops_from_table", "rebuilds", "queries"} <= set(stats)


@pytest.mark.slow
@pytest.mark.asyncio
async def test_mcp_ask_answers_from_the_package(app_with_venv: Path, cache: Path, tmp_path: Path) -> None:
    """The MCP tools, through the SDK's stdio client: the same package item, marked environment."""
    import os
    import sys

    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client

    root = Path(__file__).resolve().parent.parent
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "codehop.frontends.mcp_server", "--repo", str(app_with_venv)],
        env={"PYTHONPATH": str(root), "XDG_CACHE_HOME": os.environ["XDG_CACHE_HOME"]},
        cwd=str(app_with_venv),
    )
    with open(tmp_path / "mcp.log", "w", encoding="utf-8") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            with anyio.fail_after(60):
                await session.initialize()
                result = await session.call_tool("ask", {"question": "Which parameters does HTTPAdapter take?"})
    assert not result.is_error, result.content
    data = result.structured_content
    assert isinstance(data, dict) and data["state"] == "complete"
    [item] = [c for c in data["context"] if c["qualname"] == "minireq.adapters.HTTPAdapter.__init__"]
    assert item["source"] == "environment" and item["package"] == "minireq==1.2.0"
    assert item["path"] == "minireq/adapters.py"


def test_stdlib_stubs_vendored_by_a_tool_stay_external(tmp_path: Path) -> None:
    """A landing in typeshed vendored inside an installed tool (jedi/third_party/typeshed/stdlib/
    builtins.pyi, basedpyright's typeshed-fallback) is the standard library, not that tool's package:
    outside the trust boundary even when the tool's site directory is the chosen environment's."""
    from codehop.resolve.ladder import Boundary

    site = tmp_path / "venv" / "lib" / "python3.11" / "site-packages"
    boundary = Boundary(tmp_path / "repo", environment=lambda p: site in p.parents, mount=lambda p: p)
    for stub in ("jedi/third_party/typeshed/stdlib/builtins.pyi", "basedpyright/dist/typeshed-fallback/stdlib/os.pyi"):
        assert boundary.place(site / stub) is None
    assert boundary.place(site / "minireq" / "sessions.py") == str(site / "minireq" / "sessions.py")
    assert boundary.place(tmp_path / "repo" / "app" / "client.py") == "app/client.py"


@pytest.mark.slow
def test_text_shows_the_pin_and_the_path_from_the_import_root(app_with_venv: Path, cache: Path) -> None:
    """The answer text, the hop trace and the context's markdown name a package file by its pin and
    its path from the import root (`minireq==1.2.0 minireq/sessions.py:26`); the absolute path into
    the environment is only in the JSON's `abs_path` (for editors)."""
    import io

    from rich.console import Console

    from codehop.frontends.render import print_answer, render_markdown

    app = App(app_with_venv)
    try:
        answer = app.navigator(resolvers=("symbol_table",)).ask("Where is RetrySession.get defined?", Limits())
    finally:
        app.close()
    out = io.StringIO()
    print_answer(Console(file=out, width=400, color_system=None), answer)
    data = answer.to_dict()
    texts = {"answer": data["answer"], "trace": out.getvalue(), "context": render_markdown(data)}
    for name, text in texts.items():
        assert "site-packages" not in text, (name, text)
    assert "minireq==1.2.0 minireq/sessions.py:26" in texts["answer"]
    assert "-> minireq==1.2.0 minireq/sessions.py:26 minireq.sessions.Session.get" in texts["trace"]
    assert "### minireq==1.2.0 minireq/sessions.py:26-" in texts["context"]
    [item] = [c for c in data["context"] if c["qualname"] == "minireq.sessions.Session.get"]
    assert item["abs_path"].endswith("site-packages/minireq/sessions.py")


def _site(app_with_venv: Path) -> Path:
    return next((app_with_venv / ".venv" / "lib").glob("python3*/site-packages")).resolve()


@pytest.mark.slow
def test_inferred_pointers_are_bridged_when_the_package_is_indexed(app_with_venv: Path, cache: Path) -> None:
    """Placement item 6: `a.close()` in minireq's Session.close (sessions.py:32; `a` comes from
    `self.adapters.values()`) needs inference. The index-time bridge (real Jedi, the environment's
    interpreter) stores it as a `jedi` row in the package's shared index; a loop-time hop from that
    site reads the row (step `bridged`, counted as `hops_from_index`) without asking Jedi."""
    from codehop.kernel.records import PendingReference, RefType
    from codehop.resolve.jedi_bridge import bridge_distribution

    app = App(app_with_venv, Config(bridge_packages=False, resolvers=("symbol_table", "jedi")))
    try:
        assert app.packages is not None and app.env is not None
        pkg = app.packages.package("minireq")
        assert pkg is not None
        report = bridge_distribution(pkg.mount.store, pkg.mount.root, pkg.mount.tops, python=app.env.python)
        assert report.complete and report.bridged >= 1, report
        row = pkg.mount.store.cached_resolution("minireq/sessions.py", 32, "a.close")
        assert row is not None and row.provenance == "jedi"
        assert (row.target_path, row.target_line) == ("minireq/adapters.py", 2)  # BaseAdapter.close
        again = bridge_distribution(pkg.mount.store, pkg.mount.root, pkg.mount.tops, python=app.env.python)
        assert again.complete and again.bridged == report.bridged  # resumable: nothing asked twice

        sessions = str(_site(app_with_venv) / "minireq" / "sessions.py")
        ref = PendingReference(
            anchor_text="a.close",
            ref_type=RefType.CALL,
            ref_target="a.close",
            origin_path=sessions,
            origin_line=32,
            origin_col=14,
        )
        ladder = app.ladder()
        out = ladder.resolve(ref)
        assert out.cached and out.resolution is not None, out
        assert out.tried == ("symbol_table",)  # Jedi was not asked
        assert out.resolution.target.qualname == "minireq.adapters.BaseAdapter.close"
        assert [s.note for s in out.resolution.steps] == ["bridged"]
        ladder.feed_back(ref, out.resolution)
        assert app.store.counters().get("hops_from_index") == 1
    finally:
        app.close()


@pytest.mark.slow
def test_the_bridge_runs_in_a_worker_once(app_with_venv: Path, cache: Path) -> None:
    """Mounting a package with a position rung configured starts one background worker (a lock in the
    index folder); the question does not wait; the worker finishes the bridge and a second mount
    starts none."""
    import time

    from codehop.resolve.jedi_bridge import bridge_done

    app = App(app_with_venv, Config(resolvers=("symbol_table", "jedi"), bridge_packages=True))
    try:
        assert app.packages is not None
        t0 = time.perf_counter()
        pkg = app.packages.package("minireq")
        assert pkg is not None and time.perf_counter() - t0 < 30
        deadline = time.time() + 150
        while not bridge_done(pkg.mount.store.counters()) and time.time() < deadline:
            time.sleep(0.5)
        assert bridge_done(pkg.mount.store.counters())
        assert pkg.mount.store.counters().get("bridged_rows", 0) >= 1
        deadline = time.time() + 10
        while (Path(pkg.mount.store.path).parent / "bridge.lock").exists() and time.time() < deadline:
            time.sleep(0.2)
        assert not (Path(pkg.mount.store.path).parent / "bridge.lock").exists()
    finally:
        app.close()
    from codehop.resolve.jedi_bridge import spawn_bridge

    second = App(app_with_venv, Config(resolvers=("symbol_table", "jedi"), bridge_packages=True))
    try:
        assert second.packages is not None and second.env is not None
        pkg = second.packages.package("minireq")
        assert pkg is not None
        env = second.env
        assert spawn_bridge(pkg.mount.store, pkg.mount.root, pkg.mount.tops, python=env.interpreter) is None
    finally:
        second.close()


@pytest.fixture
def app_with_chain(fixture_repo, minireq_wheel: Path, tmp_path: Path) -> Path:  # type: ignore[no-untyped-def]
    """fixtures_repos/app_with_chain with a `.venv` holding miniauth 0.3.0, which is built on minireq 1.2.0."""
    root: Path = fixture_repo("app_with_chain")
    install_wheel(root / ".venv", minireq_wheel, create=True)
    install_wheel(root / ".venv", build_wheel(DATA / "miniauth", "miniauth", "0.3.0", tmp_path))
    return root


@pytest.mark.slow
@pytest.mark.parametrize(
    ("question", "qualname"),
    [
        ("Where is TokenSession.mount defined?", "minireq.sessions.Session.mount"),  # MRO: app -> miniauth -> minireq
        (
            "Which parameters does HTTPAdapter take?",
            "minireq.adapters.HTTPAdapter.__init__",
        ),  # a bare name two links away
    ],
    ids=["mro", "bare-name"],
)
def test_chains_go_through_a_dependency_of_a_dependency(
    app_with_chain: Path, cache: Path, question: str, qualname: str
) -> None:
    """The app imports only miniauth; the declaration is in minireq, which miniauth imports: both
    distributions are indexed on demand and the answer comes from minireq's index."""
    app = App(app_with_chain)
    try:
        out = _ask(app, question)
        assert app.packages is not None
        assert {p.dist.pin for p in app.packages.indexed()} == {"miniauth==0.3.0", "minireq==1.2.0"}
    finally:
        app.close()
    assert out["state"] == "complete", out["answer"]
    [item] = [c for c in out["context"] if c["qualname"] == qualname]
    assert item["source"] == "environment" and item["package"] == "minireq==1.2.0"


@pytest.mark.slow
def test_graph_shows_a_package_node_as_a_leaf_unless_expanded(app_with_venv: Path, cache: Path) -> None:
    """`codehop graph app.client.RetrySession`: the base class the indexer left unplaced
    (`?app.client.minireq.Session`) is minireq's `Session`, a leaf marked with its pin; with
    `expand_packages` its own edges (from minireq's index) follow, marked with the package."""
    from codehop.navigation.graph_context import GraphContext

    app = App(app_with_venv)
    try:
        gc = GraphContext(app.store, app.table)
        rows = gc.neighbourhood("app.client.RetrySession", 1)
        [base] = [r for r in rows if r["type"] == "inherits"]
        assert base["other"] == "minireq.sessions.Session" and base["leaf"] is True
        assert (base["package"], base["package_path"]) == ("minireq==1.2.0", "minireq/sessions.py")
        assert not any(r.get("from_package") for r in rows)
        expanded = gc.neighbourhood("app.client.RetrySession", 1, expand_packages=True)
        inner = [r for r in expanded if r.get("from_package") == "minireq.sessions.Session"]
        assert any(r["type"] == "contains" and r["other"] == "minireq.sessions.Session.get" for r in inner), inner
        assert all(r["package"] == "minireq==1.2.0" for r in inner)
    finally:
        app.close()


@pytest.mark.slow
def test_the_standard_library_is_a_package_indexed_per_module_reached(app_with_venv: Path, cache: Path) -> None:
    """A class built on `http.client.HTTPConnection`: the inherited `request` is answered from the
    interpreter's own `Lib/http/client.py`, marked `python-stdlib==<version>`; only the `http`
    module the chain reached is indexed (not the whole library), and nothing in it changes."""
    import sys
    import sysconfig

    (app_with_venv / "app" / "conn.py").write_text(
        'import http.client\n\n\nclass PlainConn(http.client.HTTPConnection):\n    """A plain connection."""\n'
    )
    lib = Path(sysconfig.get_paths()["stdlib"]) / "http"
    before = _tree_state(lib)
    app = App(app_with_venv)
    try:
        out = _ask(app, "What does PlainConn.request do?")
        assert app.packages is not None
        pins = {(p.dist.pin, p.mount.tops) for p in app.packages.indexed()}
    finally:
        app.close()
    assert out["state"] == "complete", out["answer"]
    [item] = [c for c in out["context"] if c["qualname"] == "http.client.HTTPConnection.request"]
    version = ".".join(str(n) for n in sys.version_info[:3])
    assert item["source"] == "environment" and item["package"] == f"python-stdlib=={version}"
    assert item["path"] == "http/client.py"
    assert f"python-stdlib=={version} http/client.py:" in out["answer"]
    assert pins == {(f"python-stdlib=={version}", frozenset({"http"}))}
    assert _tree_state(lib) == before


@pytest.mark.slow
def test_a_stub_only_distribution_is_navigated_like_a_package(tmp_path: Path, cache: Path) -> None:
    """`types-minitype` installs only `minitype-stubs/__init__.pyi` (PEP 561; the code is not
    installed): its stubs serve `minitype`, the answer names the pin and the `.pyi` path."""
    import venv

    repo = tmp_path / "app"
    (repo / "app").mkdir(parents=True)
    (repo / "app" / "__init__.py").write_text("")
    (repo / "app" / "jobs.py").write_text("import minitype\n\n\nclass Job(minitype.Task):\n    retries = 2\n")
    venv.EnvBuilder(with_pip=False, symlinks=True).create(repo / ".venv")
    site = next((repo / ".venv" / "lib").glob("python3*/site-packages"))
    (site / "minitype-stubs").mkdir()
    stub = 'class Task:\n    def run(self, limit: int = ...) -> bool:\n        """Run once."""\n        ...\n'
    (site / "minitype-stubs" / "__init__.pyi").write_text(stub)
    info = site / "types_minitype-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: types-minitype\nVersion: 1.0\n")
    (info / "RECORD").write_text("minitype-stubs/__init__.pyi,,\n")
    app = App(repo)
    try:
        out = _ask(app, "Where is Job.run defined?")
    finally:
        app.close()
    assert out["state"] == "complete", out["answer"]
    [item] = [c for c in out["context"] if c["qualname"] == "minitype.Task.run"]
    assert item["package"] == "types-minitype==1.0" and item["path"] == "minitype-stubs/__init__.pyi"
    assert "types-minitype==1.0 minitype-stubs/__init__.pyi:2" in out["answer"]


@pytest.mark.slow
def test_a_bridge_stopped_by_its_budget_resumes_where_it_stopped(app_with_venv: Path, cache: Path) -> None:
    """Runs of the bridge cut short (here: one site each) ask every site once, in the same order
    (the rows a run wrote do not shrink the next run's list), and end complete."""
    from codehop.resolve.jedi_bridge import bridge_distribution

    app = App(app_with_venv, Config(bridge_packages=False))
    try:
        assert app.packages is not None and app.env is not None
        pkg = app.packages.package("minireq")
        assert pkg is not None
        store, root, tops = pkg.mount.store, pkg.mount.root, pkg.mount.tops
        first = bridge_distribution(store, root, tops, python=app.env.python, budget_s=0.0)
        assert first.candidates >= 2 and first.asked == 1 and not first.complete, first
        runs = 1
        report = first
        while not report.complete and runs < 20:
            report = bridge_distribution(store, root, tops, python=app.env.python, budget_s=0.0)
            assert report.candidates == first.candidates
            runs += 1
        assert report.complete and report.asked == first.candidates and runs == first.candidates
        row = store.cached_resolution("minireq/sessions.py", 32, "a.close")
        assert row is not None and (row.target_path, row.target_line) == ("minireq/adapters.py", 2)
    finally:
        app.close()


@pytest.mark.slow
def test_what_a_class_takes_is_what_its_inherited_constructor_takes(app_with_venv: Path, cache: Path) -> None:
    """`RetrySession` declares no `__init__`: its parameters are minireq's `Session.__init__`, fetched
    from the package (app/client.py:6 -> minireq/sessions.py:12)."""
    app = App(app_with_venv)
    try:
        out = _ask(app, "Which parameters does RetrySession take?")
    finally:
        app.close()
    assert out["state"] == "complete", out["answer"]
    assert "minireq.sessions.Session.__init__" in {c["qualname"] for c in out["context"]}
    assert "minireq==1.2.0 minireq/sessions.py:12" in out["answer"]
