"""What the symbol table learns itself (issue 12): generic bases, names rebound after their
definition, TYPE_CHECKING imports, try/except ImportError fallbacks, module __getattr__ exports.
Fixture: fixtures_repos/inferred (see fixtures_repos/README.md)."""

from __future__ import annotations

import pytest

from codehop.app import App, Config


@pytest.fixture
def app(fixture_repo):  # type: ignore[no-untyped-def]
    a = App(fixture_repo("inferred"), Config(resolvers=("symbol_table",)))
    yield a
    a.close()


@pytest.mark.parametrize(
    ("dotted", "where"),
    [
        # `class WebSocket(HTTPConnection[StateT])`: the MRO goes through the subscripted base
        ("wire.connection.WebSocket.url", ("wire/connection.py", 13, "wire.connection.HTTPConnection.url")),
        ("wire.WebSocket.url", ("wire/connection.py", 13, "wire.connection.HTTPConnection.url")),
        # `Square = add_eq(add_repr(Square))` keeps the class and its members
        ("wire.shapes.Square", ("wire/shapes.py", 11, "wire.shapes.Square")),
        ("wire.shapes.Square.area", ("wire/shapes.py", 14, "wire.shapes.Square.area")),
        # `if TYPE_CHECKING: from .client import Client`
        ("wire.models.Client", ("wire/client.py", 15, "wire.client.Client")),
        # try: from ._speedups import fast_join as join_parts / except ImportError: from ._pure import ...
        ("wire.models.join_parts", ("wire/_pure.py", 1, "wire._pure.join_parts")),
        # try: from ._pure import join_parts as main / except ImportError: def main(): (a stub)
        ("wire.cli.main", ("wire/_pure.py", 1, "wire._pure.join_parts")),
        # def __getattr__(name): if name == "OldClient": from .client import Client as _Client; return _Client
        ("wire.OldClient", ("wire/client.py", 15, "wire.client.Client")),
        # _LAZY = {"Headers": ".models", "join": ("._pure", "join_parts")} read by __getattr__
        ("wire.lazy.Headers", ("wire/models.py", 12, "wire.models.Headers")),
        ("wire.lazy.join", ("wire/_pure.py", 1, "wire._pure.join_parts")),
        # `if __name__ == "__main__": from wire.live import Live` binds nothing for an importer
        ("wire.live.Live", ("wire/live.py", 1, "wire.live.Live")),
        # `try: import ssl / except ImportError: pass / else: class SecureConnection`: a class like any other
        ("wire.secure.TlsConnection.handshake", ("wire/secure.py", 10, "wire.secure.SecureConnection.handshake")),
    ],
)
def test_table_resolves(app, dotted, where):  # type: ignore[no-untyped-def]
    res = app.table.resolve(dotted)
    assert res is not None and not res.is_external
    assert (res.target.rel_path, res.target.line, res.target.qualname) == where


def test_rebinding_line_is_a_pointer(app):  # type: ignore[no-untyped-def]
    rows = [x for x in app.store.xrefs(rel_path="wire/shapes.py", line=18) if x.anchor_text == "Square"]
    assert len(rows) == 1 and str(rows[0].ref_type) == "alias" and rows[0].target == "wire.shapes.Square"
    assert (rows[0].target_path, rows[0].target_line) == ("wire/shapes.py", 11)


def test_generic_base_is_in_the_mro(app):  # type: ignore[no-untyped-def]
    assert app.table.mro("wire.connection.WebSocket")[:2] == (
        "wire.connection.WebSocket",
        "wire.connection.HTTPConnection",
    )


def test_lazy_export_does_not_shadow_a_real_binding(app):  # type: ignore[no-untyped-def]
    # `Client` is imported at wire/__init__.py:3; __getattr__ never runs for it
    b = app.store.binding("wire", "Client")
    assert b is not None and b.line == 3
    lazy = app.store.binding("wire", "OldClient")
    assert lazy is not None and lazy.line == 9 and lazy.target == "wire.client.Client"


def test_import_fallback_stub_is_a_pointer(app):  # type: ignore[no-untyped-def]
    rows = [x for x in app.store.xrefs(rel_path="wire/cli.py", line=5) if x.anchor_text == "main"]
    assert len(rows) == 1 and rows[0].target == "wire._pure.join_parts"


def test_a_class_defined_under_a_condition_has_its_own_chunk(app):  # type: ignore[no-untyped-def]
    chunks = app.store.chunks_named("wire.secure.SecureConnection")
    assert [(c.rel_path, c.start_line) for c in chunks] == [("wire/secure.py", 7)]
    assert "Only when ssl imports" in chunks[0].text
