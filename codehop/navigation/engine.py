"""The navigation engine's one entry point: `Navigation`, over what the door hands it (`Sources`).

Every question a front-end asks about code positions and the declarations around them goes
through one object: under the cursor (definition, declaration, hover, the item), around a
declaration (references, call and type hierarchies, the outline, the inherited-member lenses),
and what depends on it (the dependents engine, which the answer layer reads too). The door
(codehop.app) builds one per operation from its warm engines; the LSP server and MCP reach it
only through the door. Positions: 1-based lines, code-point columns.

May import: cursor, hierarchy, calls, dependents, sites, records, errors, stdlib.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from codehop.kernel.errors import UsageError
from codehop.navigation import calls, cursor, hierarchy

if TYPE_CHECKING:
    from codehop.kernel.records import Location, Resolution
    from codehop.navigation.cursor import Sources
    from codehop.navigation.dependents import DependentsFinder
    from codehop.navigation.hierarchy import Item, Outline
    from codehop.navigation.sites import Site

HIERARCHY_DIRECTIONS = ("incoming", "outgoing", "supertypes", "subtypes")


class Navigation:
    """Who calls, who uses, what subclasses, what overrides, and what is under the cursor."""

    def __init__(self, sources: Sources) -> None:
        self.sources = sources

    def dependents_finder(self) -> DependentsFinder:
        """The dependents engine (importers, callers, subclasses, overrides, member uses, callees)."""
        return self.sources.finder()

    # ---- lines ---------------------------------------------------------------------------
    def source_line(self, rel_path: str, line: int) -> str | None:
        """Line `line` of a repository file (or of an installed package's file, by absolute path)."""
        return cursor.source_line(self.sources, rel_path, line)

    def name_at(self, loc: Location) -> tuple[str, int, int]:
        """(the text of `loc`'s line, the code-point columns of the name it declares there)."""
        text = self.source_line(loc.rel_path, loc.line) or ""
        return (text, *cursor.name_span(text, loc.qualname.rpartition(".")[2]))

    def site_span(self, site: Site, target_name: str) -> tuple[str, int, int]:
        """(the text of a dependent site's line, the code-point columns of the name used there)."""
        return hierarchy.site_span(self.sources, site, target_name)

    # ---- under the cursor (`buffer`: the editor's unsaved text of the file) ---------------
    def definition(self, rel_path: str, line: int, col: int, buffer: str | None = None) -> Resolution | None:
        """The real declaration under the cursor, through every pointer."""
        return cursor.definition(self.sources, rel_path, line, col, buffer)

    def declaration(self, rel_path: str, line: int, col: int, buffer: str | None = None) -> Location | None:
        """Where the name under the cursor is bound in its file (the import site, not the target)."""
        return cursor.declaration(self.sources, rel_path, line, col, buffer)

    def hover(self, rel_path: str, line: int, col: int, buffer: str | None = None) -> str | None:
        """Markdown for the name under the cursor: declaration, signature or value, docstring, chain."""
        return cursor.hover_markdown(self.sources, rel_path, line, col, buffer)

    def references(
        self, rel_path: str, line: int, col: int, buffer: str | None = None
    ) -> tuple[Location | None, list[Site]]:
        """The declaration under the cursor and every site that names it (re-export lines last)."""
        return hierarchy.references(self.sources, rel_path, line, col, buffer)

    def item_at(self, rel_path: str, line: int, col: int, buffer: str | None = None) -> Item | None:
        """The declaration under the cursor as a hierarchy item."""
        return hierarchy.item_at(self.sources, rel_path, line, col, buffer)

    # ---- around a declaration -------------------------------------------------------------
    def hierarchy(self, direction: str, qualname: str) -> list[tuple[Item, list[Site]]]:
        """`incoming` (callers) or `outgoing` (callees) calls grouped by declaration, each with its
        call sites; `supertypes` (MRO order) or `subtypes` (across files), without sites."""
        if direction == "incoming":
            return calls.incoming_calls(self.sources, qualname)
        if direction == "outgoing":
            return calls.outgoing_calls(self.sources, qualname)
        if direction == "supertypes":
            return [(it, []) for it in hierarchy.supertypes(self.sources, qualname)]
        if direction == "subtypes":
            return [(it, []) for it in hierarchy.subtypes(self.sources, qualname)]
        raise UsageError(f"unknown hierarchy direction {direction!r}")

    def outline(self, rel_path: str) -> list[Outline]:
        """The file's classes, functions, methods and values, nested by span."""
        return hierarchy.document_symbols(self.sources, rel_path)

    def lenses(self, rel_path: str) -> list[tuple[Location, int, int]]:
        """(class statement, inherited members, their files) for each class of a file that inherits any."""
        return hierarchy.class_lenses(self.sources, rel_path)
