"""`codehop graph SYMBOL --svg` as a picture worth looking at, and `graph` on what a user types.

Real Graphviz (`dot`), real indexes of small generated repositories and of fixtures_repos/."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from codehop.frontends.cli import main
from graphs import RenderTimeout, dot_program, render_svg

needs_dot = pytest.mark.skipif(dot_program() is None, reason="Graphviz dot not installed")
pytestmark = pytest.mark.timeout(180)


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, list(args))


def hub_repo(root: Path, *, users: int, members: int, mixins: bool) -> Path:
    """pkg/hub.py: class Hub with `members` methods; pkg/u<i>.py: `class C<i>(Hub[, Mixin<i>])`
    and a function that instantiates Hub (so each user module imports, and something instantiates)."""
    pkg = root / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .hub import Hub\n")
    body = "".join(f"    def m{i}(self):\n        return {i}\n\n" for i in range(members))
    (pkg / "hub.py").write_text(f'class Hub:\n    """The hub."""\n\n{body}')
    for i in range(users):
        mix = f"class Mixin{i}:\n    pass\n\n\n" if mixins else ""
        bases = f"Hub, Mixin{i}" if mixins else "Hub"
        (pkg / f"u{i}.py").write_text(
            f"from .hub import Hub\n\n\n{mix}class C{i}({bases}):\n    pass\n\n\ndef make{i}():\n    return Hub()\n"
        )
    return root


def svg_size_pt(svg: str) -> tuple[float, float]:
    m = re.search(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"', svg)
    assert m, svg[:300]
    return float(m.group(1)), float(m.group(2))


@needs_dot
@pytest.mark.slow
def test_big_neighbourhood_is_capped_with_a_note_and_never_hangs(tmp_path):
    """150 subclasses, each with its own mixin: depth 2 around Hub is about 450 nodes; the SVG is
    drawn in seconds, at most the cap of boxes, and says how many were left out."""
    repo = hub_repo(tmp_path / "big", users=150, members=5, mixins=True)
    out = tmp_path / "hub.svg"
    t0 = time.monotonic()
    result = run(
        "graph",
        "pkg.hub.Hub",
        "--repo",
        str(repo),
        "--depth",
        "2",
        "--svg",
        str(out),
        "--dot",
        str(tmp_path / "hub.dot"),
    )
    elapsed = time.monotonic() - t0
    assert result.exit_code == 0, result.output
    assert elapsed < 60
    dot = (tmp_path / "hub.dot").read_text()
    boxes = re.findall(r'^\s+"[^"]+" \[(?:shape|label)', dot, flags=re.M)
    assert len(boxes) <= 24 + 1  # the cap, and the legend
    assert re.search(r"\d+ more nodes not drawn", dot)
    assert out.read_text().lstrip().startswith(("<?xml", "<svg"))


def test_graphviz_past_its_deadline_is_a_clear_error():
    if dot_program() is None:
        pytest.skip("Graphviz dot not installed")
    with pytest.raises(RenderTimeout, match="longer than"):
        render_svg("digraph { a -> b }", timeout=0.0001)


@needs_dot
def test_depth_one_picture_of_a_large_class_fits_one_screen(tmp_path):
    """Hub with 60 methods, used by 60 modules (import, subclass, instantiate): members fold into
    the class's record, the users collapse into a box per way of using it; one screen."""
    repo = hub_repo(tmp_path / "wide", users=60, members=60, mixins=False)
    out = tmp_path / "wide.svg"
    result = run("graph", "pkg.hub.Hub", "--repo", str(repo), "--svg", str(out), "--dot", str(tmp_path / "w.dot"))
    assert result.exit_code == 0, result.output
    width, height = svg_size_pt(out.read_text())
    assert width <= 1400 and height <= 1100, (width, height)
    dot = (tmp_path / "w.dot").read_text()
    assert "m0()" in dot and "more</I>" in dot  # members listed in the record, the rest counted
    assert '"pkg.hub.Hub.m0" [' not in dot  # no box per member
    assert re.search(r"<B>60</B> that", dot)  # sixty users in one box


def test_picture_folds_members_clusters_files_and_colours_edge_kinds(fixture_repo, tmp_path):
    """inherited_member/transport: HTTPTransport is one record listing `send`, inside a cluster
    labelled with its file; inherits and overrides are coloured and named in the legend."""
    repo = fixture_repo("inherited_member")
    out = tmp_path / "t.dot"
    result = run("graph", "transport.http.HTTPTransport", "--repo", str(repo), "--dot", str(out))
    assert result.exit_code == 0, result.output
    dot = out.read_text()
    assert re.search(r'"transport\.http\.HTTPTransport" \[shape=plain, label=<<TABLE.*send\(\)', dot)
    assert '"transport.http.HTTPTransport.send" [' not in dot
    assert re.search(r'subgraph cluster_\d+ \{\n\s+label="transport/http.py"', dot)
    assert re.search(r'label="transport/base.py"', dot)
    legend = dot[dot.index("legend [") :]
    assert "inherits" in legend and "overrides" in legend
    assert re.search(r'color="#2e9d3a"', dot)  # inherits' colour on an edge


@needs_dot
def test_ask_svg_highlights_the_chain(fixture_repo, tmp_path):
    """reexport_chain: `Where is shop.Cart defined?` drawn around Cart, the re-export chain
    shop -> shop.api -> Cart highlighted and named in the legend."""
    repo = fixture_repo("reexport_chain")
    out = tmp_path / "ask.svg"
    result = run("ask", "Where is `shop.Cart` defined?", "--repo", str(repo), "--svg", str(out))
    assert result.exit_code == 0, result.output
    svg = out.read_text()
    assert "the chain the question followed" in svg
    assert svg.count('stroke="#c2185b"') >= 2  # at least two highlighted edges (the re-exports)
    assert "Cart" in svg


@pytest.mark.parametrize(
    ("typed", "code", "expect"),
    [
        ("MockTransport", 0, "transport.mock.MockTransport"),
        ("Transport", 2, "transport.http.HTTPTransport"),
        ("mock.MockTransport", 0, "transport.mock.MockTransport"),
        ("NoSuchThing", 2, "no such symbol"),
    ],
    ids=["short-unique", "partial-many", "dotted-suffix", "none"],
)
def test_graph_accepts_what_a_user_types(fixture_repo, typed, code, expect):
    result = run("graph", typed, "--repo", str(fixture_repo("inherited_member")))
    assert result.exit_code == code, result.output
    assert expect in result.output
    if code == 2 and typed == "Transport":
        assert "transport.mock.MockTransport" in result.output and "transport.base.BaseTransport" in result.output
