"""PointerFinder.sites(): the attribute and call sites of a name in the context, at the column of
the name (the token a position-based rung resolves), and the rungs that resolve them.
Fixture: fixtures_repos/inferred (see fixtures_repos/README.md)."""

from __future__ import annotations

import pytest

from codehop.app import App, Config
from codehop.kernel.records import ContextItem, PendingReference, Provenance, RefType, Via
from codehop.reading.pointers import PointerFinder


@pytest.fixture
def app(fixture_repo):  # type: ignore[no-untyped-def]
    a = App(fixture_repo("inferred"), Config(resolvers=("symbol_table",)))
    yield a
    a.close()


def context_of(app: App, *paths: str) -> list[ContextItem]:
    items: list[ContextItem] = []
    seen: set[int] = set()
    for path in paths:
        for line in range(1, len((app.root / path).read_text().splitlines()) + 1):
            for c in app.store.chunks_at(path, line):
                if c.key not in seen:
                    seen.add(c.key)
                    items.append(ContextItem(chunk=c, hop=0, via=Via.BM25))
    return items


# (name, owners) -> the sites, in order: (path, line, col, anchor as written, ref_type, ref_target)
SITES = {
    ("extract_cookies", ()): [
        (
            "wire/client.py",
            32,
            21,
            "self.cookies.extract_cookies",
            RefType.TYPE_ANNOTATION,
            "wire.client.Client.cookies.extract_cookies",
        )
    ],
    ("get_list", ()): [
        (
            "wire/client.py",
            42,
            38,
            "self.send(...).headers.get_list",
            RefType.TYPE_ANNOTATION,
            "wire.client.Client.send.headers.get_list",
        )
    ],
    ("read", ()): [
        (
            "wire/client.py",
            36,
            59,
            "self.transport_for(...).handle_request(...).read",
            RefType.CALL,
            "wire.client.Client.transport_for.handle_request.read",
        )
    ],
    # the owner's chunk comes first
    ("handle_request", ("wire.client.Client.fallback",)): [
        (
            "wire/client.py",
            39,
            27,
            "self.backup.handle_request",
            RefType.TYPE_ANNOTATION,
            "wire.client.Client.backup.handle_request",
        ),
        (
            "wire/client.py",
            31,
            35,
            "self._transport.handle_request",
            RefType.TYPE_ANNOTATION,
            "wire.client.Client._transport.handle_request",
        ),
        (
            "wire/client.py",
            36,
            39,
            "self.transport_for(...).handle_request",
            RefType.CALL,
            "wire.client.Client.transport_for.handle_request",
        ),
    ],
}


@pytest.mark.parametrize(("key", "want"), list(SITES.items()), ids=[k[0] for k in SITES])
def test_sites(app, key, want):  # type: ignore[no-untyped-def]
    name, owners = key
    got = PointerFinder(app.table).sites(name, context_of(app, "wire/client.py"), owners)
    assert [(r.origin_path, r.origin_line, r.origin_col, r.anchor_text, r.ref_type, r.ref_target) for r in got] == want
    for r in got:  # the column names the token itself
        line = (app.root / r.origin_path).read_text().splitlines()[r.origin_line - 1]
        assert line[r.origin_col :].startswith(name)


def test_no_site_for_definitions_comments_strings_or_plain_names(app):  # type: ignore[no-untyped-def]
    finder = PointerFinder(app.table)
    ctx = context_of(app, "wire/client.py")
    assert finder.sites("send", ctx) == [] or all(r.origin_line != 30 for r in finder.sites("send", ctx))
    assert finder.sites("response", ctx) == []  # a local, never an attribute or a call
    assert finder.sites("functools", ctx) == []


def test_base_site_when_the_table_cannot_follow_the_base(fixture_repo, tmp_path):  # type: ignore[no-untyped-def]
    repo = tmp_path / "bases"
    (repo / "pkg").mkdir(parents=True)
    (repo / "pkg" / "__init__.py").write_text("")
    (repo / "pkg" / "m.py").write_text(
        "def make_base():\n"
        "    class Base:\n"
        "        def ping(self):\n"
        "            return 1\n"
        "    return Base\n"
        "\n"
        "\n"
        "class Thing(make_base(), object):\n"
        "    pass\n"
    )
    app = App(repo, Config(resolvers=("symbol_table",)))
    got = PointerFinder(app.table).sites("ping", context_of(app, "pkg/m.py"), ("pkg.m.Thing",))
    assert [(r.origin_path, r.origin_line, r.origin_col, r.anchor_text, r.ref_type, r.ref_target) for r in got] == [
        ("pkg/m.py", 8, 12, "make_base()", RefType.INHERITED_MEMBER, "pkg.m.Thing.ping"),
        ("pkg/m.py", 8, 25, "object", RefType.INHERITED_MEMBER, "pkg.m.Thing.ping"),
    ]
    # Jedi follows the call base: the member's declaration, not the base expression
    jedi = App(repo, Config(resolvers=("symbol_table", "jedi")))
    out = jedi.ladder().resolve(got[0])
    assert out.resolution is not None and (out.resolution.target.rel_path, out.resolution.target.line) == (
        "pkg/m.py",
        3,
    )
    jedi.close()
    app.close()


# ---- the rungs resolve the sites (real Jedi, a real basedpyright process) --------------------
LANDINGS = [
    (("wire/client.py", 31, 35, "self._transport.handle_request"), ("wire/transport.py", 2)),  # annotated attr
    (("wire/client.py", 32, 21, "self.cookies.extract_cookies"), ("wire/models.py", 18)),  # property
    (("wire/client.py", 36, 59, "self.transport_for(...).handle_request(...).read"), ("wire/models.py", 27)),
    (("wire/client.py", 39, 27, "self.backup.handle_request"), ("wire/transport.py", 2)),  # descriptor
    (("wire/client.py", 42, 38, "self.send(...).headers.get_list"), ("wire/models.py", 13)),  # wraps + assigned
]


@pytest.mark.slow
@pytest.mark.parametrize("rung", ["jedi", "lsp"])
def test_rungs_land_on_the_declaration(fixture_repo, rung):  # type: ignore[no-untyped-def]
    app = App(fixture_repo("inferred"), Config(resolvers=("symbol_table", rung), resolver_timeout_s=10))
    ladder = app.ladder()
    try:
        for (path, line, col, anchor), where in LANDINGS:
            ref = PendingReference(
                anchor_text=anchor,
                ref_type=RefType.TYPE_ANNOTATION,
                ref_target=anchor.rpartition(".")[2],
                origin_path=path,
                origin_line=line,
                origin_col=col,
            )
            out = ladder.resolve(ref)
            assert out.resolution is not None, (anchor, out.failures)
            assert (out.resolution.target.rel_path, out.resolution.target.line) == where, anchor
            assert out.resolution.provenance is Provenance(rung)
            assert out.tried == ("symbol_table", rung)
    finally:
        app.close()


def test_member_of_a_call_result_and_of_a_module_level_value(app):  # type: ignore[no-untyped-def]
    """app.py:6 `WebSocket({"path": "/ws"}).url` and app.py:5 `client.fetch("/")`."""
    finder = PointerFinder(app.table)
    ctx = context_of(app, "app.py")
    got = [(r.origin_line, r.origin_col, r.anchor_text, r.ref_type, r.ref_target) for r in finder.sites("url", ctx)]
    assert got[0] == (6, 33, "WebSocket(...).url", RefType.CALL, "wire.connection.WebSocket.url")
    got = [(r.origin_line, r.origin_col, r.anchor_text, r.ref_type, r.ref_target) for r in finder.sites("fetch", ctx)]
    assert got == [(5, 13, "client.fetch", RefType.OTHER, "app.client.fetch")]


def test_owner_code_is_read_when_the_context_lacks_it(app):  # type: ignore[no-untyped-def]
    finder = PointerFinder(app.table)
    ctx = context_of(app, "app.py")  # holds no `handle_request` at all
    got = finder.sites("handle_request", ctx, ("wire.client.Client.fallback",))
    assert [(r.origin_path, r.origin_line, r.origin_col) for r in got] == [("wire/client.py", 39, 27)]
    assert finder.sites("handle_request", ctx) == []  # no owner: only the context is read
