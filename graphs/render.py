"""Graphviz output for a neighbourhood of the dependency graph.

Owns: DOT text (node shapes per kind, edge labels per type, dashed
unresolved/external parts) and the optional `dot -Tsvg` call.
May import: the standard library and `graphs.model`.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterable, Mapping

from graphs.model import Edge, Node, NodeKind

_SHAPES: Mapping[NodeKind, str] = {
    NodeKind.MODULE: "tab",
    NodeKind.CLASS: "box",
    NodeKind.FUNCTION: "ellipse",
    NodeKind.METHOD: "box",
    NodeKind.BINDING: "hexagon",
    NodeKind.EXTERNAL: "box",
}
_STYLES: Mapping[NodeKind, str] = {
    NodeKind.METHOD: "rounded",
    NodeKind.EXTERNAL: "dashed",
}


def _escape(text: str) -> str:
    # DOT quoted strings only treat backslash and double quote specially.
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _quote(text: str) -> str:
    return f'"{_escape(text)}"'


def _attrs(pairs: Iterable[tuple[str, str]]) -> str:
    """`pairs` values are already escaped, so they may carry DOT escapes."""
    return "[" + ", ".join(f'{key}="{value}"' for key, value in pairs) + "]"


def neighbourhood_dot(center_id: str, nodes: Mapping[str, Node], edges: Iterable[Edge]) -> str:
    """A `digraph` of `edges` whose endpoints are described by `nodes`;
    `center_id` is drawn bold. Nodes are sorted by id and edges keep the
    input order, so the text is deterministic for a deterministic input."""
    lines = [
        "digraph neighbourhood {",
        "  rankdir=LR;",
        '  node [fontname="Helvetica"];',
        '  edge [fontname="Helvetica", fontsize=10];',
    ]
    for node_id in sorted(nodes):
        node = nodes[node_id]
        style = [_STYLES[node.kind]] if node.kind in _STYLES else []
        if node_id == center_id:
            style.append("bold")
        # A literal backslash-n is Graphviz's line break inside a label.
        pairs = [("label", f"{_escape(node_id)}\\n{node.kind.value}"), ("shape", _SHAPES[node.kind])]
        if style:
            pairs.append(("style", ",".join(style)))
        lines.append(f"  {_quote(node_id)} {_attrs(pairs)};")
    for edge in edges:
        pairs = [("label", edge.type.value), ("tooltip", _escape(f"{edge.path}:{edge.line}"))]
        if not edge.resolved:
            pairs.append(("style", "dashed"))
        lines.append(f"  {_quote(edge.src)} -> {_quote(edge.dst)} {_attrs(pairs)};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def render_svg(dot_text: str, *, timeout: float = 30.0) -> bytes | None:
    """SVG bytes from Graphviz `dot`, or None when `dot` is not installed.
    A `dot` failure raises `subprocess.CalledProcessError` (bad input is a
    bug, not a missing optional tool)."""
    dot = shutil.which("dot")
    if dot is None:
        return None
    done = subprocess.run(
        [dot, "-Tsvg"], input=dot_text.encode("utf-8"), capture_output=True, check=True, timeout=timeout
    )
    return done.stdout
