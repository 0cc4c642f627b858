"""References through re-exports and the call hierarchy of codehop.frontends.lsp_server, each site
kind with its exact expected set, driven by a real pytest-lsp client over stdio.

Fixtures: fixtures_repos/reexport_refs (a package `__init__` that only re-exports),
fixtures_repos/call_sites (every kind of outgoing call site), fixtures_repos/inferred_callers
(callers the index places only by inference). Lines in docstrings are 1-based; LSP lines are one less.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.test_lsp_server import SERVER, at, copy_fixture, initialize

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(120)]


@pytest.fixture(scope="module")
def refs_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_fixture("reexport_refs", tmp_path_factory.mktemp("lspcalls"))


@pytest_lsp.fixture(config=SERVER, scope="module")
async def refs(lsp_client: LanguageClient, refs_root: Path):  # type: ignore[no-untyped-def]
    await initialize(lsp_client, refs_root)
    yield
    await lsp_client.shutdown_session()


def spots(root: Path, locations: Any) -> list[tuple[str, int, str]]:
    """(path, 1-based line, the text the range covers) of each location, in the server's order."""
    out = []
    for loc in locations or []:
        path = Path(loc.uri.removeprefix("file://")).resolve().relative_to(root.resolve()).as_posix()
        text = (root / path).read_text().splitlines()[loc.range.start.line]
        out.append((path, loc.range.start.line + 1, text[loc.range.start.character : loc.range.end.character]))
    return out


async def references(client: LanguageClient, pos: types.TextDocumentPositionParams, include: bool) -> Any:
    return await client.text_document_references_async(
        types.ReferenceParams(
            text_document=pos.text_document,
            position=pos.position,
            context=types.ReferenceContext(include_declaration=include),
        )
    )


USES = [
    ("main.py", 4, "launch"),
    ("main.py", 4, "start_engine"),
    ("main.py", 8, "start_engine"),
    ("main.py", 9, "launch"),
    ("main.py", 10, "start_engine"),
    ("main.py", 16, "start_engine"),
    ("main.py", 19, "begin"),
]
REEXPORTS = [("lib/__init__.py", 3, "start_engine"), ("lib/__init__.py", 4, "start_engine")]


@pytest.mark.parametrize("include", [False, True], ids=["without-declaration", "with-declaration"])
async def test_references_list_the_reexport_lines_after_the_uses(
    refs: LanguageClient, refs_root: Path, include: bool
) -> None:
    """reexport_refs, `start_engine` at lib/engine.py:4: the uses in main.py (through the package,
    `as launch`, `lib.start_engine`, a parenthesised import inside `later` at :15-17 and its use
    `begin(4)` at :19), then the re-export lines of lib/__init__.py:3-4, whatever
    includeDeclaration says; it adds only the declaration, first."""
    got = spots(refs_root, await references(refs, at(refs_root, "lib/engine.py", 4, "start_engine"), include))
    declaration = [("lib/engine.py", 4, "start_engine")] if include else []
    assert got == declaration + USES + REEXPORTS


@pytest.fixture(scope="module")
def sites_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_fixture("call_sites", tmp_path_factory.mktemp("lspcalls"))


@pytest_lsp.fixture(config=SERVER, scope="module")
async def sites(lsp_client: LanguageClient, sites_root: Path):  # type: ignore[no-untyped-def]
    await initialize(lsp_client, sites_root)
    yield
    await lsp_client.shutdown_session()


@pytest.fixture(scope="module")
def callers_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_fixture("inferred_callers", tmp_path_factory.mktemp("lspcalls"))


@pytest_lsp.fixture(config=SERVER, scope="module")
async def callers(lsp_client: LanguageClient, callers_root: Path):  # type: ignore[no-untyped-def]
    await initialize(lsp_client, callers_root)
    yield
    await lsp_client.shutdown_session()


async def prepare(client: LanguageClient, pos: types.TextDocumentPositionParams) -> types.CallHierarchyItem:
    items = await client.text_document_prepare_call_hierarchy_async(
        types.CallHierarchyPrepareParams(text_document=pos.text_document, position=pos.position)
    )
    assert items is not None and len(items) == 1
    return items[0]


def where(root: Path, item: types.CallHierarchyItem) -> str:
    """`path:line` inside the repository, `stub name.pyi:line` for a typeshed stub."""
    path = Path(item.uri.removeprefix("file://")).resolve()
    line = item.selection_range.start.line + 1
    if path.is_relative_to(root.resolve()):
        return f"{path.relative_to(root.resolve()).as_posix()}:{line}"
    assert item.detail is not None and "typeshed stub" in item.detail, item.detail
    text = path.read_text(encoding="utf-8").splitlines()[item.selection_range.start.line]
    start, end = item.selection_range.start.character, item.selection_range.end.character
    assert text[start:end] == item.name, (text, start, end)  # the name's own range in the stub
    return f"stub {path.name}"


WRITE_CALLS = [  # Writer.write's callees, each once, in source order of its first call
    ("log", "calls/writer.py:20", [27]),
    ("start", "calls/sink.py:5", [28]),
    ("Sink", "calls/sink.py:4", [29]),
    ("end", "calls/sink.py:8", [30]),
    ("convert", "calls/convert.py:5", [31, 32]),
    ("default_convertor", "calls/convert.py:9", [32]),
    ("super", "stub builtins.pyi", [33]),
    ("flush", "calls/writer.py:10", [33]),
    ("join", "stub posixpath.pyi", [34]),
    ("len", "stub builtins.pyi", [35]),
]


async def test_outgoing_calls_of_every_site_kind(sites: LanguageClient, sites_root: Path) -> None:
    """call_sites, Writer.write (calls/writer.py:26-35), in source order of the first call: `self.log`
    (:27), a method on an annotated parameter (:28), a class (:29), a method on a local bound to it
    (:30), a subscript then an attribute and a call's result (:31, :32), a plain call (:32),
    `super()` and the base's method it reaches (:33), and outside the repository `os.path.join`
    (:34, typeshed's posixpath) and `len` (:35, builtins): each callee once, with its sites."""
    item = await prepare(sites, at(sites_root, "calls/writer.py", 26, "write"))
    calls = await sites.call_hierarchy_outgoing_calls_async(types.CallHierarchyOutgoingCallsParams(item=item))
    got = [(c.to.name, where(sites_root, c.to), [r.start.line + 1 for r in c.from_ranges]) for c in calls or []]
    assert got == WRITE_CALLS


@pytest.mark.parametrize(
    ("path", "line", "name", "expected"),
    [
        ("reg/registry.py", 5, "populate", [("setup", "main.py:6", [9])]),
        (
            "reg/feed.py",
            5,
            "write",
            [
                ("render", "main.py:12", [14]),
                ("render_direct", "main.py:17", [18]),
                ("later", "main.py:22", [23]),
                ("main", "main.py:1", [29]),
            ],
        ),
    ],
    ids=["module-level-instance-imported-in-a-function", "on-return-values-nested-function-class-body"],
)
async def test_incoming_calls_placed_by_inference(
    callers: LanguageClient, callers_root: Path, path: str, line: int, name: str, expected: list[Any]
) -> None:
    """inferred_callers: `apps.populate(...)` (main.py:9) through the module-level instance
    `apps` (reg/registry.py:9) imported inside `setup`; `feed.write` on what `view.get_feed()`
    returns (main.py:14), `View().get_feed().write` (:18), the same inside `later`, a function
    nested in `deferred` (:22-23), which is the caller, and in the body of class Settings
    (:29), whose caller is the module (as basedpyright answers)."""
    item = await prepare(callers, at(callers_root, path, line, name))
    calls = await callers.call_hierarchy_incoming_calls_async(types.CallHierarchyIncomingCallsParams(item=item))
    got = [(c.from_.name, where(callers_root, c.from_), [r.start.line + 1 for r in c.from_ranges]) for c in calls or []]
    assert sorted(got) == sorted(expected)


async def test_outgoing_calls_include_a_property_read(sites: LanguageClient, sites_root: Path) -> None:
    """call_sites, Writer.report (calls/writer.py:41): reading `self.size` runs the property at
    :38 (a call, as basedpyright lists it); `self.convertors`, a plain attribute, is no call."""
    item = await prepare(sites, at(sites_root, "calls/writer.py", 41, "report"))
    calls = await sites.call_hierarchy_outgoing_calls_async(types.CallHierarchyOutgoingCallsParams(item=item))
    got = [(c.to.name, where(sites_root, c.to), [r.start.line + 1 for r in c.from_ranges]) for c in calls or []]
    assert got == [("size", "calls/writer.py:38", [42]), ("len", "stub builtins.pyi", [42])]


async def test_outgoing_calls_through_an_import_alias(sites: LanguageClient, sites_root: Path) -> None:
    """call_sites, Writer.joined (calls/writer.py:44): `pjoin(...)` (:47) runs typeshed's
    `join`, imported `as pjoin` inside the body (:45): a callee whose name is not the call's is
    shown only through an alias the file or the index knows, and this is one."""
    item = await prepare(sites, at(sites_root, "calls/writer.py", 44, "joined"))
    calls = await sites.call_hierarchy_outgoing_calls_async(types.CallHierarchyOutgoingCallsParams(item=item))
    got = [(c.to.name, where(sites_root, c.to), [r.start.line + 1 for r in c.from_ranges]) for c in calls or []]
    assert got == [("join", "stub posixpath.pyi", [47])]


# ---- with the land worker: a request answers at once, the worker completes it ----------------------
WORKER = ClientServerConfig(
    server_command=SERVER.server_command, server_env={**(SERVER.server_env or {}), "CODEHOP_PRECOMPUTE": "1"}
)


@pytest.fixture(scope="module")
def worker_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_fixture("call_sites", tmp_path_factory.mktemp("lspcalls"))


@pytest_lsp.fixture(config=WORKER, scope="module")
async def with_worker(lsp_client: LanguageClient, worker_root: Path):  # type: ignore[no-untyped-def]
    await initialize(lsp_client, worker_root)
    yield
    await lsp_client.shutdown_session()


async def landing_status(client: LanguageClient) -> dict[str, Any]:
    got = await client.protocol.send_request_async("codehop/landingStatus", {})
    return {k: getattr(got, k) for k in ("running", "asked", "pending")} if not isinstance(got, dict) else got


async def test_a_first_request_is_complete_and_the_worker_has_the_rest(
    with_worker: LanguageClient, worker_root: Path
) -> None:
    """call_sites with the land worker on (as an editor's server runs), Writer.write
    (calls/writer.py:26) asked right after the index is ready, before the worker has landed
    anything: the request asks Jedi itself at the sites the cache does not know, so its first
    answer is the complete one (issue 27: a checker that asks at once sees it), `join` and `len`
    outside the repository included, in the editor's budget; what the server's Jedi could not
    place went to the worker, and once nothing is pending the same request answers the same."""
    import time

    item = await prepare(with_worker, at(worker_root, "calls/writer.py", 26, "write"))
    t = time.monotonic()
    calls = await with_worker.call_hierarchy_outgoing_calls_async(types.CallHierarchyOutgoingCallsParams(item=item))
    first_s = time.monotonic() - t
    first = [(c.to.name, where(worker_root, c.to), [r.start.line + 1 for r in c.from_ranges]) for c in calls or []]
    assert first == WRITE_CALLS and first_s < 25.0, (first, first_s)
    assert (await landing_status(with_worker))["running"]
    deadline = time.monotonic() + 90
    while (await landing_status(with_worker))["pending"]:
        assert time.monotonic() < deadline
        await asyncio.sleep(0.2)
    calls = await with_worker.call_hierarchy_outgoing_calls_async(types.CallHierarchyOutgoingCallsParams(item=item))
    got = [(c.to.name, where(worker_root, c.to), [r.start.line + 1 for r in c.from_ranges]) for c in calls or []]
    assert got == WRITE_CALLS


@pytest.fixture(scope="module")
def worker_callers_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_fixture("inferred_callers", tmp_path_factory.mktemp("lspcalls"))


@pytest_lsp.fixture(config=WORKER, scope="module")
async def callers_with_worker(lsp_client: LanguageClient, worker_callers_root: Path):  # type: ignore[no-untyped-def]
    await initialize(lsp_client, worker_callers_root)
    yield
    await lsp_client.shutdown_session()


async def test_a_first_incoming_request_places_callers_by_inference(
    callers_with_worker: LanguageClient, worker_callers_root: Path
) -> None:
    """inferred_callers with the land worker on, `Feed.write`'s callers (reg/feed.py:5) asked right
    after the index is ready: each is a call on an inferred object (no index edge places it), and
    the first answer lists all four callers of test_incoming_calls_placed_by_inference, never
    another (the request asks Jedi at the `.name(` sites the cache does not know); once nothing
    asked is pending, the same."""
    import time

    expected = [
        ("render", "main.py:12", [14]),
        ("render_direct", "main.py:17", [18]),
        ("later", "main.py:22", [23]),
        ("main", "main.py:1", [29]),
    ]
    client, root = callers_with_worker, worker_callers_root
    item = await prepare(client, at(root, "reg/feed.py", 5, "write"))
    calls = await client.call_hierarchy_incoming_calls_async(types.CallHierarchyIncomingCallsParams(item=item))
    first = [(c.from_.name, where(root, c.from_), [r.start.line + 1 for r in c.from_ranges]) for c in calls or []]
    assert sorted(first) == sorted(expected), first
    deadline = time.monotonic() + 90
    while (await landing_status(client))["pending"]:
        assert time.monotonic() < deadline
        await asyncio.sleep(0.2)
    calls = await client.call_hierarchy_incoming_calls_async(types.CallHierarchyIncomingCallsParams(item=item))
    got = [(c.from_.name, where(root, c.from_), [r.start.line + 1 for r in c.from_ranges]) for c in calls or []]
    assert sorted(got) == sorted(expected)


@pytest.fixture(scope="module")
def opened_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_fixture("call_sites", tmp_path_factory.mktemp("lspcalls"))


@pytest_lsp.fixture(config=WORKER, scope="module")
async def opened_with_worker(lsp_client: LanguageClient, opened_root: Path):  # type: ignore[no-untyped-def]
    await initialize(lsp_client, opened_root)
    yield
    await lsp_client.shutdown_session()


async def test_a_document_the_editor_opens_is_landed_before_the_pass(
    opened_with_worker: LanguageClient, opened_root: Path
) -> None:
    """call_sites with the land worker on: the editor opens calls/convert.py once the index is
    ready, then keeps asking (a references request every 0.8 s: pauses long enough for the sites
    asked to be landed, too short for the worker's pass). Once nothing is pending, the landing
    cache holds convert.py's sites (`str(value)` :6, `Convertor()` :10) and no other file's:
    the opened document went first (before, nothing was landed: the pass never ran)."""
    import sqlite3
    import time

    client, root = opened_with_worker, opened_root
    await client.text_document_references_async(  # the index is ready
        types.ReferenceParams(
            text_document=at(root, "calls/sink.py", 4, "Sink").text_document,
            position=at(root, "calls/sink.py", 4, "Sink").position,
            context=types.ReferenceContext(include_declaration=False),
        )
    )
    text = (root / "calls/convert.py").read_text()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=at(root, "calls/convert.py", 1, "").text_document.uri, language_id="python", version=1, text=text
            )
        )
    )
    deadline = time.monotonic() + 90
    while True:
        pos = at(root, "calls/sink.py", 4, "Sink")
        await client.text_document_references_async(
            types.ReferenceParams(
                text_document=pos.text_document,
                position=pos.position,
                context=types.ReferenceContext(include_declaration=False),
            )
        )
        status = await landing_status(client)
        if status["asked"] >= 1 and not status["pending"]:
            break
        assert time.monotonic() < deadline, status
        await asyncio.sleep(0.8)
    db = sqlite3.connect(root / ".codehop" / "landings.db")
    try:
        files = {r[0] for r in db.execute("SELECT rel_path FROM sites")}
        lines = {r[0] for r in db.execute("SELECT line FROM sites WHERE rel_path = 'calls/convert.py'")}
    finally:
        db.close()
    assert files == {"calls/convert.py"} and {6, 10} <= lines, (files, lines)
