"""codehop.frontends.lsp_server's navigation features, driven by a real pytest-lsp client over stdio:
references through pointers, call hierarchy, type hierarchy, document and workspace symbols.

Fixtures: fixtures_repos/dependents (callers through re-exports, `as`, aliases, a module alias;
subclasses across files; an inherited member), fixtures_repos/reexport_chain (a function reached
through a star import), fixtures_repos/diamond (Both(Left, Right), both arms on Base).
Lines in docstrings are 1-based; LSP lines are one less.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.test_lsp_server import SERVER, at, copy_fixture, initialize, uri

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(120)]


@pytest.fixture(scope="module")
def dep_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_fixture("dependents", tmp_path_factory.mktemp("lspnav"))


@pytest.fixture(scope="module")
def diamond_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_fixture("diamond", tmp_path_factory.mktemp("lspnav"))


@pytest.fixture(scope="module")
def chain_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_fixture("reexport_chain", tmp_path_factory.mktemp("lspnav"))


@pytest_lsp.fixture(config=SERVER, scope="module")
async def dep(lsp_client: LanguageClient, dep_root: Path):  # type: ignore[no-untyped-def]
    await initialize(lsp_client, dep_root)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=SERVER, scope="module")
async def diamond(lsp_client: LanguageClient, diamond_root: Path):  # type: ignore[no-untyped-def]
    await initialize(lsp_client, diamond_root)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=SERVER, scope="module")
async def chain(lsp_client: LanguageClient, chain_root: Path):  # type: ignore[no-untyped-def]
    await initialize(lsp_client, chain_root)
    yield
    await lsp_client.shutdown_session()


def spots(root: Path, locations: Any) -> list[tuple[str, int, str]]:
    """(path, 1-based line, the text the range covers) of each location, in order."""
    out = []
    for loc in locations or []:
        path = Path(loc.uri.removeprefix("file://")).resolve().relative_to(root.resolve()).as_posix()
        text = (root / path).read_text().splitlines()[loc.range.start.line]
        out.append((path, loc.range.start.line + 1, text[loc.range.start.character : loc.range.end.character]))
    return sorted(out)


async def references(client: LanguageClient, pos: types.TextDocumentPositionParams, include: bool) -> Any:
    return await client.text_document_references_async(
        types.ReferenceParams(
            text_document=pos.text_document,
            position=pos.position,
            context=types.ReferenceContext(include_declaration=include),
        )
    )


async def test_references_through_reexport_alias_as_and_module_alias(dep: LanguageClient, dep_root: Path) -> None:
    """dependents, `area` at geo/core.py:4: without the declaration, every use through `geo`'s
    re-export, `as surface`, `measure = area`, `g.area`, and the two re-export lines of
    geo/__init__.py; with it, the declaration too."""
    got = spots(dep_root, await references(dep, at(dep_root, "geo/core.py", 4, "area"), include=False))
    assert got == [
        ("app/local.py", 5, "area"),
        ("app/local.py", 8, "a"),
        ("app/local.py", 8, "area"),
        ("app/main.py", 4, "area"),
        ("app/main.py", 4, "surface"),
        ("app/main.py", 5, "measure"),
        ("app/main.py", 12, "area"),
        ("app/main.py", 13, "surface"),
        ("app/main.py", 14, "area"),
        ("app/main.py", 15, "measure"),
        ("app/main.py", 22, "area"),
        ("geo/__init__.py", 3, "area"),
        ("geo/__init__.py", 4, "area"),
        ("geo/core.py", 19, "area"),
        ("tests/test_geo.py", 3, "area"),
        ("tests/test_geo.py", 8, "area"),
    ]
    with_decl = spots(dep_root, await references(dep, at(dep_root, "app/main.py", 13, "surface"), include=True))
    assert sorted(set(with_decl) - set(got)) == [("geo/core.py", 4, "area")]


async def test_references_through_a_star_import(chain: LanguageClient, chain_root: Path) -> None:
    """reexport_chain, `checkout` at shop/api/flow.py:6 reaches app.py through `from .flow import *`
    (shop/api/__init__.py:4) and `from .api import Cart, checkout` (shop/__init__.py:6): the
    re-export that names it is listed whatever includeDeclaration says (which adds only the
    declaration); the star import, which does not name it, is not (basedpyright's answer too)."""
    pos = at(chain_root, "shop/api/flow.py", 6, "checkout")
    assert spots(chain_root, await references(chain, pos, include=False)) == [
        ("app.py", 3, "checkout"),
        ("app.py", 9, "checkout"),
        ("shop/__init__.py", 6, "checkout"),
    ]
    assert spots(chain_root, await references(chain, pos, include=True)) == [
        ("app.py", 3, "checkout"),
        ("app.py", 9, "checkout"),
        ("shop/__init__.py", 6, "checkout"),
        ("shop/api/flow.py", 6, "checkout"),
    ]


async def test_references_of_an_inherited_member(dep: LanguageClient, dep_root: Path) -> None:
    """dependents, `describe` declared on Shape (geo/core.py:15) is used on subclasses only:
    `Square(2).describe()` (app/main.py:16) and `cube.describe()` (app/main.py:18)."""
    got = spots(dep_root, await references(dep, at(dep_root, "app/main.py", 18, "describe"), include=False))
    assert got == [("app/main.py", 16, "describe"), ("app/main.py", 18, "describe")]


async def test_references_of_a_settings_value(dep: LanguageClient, dep_root: Path) -> None:
    """dependents, TIMEOUT (conf/base.py:3) read as `prod.TIMEOUT` (app/main.py:18) through the
    star import (conf/prod.py:3, which does not name it: not a reference)."""
    got = spots(dep_root, await references(dep, at(dep_root, "conf/base.py", 3, "TIMEOUT"), include=True))
    assert got == [("app/main.py", 18, "TIMEOUT"), ("conf/base.py", 3, "TIMEOUT")]


async def test_call_hierarchy(dep: LanguageClient, dep_root: Path) -> None:
    """dependents: incoming calls of area (geo/core.py:4) come from report (app/main.py:11, four
    call sites) and test_area (tests/test_geo.py:7); report's outgoing calls, in source order:
    the builtins sum and print, area (once a line, `surface(...)` included), Square, describe
    (inherited from Shape, on `Square(2)` and on `cube`), Cube."""
    pos = at(dep_root, "geo/core.py", 4, "area")
    items = await dep.text_document_prepare_call_hierarchy_async(
        types.CallHierarchyPrepareParams(text_document=pos.text_document, position=pos.position)
    )
    assert items is not None and [(i.name, i.kind, i.selection_range.start.line + 1) for i in items] == [
        ("area", types.SymbolKind.Function, 4)
    ]
    incoming = await dep.call_hierarchy_incoming_calls_async(types.CallHierarchyIncomingCallsParams(item=items[0]))
    assert sorted(
        (c.from_.name, c.from_.range.start.line + 1, [r.start.line + 1 for r in c.from_ranges]) for c in incoming or []
    ) == [("late", 4, [8, 8]), ("report", 11, [12, 13, 14, 15]), ("test_area", 7, [8])]
    report = next(c.from_ for c in incoming or [] if c.from_.name == "report")
    outgoing = await dep.call_hierarchy_outgoing_calls_async(types.CallHierarchyOutgoingCallsParams(item=report))
    assert [(c.to.name, c.to.kind, [r.start.line + 1 for r in c.from_ranges]) for c in outgoing or []] == [
        ("sum", types.SymbolKind.Function, [12]),
        ("area", types.SymbolKind.Function, [12, 13, 14, 15]),
        ("print", types.SymbolKind.Function, [16, 18]),
        ("Square", types.SymbolKind.Class, [16]),
        ("describe", types.SymbolKind.Method, [16, 18]),
        ("Cube", types.SymbolKind.Class, [17]),
    ]


async def test_type_hierarchy_diamond_mro_and_subtypes_across_files(
    diamond: LanguageClient, diamond_root: Path
) -> None:
    """diamond: supertypes of Both (kinds/both.py:7) in MRO order Left, Right, Base; subtypes of
    Base (kinds/base.py:4) are Left (kinds/left.py:6) and Right (kinds/right.py:6)."""
    pos = at(diamond_root, "kinds/both.py", 7, "Both")
    items = await diamond.text_document_prepare_type_hierarchy_async(
        types.TypeHierarchyPrepareParams(text_document=pos.text_document, position=pos.position)
    )
    assert items is not None and [i.name for i in items] == ["Both"]
    supers = await diamond.type_hierarchy_supertypes_async(types.TypeHierarchySupertypesParams(item=items[0]))
    assert [(s.name, s.uri.rsplit("/", 1)[1], s.selection_range.start.line + 1) for s in supers or []] == [
        ("Left", "left.py", 6),
        ("Right", "right.py", 6),
        ("Base", "base.py", 4),
    ]
    base = next(s for s in supers or [] if s.name == "Base")
    subs = await diamond.type_hierarchy_subtypes_async(types.TypeHierarchySubtypesParams(item=base))
    assert [(s.name, s.uri.rsplit("/", 1)[1]) for s in subs or []] == [("Left", "left.py"), ("Right", "right.py")]
    # a function is not a type
    pos = at(diamond_root, "kinds/both.py", 11, "make")
    assert (
        await diamond.text_document_prepare_type_hierarchy_async(
            types.TypeHierarchyPrepareParams(text_document=pos.text_document, position=pos.position)
        )
        is None
    )


async def test_document_symbols_nested(dep: LanguageClient, dep_root: Path) -> None:
    """dependents, geo/core.py: area (:4), Shape (:9) holding area (:12) and describe (:15), measure (:19)."""
    symbols = await dep.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri(dep_root / "geo" / "core.py")))
    )

    def tree(nodes: Any) -> list[Any]:
        return [
            (
                n.name,
                n.kind,
                n.selection_range.start.line + 1,
                n.selection_range.start.character,
                tree(n.children or []),
            )
            for n in nodes or []
        ]

    assert tree(symbols) == [
        ("area", types.SymbolKind.Function, 4, 4, []),
        (
            "Shape",
            types.SymbolKind.Class,
            9,
            6,
            [
                ("area", types.SymbolKind.Method, 12, 8, []),
                ("describe", types.SymbolKind.Method, 15, 8, []),
            ],
        ),
        ("measure", types.SymbolKind.Variable, 19, 0, []),
    ]
    shape = symbols[1]  # type: ignore[index]
    assert (shape.range.start.line + 1, shape.range.end.line + 1) == (9, 16)


async def test_workspace_symbols_ranked(dep: LanguageClient, dep_root: Path) -> None:
    """dependents: `area` exact names first (the function before the methods, tests last), then
    prefixes; `shp` finds Shape by subsequence; `Shape.area` and `core.area` match qualnames."""

    async def query(q: str) -> list[tuple[str, str]]:
        found = await dep.workspace_symbol_async(types.WorkspaceSymbolParams(query=q))
        return [(s.name, f"{s.container_name}.{s.name}") for s in found or []]

    assert await query("area") == [
        ("area", "geo.core.area"),
        ("area", "app.cube.Cube.area"),
        ("area", "geo.core.Shape.area"),
        ("area", "geo.square.Square.area"),
        ("test_area", "tests.test_geo.test_area"),
    ]
    assert (await query("Sq"))[0] == ("Square", "geo.square.Square")
    assert (await query("shp"))[0] == ("Shape", "geo.core.Shape")
    assert await query("Shape.area") == [("area", "geo.core.Shape.area")]
    assert (await query("core.area"))[0] == ("area", "geo.core.area")
    t0 = time.perf_counter()
    await query("desc")
    assert time.perf_counter() - t0 < 1.0
