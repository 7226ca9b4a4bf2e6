"""``reading``: the page's text in content (paint) order, with spaces and line breaks
inferred from glyph geometry (SPEC §5).

PDF has no spaces or line ends as such: a producer may paint a space glyph, move the pen
with a ``TJ`` number or a new ``Tm``/``Td``, or widen the spacing with ``Tc``/``Tw``.
This assembler walks the glyphs in paint order and decides, between each glyph and the
one before it, "same word", "word space" or "new line" from where the glyphs sit. It is
the default for search and indexing: fast (one pass over the page's columns) and robust
to rotation, superscripts and mixed sizes, but it keeps content order (multi-column
reading order is the ``columns`` assembler's job).
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from glyphweave.core.stages import Assembler, Option, PageContext
from glyphweave.registry.markers import hookimpl

# Directions whose cosine is below this are a different writing direction: a new line.
# (Text set along a curve turns a few degrees per glyph and stays on its line.)
_SAME_DIRECTION = 0.8

# Letter spacing inferred from the gaps of a line (see ReadingAssembler) is believed only
# up to this fraction of the box height (about half an em): wider, evenly spaced gaps are
# layout (a table row of one-letter cells), not tracking.
_MAX_LETTER_SPACING = 0.6

# A glyph raised or lowered by more than line_gap but less than one box height, that
# starts between _SCRIPT_BACK and _SCRIPT_AHEAD box heights from where the previous glyph
# ended, is a sub- or superscript step (ReportLab raises 10 pt superscripts on 12 pt text
# by 6 pt, groff by half an em: more than half a box height of ascent-to-descent metrics).
_SCRIPT_BACK = -0.5
_SCRIPT_AHEAD = 1.0

# Upright CJK glyphs stacked in a column (vertical text set glyph by glyph with wmode 0):
# the next glyph sits at most this many box heights below the previous one, and less than
# _STACK_ALONG box heights to either side of it.
_STACK_STEP = 2.0
_STACK_ALONG = 0.5

# Code point ranges of CJK characters, between which no space is ever inserted: Hangul
# Jamo, CJK radicals, ideographic description, CJK symbols and punctuation, kana,
# Bopomofo, Hangul compatibility Jamo, Kanbun, CJK strokes, enclosed and compatibility
# CJK, ideographs (with extension A), Yi, Hangul syllables and Jamo extensions,
# compatibility ideographs, vertical and compatibility forms, halfwidth and fullwidth
# forms, kana supplements, ideograph extensions B onwards.
_CJK_RANGES = (
    (0x1100, 0x11FF),
    (0x2E80, 0x2FDF),
    (0x2FF0, 0x31FF),
    (0x3200, 0x4DBF),
    (0x4E00, 0xA4CF),
    (0xA960, 0xA97F),
    (0xAC00, 0xD7FF),
    (0xF900, 0xFAFF),
    (0xFE10, 0xFE1F),
    (0xFE30, 0xFE4F),
    (0xFF00, 0xFFEF),
    (0x1B000, 0x1B2FF),
    (0x20000, 0x3FFFF),
)
_CJK_STARTS = [lo for lo, _ in _CJK_RANGES]


def is_cjk(ch: str) -> bool:
    """True when the character ``ch`` is CJK (ideograph, kana, hangul, CJK punctuation,
    fullwidth form...)."""
    cp = ord(ch)
    k = bisect_right(_CJK_STARTS, cp) - 1
    return k >= 0 and cp <= _CJK_RANGES[k][1]


class _Kinds(dict):  # type: ignore[type-arg]
    """Cache: glyph text -> (is whitespace, first char is CJK, last char is CJK)."""

    def __missing__(self, text: str) -> tuple[bool, bool, bool]:
        kind = (
            text.isspace(),
            bool(text) and is_cjk(text[0]),
            bool(text) and is_cjk(text[-1]),
        )
        if len(self) < 100_000:
            self[text] = kind
        return kind


_KINDS = _Kinds()


def _last_piece(out: list[str], start: int) -> str:
    """The last non-empty piece of the current line ("\\n" when there is none)."""
    for j in range(len(out) - 1, start - 1, -1):
        if out[j]:
            return out[j]
    return "\n"


def _settle(out: list[str], start: int, cands: list[tuple[int, float]], word_gap: float) -> None:
    """Drop the provisional spaces of a letter-spaced line (the line is ``out[start:]``).

    ``cands`` are the spaces the line got from positioned gaps, as (index in ``out``, gap
    / box height). When most gaps of the line are that wide, the line is letter-spaced by
    positioning (no Tc): its typical gap is the letter spacing, and only gaps wider than
    it by ``word_gap`` box heights are word breaks.
    """
    nc = len(cands)
    if nc < 2:
        return
    pairs = len(out) - start - nc - 1  # neighbouring glyph pairs on the line
    small = pairs - nc
    if nc <= small:
        return
    ratios = sorted([r for _, r in cands])
    typical = ratios[(pairs - 1) // 2 - small]  # lower median of all the line's gaps
    if typical > _MAX_LETTER_SPACING:
        return
    limit = typical + word_gap
    for j, r in cands:
        if r <= limit:
            out[j] = ""


def _stacked(prev: str, text: str, along: float, across: float, hh: float) -> bool:
    """Upright CJK glyph placed right below the previous one: a vertical column."""
    if not (-_STACK_STEP * hh <= across < 0 and -_STACK_ALONG * hh <= along <= _STACK_ALONG * hh):
        return False
    return _KINDS[prev][2] and _KINDS[text][1]


def _selection(indices: Sequence[int], total: int) -> tuple[Sequence[int], Callable[[list[Any]], Sequence[Any]]]:
    """The glyph indices to walk and a function that picks them out of a column.

    ``indices`` are increasing (filters keep paint order), so a selection as long as the
    table that starts at 0 and ends at the last glyph is every glyph: the columns are used
    as they are. Otherwise each column is gathered once at C speed (``itemgetter``).
    """
    n = len(indices)
    if n == total and indices[0] == 0 and indices[-1] == n - 1:
        return range(n), _whole
    if n == 1:
        only = indices[0]
        return indices, lambda col: (col[only],)
    return indices, itemgetter(*indices)


def _whole(col: list[Any]) -> Sequence[Any]:
    return col


def _finish(out: list[str]) -> str:
    """Strip trailing whitespace of lines, keep at most one blank line in a row, drop
    leading and trailing blank lines; end with a newline unless empty."""
    lines: list[str] = []
    blank = True
    for line in "".join(out).splitlines():
        line = line.rstrip()
        if line:
            blank = False
        elif blank:
            continue
        else:
            blank = True
        lines.append(line)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n" if lines else ""


class _Columns:
    """Mapping-style access to the table's columns, building only the groups used."""

    __slots__ = ("_table",)

    def __init__(self, table: Any) -> None:
        self._table = table

    def __getitem__(self, name: str) -> list[Any]:
        return getattr(self._table, name)


class ReadingAssembler(Assembler):
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
        "word_gap": Option(
            default=0.15,
            doc="A gap wider than this many box heights (after tracking is taken out) is a word space.",
        ),
        "line_gap": Option(
            default=0.5,
            doc="A move across the writing direction larger than this many box heights is a new line.",
        ),
        "back_jump": Option(
            default=3.0,
            doc="A jump backwards along the writing direction larger than this many box heights "
            "is a new line.",
        ),
    }

    word_gap: float
    line_gap: float
    back_jump: float

    def assemble(self, page: PageContext, indices: Sequence[int]) -> str:
        n = len(indices)
        if not n:
            return ""
        table = page.table
        cols = _Columns(table)
        idx, get = _selection(indices, len(table))
        texts = get(cols["text"])
        if None in cols["decoded_by"]:
            decoded_by = get(cols["decoded_by"])
            placeholder = page.placeholder
            texts = [placeholder if by is None else t for t, by in zip(texts, decoded_by, strict=True)]
        heights = get(cols["height"])
        if min(heights) <= 0:
            heights = _fallback_heights(
                heights, get(cols["ox"]), get(cols["oy"]), get(cols["ex"]), get(cols["ey"]), get(cols["size"])
            )
        pen_x, pen_y = cols["px"], cols["py"]

        word_gap, line_gap, back_limit = self.word_gap, self.line_gap, -self.back_jump
        kinds = _KINDS
        out: list[str] = []
        append = out.append
        line_start = 0
        cands: list[tuple[int, float]] | None = None

        it = zip(idx, texts, get(cols["ox"]), get(cols["oy"]), get(cols["ex"]), get(cols["ey"]),
                 get(cols["dx"]), get(cols["dy"]), heights, strict=True)
        pi, t, pox, poy, pex, pey, pux, puy, phh = next(it)
        append(t)
        for i, t, x, y, gx, gy, ux, uy, h in it:
            # Fast path: the glyph starts exactly where the previous one ended, in the same
            # direction (the next glyph of a string without Tc or kerning): same word.
            if x != pex or y != pey or ux != pux or uy != puy:
                hh = h if h > phh else phh
                across = (y - poy) * pux - (x - pox) * puy
                lim = line_gap * hh
                same = -lim <= across <= lim and (
                    ux == pux and uy == puy or ux * pux + uy * puy >= _SAME_DIRECTION
                )
                if not same and -hh <= across <= hh and ux * pux + uy * puy > 0.99:
                    # A sub- or superscript step: raised or lowered by less than a box
                    # height, starting right where the previous glyph ended.
                    gap = (x - pex) * pux + (y - pey) * puy
                    same = _SCRIPT_BACK * hh <= gap <= _SCRIPT_AHEAD * hh
                if same:
                    gap = (x - pex) * pux + (y - pey) * puy
                    if gap > word_gap * hh:
                        track = (pen_x[pi] - pex) * pux + (pen_y[pi] - pey) * puy
                        if track > 0:
                            gap -= track
                        if gap > word_gap * hh:
                            q = out[-1] or _last_piece(out, line_start)
                            kq = kinds[q]
                            kt = kinds[t]
                            if not (kq[0] or kt[0] or (kq[2] and kt[1])):
                                if cands is None:
                                    cands = []
                                cands.append((len(out), gap / hh))
                                append(" ")
                    elif gap < back_limit * hh:
                        if cands:
                            _settle(out, line_start, cands, word_gap)
                        cands = None
                        append("\n")
                        line_start = len(out)
                elif not (
                    ux * pux + uy * puy > 0.99
                    and _stacked(
                        out[-1] or _last_piece(out, line_start), t, (x - pox) * pux + (y - poy) * puy, across, hh
                    )
                ):
                    if cands:
                        _settle(out, line_start, cands, word_gap)
                    cands = None
                    append("\n")
                    line_start = len(out)
            append(t)
            pi = i
            pox = x
            poy = y
            pex = gx
            pey = gy
            pux = ux
            puy = uy
            phh = h
        if cands:
            _settle(out, line_start, cands, word_gap)
        return _finish(out)


def _fallback_heights(
    heights: Sequence[float],
    ox: Sequence[float],
    oy: Sequence[float],
    ex: Sequence[float],
    ey: Sequence[float],
    sizes: Sequence[float],
) -> list[float]:
    """Box heights for glyphs whose font gives none (no ascent/descent, empty bbox).

    The median positive height of the page when there is one, else 1.5 × the glyph's
    own advance, else its font size, else 1.
    """
    good = sorted(h for h in heights if h > 0)
    if good:
        typical = good[len(good) // 2]
        return [h if h > 0 else typical for h in heights]
    return [
        1.5 * math.hypot(x1 - x0, y1 - y0) or abs(size) or 1.0
        for x0, y0, x1, y1, size in zip(ox, oy, ex, ey, sizes, strict=True)
    ]


@hookimpl
def glyphweave_register_assemblers() -> list[type[Assembler]]:
    return [ReadingAssembler]
