"""``auto``: per page, the assembler the geometry calls for (SPEC §5); the default profile's.

On each page the lines of the reading rules are put in geometric reading order
(``geometric_rows``, as the ``columns`` assembler does). The geometric order serves
(``columns``) where it differs from paint order and either found columns (a gutter
between two columns of text) or only moved whole lines (a stamp painted first and placed
last, lines painted out of order). Everywhere else the page is read as ``reading`` reads
it, with its order recovery: where the two orders differ only in how pieces of a
baseline are grouped (margin notes beside body text, table cells), paint order is the
safer guess. The page's statistics say which served and why
(``assembly``: ``served`` and ``reason``).

On a tagged page whose structure tree is usable (see the ``structure`` assembler), the
tree's order serves first; the statistics then say ``served: structure``, and otherwise
why the tree was not used before the geometric reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

from glyphweave.plugin import Assembler, Option, PageContext, hookimpl

from ._shared import (
    GEOMETRY_OPTIONS,
    GeometryOptions,
    order_thresholds,
    ordered_rows,
    recovered_text,
    rules_geometry,
)
from .structure import STRUCTURE_OPTIONS, StructureOptions, play_structure


class AutoAssembler(Assembler, StructureOptions):
    """Per page: the structure tree where usable, else geometric order where paint order
    contradicts it, else reading."""

    NAME = "auto"
    OPTIONS = {
        **GEOMETRY_OPTIONS,
        **STRUCTURE_OPTIONS,
        "structure": Option(
            default=True,
            doc="Read tagged pages in the structure tree's order where the tree is usable.",
        ),
        "recover": Option(
            default=True,
            doc="On pages served by reading: order recovery where paint order contradicts the geometry.",
        ),
    }

    structure: bool
    recover: bool

    def assemble(self, page: PageContext, indices: Sequence[int]) -> str:
        page.note("assembler", self.NAME)
        if self.structure and len(indices):
            text = play_structure(self, page, indices)
            if text is not None:
                return text
        return geometric_choice(self, page, indices)


def geometric_choice(o: GeometryOptions, page: PageContext, indices: Sequence[int]) -> str:
    """What auto serves on a page without usable structure: the geometric order where it
    found columns or moved whole lines, else reading (with order recovery when the
    component has ``recover`` on). ``o`` is a component with the geometry options."""
    no_structure = page.notes.get("reason")
    if not len(indices):
        _served(page, "reading", "no glyphs", no_structure)
        return ""
    geometry = rules_geometry(o, page, indices)
    if not geometry.walk.breaks:
        _served(page, "reading", "one line", no_structure)
        return geometry.reading_text()
    if geometry.plain_order(order_thresholds(o, geometry)["gap"]):
        _served(page, "reading", "paint order plainly agrees with geometric order", no_structure)
        return geometry.reading_text()
    page.check_time()  # the lines and their order cost more than the cheapest text
    lines = geometry.lines
    page.check_time()
    gutters: list[tuple[float, float]] = []
    rows = ordered_rows(o, geometry, lines, gutters)
    painted = list(chain.from_iterable(line.glyphs for line in lines))
    ordered = list(chain.from_iterable(piece.glyphs for row in rows for piece in row))
    if ordered != painted:
        whole = {id(line) for line in lines}
        if gutters:
            _served(page, "columns", f"columns: {len(gutters)} gutter(s) found", no_structure)
            return geometry.text_of_rows(rows)
        if all(len(row) == 1 and id(row[0]) in whole for row in rows):
            _served(page, "columns", "whole lines painted out of geometric order", no_structure)
            return geometry.text_of_rows(rows)
        reason = "paint and geometric order differ only within rows: paint order kept"
    else:
        reason = "paint order agrees with geometric order"
    _served(page, "reading", reason, no_structure)
    if getattr(o, "recover", True):
        return recovered_text(o, page, geometry)
    return geometry.reading_text()


def _served(page: PageContext, served: str, reason: str, no_structure: str | None) -> None:
    page.note("served", served)
    page.note("reason", f"{no_structure}; {reason}" if no_structure else reason)


@hookimpl
def glyphweave_register_assemblers() -> list[type[Assembler]]:
    return [AutoAssembler]
