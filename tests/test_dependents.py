"""codehop.navigation.dependents on a real index of fixtures_repos/dependents (and inherited_member).

Every list is exact: a missing site and an extra site both fail.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from codehop.answer.orchestrator import Limits
from codehop.app import App
from codehop.kernel.records import State
from codehop.navigation.dependents import DependentsFinder
from codehop.navigation.sites import Relation


@pytest.fixture
def finder(fixture_repo: Callable[[str], Path]) -> Iterator[Callable[[str], tuple[App, DependentsFinder]]]:
    apps: list[App] = []

    def make(name: str) -> tuple[App, DependentsFinder]:
        app = App(fixture_repo(name))
        apps.append(app)
        return app, DependentsFinder(app.store, app.table, app.root)

    yield make
    for app in apps:
        app.close()


def sites(app: App, engine: DependentsFinder, symbol: str, **kw: object) -> list[tuple[str, int, str]]:
    found = engine.dependents(app.resolve_symbol(symbol).target, **kw)  # type: ignore[arg-type]
    return [(f"{s.rel_path}:{s.line}", s.code, str(s.relation)) for s in found.sites]


def test_callers_through_reexport_alias_as_and_module_alias(finder):
    """dependents: geo.core.area (geo/core.py:4) is re-exported (geo/__init__.py:3), renamed
    (`as surface`, :4), aliased (`measure = area`, geo/core.py:19), reached as `g.area` through
    `import geo as g`, imported inside a function (app/local.py:5-6), passed as a default
    argument, and called from a test file."""
    app, engine = finder("dependents")
    assert sites(app, engine, "geo.core.area") == [
        ("app/local.py:5", "from geo.core import area as a", "imports"),
        ("app/local.py:8", "return a(shape), core.area(shape)", "calls"),
        ("app/local.py:8", "return a(shape), core.area(shape)", "calls"),
        ("app/main.py:4", "from geo import area, surface", "imports"),
        ("app/main.py:4", "from geo import area, surface", "imports"),
        ("app/main.py:5", "from geo.core import measure", "imports"),
        ("app/main.py:12", "total = sum(area(s) for s in shapes)", "calls"),
        ("app/main.py:13", "first = surface(shapes[0])", "calls"),
        ("app/main.py:14", "second = g.area(shapes[1])", "calls"),
        ("app/main.py:15", "third = measure(shapes[2])", "calls"),
        ("app/main.py:22", "def pick(fn=area):", "reads"),
        ("geo/__init__.py:3", "from .core import area, Shape", "reexports"),
        ("geo/__init__.py:4", "from .core import area as surface", "reexports"),
        ("geo/core.py:19", "measure = area", "aliases"),
        ("tests/test_geo.py:3", "from geo.core import area", "imports"),
        ("tests/test_geo.py:8", "assert area(Square(3)) == 9", "calls"),
    ]
    found = engine.dependents(app.resolve_symbol("geo.core.area").target)
    assert found.complete
    assert {s.rel_path for s in found.sites if s.is_test} == {"tests/test_geo.py"}
    # the same declaration through its re-exported name
    assert sites(app, engine, "geo.surface") == sites(app, engine, "geo.core.area")


def test_subclasses_across_files_transitively(finder):
    """dependents: Square (geo/square.py:6) subclasses Shape; Cube (app/cube.py:6) subclasses Square."""
    app, engine = finder("dependents")
    assert sites(app, engine, "geo.core.Shape", relations=(Relation.INHERITS,), transitive=True) == [
        ("app/cube.py:6", "class Cube(Square):", "inherits"),
        ("geo/square.py:6", "class Square(Shape):", "inherits"),
    ]
    assert [s for s, _p, _l, _b in engine.subclasses("geo.core.Shape")] == ["geo.square.Square", "app.cube.Cube"]
    assert [s for s, _p, _l, _b in engine.subclasses("geo.core.Shape", transitive=False)] == ["geo.square.Square"]


def test_overrides_of_a_method_across_files(finder):
    """dependents: Shape.area (geo/core.py:12) is overridden by Square.area (geo/square.py:10), which
    Cube.area (app/cube.py:7) overrides in turn; describe calls it through self (geo/core.py:16)."""
    app, engine = finder("dependents")
    found = engine.dependents(app.resolve_symbol("geo.core.Shape.area").target)
    assert [(f"{s.rel_path}:{s.line}", str(s.relation), s.via) for s in found.sites] == [
        ("app/cube.py:7", "overrides", "app.cube.Cube.area"),
        ("geo/core.py:16", "calls", ""),
        ("geo/square.py:10", "overrides", "geo.square.Square.area"),
    ]
    assert not found.complete and "unknown type" in found.notes[0]  # a method: dynamic dispatch


def test_uses_of_an_inherited_member_on_subclasses(finder):
    """dependents: describe is declared on Shape (geo/core.py:15) and used as `Square(2).describe()`
    (app/main.py:16) and `cube = Cube(1); cube.describe()` (app/main.py:18)."""
    app, engine = finder("dependents")
    found = engine.dependents(app.resolve_symbol("geo.core.Shape.describe").target)
    assert [(f"{s.rel_path}:{s.line}:{s.col}", str(s.relation), s.via) for s in found.sites] == [
        ("app/main.py:16:20", "uses_inherited", "geo.square.Square"),
        ("app/main.py:18:15", "uses_inherited", "app.cube.Cube"),
    ]


def test_settings_value_read_through_a_star_import(finder):
    """dependents: TIMEOUT (conf/base.py:3) is star-imported by conf/prod.py:3 and read as
    `prod.TIMEOUT` at app/main.py:18."""
    app, engine = finder("dependents")
    assert sites(app, engine, "conf.base.TIMEOUT") == [
        ("app/main.py:18", "print(cube.describe(), prod.TIMEOUT)", "reads"),
        ("conf/prod.py:3", "from .base import *  # noqa: F403", "reexports"),
    ]


def test_callees_from_the_graph(finder):
    """callees: report (app/main.py:11) calls area four ways, Square and Cube, and `describe` on a
    Square (`Square(2).describe()`) and on a Cube (`cube = Cube(1)` then `cube.describe()`)."""
    app, engine = finder("dependents")
    found = engine.callees(app.resolve_symbol("app.main.report").target)
    assert [(s.line, s.via) for s in found.sites] == [
        (12, "geo.core.area"),
        (13, "geo.core.area"),
        (14, "geo.core.area"),
        (15, "geo.core.area"),
        (16, "geo.square.Square"),
        (16, "geo.core.Shape.describe"),
        (17, "app.cube.Cube"),
        (18, "geo.core.Shape.describe"),
    ]
    assert found.complete
    describe = engine.callees(app.resolve_symbol("geo.core.Shape.describe").target)
    assert [(s.line, s.via) for s in describe.sites] == [(16, "geo.core.Shape.area")] and describe.complete


def test_callees_on_objects_of_unknown_type_are_counted(finder):
    """callees: area (geo/core.py:4) calls `shape.area()` on a parameter: partial, and says so."""
    app, engine = finder("dependents")
    found = engine.callees(app.resolve_symbol("geo.core.area").target)
    assert found.sites == () and found.notes == (
        "1 call(s) on objects of unknown type (parameters, locals, call results) are not traced statically",
    )


def test_the_limit_cuts_and_says_so(finder):
    """dependents: a limit below the number of sites gives `cut`, never `complete`."""
    app, engine = finder("dependents")
    found = engine.dependents(app.resolve_symbol("geo.core.area").target, limit=3)
    assert len(found.sites) == 3 and found.cut and not found.complete


def test_member_alias_in_class_body(finder):
    """aliases: Tag.to_json (codecs_lib/encoders.py:29) is aliased `tag = to_json` (:33) and called as
    `Tag("user").tag("ada")` (main.py:11)."""
    app, engine = finder("aliases")
    assert sites(app, engine, "codecs_lib.encoders.Tag.to_json") == [
        ("codecs_lib/encoders.py:33", "tag = to_json", "aliases"),
        ("main.py:11", 'print(Tag("user").tag("ada"))', "calls"),
    ]


def test_importers_of_a_module(finder):
    """dependents: geo.core (geo/core.py) is imported by name at app/main.py:5, geo/__init__.py:3-4
    (re-exports), geo/square.py:3 and tests/test_geo.py:3."""
    app, engine = finder("dependents")
    got = sites(app, engine, "geo.core", relations=(Relation.IMPORTS, Relation.REEXPORTS))
    assert [(where, rel) for where, _code, rel in got] == [
        ("app/main.py:5", "imports"),
        ("geo/__init__.py:3", "reexports"),
        ("geo/__init__.py:3", "reexports"),
        ("geo/__init__.py:4", "reexports"),
        ("geo/square.py:3", "imports"),
        ("tests/test_geo.py:3", "imports"),
    ]


# ---- uses through objects of unknown type, placed by inference (fixture untyped_calls) ------------
@pytest.fixture(scope="module")
def untyped(tmp_path_factory):  # type: ignore[no-untyped-def]
    import shutil

    from codehop.app import App, Config

    dest = tmp_path_factory.mktemp("untyped") / "untyped_calls"
    shutil.copytree(Path(__file__).resolve().parent.parent / "fixtures_repos" / "untyped_calls", dest)
    app = App(dest, Config())
    yield app
    app.close()


@pytest.mark.slow
def test_a_call_on_a_typed_parameter_is_placed_and_a_namesake_is_not(untyped):
    a = untyped.navigator().ask("what calls Retry.is_retry?", Limits())
    assert "svc/pool.py:6" in a.answer  # `retries: Retry`
    assert "svc/pool.py:10" not in a.answer.split("Partial")[0]  # `o: Other`: another is_retry
    # `thing.is_retry(2)`: nothing to infer from, so the list may be short: said, not complete
    assert a.state is not State.COMPLETE
    assert "svc/pool.py:14" in a.answer


@pytest.mark.slow
def test_every_site_placed_by_inference_is_complete(untyped):
    a = untyped.navigator().ask("what calls Retry.sleep?", Limits())
    assert a.state is State.COMPLETE
    assert "svc/pool.py:5" in a.answer


@pytest.mark.slow
def test_a_call_on_a_call_result_is_placed_by_inference(untyped):
    a = untyped.navigator().ask("what does run call?", Limits())
    assert "svc.retry.Retry.sleep" in a.answer and "svc/retry.py:5" in a.answer
    assert a.state is State.COMPLETE
