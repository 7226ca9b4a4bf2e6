"""The run walk: the reference walk's lines and spaces, worked a run (one shown string)
at a time, without building the page's columns.

A run's glyphs share one baseline, direction and box height, so between two of them the
glyphs are on one line (no move across it, no turn) and only the gap along the baseline
can decide anything. For an upright run taken whole:

* a word space needs a ``TJ`` adjustment before the glyph: the gap less positive
  tracking is at most ``starts[i] - pens[i - 1]``, and where no adjustment moved the pen
  that is 0 (the interpreter stores the very same number, so an identity test finds the
  adjustments at C speed). Only adjustments near or above the word-gap threshold are put
  to the rules, with the numbers the reference walk would give them;
* a new line needs a jump back of ``back_jump`` box heights, which the run's smallest
  step and widest advance rule out;
* a word space measured backwards (a glyph wholly behind the one before it, as
  right-to-left text painted in reading order has) needs a step back, which a run whose
  origins never move back rules out.

Everything else (between runs, partially selected runs, runs not upright, runs where a
jump back is possible) is put to :meth:`Rules.decide` glyph by glyph, with the glyphs'
sides computed from the run as the table computes its columns.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, repeat
from operator import itemgetter
from typing import Final

from glyphweave.core.glyphtable import GlyphTable
from glyphweave.core.runs import Run, RunFrame, RunGeometry

from .rules import JOIN, WIDE_GAP, Decision, Rules, Side, Verdict, may_space, operator_space, sits_on_base
from .walk import Walk, numbers_tuple

# The run walk compares gaps estimated in text space with the thresholds, and computes
# the reference walk's user-space numbers only where an estimate comes near one. The two
# differ by rounding, a few units in the last place of the run's coordinates: this much
# slack, relative to their magnitude, covers that many times over.
_SLACK: Final = 1e-9
_RELATIVE: Final = 1.0 - 1e-9

# (Final: compiled, each is a constant of the module's C code, not a look-up in its dictionary.)
_INF: Final = math.inf
_TEXT: Final = itemgetter(0)
_DECODER: Final = itemgetter(1)
_SPACE: Final = Verdict.SPACE
_NEWLINE: Final = Verdict.NEWLINE


def glyph_texts(runs: Sequence[Run], placeholder: str) -> list[str]:
    """Each glyph's text, run after run, ``placeholder`` for every glyph no decoder resolved
    when some text is empty (the core gives an unresolved glyph an empty text, rules: the
    glyph record). The reference of the compiled build's loop in C, which the walk runs
    where it is built (:mod:`glyphweave.layout._ctext`)."""
    decoded = [run.decoded for run in runs]
    texts = list(map(_TEXT, chain.from_iterable(decoded)))
    # Looked for only where some text is empty (``all`` tests each text's length, a fifth of
    # what comparing it with "" costs).
    if not all(texts):
        texts = [placeholder if by is None else t
                 for t, by in zip(texts, map(_DECODER, chain.from_iterable(decoded)), strict=True)]
    return texts


def any_zero(values: Sequence[float]) -> bool:
    """Whether a run's ``values`` (its advances) hold a zero: the reference of the compiled
    build's loop over doubles (:mod:`glyphweave.layout._ctext`)."""
    return 0.0 in values


try:  # the compiled build: the same answers, from loops in C
    from glyphweave.layout._ctext import any_zero as _any_zero
    from glyphweave.layout._ctext import glyph_texts as _glyph_texts
except ImportError:  # a pure install: the references
    _any_zero = any_zero
    _glyph_texts = glyph_texts


class _Unwalkable(Exception):
    """The run walk cannot do this selection: the reference walk must."""


def walk_runs(table: GlyphTable, indices: Sequence[int], placeholder: str, rules: Rules) -> Walk | None:
    """The walk of the glyphs ``indices`` of ``table`` (see :class:`~.walk.Walk`), a run
    at a time.

    Returns None when the reference walk must do it: a glyph without a positive, finite
    box height, or indices out of paint order.
    """
    runs = table.raw_runs()
    out = _Output(runs, placeholder, rules)
    try:
        _walk(out, _picked(runs, table.runs(), table.frames(), indices, len(table)), rules)
    except _Unwalkable:
        return None
    return out.finish(len(indices))


_Pick = tuple[Run, RunGeometry, RunFrame, int, "list[int] | None"]
"""A run taken, its geometry and frame, the position of its first glyph taken, and the
positions taken (None: from there to the run's end)."""


def _walk(out: _Output, picks: Iterable[_Pick], rules: Rules) -> None:
    """Write the separators of the picked runs into ``out``: a run's first glyph taken is
    decided against the glyph taken before it, the rest within the run.

    The walk owns two sides, the previous glyph's and the current one's, and refills
    them in place: a new record per run measurably slowed the walk (about 8%).
    """
    decide = rules.decide
    texts = out.texts
    back_floor = -rules.back_jump * _RELATIVE
    word_floor = rules.word_gap * _RELATIVE
    prev = Side(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0)  # the last glyph taken
    cur = Side(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0)
    started = False
    for run, geo, frame, k0, sel in picks:
        bx, by, ax, ay, nx, ny, rx, ry = frame
        # Upright and read along +x (the usual case): the box height is |d| (hi - lo), the
        # direction (1, ±0), and every glyph of the run is on the baseline y = by.
        upright = ay == 0.0 and nx == 0.0 and ax > 0.0 and run.wmode == 0
        lo, hi = run.lo, run.hi
        if upright:
            ux, uy, h = 1.0, ry / rx, abs(ny * hi - ny * lo)
        else:
            norm = math.hypot(rx, ry) or 1.0
            ux, uy, h = rx / norm, ry / norm, math.hypot(nx * hi - nx * lo, ny * hi - ny * lo)
        if not 0.0 < h < _INF:
            raise _Unwalkable
        starts, advances, pens = numbers_tuple(run.starts), numbers_tuple(run.advances), numbers_tuple(run.pens)
        g = geo.start + k0
        if g != out.cur:
            out.skip_to(g)
        s = starts[k0]
        if upright:
            cur.place(bx + ax * s, by, bx + ax * (s + advances[k0]), by, bx + ax * pens[k0], by, ux, uy, h)
        else:
            _place(cur, (bx, by, ax, ay, ux, uy, h), s, advances[k0], pens[k0])
        on_base = False  # a mark drawn on the glyph before: the next is measured from that glyph
        if started:
            on_base = sits_on_base(texts[g], advances[k0])
            decision = decide(prev, cur, texts[g - 1] or _back(texts, g - 2), texts[g])
            if decision is not JOIN:
                out.put(g, decision)
                on_base = on_base and decision.verdict is not _NEWLINE
        started = True
        if not on_base:
            prev, cur = cur, prev
        if len(starts) == 1:
            out.cur = g + 1
        elif (upright and sel is None and not on_base and not _marks_on_base(texts, geo.start, advances)
              and _spaces_in_run(out, run, geo, bx, ax, h, back_floor, word_floor)):
            # The run's last glyph is the one taken before the next run: on an upright
            # baseline it differs from the first only in its x coordinates.
            s = starts[-1]
            prev.ox = bx + ax * s
            prev.ex = bx + ax * (s + advances[-1])
            prev.px = bx + ax * pens[-1]
            out.cur = geo.end
        else:
            ks = sel or range(k0, len(starts))
            prev, cur = _glyph_by_glyph(out, decide, run, geo.start, ks, prev, cur, (bx, by, ax, ay, ux, uy, h))


def _spaces_in_run(out: _Output, run: Run, geo: RunGeometry, bx: float, a: float, h: float,
                   back_floor: float, word_floor: float) -> bool:
    """Write the word spaces inside an upright run taken whole (glyph origins at ``bx +
    a · offset`` on one baseline, box height ``h``). False, writing nothing, when a step
    of the run might be a jump back that breaks the line, or an adjustment cannot be told
    from a word gap: the run must then go glyph by glyph.

    Along the baseline gaps are differences of offsets. The slack covers rounding: a few
    units in the last place of the largest coordinate of the run (from the interpreter's
    extent when it gave one, which spares reading the run geometry).
    """
    starts, advances, pens = numbers_tuple(run.starts), numbers_tuple(run.advances), numbers_tuple(run.pens)
    longest = advances[0]
    for advance in advances:  # max(advances), its comparisons on doubles instead of objects
        if advance > longest:
            longest = advance
    widest = a * longest
    extent = run.extent
    if extent is not None:
        least, most, step = extent
        step *= a
        slack = _SLACK * (abs(bx) + a * (abs(least) + abs(most)) + widest)
    else:
        box = geo.box
        step = geo.min_step
        slack = _SLACK * (abs(bx) + abs(box[0]) + box[2] - box[0])
    if not (step - widest > h * back_floor + slack and -_INF < starts[-1] + pens[-1] < _INF):
        return False
    if step < 0.0:
        return False  # a glyph may stand wholly behind the one before it: a gap measured backwards
    tail = starts[1:]
    head = pens[:-1]
    if tail == head:
        return True  # no adjustment: every gap is the tracking, never a space
    if not h * word_floor > slack:
        return False
    # A space needs starts[i] - pens[i - 1] above the (positive) limit; those near or
    # above it get the reference walk's numbers: the pair's glyph end, origin, pen end.
    # (A loop over the indices, comparing doubles: filtering the pairs first through
    # compress(map(gt, ...)) cost three iterator steps and a comparison of objects per glyph.)
    limit = (h * word_floor - slack) / a
    wthr = out.rules.word_gap * h
    texts = out.texts
    spaces = out.spaces
    for i in range(1, len(starts)):
        if starts[i] - pens[i - 1] > limit:
            ve = bx + a * (starts[i - 1] + advances[i - 1])
            gap = bx + a * starts[i] - ve
            if gap > wthr:
                track = bx + a * pens[i - 1] - ve
                if track > 0:
                    gap -= track
                g = geo.start + i
                if gap > wthr:
                    if may_space(texts[g - 1] or _back(texts, g - 2), texts[g]):
                        texts[g] = " " + texts[g]
                        spaces.append((g, gap / h))
                    if gap >= WIDE_GAP * h:
                        out.wide.append(g)
                        out.widths.append(gap + (track if track > 0 else 0.0))
    return True


_Axes = tuple[float, float, float, float, float, float, float]
"""A run's (bx, by, ax, ay) of :func:`run_frame`, unit direction (ux, uy) and box height."""


def _glyph_by_glyph(out: _Output, decide: Callable[[Side, Side, str, str], Decision], run: Run, start: int,
                    ks: Sequence[int], prev: Side, spare: Side, axes: _Axes) -> tuple[Side, Side]:
    """Decide the glyphs ``ks`` of ``run`` (positions in it, increasing; ``ks[0]``, the
    first taken, is decided, and ``prev`` is the side the next glyph is measured from: its
    own, or its base's when it is a mark) one at a time, as the reference walk does.
    Returns the two sides, the one the next glyph is measured from first."""
    starts, advances, pens = numbers_tuple(run.starts), numbers_tuple(run.advances), numbers_tuple(run.pens)
    texts = out.texts
    cur = spare
    out.cur = start + ks[0] + 1
    for k in ks[1:]:
        g = start + k
        out.skip_to(g)
        _place(cur, axes, starts[k], advances[k], pens[k])
        on_base = sits_on_base(texts[g], advances[k])
        decision = decide(prev, cur, texts[g - 1] or _back(texts, g - 2), texts[g])
        if decision is not JOIN:
            out.put(g, decision)
            on_base = on_base and decision.verdict is not _NEWLINE
        out.cur = g + 1
        if not on_base:  # a mark on its base: the next glyph is measured from the base
            prev, cur = cur, prev
    return prev, cur


def _marks_on_base(texts: list[str], start: int, advances: Sequence[float]) -> bool:
    """Whether the run (its first glyph at ``start``) holds a mark painted on its base with
    no advance (:func:`~.rules.sits_on_base`): gaps after it are measured from the base,
    which only the glyph-by-glyph walk follows. One C-speed test on most runs."""
    if not _any_zero(advances):
        return False
    return any(sits_on_base(texts[start + k], 0.0) for k, a in enumerate(advances) if a == 0.0)


def _place(side: Side, axes: _Axes, s: float, advance: float, pen: float) -> None:
    """Fill ``side`` with the glyph at pen offset ``s`` of a run with ``axes``."""
    bx, by, ax, ay, ux, uy, h = axes
    x, y = _at(bx, by, ax, ay, s)
    ex, ey = _at(bx, by, ax, ay, s + advance)
    px, py = _at(bx, by, ax, ay, pen)
    side.place(x, y, ex, ey, px, py, ux, uy, h)


def _at(bx: float, by: float, ax: float, ay: float, s: float) -> tuple[float, float]:
    """The point at pen offset ``s`` along the axis (ax, ay) from (bx, by), as the table
    computes its columns: a run along a coordinate axis keeps the other coordinate as it
    is (also for an offset that is not finite)."""
    if ay == 0.0:
        return bx + ax * s, by
    if ax == 0.0:
        return bx, by + ay * s
    return bx + ax * s, by + ay * s


def _picked(runs: list[Run], geometry: list[RunGeometry], frames: list[RunFrame], indices: Sequence[int],
            total: int) -> Iterable[_Pick]:
    """The runs that hold glyphs of ``indices`` (see :data:`_Pick`)."""
    n = len(indices)
    if n == total and indices[0] == 0 and indices[-1] == n - 1:
        return zip(runs, geometry, frames, repeat(0), repeat(None))
    return _some(runs, geometry, frames, indices if type(indices) is list else list(indices))


def _some(runs: list[Run], geometry: list[RunGeometry], frames: list[RunFrame], indices: list[int]) -> Iterator[_Pick]:
    """:func:`_picked` for a selection that leaves glyphs out; raises :class:`_Unwalkable`
    when ``indices`` are not increasing or not all in the table.

    Checked increasing first (one pass over plain integers), a run is all taken when its
    first and last glyphs are: comparing each run's slice of the indices with the run's
    own numbers cost a book a fortieth of its time."""
    last = -1
    for index in indices:
        if index <= last:
            raise _Unwalkable
        last = index
    n = len(indices)
    pos = 0
    for run, geo, frame in zip(runs, geometry, frames, strict=False):  # one geometry per run
        if pos >= n:
            return
        start, end = geo.start, geo.end
        first = indices[pos]  # at or after the run's start: the indices increase from 0
        if first >= end:
            continue
        k = pos + end - start
        if first == start and k <= n and indices[k - 1] == end - 1:  # all of the run
            pos = k
            yield run, geo, frame, 0, None
        else:
            sel, pos = _positions(indices, pos, start, end)
            yield run, geo, frame, first - start, sel
    if pos != n:
        raise _Unwalkable


def _positions(indices: list[int], pos: int, start: int, end: int) -> tuple[list[int], int]:
    """The positions in the run ``start``..``end`` of the glyphs ``indices[pos:]`` (increasing,
    as :func:`_some` checked them) that lie in it, and the position in ``indices`` after them."""
    sel: list[int] = []
    n = len(indices)
    while pos < n:
        i = indices[pos]
        if i >= end:
            break
        sel.append(i - start)
        pos += 1
    return sel, pos


def _back(texts: list[str], j: int) -> str:
    """The last non-empty text at or before ``texts[j]`` ("\\n" when there is none).

    With separators written in front of the glyph they precede, this is the last
    non-empty piece of the current line, or a piece that starts with the line's "\\n"
    and has the same kinds (see :class:`_Output`).
    """
    while j >= 0:
        t = texts[j]
        if t:
            return t
        j -= 1
    return "\n"


class _Output:
    """The page's glyph texts, joined once at the end.

    A space or line break is written in front of the glyph it precedes, and glyphs left
    out become empty. The last non-empty piece of the line (``before`` of the rules) is
    then the last non-empty entry before the glyph: an entry with a separator in front
    has the kinds of the piece it stands for (whitespace alone, or ending with the
    glyph's last character).
    """

    __slots__ = ("breaks", "cur", "line_first", "rules", "skipped", "spaces", "texts", "wide", "widths")

    def __init__(self, runs: list[Run], placeholder: str, rules: Rules) -> None:
        self.texts = _glyph_texts(runs, placeholder)
        self.rules = rules
        self.spaces: list[tuple[int, float]] = []  # the line's spaces from gaps: (glyph, gap)
        self.breaks: list[int] = []  # the glyphs a new line starts with
        self.wide: list[int] = []  # the glyphs after a wide gap (WIDE_GAP)
        self.widths: list[float] = []  # and each wide gap's width along the line
        self.line_first = 0  # glyphs taken before the current line
        self.skipped = 0  # glyphs left out so far
        self.cur = 0  # one past the last glyph taken or left out

    def skip_to(self, g: int) -> None:
        """Leave out the glyphs from :attr:`cur` up to ``g``."""
        cur = self.cur
        if g != cur:
            self.texts[cur:g] = [""] * (g - cur)
            self.skipped += g - cur

    def put(self, g: int, decision: Decision) -> None:
        """Write ``decision`` in front of glyph ``g``."""
        verdict = decision.verdict
        if verdict is _SPACE:
            texts = self.texts
            if not operator_space(texts[g - 1] if g else "", texts[g]):
                self.spaces.append((g, decision.gap))  # math's spaces around operators always stand
            texts[g] = " " + texts[g]
            if decision.gap >= WIDE_GAP:
                self.wide.append(g)
                self.widths.append(decision.width)
        elif verdict is _NEWLINE:
            taken = g - self.skipped
            self._settle(taken - self.line_first - 1)
            self.texts[g] = "\n" + self.texts[g]
            self.breaks.append(g)
            self.line_first = taken
        else:  # a join that notes a wide gap
            self.wide.append(g)
            self.widths.append(decision.width)

    def _settle(self, pairs: int) -> None:
        """The line of ``pairs`` glyph pairs ends: drop its spaces that are letter spacing."""
        spaces = self.spaces
        if spaces:
            limit = self.rules.settle_limit([gap for _, gap in spaces], pairs)
            if limit is not None:
                texts = self.texts
                for g, gap in spaces:
                    if gap <= limit:
                        texts[g] = texts[g][1:]
            spaces.clear()

    def finish(self, n: int) -> Walk:
        """The walk, once the ``n`` glyphs taken are written."""
        self._settle(n - self.line_first - 1)
        del self.texts[self.cur:]
        return Walk(range(len(self.texts)), self.texts, self.breaks, self.wide, self.widths)
