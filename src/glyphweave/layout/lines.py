"""Lines and words: the glyphs of a walk grouped as the rules group them, with where they lie.

A :class:`Line` is what the word-gap and line-break rules (rules: assembly) call a line: the
glyphs between two new-line decisions of the walk, in paint order. It knows its writing
direction, its baseline, its extent along the direction and its box, computed a run at a
time (a run wholly in the line contributes its precomputed box), so building the lines of
a page costs a few operations per run, not per glyph. Words are computed on demand.

Coordinates: a line's *along* axis is its unit writing direction ``(ux, uy)``, its
*across* axis the normal ``(-uy, ux)``. Reading goes along a line, then to the next line
at a *lower* across: down the page for horizontal text, leftwards for vertical text (its
direction points down the column), which is the order both scripts read in.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from itertools import accumulate, compress

from glyphweave.core.glyphtable import GlyphTable
from glyphweave.core.runs import Run, RunFrame, RunGeometry

from .walk import numbers_tuple

Box = tuple[float, float, float, float]
"""Axis-aligned bounds (x0, y0, x1, y1) in page user space."""


class Word:
    """A word of a line: glyphs between word spaces (or wide gaps)."""

    __slots__ = ("box", "end", "glyphs", "start", "text")

    def __init__(self, text: str, glyphs: list[int], box: Box, start: float, end: float) -> None:
        self.text = text
        """The word's text, as the glyphs give it (no separators)."""
        self.glyphs = glyphs
        """Its glyphs (table indices), in paint order."""
        self.box = box
        self.start = start
        """Where it starts and ends along its line's direction."""
        self.end = end

    def __repr__(self) -> str:
        return f"Word({self.text!r}, start={self.start:.2f}, end={self.end:.2f})"


class Line:
    """One line of a page (see the module docstring)."""

    __slots__ = ("_split", "_words", "across", "box", "end", "geometry", "glyphs", "height", "pieces", "start",
                 "text", "ux", "uy", "wide", "widths", "wmode")

    def __init__(self, glyphs: list[int], pieces: list[str], wide: list[int], ux: float, uy: float,
                 across: float, start: float, end: float, box: Box, height: float, wmode: int,
                 geometry: LineGeometry) -> None:
        self.glyphs = glyphs
        """The glyphs taken (table indices), in paint order."""
        self.pieces = pieces
        """Each glyph's text with the separator the rules put in front of it (" " for a
        word space; the line's first piece has none)."""
        self.wide = wide
        """Positions in :attr:`glyphs` that follow a wide gap (:data:`~.rules.WIDE_GAP`)."""
        self.ux = ux
        """Unit writing direction."""
        self.uy = uy
        self.across = across
        """The baseline's position across the direction (for horizontal text, its y)."""
        self.start = start
        """The line's extent along its direction."""
        self.end = end
        self.box = box
        self.height = height
        """The largest box height of its glyphs (for vertical text: the column width)."""
        self.wmode = wmode
        self.geometry = geometry
        self.text = "".join(pieces)
        """The line's text in paint order (normalized text: :meth:`PageGeometry.line_text`)."""
        self._words: list[Word] | None = None
        self._split: tuple[float, list[Line] | None] | None = None
        self.widths: list[float] | None = None
        """Each wide gap's width along the line (user space), parallel to :attr:`wide`, as
        the walk measured it; None when the walk did not say (measured from the glyphs)."""

    @property
    def words(self) -> list[Word]:
        """The line's words, split at word spaces and wide gaps, in paint order."""
        if self._words is None:
            self._words = self.geometry.words(self)
        return self._words

    def split(self, gap: float) -> list[Line]:
        """The line cut at every gap along it of at least ``gap`` (user space units): the
        pieces a column gutter or a table's cell boundaries leave. The line itself when
        there is none."""
        if not self.wide:
            return [self]
        if self._split is None or self._split[0] != gap:  # asked again by each stage of the order
            pieces = self.geometry.split(self, gap)
            # An uncut line is not kept in its own cache: that would be a reference cycle,
            # which only the cyclic collector frees (and a page's collections cost more
            # than building its lines).
            self._split = (gap, None if pieces == [self] else pieces)
        cut = self._split[1]
        return [self] if cut is None else cut

    def __repr__(self) -> str:
        return (f"Line({self.text!r}, across={self.across:.2f}, start={self.start:.2f}, end={self.end:.2f}, "
                f"dir=({self.ux:.2f}, {self.uy:.2f}))")


def bounds4(a: float, b: float, c: float, d: float) -> tuple[float, float]:
    """``min`` and ``max`` of four numbers, compared in the order those compare them (a NaN
    stays where they leave it). Compiled, ``min`` of a tuple boxed it and called the builtin;
    this is eight comparisons of doubles."""
    lo = hi = a
    if b < lo:
        lo = b
    if b > hi:
        hi = b
    if c < lo:
        lo = c
    if c > hi:
        hi = c
    if d < lo:
        lo = d
    if d > hi:
        hi = d
    return lo, hi


class LineGeometry:
    """Builds :class:`Line` records for one page's walk, a run at a time."""

    def __init__(self, table: GlyphTable) -> None:
        self.table = table
        self.runs: list[Run] = table.raw_runs()
        self.geo: list[RunGeometry] = table.runs()
        self.frames: list[RunFrame] = table.frames()
        self.run_starts = [g.start for g in self.geo]

    def run_of(self, g: int) -> int:
        return bisect_right(self.run_starts, g) - 1

    def glyph_box(self, g: int) -> tuple[Box, float, float, float, float]:
        """Glyph ``g``'s box, origin and glyph end (x0, y0, x1, y1), (ox, oy, ex, ey)."""
        r = self.run_of(g)
        run = self.runs[r]
        bx, by, ax, ay, nx, ny, _ux, _uy = self.frames[r]
        k = g - self.geo[r].start
        s = numbers_tuple(run.starts)[k]
        e = s + numbers_tuple(run.advances)[k]
        ox, oy = bx + ax * s, by + ay * s
        ex, ey = bx + ax * e, by + ay * e
        lo, hi = run.lo, run.hi
        x0, x1 = bounds4(ox + nx * lo, ox + nx * hi, ex + nx * lo, ex + nx * hi)
        y0, y1 = bounds4(oy + ny * lo, oy + ny * hi, ey + ny * lo, ey + ny * hi)
        return (x0, y0, x1, y1), ox, oy, ex, ey

    def start_of(self, g: int) -> tuple[float, float, float, float, float]:
        """Where a line starting with glyph ``g`` starts, from its run alone: (ux, uy) its
        unit direction, its across and along positions, its box height."""
        r = self.run_of(g)
        geo = self.geo[r]
        bx, by, ax, ay, _nx, _ny, _fx, _fy = self.frames[r]
        s = self.runs[r].starts[g - geo.start]
        x, y = bx + ax * s, by + ay * s
        ux, uy = geo.dx, geo.dy
        return ux, uy, -x * uy + y * ux, x * ux + y * uy, geo.height

    def line(self, glyphs: list[int], pieces: list[str], wide: list[int]) -> Line:
        """The line of the glyphs ``glyphs`` (taken, in paint order) with their pieces."""
        first = glyphs[0]
        r0 = self.run_of(first)
        geo0 = self.geo[r0]
        ux, uy = geo0.dx, geo0.dy
        bx, by, ax, ay, _nx, _ny, _fx, _fy = self.frames[r0]
        s = self.runs[r0].starts[first - geo0.start]
        across = -(bx + ax * s) * uy + (by + ay * s) * ux
        box, height = self._extent(glyphs)
        x0, y0, x1, y1 = box
        if uy == 0.0 and len(glyphs) > 1 and y1 - y0 > 2 * height:
            # Upright glyphs stacked down a column (vertical text set glyph by glyph in
            # writing mode 0, which the rules keep as one line): the line reads downwards,
            # and is as wide as its widest glyph.
            _b, lox, loy, _ex, _ey = self.glyph_box(glyphs[-1])
            if -(loy - (by + ay * s)) > abs(lox - (bx + ax * s)):
                ux, uy = 0.0, -1.0
                across = bx + ax * s
                height = x1 - x0
        if uy == 0.0:  # horizontal: along is ±x
            start, end = (x0, x1) if ux > 0 else (-x1, -x0)
        elif ux == 0.0:
            start, end = (y0, y1) if uy > 0 else (-y1, -y0)
        else:
            start, end = bounds4(x0 * ux + y0 * uy, x0 * ux + y1 * uy, x1 * ux + y0 * uy, x1 * ux + y1 * uy)
        return Line(glyphs, pieces, wide, ux, uy, across, start, end, box, height, self.runs[r0].wmode, self)

    def box(self, glyphs: list[int]) -> Box:
        """The box of ``glyphs`` (table indices, increasing): a run's precomputed box where
        they cover it, its slice's where they are consecutive in it, glyph by glyph elsewhere."""
        return self._extent(glyphs)[0]

    def _extent(self, glyphs: list[int]) -> tuple[Box, float]:
        """The box of ``glyphs`` and their largest box height: a run wholly taken gives its
        precomputed box; the glyphs of a run taken in part are boxed one by one."""
        geo, run_starts = self.geo, self.run_starts
        last = len(run_starts) - 1
        r = -1
        x0 = y0 = float("inf")
        x1 = y1 = float("-inf")
        height = 0.0
        i = 0
        n = len(glyphs)
        # Glyphs in paint order (the walks' order) and without a hole: a run's share of the
        # line is found by arithmetic, not by stepping through its glyphs.
        first = glyphs[0]
        contiguous = glyphs[-1] - first == n - 1
        if contiguous:  # checked in place: a list of the range, compared as objects, cost 2-3% of a document
            for k in range(1, n - 1):
                if glyphs[k] != first + k:
                    contiguous = False
                    break
        while i < n:
            g = glyphs[i]
            # run_of(g) (the last run starting at or before g), the run after the last one
            # tried first: a line's runs follow one another. (Compiled, the bound method
            # and the bisection were two calls through Python's protocol per run of a line.)
            if r < last and run_starts[r + 1] <= g and (r + 1 == last or g < run_starts[r + 2]):
                r += 1
            else:
                r = bisect_right(run_starts, g) - 1
            rg = geo[r]
            end = rg.end
            # the glyphs of the line in this run: consecutive entries below the run's end
            if contiguous:
                j = min(n, i + end - g)
            else:
                j = i + 1
                while j < n and rg.start <= glyphs[j] < end:
                    j += 1
            if g == rg.start and j - i == end - rg.start:
                bx0, by0, bx1, by1 = rg.box
            elif glyphs[j - 1] - g == j - i - 1:
                bx0, by0, bx1, by1 = self._run_slice_box(r, g - rg.start, glyphs[j - 1] - rg.start + 1)
            else:
                bx0 = by0 = float("inf")
                bx1 = by1 = float("-inf")
                for k in glyphs[i:j]:
                    (gx0, gy0, gx1, gy1), *_ = self.glyph_box(k)
                    bx0, by0 = min(bx0, gx0), min(by0, gy0)
                    bx1, by1 = max(bx1, gx1), max(by1, gy1)
            if bx0 < x0:
                x0 = bx0
            if by0 < y0:
                y0 = by0
            if bx1 > x1:
                x1 = bx1
            if by1 > y1:
                y1 = by1
            if rg.height > height:
                height = rg.height
            i = j
        return (x0, y0, x1, y1), height

    def _run_slice_box(self, r: int, a: int, b: int) -> Box:
        """The box of the glyphs ``a`` to ``b`` (positions) of run ``r``, consecutive: their
        offsets' extremes at C speed, then the four corners (what boxing them one by one
        gives)."""
        run = self.runs[r]
        bx, by, ax, ay, nx, ny, _ux, _uy = self.frames[r]
        starts, advances = numbers_tuple(run.starts), numbers_tuple(run.advances)
        # min(min(starts), min(ends)) and the max alike, their comparisons made in the same
        # order on doubles (a NaN lands where min() and max() would leave it).
        low_start = high_start = starts[a]
        low_end = high_end = starts[a] + advances[a]
        for k in range(a + 1, b):
            start = starts[k]
            end = start + advances[k]
            if start < low_start:
                low_start = start
            if start > high_start:
                high_start = start
            if end < low_end:
                low_end = end
            if end > high_end:
                high_end = end
        s0 = low_end if low_end < low_start else low_start
        s1 = high_end if high_end > high_start else high_start
        lo, hi = run.lo, run.hi
        x0, x1 = bounds4(bx + ax * s0 + nx * lo, bx + ax * s0 + nx * hi, bx + ax * s1 + nx * lo, bx + ax * s1 + nx * hi)
        y0, y1 = bounds4(by + ay * s0 + ny * lo, by + ay * s0 + ny * hi, by + ay * s1 + ny * lo, by + ay * s1 + ny * hi)
        return x0, y0, x1, y1

    def words(self, line: Line) -> list[Word]:
        """The words of ``line``: cut before each piece that starts with a space, each
        whitespace glyph and each wide gap."""
        out: list[Word] = []
        ux, uy = line.ux, line.uy
        wide = set(line.wide)
        cur: list[int] = []
        text: list[str] = []

        def flush() -> None:
            if cur:
                out.append(self._word("".join(text), cur, ux, uy))

        for pos, (g, piece) in enumerate(zip(line.glyphs, line.pieces, strict=True)):
            bare = piece.lstrip(" ") if pos else piece
            if pos and (piece[:1] == " " or pos in wide):
                flush()
                cur, text = [], []
            if not bare or bare.isspace():
                flush()
                cur, text = [], []
                continue
            cur.append(g)
            text.append(bare)
        flush()
        return out

    def _word(self, text: str, glyphs: list[int], ux: float, uy: float) -> Word:
        x0 = y0 = float("inf")
        x1 = y1 = float("-inf")
        for g in glyphs:
            (gx0, gy0, gx1, gy1), *_ = self.glyph_box(g)
            x0, y0, x1, y1 = min(x0, gx0), min(y0, gy0), max(x1, gx1), max(y1, gy1)
        start, end = bounds4(x0 * ux + y0 * uy, x0 * ux + y1 * uy, x1 * ux + y0 * uy, x1 * ux + y1 * uy)
        return Word(text, glyphs, (x0, y0, x1, y1), start, end)

    def split(self, line: Line, gap: float) -> list[Line]:
        """See :meth:`Line.split`."""
        widths = line.widths
        if widths is not None:
            cuts = [pos for pos, width in zip(line.wide, widths, strict=True) if width >= gap]
        else:
            cuts = []
            ux, uy = line.ux, line.uy
            for pos in line.wide:
                _b, _ox, _oy, pex, pey = self.glyph_box(line.glyphs[pos - 1])
                _b, ox, oy, _ex, _ey = self.glyph_box(line.glyphs[pos])
                if (ox - pex) * ux + (oy - pey) * uy >= gap:
                    cuts.append(pos)
        if not cuts:
            return [line]
        out = []
        bounds = [0, *cuts, len(line.glyphs)]
        for a, b in zip(bounds, bounds[1:], strict=False):
            pieces = line.pieces[a:b]
            pieces[0] = pieces[0].lstrip(" ")
            # line.wide is increasing: slice it rather than scan it whole for every piece
            lo, hi = bisect_right(line.wide, a), bisect_left(line.wide, b)
            piece = self.line(line.glyphs[a:b], pieces, [p - a for p in line.wide[lo:hi]])
            if widths is not None:
                piece.widths = widths[lo:hi]
            out.append(piece)
        return out


def build_lines(geometry: LineGeometry, glyphs: Sequence[int], pieces: list[str], breaks: list[int],
                wide: list[int], widths: Sequence[float] = ()) -> list[Line]:
    """The lines of a walk (see :class:`~.walk.Walk`): glyphs with an empty piece (not
    taken, or without text) are left out. Slices and C-speed tests per line: no Python
    step per glyph. ``widths`` (parallel to ``wide``, when the walk measured them) go to
    the lines, so that cutting a line at its gaps needs no glyph geometry."""
    lines: list[Line] = []
    bounds = [0, *breaks, len(pieces)]
    measured = len(widths) == len(wide)
    wi = 0
    nw = len(wide)
    for a, b in zip(bounds, bounds[1:], strict=False):
        ps = pieces[a:b]
        ws: list[int] = []
        first = wi
        while wi < nw and wide[wi] < b:
            ws.append(wide[wi] - a)
            wi += 1
        wd: list[float] | None = list(widths[first:wi]) if measured else None
        if not all(ps):  # (compiled, ``"" in ps`` compared every piece as an object)
            keep = list(map(bool, ps))
            if ws:
                # positions in the kept glyphs: a gap before a left-out glyph moves to the next one kept
                kept_before = list(accumulate(keep, initial=0))
                moved: dict[int, float] = {}
                for w, width in zip(ws, wd if wd is not None else [0.0] * len(ws), strict=True):
                    k = kept_before[w]
                    if 0 < k < kept_before[-1]:
                        moved[k] = max(moved.get(k, width), width)
                ws = sorted(moved)
                wd = [moved[k] for k in ws] if wd is not None else None
            gs = list(compress(glyphs[a:b], keep))
            ps = list(compress(ps, keep))
            if not gs:
                continue
        else:
            taken = glyphs[a:b]
            gs = taken if type(taken) is list else list(taken)  # a range's slice is a range
        ps[0] = ps[0].lstrip("\n")
        line = geometry.line(gs, ps, ws)
        line.widths = wd
        lines.append(line)
    return lines
