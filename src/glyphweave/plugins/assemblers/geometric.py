"""What ``auto`` serves on a page without usable structure, and ``structure`` on a page whose
tree it cannot use: the geometric order where it found columns or moved whole lines, else
reading order (see the ``auto`` assembler's docstring for why). A module of its own so that
both assemblers read it without importing each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, compress, count, islice
from operator import attrgetter, eq, ne
from typing import Any

from glyphweave.plugin import PageContext

from ._shared import (
    GeometryOptions,
    Read,
    ordered_rows,
    plainly_in_order,
    recovered_text,
    rows_order,
    rules_geometry,
)

__all__ = ["geometric_choice"]

_GLYPHS = attrgetter("glyphs")


def geometric_choice(o: GeometryOptions, page: PageContext, indices: Sequence[int]) -> Read:
    """What auto serves on a page without usable structure: the geometric order where it
    found columns or moved whole lines, else reading (with order recovery when the
    component has ``recover`` on), and the order it read the glyphs in. ``o`` is a component
    with the geometry options."""
    no_structure = page.notes.get("reason")
    if not len(indices):
        _served(page, "reading", "no glyphs", no_structure)
        return "", None
    geometry = rules_geometry(o, page, indices)
    if not geometry.walk.breaks:
        _served(page, "reading", "one line", no_structure)
        return geometry.reading_text(), None
    if plainly_in_order(o, geometry):
        _served(page, "reading", "paint order plainly agrees with geometric order", no_structure)
        return geometry.reading_text(), None
    page.check_time()  # the lines and their order cost more than the cheapest text
    lines = geometry.lines
    page.check_time()
    gutters: list[tuple[float, float]] = []
    rows = ordered_rows(o, geometry, lines, gutters)
    if not _in_paint_order(lines, rows):
        whole = {id(line) for line in lines}
        if gutters:
            _served(page, "columns", f"columns: {len(gutters)} gutter(s) found", no_structure)
            return geometry.text_of_rows(rows), rows_order(rows)
        if all(len(row) == 1 and id(row[0]) in whole for row in rows):
            _served(page, "columns", "whole lines painted out of geometric order", no_structure)
            return geometry.text_of_rows(rows), rows_order(rows)
        reason = "paint and geometric order differ only within rows: paint order kept"
    else:
        reason = "paint order agrees with geometric order"
    _served(page, "reading", reason, no_structure)
    if getattr(o, "recover", True):
        return recovered_text(o, page, geometry)
    return geometry.reading_text(), None


def _in_paint_order(lines: Sequence[Any], rows: Sequence[Sequence[Any]]) -> bool:
    """Whether reading ``rows`` piece by piece gives the glyphs of ``lines`` in their order.

    Listing every glyph of the page twice to compare the lists cost 1-2% of a dense form's
    or a manual's time. The pieces are cut from the lines, and most often are the lines
    themselves: pieces and lines are compared one for one first (a piece that is its
    line's list compares its items by identity), then glyph by glyph from the first that
    differs, both at C speed and given up at the first difference."""
    painted = list(map(_GLYPHS, lines))
    read = list(map(_GLYPHS, chain.from_iterable(rows)))
    if sum(map(len, painted)) != sum(map(len, read)):
        return False
    same = next(compress(count(), map(ne, read, painted)), min(len(read), len(painted)))
    return all(map(eq, chain.from_iterable(islice(painted, same, None)), chain.from_iterable(islice(read, same, None))))


def _served(page: PageContext, served: str, reason: str, no_structure: str | None) -> None:
    page.note("served", served)
    page.note("reason", f"{no_structure}; {reason}" if no_structure else reason)
