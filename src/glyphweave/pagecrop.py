"""A page cut to a box: its text and glyphs from the glyphs whose centre lies inside.

A box is ``(x0, top, x1, bottom)`` in points, with the origin at the top-left corner of
the page *as shown*: its CropBox, turned by its /Rotate. It is what a reader measures on
screen, pdfplumber's ``page.crop(bbox)`` and pdftotext's ``-x -y -W -H`` (which measure
the same way). Glyph records stay in PDF user space (origin at the bottom left, before
/Rotate): :func:`shown_transform` converts.

A glyph belongs to the box when the centre of its quad lies inside it, bounds included:
a glyph that straddles the edge goes to the side that holds most of it, so a box drawn
around a column never takes half a letter of its neighbour.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from glyphweave.core.errors import UsageError
from glyphweave.core.glyph import Glyph
from glyphweave.core.glyphtable import GlyphTable
from glyphweave.core.stages import Assembled
from glyphweave.pagespace import shown_transform

if TYPE_CHECKING:
    import re

    from glyphweave.pagesearch import SearchHit
    from glyphweave.pagewords import TextBlock, TextLine, TextWord


class Page(Protocol):
    """What a crop reads of a :class:`glyphweave.Page` (named here, not imported: the API
    imports this module)."""

    cropbox: tuple[float, float, float, float]
    rotate: int

    @property
    def table(self) -> GlyphTable: ...

    def visible_indices(self) -> list[int]: ...

    def _assemble(self, mode: str | None, indices: list[int] | None = None) -> str | Assembled: ...

    def _read(self, mode: str | None, indices: list[int] | None = None) -> tuple[Assembled, list[TextBlock]]: ...

    def _search(self, pattern: re.Pattern[str], mode: str | None, indices: list[int] | None = None
                ) -> list[SearchHit]: ...

__all__ = ["Box", "CroppedPage", "check_box", "shown_transform"]

Box = tuple[float, float, float, float]
"""``(x0, top, x1, bottom)`` in points from the top-left of the page as shown."""


def check_box(box: Sequence[float]) -> Box:
    """``box`` as four floats, or :class:`~glyphweave.core.errors.UsageError` saying why not."""
    try:
        x0, top, x1, bottom = (float(v) for v in box)
    except (TypeError, ValueError):
        raise UsageError(f"a crop box is four numbers: x0, top, x1, bottom (got {box!r})") from None
    if not all(math.isfinite(v) for v in (x0, top, x1, bottom)):
        raise UsageError("a crop box's numbers must be finite")
    if not (x0 < x1 and top < bottom):
        raise UsageError(f"a crop box must have x0 < x1 and top < bottom (got {x0:g}, {top:g}, {x1:g}, {bottom:g})")
    return x0, top, x1, bottom


def inside(table: GlyphTable, indices: Sequence[int], box: Box, cropbox: Box, rotate: int) -> list[int]:
    """Those of ``indices`` whose quad's centre, as shown, lies in ``box``."""
    x0, top, x1, bottom = box
    to_shown = shown_transform(cropbox, rotate)
    ox, oy, ex, ey = table.ox, table.oy, table.ex, table.ey
    lox, loy, hix, hiy = table.lox, table.loy, table.hix, table.hiy
    kept = []
    for i in indices:
        x, y = to_shown((ox[i] + ex[i] + lox[i] + hix[i]) / 2, (oy[i] + ey[i] + loy[i] + hiy[i]) / 2)
        if x0 <= x <= x1 and top <= y <= bottom:
            kept.append(i)
    return kept


class CroppedPage:
    """A :class:`~glyphweave.Page` limited to a box (see the module docstring): made by
    :meth:`glyphweave.Page.crop`. Its text is assembled by the profile's assembler (or
    ``mode``) from the page's visible glyphs in the box, as if they were all the page had."""

    def __init__(self, page: Page, box: Sequence[float]) -> None:
        self.page = page
        self.box: Box = check_box(box)

    def __repr__(self) -> str:
        return f"<CroppedPage {self.box} of {self.page!r}>"

    def glyph_indices(self, raw: bool = False) -> list[int]:
        """Indices (paint order) of the page's visible glyphs in the box, or of every painted
        one with ``raw=True``."""
        page = self.page
        table = page.table
        indices = range(len(table)) if raw else page.visible_indices()
        return inside(table, indices, self.box, page.cropbox, page.rotate)

    def glyphs(self, raw: bool = False) -> list[Glyph]:
        """Glyph records of :meth:`glyph_indices` (in user space, as every glyph record)."""
        return self.page.table.glyphs(self.glyph_indices(raw))

    def text(self, mode: str | None = None) -> str:
        """The text of the glyphs in the box."""
        return self.assembled(mode).text

    def assembled(self, mode: str | None = None) -> Assembled:
        """The text of the glyphs in the box and the assembler's structured data."""
        result = self.page._assemble(mode, self.glyph_indices())
        return Assembled(text=result) if isinstance(result, str) else result

    def words(self, mode: str | None = None) -> list[TextWord]:
        """The words of the glyphs in the box (:meth:`glyphweave.Page.words`)."""
        return [word for block in self.blocks(mode) for line in block.lines for word in line.words]

    def lines(self, mode: str | None = None) -> list[TextLine]:
        """The lines of the glyphs in the box (:meth:`glyphweave.Page.lines`)."""
        return [line for block in self.blocks(mode) for line in block.lines]

    def blocks(self, mode: str | None = None) -> list[TextBlock]:
        """The blocks of the glyphs in the box (:meth:`glyphweave.Page.blocks`)."""
        return self._read(mode)[1]

    def _read(self, mode: str | None = None) -> tuple[Assembled, list[TextBlock]]:
        """The text of the glyphs in the box and their blocks, from one assembly."""
        return self.page._read(mode, self.glyph_indices())

    def search(self, query: str, *, case: bool = False, regex: bool = False,
               mode: str | None = None) -> list[SearchHit]:
        """The matches of ``query`` among the glyphs in the box (:meth:`glyphweave.Page.search`)."""
        from glyphweave.pagesearch import compile_query

        return self._search(compile_query(query, case=case, regex=regex), mode)

    def _search(self, pattern: re.Pattern[str], mode: str | None = None) -> list[SearchHit]:
        """The matches of a compiled ``pattern`` (:func:`glyphweave.pagesearch.compile_query`) in the box."""
        return self.page._search(pattern, mode, self.glyph_indices())

    def crop(self, box: Sequence[float]) -> CroppedPage:
        """This crop cut again: the part of ``box`` inside this one (same coordinates)."""
        x0, top, x1, bottom = check_box(box)
        a0, atop, a1, abottom = self.box
        return CroppedPage(self.page, (max(x0, a0), max(top, atop), min(x1, a1), min(bottom, abottom)))
