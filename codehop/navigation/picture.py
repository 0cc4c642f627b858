"""The dependency graph for people: a symbol's node, its neighbourhood, and pictures of it
(`codehop graph`), and the picture of what an answer followed (`codehop ask --svg`).

Everything here reads a GraphContext (codehop.navigation.graph_context, over the index) and returns
values: node names, edge rows, DOT text, SVG bytes. Writing files is the front-end's.

May import: graph_context, records, errors, graphs, stdlib.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from codehop.kernel.errors import CodehopError, UsageError

if TYPE_CHECKING:
    from codehop.index.symbols import SymbolTable
    from codehop.kernel.records import Answer
    from codehop.navigation.graph_context import GraphContext


def find_node(gc: GraphContext, table: SymbolTable, symbol: str) -> str:
    """The graph node a symbol names (a qualified name, or the one candidate a short name has);
    UsageError listing the candidates when there are several, or saying there is none."""
    if not symbol:
        raise UsageError("give a SYMBOL (a qualified name) or --stats")
    node = gc.node_for(symbol, table)
    if node is not None:
        return node
    matches = gc.candidates(symbol)
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise UsageError(
            f"{symbol!r} is not a qualified name; it matches:\n  " + "\n  ".join(matches) + "\n(give one of these)"
        )
    raise UsageError(f"no such symbol in the graph: {symbol}")


def svg(gc: GraphContext, dot: str) -> bytes:
    """DOT rendered by Graphviz, with a deadline (CodehopError when it runs out; UsageError when
    the `dot` program is not installed)."""
    from graphs import RenderTimeout

    try:
        out = gc.svg(dot)
    except RenderTimeout as exc:
        raise CodehopError(f"{exc}; draw less (--depth 1) or write --dot and render it yourself") from None
    if out is None:
        raise UsageError("the `dot` program (Graphviz) is not installed; use --dot")
    return out


def answer_picture(gc: GraphContext, answer: Answer) -> str:
    """DOT of the picture around what the answer is about, with what the question followed
    highlighted: the declarations it read (its context) and the hops its resolvers made."""
    from graphs import EdgeType

    graph = gc.graph()

    def node(rel_path: str, line: int, qualname: str = "") -> str | None:
        return qualname if qualname in graph else gc.node_at(rel_path, line)

    chain: list[str] = []
    for item in answer.context:
        n = node(item.chunk.rel_path, item.chunk.start_line, item.chunk.qualname)
        if n is not None and n not in chain:
            chain.append(n)
    hops = []
    for hop in answer.hops:
        for r in hop.resolved:
            for step in r.resolution.steps:
                a = node(step.from_loc.rel_path, step.from_loc.line, step.from_loc.qualname)
                b = node(step.to_loc.rel_path, step.to_loc.line, step.to_loc.qualname)
                if a and b and a != b:
                    hops.append((a, b, f"{step.note or 'resolved'} ({step.resolver})"))
    declared = [n for n in chain if graph.node(n).kind.value != "module"]
    centre = hops[-1][1] if hops else next(iter(declared or chain), None)
    if centre is None:
        raise UsageError("nothing in the answer's context is in the graph; no picture drawn")
    # the pointers among what it read: re-exports, bases, overrides between two context items
    read = set(chain)
    pointing = (EdgeType.REEXPORTS, EdgeType.INHERITS, EdgeType.OVERRIDES)
    pointers = [
        (e.src, e.dst)
        for n in chain
        for e in graph.out_edges(n)
        if e.dst in read and e.src != e.dst and e.type in pointing
    ]
    pinned = [centre, *(x for pair in pointers for x in pair), *(x for a, b, _ in hops for x in (a, b))]
    return str(
        gc.picture(
            centre,
            1,
            highlight_nodes=tuple(dict.fromkeys(pinned)),
            highlight_edges=tuple(pointers),
            extra_edges=tuple(hops),
        )
    )
