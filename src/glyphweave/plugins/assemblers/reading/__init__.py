"""``reading``: the page's text in content (paint) order, with spaces and line breaks
inferred from glyph geometry (rules: assembly).

PDF has no spaces or line ends as such: a producer may paint a space glyph, move the pen
with a ``TJ`` number or a new ``Tm``/``Td``, or widen the spacing with ``Tc``/``Tw``.
This assembler walks the glyphs in paint order and decides, between each glyph and the
one before it, "same word", "word space" or "new line" from where the glyphs sit. It is
the default for search and indexing: fast and robust to rotation, superscripts and mixed
sizes, but it keeps content order (multi-column reading order is the ``columns``
assembler's job).

The rules themselves (the decision between two glyphs, letter spacing, the walks that
apply them) are the layout layer's (``glyphweave.layout.page_geometry``): this
assembler reads the geometry's lines in paint order, and reorders only the regions where
paint order contradicts the geometry badly (order recovery, rules: assembly).
"""

from __future__ import annotations

from collections.abc import Sequence

from glyphweave.layout import is_cjk
from glyphweave.plugin import Assembled, Assembler, Option, PageContext, hookimpl

from .._shared import (
    ORDER_OPTIONS,
    PROSE_OPTIONS,
    RULE_OPTIONS,
    GeometryOptions,
    finished_read,
    plainly_in_order,
    recovered_text,
    rules_geometry,
)

__all__ = ["ReadingAssembler", "glyphweave_register_assemblers", "is_cjk"]


class ReadingAssembler(Assembler, GeometryOptions):
    """Content-order text: word spaces and line breaks inferred from glyph geometry.

    Between a glyph and the one painted before it ("prev"), with ``h`` the *larger* of
    the two box heights (so a small glyph next to a big one, a superscript or a caption,
    is judged at the scale of the bigger text, which avoids false spaces and false breaks
    around it):

    * **New line** when the move between the two origins, projected on the normal of
      prev's writing direction, exceeds ``line_gap`` × h (superscripts, subscripts,
      baseline jitter stay on their line; a rotated run is one line read along its own
      direction). Also a new line when the writing direction turns by more than ~37°
      (a rotated label after a horizontal paragraph, a switch between writing modes),
      and when the pen jumps *backwards* along the direction by more than ``back_jump``
      × h (a table cell painted out of order, a return to the left margin on the same
      baseline). Writing mode 1 needs no special case: its direction points down the
      column and its box height is the column width, so consecutive glyphs of a column
      form a line and the move to the next column (to the left) breaks it.
      Two exceptions keep a line together: a *script step*, a glyph raised or lowered
      by less than h (but more than ``line_gap`` × h) that starts within -0.5 h..+1 h
      of prev's glyph end, in the same direction (ReportLab raises a 10 pt superscript
      on 12 pt Helvetica by 6 pt, groff by half an em: more than half the 0.925 em box
      of ascent-to-descent metrics; a real new line never starts where the last glyph
      ended); and upright CJK glyphs placed one below the other (vertical text set
      glyph by glyph in writing mode 0, as LibreOffice does), which continue their
      column.
    * **Word space** when the gap from prev's glyph end (its own advance) to the
      current origin, along prev's direction, exceeds ``word_gap`` × h. Tracking is
      taken out of the gap first, in two ways:

      1. *Tc is known exactly*: the pen end of prev minus its glyph end is its Tc (+Tw
         for a space, which is a space glyph anyway). A positive Tc is subtracted from
         the gap, so ``T r a c k e d`` set with ``4 Tc`` reads "Tracked", while a word
         break positioned in letter-spaced text (Tc + the width of a space) still
         exceeds the threshold by the space width.
      2. *Letter spacing by positioning* (TJ numbers or one Td per glyph, no Tc): the
         spaces such gaps produce are provisional until the line ends. If at least two
         spaces were inserted and they are the majority of the line's glyph gaps, the
         line is letter-spaced: its typical gap (lower median of all gaps, in box
         heights) is the letter spacing, and a provisional space survives only if its
         gap exceeds that typical gap by ``word_gap`` × h (a word break in tracked text
         is the tracking plus a space). A typical gap above ~0.6 × h is not believed to
         be tracking (evenly spaced one-letter table cells keep their spaces). In
         ordinary text most gaps are kerning-sized, so this never fires: justified
         text whose spaces are pen jumps (TeX, groff) keeps every space.

      No space when either side already is whitespace, and none between two CJK
      characters.
    * Unresolved glyphs show ``page.placeholder``; a glyph with several characters (a
      ligature) is emitted as is.
    * Output: lines end with "\\n", trailing whitespace stripped, runs of blank lines
      collapsed to one; a non-empty page ends with "\\n".
    """

    NAME = "reading"
    OPTIONS = {
        **RULE_OPTIONS,
        "recover": Option(
            default=True,
            doc="Order recovery: read a region in geometric order where paint order contradicts it badly "
            "(words painted backwards, lines jumping up mid-column, columns interleaved line by line, "
            "blocks across the page painted out of top-to-bottom order).",
        ),
        **ORDER_OPTIONS,
        **PROSE_OPTIONS,
    }

    recover: bool

    def assemble(self, page: PageContext, indices: Sequence[int]) -> str | Assembled:
        if not len(indices):
            return ""
        geometry = rules_geometry(self, page, indices)
        if self.recover and len(geometry.walk.breaks) > 1 and not plainly_in_order(self, geometry):
            return finished_read(self, recovered_text(self, page, geometry))
        return finished_read(self, (geometry.reading_text(), None))


@hookimpl
def glyphweave_register_assemblers() -> list[type[Assembler]]:
    return [ReadingAssembler]
