"""A page's geometry: the walk, lines, words and blocks every assembler reads, computed once.

:func:`page_geometry` is the one entry point: an assembler (built in or third party) asks
the page for its geometry with the rules' options, and the first call for a selection of
glyphs and options computes it; later calls, by any assembler on the same page, get the
same object. Everything in it is computed on first use: the reading assembler on a page
whose paint order is fine reads only the walk's text.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .blocks import Block, build_blocks
from .glyphwalk import walk_glyphs
from .indic import has_drawn_order, joined_vowels, typed_syllables
from .lines import Line, LineGeometry, build_lines
from .median import median
from .rules import Rules, finish_text
from .runwalk import walk_runs
from .scripts import expand_ligatures, has_rtl, logical_order, script_free
from .visual import visual_units
from .walk import Walk

if TYPE_CHECKING:
    from glyphweave.core.glyphtable import GlyphTable
    from glyphweave.core.stages import PageContext


def page_geometry(page: PageContext, indices: Sequence[int], *, word_gap: float = 0.15, line_gap: float = 0.5,
                  back_jump: float = 3.0, ligatures: bool = False, number_strings: bool = True) -> PageGeometry:
    """The page geometry (lines, words, blocks: :class:`PageGeometry`) of the glyphs
    ``indices`` of ``page`` under the word-gap and line-break rules with these options (in
    box heights; rules: assembly), Latin ligatures kept when ``ligatures``, a number painted
    as one string inside right-to-left text kept whole when ``number_strings``.

    Computed on first use and kept on the page (:meth:`PageContext.memo
    <glyphweave.core.stages.PageContext.memo>`): every assembler asking for the same glyphs
    and options on this page gets the same object, so nothing is computed twice.
    """
    rules = Rules(word_gap, line_gap, back_jump, number_strings)
    return page.memo(("glyphweave.layout.page_geometry", tuple(indices), rules, ligatures),
                     lambda: PageGeometry(page, indices, rules, ligatures=ligatures))


class PageGeometry:
    """The geometry of the glyphs ``indices`` of a page under one set of rules."""

    def __init__(self, page: PageContext, indices: Sequence[int], rules: Rules, *,
                 ligatures: bool = False, walk: Walk | None = None) -> None:
        # The page's table and placeholder, not the page: the page caches this object, and
        # a reference back would make a cycle that only the cyclic collector frees.
        self.table = page.table
        self.placeholder = page.placeholder
        x0, y0, x1, y1 = page.mediabox
        self._page_span = max(abs(x1 - x0), abs(y1 - y0))
        self.indices = indices
        self.rules = rules
        self.ligatures = ligatures
        """Keep the Latin ligature forms U+FB00-FB06 instead of expanding them."""
        self._walk: Walk | None = walk
        """Given when the caller settled the separators itself (the structure assembler
        forces line ends between blocks); else the rules' walk, computed on first use."""
        self._lines: list[Line] | None = None
        self._blocks: list[Block] | None = None
        self._advance: float | None = None
        self._builder: LineGeometry | None = None

    @property
    def walk(self) -> Walk:
        """The walk of the glyphs in paint order (:class:`~.walk.Walk`)."""
        if self._walk is None:
            self._walk = walk_table(self.table, self.indices, self.placeholder, self.rules)
        return self._walk

    @property
    def builder(self) -> LineGeometry:
        if self._builder is None:
            self._builder = LineGeometry(self.table)
        return self._builder

    @property
    def lines(self) -> list[Line]:
        """The lines, in paint order of their first glyph."""
        if self._lines is None:
            w = self.walk
            self._lines = build_lines(self.builder, w.glyphs, w.pieces, w.breaks, w.wide,
                                      w.wide_widths) if w.pieces else []
        return self._lines

    @property
    def blocks(self) -> list[Block]:
        """The lines grouped into blocks (paragraphs, cells, labels), in paint order of their
        first line (:func:`~.blocks.build_blocks`)."""
        if self._blocks is None:
            self._blocks = build_blocks(self.lines)
        return self._blocks

    @property
    def advance(self) -> float:
        """The page's typical glyph advance (user space): the median over its lines of
        their mean advance per glyph, the unit of column gaps and the layout grid."""
        if self._advance is None:
            means = [(line.end - line.start) / len(line.glyphs) for line in self.lines if line.end > line.start]
            self._advance = median(means) if means else 0.0
        return self._advance

    def plain_order(self, gap: float = 0.0) -> bool:
        """Whether paint order is plainly reading order, judged from where each line starts
        without building the lines: one writing direction, every line starting below the
        one before (by more than half a line height: no two pieces of one baseline, no jump
        up), no line start but the first's and the last's moved sideways by more than a third
        of the page, and no two
        consecutive lines with a wide gap of at least ``gap`` (interleaved columns; the
        geometric order and order recovery cut lines only at gaps that wide, so a caller
        passing its own threshold lets the justified text's wide word spaces through). On
        such a page neither order recovery nor the geometric order can change anything,
        and both are skipped. False only means "look closer". A larger ``gap`` only lets
        more pages through: one passed with no gap passes with any."""
        walk = self.walk
        breaks = walk.breaks
        if not walk.pieces:
            return True
        wide = walk.wide
        widths = walk.wide_widths
        if gap > 0.0 and len(widths) == len(wide):
            wide = [p for p, width in zip(wide, widths, strict=True) if width >= gap]
        if len(wide) > 1:
            line_of = [bisect_right(breaks, p) for p in wide]
            if any(b - a == 1 for a, b in zip(line_of, line_of[1:], strict=False)):
                return False
        builder = self.builder
        glyphs = walk.glyphs
        span = self._page_span / 3
        # The first and the last line may start anywhere along (a running head or a page
        # number set right, above or below everything else): strictly above or below all
        # the other lines, neither can stand beside them as a column.
        last = len(breaks)
        ends = (1, last) if last >= 3 else ()
        prev: tuple[float, float, float, float, float] | None = None
        for i, p in enumerate((0, *breaks)):
            cur = builder.start_of(glyphs[p])
            if prev is not None:
                ux, uy, across, along, h = cur
                pux, puy, pacross, palong, ph = prev
                if ux != pux or uy != puy:
                    return False
                if not across - pacross < -0.5 * (h if h > ph else ph):
                    return False
                if abs(along - palong) > span and i not in ends:
                    return False
            prev = cur
        return True

    def reading_text(self) -> str:
        """The page in paint order, lines as the rules cut them, text normalized
        (:meth:`line_text`): the ``reading`` assembler's output without order recovery."""
        raw = self.walk.text()
        if script_free(raw) or not has_rtl(raw) and not has_drawn_order(raw):
            return raw if self.ligatures else expand_ligatures(raw)
        return self.text_of(self.lines)

    def line_text(self, line: Line) -> str:
        """The text of ``line`` as a reader types it: Latin ligatures expanded (unless kept),
        right-to-left script put in logical order with base letters, Indic vowel signs drawn
        before their consonant put after it (rules: assembly)."""
        text = line.text
        if not script_free(text):
            if has_drawn_order(text):
                text = self.typed_text(line)
            if has_rtl(text):
                text = logical_order(self.visual_units(line))
        return text if self.ligatures else expand_ligatures(text)

    def typed_text(self, line: Line) -> str:
        """The text of ``line`` with its pre-base vowel signs after their clusters
        (:func:`~.indic.typed_syllables`), judged from where the glyphs lie along it, and
        its vowels drawn in two parts joined (:func:`~.indic.joined_vowels`)."""
        builder = self.builder
        centres = []
        for g in line.glyphs:
            _box, ox, oy, ex, ey = builder.glyph_box(g)
            centres.append((ox + ex) / 2 * line.ux + (oy + ey) / 2 * line.uy)
        return joined_vowels("".join(typed_syllables(line.pieces, centres)))

    def visual_units(self, line: Line) -> list[str]:
        """The glyph texts of ``line`` in visual order (along its direction), a word space
        as a unit of its own, decided between neighbours on the page
        (:func:`~.visual.visual_units`)."""
        return visual_units(self.builder, [line], self.rules)

    def text_of_rows(self, rows: Sequence[Sequence[Line]]) -> str:
        """The text of ``rows`` one per line, the pieces of a row joined by a space,
        finished as the reading text is (:func:`~.rules.finish_text`)."""
        texts = (self.row_text(row) for row in rows)
        # A row of whitespace alone (a space glyph cut off at a gutter) is no line of text.
        return finish_text("\n".join(text for text in texts if not text.isspace()))

    def row_text(self, row: Sequence[Line]) -> str:
        """The text of the pieces of one row: joined by a space, or, where right-to-left
        script is in it, put in logical order together (a Latin word inside an Arabic
        line is a piece of its own when it was painted apart)."""
        if len(row) == 1:
            return self.line_text(row[0])
        if not any(has_rtl(line.text) for line in row):
            return " ".join(self.line_text(line) for line in row)
        text = logical_order(visual_units(self.builder, row, self.rules))
        return text if self.ligatures else expand_ligatures(text)

    def text_of(self, lines: Sequence[Line | None]) -> str:
        """The text of ``lines`` one per line (None: a blank line), finished as the
        reading text is (:func:`~.rules.finish_text`)."""
        return finish_text("\n".join("" if line is None else self.line_text(line) for line in lines))


def walk_table(table: GlyphTable, indices: Sequence[int], placeholder: str, rules: Rules) -> Walk:
    """The walk of the glyphs ``indices``: a run at a time where the run walk can, glyph by
    glyph otherwise (both give the same walk)."""
    if not len(indices):
        return Walk([], [], [], [])
    if rules.in_range():
        walk = walk_runs(table, indices, placeholder, rules)
        if walk is not None:
            return walk
    return walk_glyphs(table, indices, placeholder, rules)


def paint_order_text(page: PageContext, indices: Sequence[int]) -> str:
    """The glyphs ``indices`` in paint order, word spaces and line breaks from the default
    reading rules (the ``raw`` profile's text without order recovery): what a page out of
    time falls back to (the pipeline's ``paint_order``). Linear in the glyphs."""
    return page_geometry(page, indices).reading_text() if len(indices) else ""
