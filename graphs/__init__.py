"""Static-dependency graph library: typed nodes and edges on networkx, one-file
incremental updates, hidden-dependency ranking and Graphviz rendering.

Knows nothing of its callers: inputs are plain ids, paths, lines and the
records below. May import: networkx, numpy, scipy and the standard library.

Modules: `model` (records and closed sets), `graph` (`DependencyGraph`),
`rank` (cached-matrix PPR and weighted BFS), `render` (DOT / SVG).
"""

from typing import TYPE_CHECKING, Any

from graphs.model import UNRESOLVED_PREFIX, Direction, Edge, EdgeType, Neighbour, Node, NodeKind
from graphs.rank import DEFAULT_METHOD, DEFAULT_WEIGHTS, Method
from graphs.render import RenderTimeout, dot_program, picture_dot, render_svg

if TYPE_CHECKING:
    from graphs.graph import DependencyGraph


def __getattr__(name: str) -> Any:
    # networkx loads only when a graph is built: `graphs.rank.central` (the repository map) needs none
    if name == "DependencyGraph":
        from graphs.graph import DependencyGraph

        return DependencyGraph
    raise AttributeError(f"module 'graphs' has no attribute {name!r}")


__all__ = [
    "DEFAULT_METHOD",
    "DEFAULT_WEIGHTS",
    "UNRESOLVED_PREFIX",
    "DependencyGraph",
    "Direction",
    "Edge",
    "EdgeType",
    "Method",
    "Neighbour",
    "Node",
    "NodeKind",
    "RenderTimeout",
    "dot_program",
    "picture_dot",
    "render_svg",
]
