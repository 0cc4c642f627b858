"""References through re-exports and the call hierarchy of codehop.frontends.lsp_server, each site
kind with its exact expected set, driven by a real pytest-lsp client over stdio.

Fixtures: fixtures_repos/reexport_refs (a package `__init__` that only re-exports),
fixtures_repos/call_sites (every kind of outgoing call site), fixtures_repos/inferred_callers
(callers the index places only by inference). Lines in docstrings are 1-based; LSP lines are one less.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

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
]
REEXPORTS = [("lib/__init__.py", 3, "start_engine"), ("lib/__init__.py", 4, "start_engine")]


@pytest.mark.parametrize("include", [False, True], ids=["without-declaration", "with-declaration"])
async def test_references_list_the_reexport_lines_after_the_uses(
    refs: LanguageClient, refs_root: Path, include: bool
) -> None:
    """reexport_refs, `start_engine` at lib/engine.py:4: the uses in main.py (through the package,
    `as launch`, `lib.start_engine`), then the re-export lines of lib/__init__.py:3-4, whatever
    includeDeclaration says; it adds only the declaration, first."""
    got = spots(refs_root, await references(refs, at(refs_root, "lib/engine.py", 4, "start_engine"), include))
    declaration = [("lib/engine.py", 4, "start_engine")] if include else []
    assert got == declaration + USES + REEXPORTS
