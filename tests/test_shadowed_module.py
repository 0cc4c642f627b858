"""A package that rebinds a submodule's name (`def render` in `mdkit/__init__.py`, beside the
submodule `mdkit/render.py` it imports from first): `mdkit.render` is the function at run time,
and the symbol table says so; the reader does not take it for the module.

Fixture `shadowed_module` (fixtures_repos/README.md).
"""

from __future__ import annotations

from shared import FIXTURES, copy_fixture

from codehop.app import App, Config


def test_the_package_binding_shadows_the_submodule(tmp_path) -> None:  # type: ignore[no-untyped-def]
    a = App(copy_fixture(FIXTURES / "shadowed_module", tmp_path / "shadowed_module"), Config())
    try:
        res = a.table.resolve("mdkit.render")
        assert res is not None and (res.target.rel_path, res.target.line) == ("mdkit/__init__.py", 6)
        inner = a.table.resolve("mdkit.render.Renderer")  # (the submodule's own names still resolve)
        assert inner is not None and (inner.target.rel_path, inner.target.line) == ("mdkit/render.py", 1)
    finally:
        a.close()


def test_the_reader_reads_the_package_binding(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # (`mdkit.render` resolves to the function in `mdkit/__init__.py`: a mention of it is no module)
    from codehop.reading.question import SubjectFinder

    a = App(copy_fixture(FIXTURES / "shadowed_module", tmp_path / "shadowed_module"), Config())
    try:
        read = SubjectFinder(a.table).read("does mdkit.render escape raw HTML by default?")
        assert [(s.dotted, s.parameter.name if s.parameter else "") for s in read.subjects] == [
            ("mdkit.render", "escape")
        ]
    finally:
        a.close()
