"""``reading``: the page's text in content (paint) order, with spaces and line breaks
inferred from glyph geometry (SPEC §5).

PDF has no spaces or line ends as such: a producer may paint a space glyph, move the pen
with a ``TJ`` number or a new ``Tm``/``Td``, or widen the spacing with ``Tc``/``Tw``.
This assembler walks the glyphs in paint order and decides, between each glyph and the
one before it, "same word", "word space" or "new line" from where the glyphs sit. It is
the default for search and indexing: fast and robust to rotation, superscripts and mixed
sizes, but it keeps content order (multi-column reading order is the ``columns``
assembler's job).

It works a run (one shown string) at a time (:func:`_assemble_runs`, PERFORMANCE.md
"work per string, not per glyph"): inside a run only a ``TJ`` adjustment can make a word
space, so the few places where one does are found at C speed and decided exactly, and
the page's columns are never built. :meth:`ReadingAssembler._assemble_glyphs` is the
glyph-by-glyph reference walk over the columns; both give the same text, and the
reference walk serves the rare cases the run walk leaves to it.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Callable, Sequence
from itertools import chain, compress
from operator import gt, itemgetter
from typing import Any

from glyphweave.plugin import Assembler, Option, PageContext, Run, RunGeometry, hookimpl

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


def _spacing_limit(cands: list[tuple[int, float]], pairs: int, word_gap: float) -> float | None:
    """Letter spacing by positioning: the widest gap (in box heights) that is still letter
    spacing on a line of ``pairs`` neighbouring glyph pairs, whose spaces from positioned
    gaps are ``cands`` (place, gap / box height); None when the line is not letter-spaced.

    When most gaps of the line are that wide, the line is letter-spaced by positioning (no
    Tc): its typical gap is the letter spacing, and only gaps wider than it by ``word_gap``
    box heights are word breaks.
    """
    nc = len(cands)
    if nc < 2:
        return None
    small = pairs - nc
    if nc <= small:
        return None
    ratios = sorted([r for _, r in cands])
    typical = ratios[(pairs - 1) // 2 - small]  # lower median of all the line's gaps
    if typical > _MAX_LETTER_SPACING:
        return None
    return typical + word_gap


def _settle(out: list[str], start: int, cands: list[tuple[int, float]], word_gap: float) -> None:
    """Drop the provisional spaces of a letter-spaced line (the line is ``out[start:]``;
    ``cands`` are its spaces from positioned gaps, as (index in ``out``, gap / box
    height)). See :func:`_spacing_limit`."""
    limit = _spacing_limit(cands, len(out) - start - len(cands) - 1, word_gap)
    if limit is not None:
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
    return _finish_text("".join(out))


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
        if not len(indices):
            return ""
        word_gap, line_gap, back_jump = self.word_gap, self.line_gap, self.back_jump
        if 0.0 <= word_gap < _INF and 0.0 <= line_gap < _INF and 0.0 <= back_jump < _INF:
            text = _assemble_runs(page.table, indices, page.placeholder, word_gap, line_gap, back_jump)
            if text is not None:
                return text
        return self._assemble_glyphs(page, indices)

    def _assemble_glyphs(self, page: PageContext, indices: Sequence[int]) -> str:
        """The reference walk, one glyph at a time over the table's columns.

        :func:`_assemble_runs` gives the same text a run at a time; this walk serves the
        cases it leaves out (options out of range, glyphs without a box height, indices
        out of paint order)."""
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
                res = _decide(pox, poy, pex, pey, pen_x[pi], pen_y[pi], pux, puy, phh, x, y, ux, uy, h,
                              out[-1] or _last_piece(out, line_start), t, word_gap, line_gap, back_limit)
                if res is not None:
                    if res >= 0.0:  # a word space
                        if cands is None:
                            cands = []
                        cands.append((len(out), res))
                        append(" ")
                    else:  # a new line
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


_INF = math.inf

# Where the fields read here sit in a Run (looked up once, so added fields do no harm).
_MATRIX, _RISE, _WMODE, _DECODED, _STARTS, _ADVANCES, _PENS, _LO, _HI, _EXTENT = (
    Run._fields.index(name)
    for name in ("matrix", "rise", "wmode", "decoded", "starts", "advances", "pens", "lo", "hi", "extent")
)
_BOX, _MIN_STEP = RunGeometry._fields.index("box"), RunGeometry._fields.index("min_step")
_TEXT = itemgetter(0)
_DECODER = itemgetter(1)

# The run walk compares gaps estimated in text space with the thresholds, and computes
# the reference walk's user-space numbers only where an estimate comes near one. The two
# differ by rounding, a few units in the last place of the run's coordinates: this much
# slack, relative to their magnitude, covers that many times over.
_SLACK = 1e-9
_RELATIVE = 1.0 - 1e-9


def _decide(
    pox: float, poy: float, pex: float, pey: float, ppx: float, ppy: float, pux: float, puy: float,
    phh: float, x: float, y: float, ux: float, uy: float, h: float, q: str, t: str,
    word_gap: float, line_gap: float, back_limit: float,
) -> float | None:
    """What goes between the previous glyph and the current one: the rules of
    :class:`ReadingAssembler`, computed as the reference walk computes them.

    ``po``/``pe``/``pp``: the previous glyph's origin, glyph end and pen end; ``pu``: its
    direction; ``phh``: its box height; ``q``: the last non-empty piece of the line ("\\n"
    when there is none); ``t``: the current glyph's text. The caller has ruled out the
    glyph starting exactly at the previous glyph end in the same direction.

    Returns None (nothing), -1.0 (a new line) or, for a word space, its gap / box height
    (>= 0).
    """
    hh = h if h > phh else phh
    across = (y - poy) * pux - (x - pox) * puy
    lim = line_gap * hh
    same = -lim <= across <= lim and (ux == pux and uy == puy or ux * pux + uy * puy >= _SAME_DIRECTION)
    if not same and -hh <= across <= hh and ux * pux + uy * puy > 0.99:
        gap = (x - pex) * pux + (y - pey) * puy
        same = _SCRIPT_BACK * hh <= gap <= _SCRIPT_AHEAD * hh
    if same:
        gap = (x - pex) * pux + (y - pey) * puy
        if gap > word_gap * hh:
            track = (ppx - pex) * pux + (ppy - pey) * puy
            if track > 0:
                gap -= track
            if gap > word_gap * hh:
                kq = _KINDS[q]
                kt = _KINDS[t]
                if not (kq[0] or kt[0] or (kq[2] and kt[1])):
                    return gap / hh
        elif gap < back_limit * hh:
            return -1.0
        return None
    if ux * pux + uy * puy > 0.99 and _stacked(q, t, (x - pox) * pux + (y - poy) * puy, across, hh):
        return None
    return -1.0


def _back(texts: list[str], j: int) -> str:
    """The last non-empty text at or before ``texts[j]`` ("\\n" when there is none).

    With separators written in front of the glyph they precede, this is the last
    non-empty piece of the current line, or a piece that starts with the line's "\\n"
    and has the same kinds (see :func:`_assemble_runs`).
    """
    while j >= 0:
        t = texts[j]
        if t:
            return t
        j -= 1
    return "\n"


def _drop_spaces(texts: list[str], cands: list[tuple[int, float]], pairs: int, word_gap: float) -> None:
    """:func:`_settle` for the run walk: the line's spaces are written in front of
    ``texts[g]`` for (g, gap / box height) in ``cands``."""
    limit = _spacing_limit(cands, pairs, word_gap)
    if limit is not None:
        for g, r in cands:
            if r <= limit:
                texts[g] = texts[g][1:]


def _assemble_runs(
    table: Any, indices: Sequence[int], placeholder: str, word_gap: float, line_gap: float, back_jump: float
) -> str | None:
    """The reading text of ``indices``, worked a run at a time: the same text as
    :meth:`ReadingAssembler._assemble_glyphs`, without building the page's columns.

    A run's glyphs share one baseline, direction and box height, so between two of them
    the glyphs are on one line (no move across it, no turn) and only the gap along the
    baseline can decide anything. For a run along an axis:

    * a word space needs a ``TJ`` adjustment before the glyph: the gap less positive
      tracking is at most ``starts[i] - pens[i - 1]``, and where no adjustment moved the
      pen that is 0 (the interpreter stores the very same number, so an identity test
      finds the adjustments at C speed). Only adjustments near or above the word-gap
      threshold are decided, exactly as the reference walk decides them (the same
      user-space arithmetic, from the run's numbers);
    * a new line needs a jump back of ``back_jump`` box heights, which the run's smallest
      step and widest advance rule out.

    Everything else (between runs, partially selected runs, runs not upright, runs where
    a jump back is possible) is decided glyph by glyph as in the reference walk, with the
    coordinates computed from the run.

    The text is the page's list of glyph texts, joined once: a space or line break is
    written in front of the glyph it precedes, glyphs left out become empty. The last
    non-empty piece of the line (``prev`` of the rules) is then the last non-empty
    entry before the glyph: an entry with a separator in front has the kinds of the
    piece it stands for (whitespace alone, or ending with the glyph's last character).

    Unresolved glyphs (decoder None) are looked for only on pages where some glyph text
    is empty: the core gives every unresolved glyph an empty text (SPEC §1). A run's
    offsets accumulate, so a non-finite one shows at the run's end, which is checked.
    Returns None when the reference walk must do it: a glyph without a positive, finite
    box height, or indices out of paint order.
    """
    n = len(indices)
    every = n == len(table) and indices[0] == 0 and indices[-1] == n - 1
    ids: Sequence[int] = () if every else list(range(len(table)))
    runs = table.raw_runs()
    geometry = table.runs()
    decoded_all = [run[_DECODED] for run in runs]
    texts = list(map(_TEXT, chain.from_iterable(decoded_all)))
    if "" in texts:
        texts = [placeholder if by is None else t
                 for t, by in zip(texts, map(_DECODER, chain.from_iterable(decoded_all)), strict=True)]
    back_limit = -back_jump
    back_floor = back_limit * _RELATIVE
    word_floor = word_gap * _RELATIVE
    kinds = _KINDS
    cands: list[tuple[int, float]] = []  # the current line's spaces from gaps: (glyph, gap / height)
    add_cand = cands.append
    line_first = 0  # glyphs taken before the current line
    skipped = 0  # glyphs left out so far
    cur = 0  # one past the last glyph taken

    def newline(g: int) -> None:
        nonlocal line_first
        taken = g - skipped
        if cands:
            _drop_spaces(texts, cands, taken - line_first - 1, word_gap)
            cands.clear()
        texts[g] = "\n" + texts[g]
        line_first = taken

    def put(g: int, res: float | None) -> None:
        if res is not None:
            if res >= 0.0:
                texts[g] = " " + texts[g]
                cands.append((g, res))
            else:
                newline(g)

    started = False
    pox = poy = pex = pey = ppx = ppy = pux = puy = phh = 0.0
    pos = 0  # next position in indices
    start = 0  # table index of the run's first glyph
    for run, geo in zip(runs, geometry, strict=False):  # one geometry per run
        starts = run[_STARTS]
        m = len(starts)
        end = start + m
        sel: list[int] | None = None
        k0 = 0
        if not every:
            if pos >= n:
                break
            first = indices[pos]
            if first >= end:
                start = end
                continue
            if first < start:
                return None
            k = pos + m
            if first == start and indices[pos:k] == ids[start:end]:  # all of the run
                pos = k
            else:
                sel = []
                last = start - 1
                while pos < n:
                    i = indices[pos]
                    if i >= end:
                        break
                    if i <= last:
                        return None
                    sel.append(i - start)
                    last = i
                    pos += 1
            k0 = first - start
            if first != cur:
                texts[cur:first] = [""] * (first - cur)
                skipped += first - cur

        # The run's frame, computed as GlyphTable computes its columns.
        a, b, c, d, e, f = run[_MATRIX]
        hi = run[_HI]
        lo = run[_LO]
        if b == 0.0 and c == 0.0 and a > 0.0 and run[_WMODE] == 0:
            # Upright, left to right (the usual case): hypot(a, 0) is a, hypot(0, v) is |v|.
            upright = True
            rise = run[_RISE]
            bx = e + c * rise
            by = f + d * rise
            ax = a
            ay = 0.0
            ux = 1.0
            uy = b / a
            h = abs(d * hi - d * lo)
            x = bx + a * starts[k0]
            y = by
        else:
            upright = False
            if run[_WMODE] == 0:
                rise = run[_RISE]
                bx = e + c * rise
                by = f + d * rise
                ax, ay = a, b
                norm = math.hypot(a, b) or 1.0
                ux = a / norm
                uy = b / norm
                h = math.hypot(c * hi - c * lo, d * hi - d * lo)
            else:
                bx, by = e, f
                ax, ay = c, d
                norm = math.hypot(c, d) or 1.0
                ux = -c / norm
                uy = -d / norm
                h = math.hypot(a * hi - a * lo, b * hi - b * lo)
            s = starts[k0]
            if ay == 0.0:
                x, y = bx + ax * s, by
            elif ax == 0.0:
                x, y = bx, by + ay * s
            else:
                x, y = bx + ax * s, by + ay * s
        if not 0.0 < h < _INF:
            return None

        # The first glyph taken, against the glyph taken before it.
        g = start + k0
        if not started:
            started = True
        elif x != pex or y != pey or ux != pux or uy != puy:
            put(g, _decide(pox, poy, pex, pey, ppx, ppy, pux, puy, phh, x, y, ux, uy, h,
                           texts[g - 1] or _back(texts, g - 2), texts[g], word_gap, line_gap, back_limit))

        advances = run[_ADVANCES]
        pens = run[_PENS]
        if m == 1:
            fast = True
        elif upright and sel is None:
            # Along the baseline a glyph is at bx + a * offset; gaps are differences of
            # those. The slack covers rounding: a few units in the last place of the
            # largest coordinate of the run (from the interpreter's extent when it gave
            # one, which spares reading the run geometry).
            widest = a * max(advances)
            extent = run[_EXTENT]
            if extent is not None:
                least, most, step = extent
                step *= a
                slack = _SLACK * (abs(bx) + a * (abs(least) + abs(most)) + widest)
            else:
                box = geo[_BOX]
                step = geo[_MIN_STEP]
                slack = _SLACK * (abs(bx) + abs(box[0]) + box[2] - box[0])
            fast = step - widest > h * back_floor + slack and -_INF < starts[-1] + pens[-1] < _INF
            if fast:
                tail = starts[1:]
                head = pens[:-1]
                if tail == head:
                    pass  # no adjustment: every gap is the tracking, never a space
                elif not h * word_floor > slack:
                    fast = False
                else:
                    # A space needs starts[i] - pens[i - 1] above the (positive) limit.
                    wthr = word_gap * h
                    limit = (h * word_floor - slack) / a
                    for i in compress(range(1, m), map(gt, tail, head)):
                        dd = starts[i] - pens[i - 1]
                        if dd > limit:
                            ve = bx + a * (starts[i - 1] + advances[i - 1])
                            gap = bx + a * starts[i] - ve
                            if gap > wthr:
                                track = bx + a * pens[i - 1] - ve
                                if track > 0:
                                    gap -= track
                                if gap > wthr:
                                    g = start + i
                                    kq = kinds[texts[g - 1] or _back(texts, g - 2)]
                                    kt = kinds[texts[g]]
                                    if not (kq[0] or kt[0] or (kq[2] and kt[1])):
                                        texts[g] = " " + texts[g]
                                        add_cand((g, gap / h))
        else:
            fast = False
        if fast:
            cur = end
            s = starts[-1]
            if upright:
                pox = bx + a * s
                pex = bx + a * (s + advances[-1])
                ppx = bx + a * pens[-1]
                poy = pey = ppy = by
            else:
                g = s + advances[-1]
                p = pens[-1]
                if ay == 0.0:
                    pox, poy, pex, pey, ppx, ppy = bx + ax * s, by, bx + ax * g, by, bx + ax * p, by
                elif ax == 0.0:
                    pox, poy, pex, pey, ppx, ppy = bx, by + ay * s, bx, by + ay * g, bx, by + ay * p
                else:
                    pox, poy, pex, pey, ppx, ppy = (bx + ax * s, by + ay * s, bx + ax * g, by + ay * g,
                                                    bx + ax * p, by + ay * p)
        else:
            # Glyph by glyph, as the reference walk.
            cur = start + k0 + 1
            pox, poy = x, y
            s = starts[k0] + advances[k0]
            p = pens[k0]
            if ay == 0.0:
                pex, pey, ppx, ppy = bx + ax * s, by, bx + ax * p, by
            elif ax == 0.0:
                pex, pey, ppx, ppy = bx, by + ay * s, bx, by + ay * p
            else:
                pex, pey, ppx, ppy = bx + ax * s, by + ay * s, bx + ax * p, by + ay * p
            for k in range(k0 + 1, m) if sel is None else sel:
                if k == k0:
                    continue
                g = start + k
                if g != cur:
                    texts[cur:g] = [""] * (g - cur)
                    skipped += g - cur
                s = starts[k]
                gg = s + advances[k]
                p = pens[k]
                if ay == 0.0:
                    x, y, gx, gy, px, py = bx + ax * s, by, bx + ax * gg, by, bx + ax * p, by
                elif ax == 0.0:
                    x, y, gx, gy, px, py = bx, by + ay * s, bx, by + ay * gg, bx, by + ay * p
                else:
                    x, y, gx, gy, px, py = (bx + ax * s, by + ay * s, bx + ax * gg, by + ay * gg,
                                            bx + ax * p, by + ay * p)
                if x != pex or y != pey:
                    put(g, _decide(pox, poy, pex, pey, ppx, ppy, ux, uy, h, x, y, ux, uy, h,
                                   texts[g - 1] or _back(texts, g - 2), texts[g], word_gap, line_gap, back_limit))
                cur = g + 1
                pox, poy, pex, pey, ppx, ppy = x, y, gx, gy, px, py
        pux = ux
        puy = uy
        phh = h
        start = end
    if not every:
        if pos != n:
            return None
        if cur < len(texts):
            del texts[cur:]
    if cands:
        _drop_spaces(texts, cands, n - line_first - 1, word_gap)
    return _finish_text("".join(texts))


def _finish_text(text: str) -> str:
    """:func:`_finish` for text already joined."""
    lines: list[str] = []
    blank = True
    for line in text.splitlines():
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
