"""Graphviz output for a neighbourhood of the dependency graph.

Owns: DOT text (node shapes per kind, edge labels per type, dashed
unresolved/external parts), the picture (classes folded into records, files as
clusters, edge kinds as colours with a legend, a highlighted chain, a node cap)
and the optional `dot -Tsvg` call (with a deadline).
May import: the standard library and `graphs.model`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Collection, Iterable, Mapping, Sequence

from graphs.model import Edge, EdgeType, Node, NodeKind

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


class RenderTimeout(Exception):
    """Graphviz did not finish within the deadline (the process was killed)."""


# where Graphviz installs `dot` when the PATH a process got does not name its folder (an editor or
# agent can start codehop with a bare PATH)
_DOT_PLACES = ("/usr/bin/dot", "/usr/local/bin/dot", "/opt/homebrew/bin/dot", "/opt/local/bin/dot")


def dot_program() -> str | None:
    """The Graphviz `dot` that `render_svg` runs: on the PATH, else in its usual places; None when
    there is none. The one lookup: the tests skip on it, so they skip exactly when rendering can't."""
    found = shutil.which("dot")
    if found is not None:
        return found
    return next((p for p in _DOT_PLACES if os.path.isfile(p) and os.access(p, os.X_OK)), None)


def render_svg(dot_text: str, *, timeout: float = 30.0) -> bytes | None:
    """SVG bytes from Graphviz `dot`, or None when `dot` is not installed.
    A `dot` failure raises `subprocess.CalledProcessError` (bad input is a
    bug, not a missing optional tool); a layout past `timeout` raises RenderTimeout."""
    dot = dot_program()
    if dot is None:
        return None
    try:
        done = subprocess.run(
            [dot, "-Tsvg"], input=dot_text.encode("utf-8"), capture_output=True, check=True, timeout=timeout
        )
    except subprocess.TimeoutExpired as exc:
        raise RenderTimeout(f"Graphviz took longer than {timeout:g} s") from exc
    return done.stdout


# ---- the picture: classes as records, files as clusters, edge kinds as colours ----------------
EDGE_COLOURS: Mapping[EdgeType, str] = {
    EdgeType.REEXPORTS: "#0f9bb0",
    EdgeType.IMPORTS: "#4a78c2",
    EdgeType.INHERITS: "#2e9d3a",
    EdgeType.INSTANTIATES: "#d1432a",
    EdgeType.CALLS: "#e08a12",
    EdgeType.OVERRIDES: "#8b5a2b",
    EdgeType.DECORATES: "#8e5cc2",
    EdgeType.REFERENCES: "#8c8c8c",
    EdgeType.CONTAINS: "#bdbdbd",
}
HIGHLIGHT = "#c2185b"
# which neighbours a capped picture keeps first (lower is kept first)
_STRENGTH: Mapping[EdgeType, int] = {
    EdgeType.REEXPORTS: 0,
    EdgeType.INHERITS: 0,
    EdgeType.OVERRIDES: 1,
    EdgeType.INSTANTIATES: 1,
    EdgeType.DECORATES: 2,
    EdgeType.IMPORTS: 3,
    EdgeType.CALLS: 4,
    EdgeType.REFERENCES: 5,
    EdgeType.CONTAINS: 6,
}
_FILL: Mapping[NodeKind, str] = {
    NodeKind.MODULE: "#eef3fb",
    NodeKind.CLASS: "#fffbe6",
    NodeKind.FUNCTION: "#f3faf0",
    NodeKind.METHOD: "#f3faf0",
    NodeKind.BINDING: "#f6f6f6",
    NodeKind.EXTERNAL: "#ffffff",
}


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _short(node_id: str) -> str:
    return node_id.lstrip("?").rsplit(".", 1)[-1] or node_id


def _port(name: str) -> str:
    return "p_" + "".join(ch if ch.isalnum() else "_" for ch in name)


def picture_dot(
    center_id: str,
    nodes: Mapping[str, Node],
    edges: Sequence[Edge],
    *,
    highlight_nodes: Collection[str] = (),
    highlight_edges: Collection[tuple[str, str]] = (),
    extra_edges: Sequence[tuple[str, str, str]] = (),
    max_nodes: int = 24,
    max_members: int = 30,
    group_above: int = 3,
) -> str:
    """A DOT picture worth looking at: each class drawn as one record listing its members (edges to
    a member land on its row), nodes clustered by file, edges coloured by kind with a legend, the
    nodes and edges of a followed chain highlighted, and at most `max_nodes` boxes (the rest named
    in a note). `edges` come nearest-first (breadth first from the centre); `extra_edges` are
    (src, dst, label) links of the chain the graph does not hold (a resolver's hop)."""
    # fold members into their class: a CONTAINS edge from a class drawn here
    owner: dict[str, str] = {}
    for e in edges:
        if (
            e.type is EdgeType.CONTAINS
            and e.src in nodes
            and e.dst in nodes
            and nodes[e.src].kind is NodeKind.CLASS
            and nodes[e.dst].kind in (NodeKind.METHOD, NodeKind.FUNCTION, NodeKind.BINDING)
        ):
            owner[e.dst] = e.src
    members: dict[str, list[str]] = {}
    for member, cls in owner.items():
        members.setdefault(cls, []).append(member)

    # many leaves tied to the centre by one kind of edge (forty modules that reference a class)
    # become one box listing them, so a large class's depth-1 picture fits on a screen
    nodes = dict(nodes)
    centre_rep = owner.get(center_id, center_id)
    ties: dict[str, set[tuple[EdgeType, str]]] = {}
    for e in edges:
        if e.type is EdgeType.CONTAINS:
            continue
        s_rep, d_rep = owner.get(e.src, e.src), owner.get(e.dst, e.dst)
        for end, other, way in ((s_rep, d_rep, "in"), (d_rep, s_rep, "out")):
            if end == centre_rep:
                continue
            ties.setdefault(end, set()).add((e.type, way) if other == centre_rep else (e.type, "elsewhere"))
    lonely: dict[frozenset[tuple[EdgeType, str]], list[str]] = {}
    for n, kinds in ties.items():
        if n not in highlight_nodes and n not in owner.values() and all(w != "elsewhere" for _, w in kinds):
            lonely.setdefault(frozenset(kinds), []).append(n)
    grouped: dict[str, str] = {}
    groups: dict[str, tuple[list[tuple[EdgeType, str]], list[str]]] = {}
    for tie_set, ids in lonely.items():
        if len(ids) > group_above:
            ordered = sorted(tie_set, key=lambda k: (_STRENGTH[k[0]], k[1]))
            gid = "group " + " ".join(f"{t.value}-{w}" for t, w in ordered)
            groups[gid] = (ordered, sorted(ids))
            nodes[gid] = Node(id=gid, kind=NodeKind.MODULE)
            for n in ids:
                grouped[n] = gid

    def rep(node_id: str) -> str:
        r = owner.get(node_id, node_id)
        return grouped.get(r, r)

    # boxes in order of what they say: the centre, the chain, then by the strongest kind of edge
    # that ties them in (a re-export or a base before one of forty type annotations), nearest first
    first: list[str] = []
    strength: dict[str, int] = {}
    for e in edges:
        for end in (rep(e.src), rep(e.dst)):
            if end in nodes and end not in strength:
                first.append(end)
            if e.type is not EdgeType.CONTAINS or nodes.get(e.src) is None or nodes[e.src].kind is not NodeKind.MODULE:
                strength[end] = min(strength.get(end, 99), _STRENGTH[e.type])
            else:
                strength.setdefault(end, 99)
    pinned = [rep(n) for n in (center_id, *highlight_nodes, *(x for s, d, _ in extra_edges for x in (s, d)))]
    order: list[str] = []
    for r in pinned + sorted(first, key=lambda n: (strength[n], first.index(n))):
        if r in nodes and r not in order:
            order.append(r)
    kept = order[:max_nodes]
    dropped_kinds: dict[str, int] = {}
    for n in order[max_nodes:]:
        kind = next((t.value for t, v in _STRENGTH.items() if v == strength.get(n)), "other")
        dropped_kinds[kind] = dropped_kinds.get(kind, 0) + 1
    dropped = len(order) - len(kept)
    keep = set(kept)
    hl_nodes = {rep(n) for n in highlight_nodes} | set(highlight_nodes)
    centre_box = rep(center_id)
    if centre_box != center_id:  # a member asked about: its class is drawn, its row marked
        hl_nodes.add(center_id)
    hl_edges = {(a, b) for a, b in highlight_edges}

    # edges between boxes, merged per (ends, kind); containment is shown by records and clusters
    drawn: dict[tuple[str, str, str, str, EdgeType], list[Edge]] = {}
    for e in edges:
        if e.type is EdgeType.CONTAINS and (
            e.dst in owner or nodes.get(e.src, None) is not None and nodes[e.src].kind is NodeKind.MODULE
        ):
            continue
        s, d = rep(e.src), rep(e.dst)
        if s not in keep or d not in keep or s == d:
            continue
        to_group = s in groups or d in groups  # a group's lines meet the class box, not each row
        sp = _port(_short(e.src)) if e.src in owner and not to_group else ""
        dp = _port(_short(e.dst)) if e.dst in owner and not to_group else ""
        drawn.setdefault((s, sp, d, dp, e.type), []).append(e)

    # a box left with no line to it says nothing (a module whose containment the cluster shows)
    touched = (
        {centre_box, *hl_nodes}
        | {k[0] for k in drawn}
        | {k[2] for k in drawn}
        | {rep(x) for s, d, _ in extra_edges for x in (s, d)}
    )
    kept = [n for n in kept if n in touched]

    lines = [
        "digraph picture {",
        '  graph [rankdir=LR, newrank=true, fontname="Helvetica", fontsize=11, nodesep=0.25, ranksep=0.7,'
        " pad=0.2, compound=true];",
        '  node [fontname="Helvetica", fontsize=10, style="filled", fillcolor="#ffffff", color="#555555"];',
        '  edge [fontname="Helvetica", fontsize=9, arrowsize=0.7];',
    ]

    def node_line(node_id: str) -> str:
        node = nodes[node_id]
        if node_id in groups:
            ties, listed = groups[node_id]
            ins = [t.value for t, w in ties if w == "in"]
            outs = [t.value for t, w in ties if w == "out"]
            says = " and ".join(
                filter(
                    None,
                    [
                        f"{', '.join(ins)} {_short(center_id)}" if ins else "",
                        f"{_short(center_id)} {', '.join(outs)} them" if outs else "",
                    ],
                )
            )
            shown = max(4, max_members // 3)
            rows = "".join(f'<TR><TD ALIGN="LEFT">{_html(i)}</TD></TR>' for i in listed[:shown])
            if len(listed) > shown:
                rows += f'<TR><TD ALIGN="LEFT"><I>... {len(listed) - shown} more</I></TD></TR>'
            head = f'<TR><TD BGCOLOR="#e8eef7"><B>{len(listed)}</B> that {_html(says)}</TD></TR>'
            return (
                f'  {_quote(node_id)} [shape=plain, label=<<TABLE BORDER="1" CELLBORDER="0" CELLSPACING="0" '
                f'CELLPADDING="2" COLOR="{EDGE_COLOURS[ties[0][0]]}">{head}{rows}</TABLE>>];'
            )
        bold = node_id == centre_box or node_id in hl_nodes
        border = HIGHLIGHT if node_id in hl_nodes and node_id != centre_box else "#333333"
        width = "2" if bold else "1"
        if node_id in members or node.kind is NodeKind.CLASS:
            listed = sorted(members.get(node_id, []), key=lambda m: (nodes[m].start_line or 0, m))
            head = (
                f'<TR><TD BGCOLOR="#f5e6a8"><B>{_html(_short(node_id))}</B> <FONT POINT-SIZE="8">class</FONT></TD></TR>'
            )
            body = []
            for m in listed[:max_members]:
                name = _short(m) + ("()" if nodes[m].kind is not NodeKind.BINDING else "")
                text = f"<B>{_html(name)}</B>" if m in hl_nodes else _html(name)
                colour = f' BGCOLOR="{HIGHLIGHT}33"' if m in hl_nodes else ""
                body.append(f'<TR><TD PORT="{_port(_short(m))}" ALIGN="LEFT"{colour}>{text}</TD></TR>')
            if len(listed) > max_members:
                body.append(f'<TR><TD ALIGN="LEFT"><I>... {len(listed) - max_members} more</I></TD></TR>')
            label = (
                f'<<TABLE BORDER="{width}" CELLBORDER="0" CELLSPACING="0" CELLPADDING="3" COLOR="{border}">'
                + head
                + "".join(body)
                + "</TABLE>>"
            )
            return f'  {_quote(node_id)} [shape=plain, label={label}, tooltip="{_escape(node_id)}"];'
        shape = _SHAPES[node.kind]
        style = ["filled", *([_STYLES[node.kind]] if node.kind in _STYLES else [])]
        label = _short(node_id) if node.kind is not NodeKind.MODULE else node_id
        pairs = [
            ("label", f"{_escape(label)}\\n{node.kind.value}"),
            ("shape", shape),
            ("style", ",".join(style)),
            ("fillcolor", _FILL[node.kind]),
            ("tooltip", _escape(node_id)),
            ("penwidth", width),
            ("color", border),
        ]
        return f"  {_quote(node_id)} {_attrs(pairs)};"

    by_file: dict[str, list[str]] = {}
    loose: list[str] = []
    for node_id in kept:
        path = nodes[node_id].path
        (by_file.setdefault(path, []) if path else loose).append(node_id)
    for i, (path, ids) in enumerate(sorted(by_file.items())):
        lines.append(f"  subgraph cluster_{i} {{")
        lines.append(
            f'    label="{_escape(path)}"; labeljust=l; style="rounded,filled"; fillcolor="#fafafa";'
            ' color="#cccccc"; fontsize=10; fontcolor="#666666";'
        )
        lines.extend("  " + node_line(n) for n in ids)
        lines.append("  }")
    lines.extend(node_line(n) for n in loose)

    used: list[EdgeType] = []
    for (s, sp, d, dp, etype), group in drawn.items():
        if etype not in used:
            used.append(etype)
        chain = any((e.src, e.dst) in hl_edges or (rep(e.src), rep(e.dst)) in hl_edges for e in group)
        colour = EDGE_COLOURS[etype]
        pairs = [
            ("color", HIGHLIGHT if chain else colour),
            ("penwidth", "3" if chain else "1.3"),
            (
                "tooltip",
                _escape(
                    f"{etype.value}: {group[0].path}:{group[0].line}"
                    + (f" (+{len(group) - 1} more)" if len(group) > 1 else "")
                ),
            ),
        ]
        if len(group) > 1:
            pairs.append(("label", f"×{len(group)}"))
            pairs.append(("fontcolor", colour))
        if not all(e.resolved for e in group):
            pairs.append(("style", "dashed"))
        tail = f"{_quote(s)}:{sp}" if sp else _quote(s)
        head = f"{_quote(d)}:{dp}" if dp else _quote(d)
        lines.append(f"  {tail} -> {head} {_attrs(pairs)};")
    for s, d, label in extra_edges:
        if rep(s) in keep and rep(d) in keep and rep(s) != rep(d):
            pairs = [
                ("color", HIGHLIGHT),
                ("penwidth", "3"),
                ("style", "dashed"),
                ("label", _escape(label)),
                ("fontcolor", HIGHLIGHT),
            ]
            lines.append(f"  {_quote(rep(s))} -> {_quote(rep(d))} {_attrs(pairs)};")

    legend = [
        f'<TR><TD ALIGN="LEFT"><FONT COLOR="{EDGE_COLOURS[t]}">&#9473;&#9473;&#9654;</FONT></TD>'
        f'<TD ALIGN="LEFT">{t.value}</TD></TR>'
        for t in EdgeType
        if t in used
    ]
    if hl_nodes or extra_edges:
        legend.append(
            f'<TR><TD ALIGN="LEFT"><FONT COLOR="{HIGHLIGHT}"><B>&#9473;&#9473;&#9654;</B></FONT></TD>'
            '<TD ALIGN="LEFT">the chain the question followed</TD></TR>'
        )
    if dropped:
        why = ", ".join(f"{n} by {k}" for k, n in sorted(dropped_kinds.items(), key=lambda kv: -kv[1]))
        legend.append(
            f'<TR><TD COLSPAN="2" ALIGN="LEFT"><I>{dropped} more nodes not drawn ({_html(why)});'
            '<BR ALIGN="LEFT"/>the full list: codehop graph SYMBOL --json</I></TD></TR>'
        )
    if legend:
        lines.append(
            '  legend [shape=plain, label=<<TABLE BORDER="1" CELLBORDER="0" CELLSPACING="0" '
            'CELLPADDING="2" COLOR="#cccccc"><TR><TD COLSPAN="2"><B>edges</B></TD></TR>'
            + "".join(legend)
            + "</TABLE>>];"
        )
    lines.append("}")
    return "\n".join(lines) + "\n"
