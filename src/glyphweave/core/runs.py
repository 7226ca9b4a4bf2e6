"""Runs: the records of shown strings, and what is computed from a run alone.

The interpreter records one :class:`Run` per shown string; the glyph table
(:mod:`glyphweave.core.glyphtable`) keeps a page's runs and expands them into columns on
demand. Everything here reads one run at a time and no table: its *frame* (the base point
and directions its matrix and writing mode give in user space) and its *geometry* (bounds,
direction, height and smallest step, without per-glyph work). Filters and assemblers read
that geometry for every run of every page, so this module is one of those the compiled
build compiles (see :mod:`glyphweave.accelerated`); it keeps to what mypyc compiles.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from itertools import islice
from operator import sub
from typing import Any, NamedTuple

__all__ = ["Run", "RunFrame", "RunGeometry", "origins_within", "points_along", "run_axes", "run_extent",
           "run_frame", "run_page_size", "runs_geometry"]


class Run(NamedTuple):
    """One shown string as the interpreter recorded it (see :meth:`~glyphweave.core.glyphtable.GlyphTable.add_run`).

    Positions are pen offsets in text space along the writing axis; ``matrix`` maps text
    space to user space. Stages that can work a run at a time read these directly.
    """

    font: int
    size: float
    matrix: tuple[float, float, float, float, float, float]
    rise: float
    wmode: int
    codes: Sequence[Any]
    cids: Sequence[int] | None
    decoded: Sequence[tuple[str, str | None]]
    starts: Sequence[float]
    advances: Sequence[float]
    pens: Sequence[float]
    lo: float
    hi: float
    render: int
    mcid: int | None
    tag: str | None
    actual_text: str | None
    token: int
    extent: tuple[float, float, float] | None = None
    """Optional (lowest, highest offset any glyph covers, smallest step between
    consecutive starts), when the interpreter knows them without extra work."""
    annotation: Any = None
    """The :class:`~glyphweave.core.glyph.AnnotationRef` of the annotation that painted the
    run, None for the page's own content (every glyph of a run shares it)."""
    fill: tuple[float, float, float] | None = None
    """The fill colour the run was painted in, as RGB from 0 to 1 whatever the colour space
    (None: a space with no plain conversion, such as a pattern or a separation, or not
    recorded). It colours the glyphs of render modes 0, 2, 4 and 6."""
    stroke: tuple[float, float, float] | None = None
    """The stroke colour, likewise: it outlines the glyphs of render modes 1, 2, 5 and 6."""


_new = tuple.__new__
"""Builds a named tuple from a plain one without the generated ``__new__``'s Python call:
about 40% cheaper, which counts where one is built per run."""


class RunFrame(NamedTuple):
    """A run's axes in user space: a glyph at pen offset ``s`` has its origin at
    ``(bx + ax·s, by + ay·s)``; ``(nx, ny)`` maps a cross-axis text-space offset (descent,
    ascent; writing mode 1: the half-widths) to user space; ``(ux, uy)`` points the way
    reading goes (not normalised): along the baseline, or down the column in writing mode 1."""

    bx: float
    by: float
    ax: float
    ay: float
    nx: float
    ny: float
    ux: float
    uy: float


def run_page_size(run: Run) -> float:
    """The size of ``run``'s glyphs on the page, in points: the ``Tf`` size times the length
    the text matrix and CTM give the text-space unit across the baseline (a glyph's em
    square is that tall on the page, whatever the writing mode)."""
    c, d = run.matrix[2], run.matrix[3]
    return run.size * math.hypot(c, d)


def run_frame(run: Run) -> RunFrame:
    """The frame of ``run`` (see :class:`RunFrame`)."""
    return _new(RunFrame, run_axes(run))


def run_axes(run: Run) -> tuple[float, float, float, float, float, float, float, float]:
    """:func:`run_frame` as a plain tuple: the one place the writing mode decides which
    matrix row is the writing axis. The per-run loops here unpack it at once; building
    the named tuple for them made the run geometry of a page about a third slower."""
    a, b, c, d, e, f = run.matrix
    if run.wmode == 0:
        # text-space point (s, rise) → user space
        rise = run.rise
        return e + c * rise, f + d * rise, a, b, c, d, a, b
    # text-space point (0, s): the vertical pen moves along text y (down for negative s)
    return e, f, c, d, a, b, -c, -d


def points_along(
    bx: float, by: float, ax: float, ay: float, offsets: Sequence[float]
) -> tuple[list[float], list[float]]:
    """The points ``(bx + ax·s, by + ay·s)`` for the pen offsets ``s`` (x list, y list).

    The one place a run's glyphs are placed along its axis. A zero component of the axis
    (a horizontal or vertical baseline, i.e. almost every run) leaves that coordinate at
    the base for every glyph: one list comprehension instead of two, and exactly the value
    ``by`` rather than ``by + 0·s``, so every caller agrees bit for bit with the columns.
    """
    if ay == 0.0:
        return [bx + ax * s for s in offsets], [by] * len(offsets)
    if ax == 0.0:
        return [bx] * len(offsets), [by + ay * s for s in offsets]
    return [bx + ax * s for s in offsets], [by + ay * s for s in offsets]


def origins_within(run: Run, box: tuple[float, float, float, float]) -> list[int]:
    """Positions in ``run`` of the glyphs whose origin lies in ``box`` (x0, y0, x1, y1, bounds in),
    bisecting the starts of a run forward along x; compiled (``dedup`` asks per pair of runs)."""
    bx, by, ax, ay, _nx, _ny, _ux, _uy = run_axes(run)
    x0, y0, x1, y1 = box
    starts = run.starts
    lo, hi = 0, len(starts)
    if run.extent is not None and ay == 0.0 and ax != 0.0:
        if not y0 <= by <= y1:
            return []
        s0, s1 = (x0 - bx) / ax, (x1 - bx) / ax
        s0, s1 = min(s0, s1), max(s0, s1)
        # Widened by far more than rounding can move a bound; the exact test follows.
        slack = 1e-9 * (abs(s0) + abs(s1) + abs(bx / ax) + 1.0)
        lo = bisect_left(starts, s0 - slack)
        hi = bisect_right(starts, s1 + slack, lo)
    xs, ys = points_along(bx, by, ax, ay, starts[lo:hi])
    return [j for j, x, y in zip(range(lo, hi), xs, ys, strict=True) if x0 <= x <= x1 and y0 <= y <= y1]


class RunGeometry(NamedTuple):
    """Where one run lies, in user space; glyphs ``start <= i < end`` belong to it."""

    start: int
    end: int
    box: tuple[float, float, float, float]
    """Axis-aligned bounds (x0, y0, x1, y1) of all the run's glyph boxes."""
    origins: tuple[float, float, float, float]
    """Axis-aligned bounds of the run's glyph origins."""
    dx: float
    dy: float
    """Unit writing direction."""
    height: float
    """Box height of every glyph of the run."""
    min_step: float
    """Smallest move between consecutive origins along the writing direction (user
    space); <= 0 when the pen ever stands still or moves back, +inf for one glyph."""


def runs_geometry(runs: list[Run], first: int = 0) -> tuple[list[RunGeometry], list[RunFrame]]:
    """Each run's geometry (the first's glyphs from ``first``), and its frame (computed for
    the geometry anyway: a stage that needs both gets it for the price of keeping it)."""
    # Compiled: list.append is a C call, and the record types as locals spare look-ups by name.
    out: list[RunGeometry] = []
    frames: list[RunFrame] = []
    new, frame_type, geometry_type = _new, RunFrame, RunGeometry
    start = first
    hypot = math.hypot
    inf = math.inf
    for run in runs:
        frame = run_axes(run)
        frames.append(new(frame_type, frame))
        bx, by, ax, ay, nx, ny, ux, uy = frame
        starts, lo, hi, extent = run.starts, run.lo, run.hi, run.extent
        n = len(starts)
        if extent is not None and ay == 0.0 and nx == 0.0:
            # Upright text (the axis along x, across along y) whose extent the interpreter
            # knew, i.e. most runs: the general computation below with its zero terms left
            # out, which changes no bit.
            g_lo, g_hi, min_step_ts = extent
            x0, x1 = bx + ax * g_lo, bx + ax * g_hi
            y0, y1 = by + ny * lo, by + ny * hi
            o0, o1 = bx + ax * starts[0], bx + ax * starts[-1]
            along = abs(ax)
            norm = along or 1.0
            out.append(new(geometry_type, (
                start, start + n,
                (x0 if x0 < x1 else x1, y0 if y0 < y1 else y1, x1 if x0 < x1 else x0, y1 if y0 < y1 else y0),
                (o0 if o0 < o1 else o1, by, o1 if o0 < o1 else o0, by),
                ux / norm, uy / norm, abs(hi - lo) * abs(ny),
                min_step_ts * along if min_step_ts != inf else inf,
            )))
            start += n
            continue
        if extent is not None:
            g_lo, g_hi, min_step_ts = extent
            s_lo, s_hi = starts[0], starts[-1]
        else:
            g_lo, g_hi, min_step_ts = run_extent(run)
            s_lo, s_hi = min(starts), max(starts)
        along = hypot(ax, ay)
        # text-space (s, t) with s along the axis, t across -> user space
        ox0, oy0 = bx + ax * s_lo, by + ay * s_lo
        ox1, oy1 = bx + ax * s_hi, by + ay * s_hi
        if ay == 0.0 and nx == 0.0:  # upright text: the box is the two extremes
            xs = [bx + ax * g_lo, bx + ax * g_hi]
            ys = [by + ny * lo, by + ny * hi]
        else:
            xs = [bx + ax * g_lo + nx * lo, bx + ax * g_lo + nx * hi, bx + ax * g_hi + nx * lo, bx + ax * g_hi + nx * hi]
            ys = [by + ay * g_lo + ny * lo, by + ay * g_lo + ny * hi, by + ay * g_hi + ny * lo, by + ay * g_hi + ny * hi]
        norm = hypot(ux, uy) or 1.0
        out.append(RunGeometry(
            start, start + n,
            (min(xs), min(ys), max(xs), max(ys)),
            (min(ox0, ox1), min(oy0, oy1), max(ox0, ox1), max(oy0, oy1)),
            ux / norm, uy / norm, abs(hi - lo) * hypot(nx, ny),
            min_step_ts * along if min_step_ts != inf else inf,
        ))
        start += n
    return out, frames


def run_extent(run: Run) -> tuple[float, float, float]:
    """What the interpreter records as ``extent`` when it knows it, worked out from the run:
    (lowest, highest offset a glyph covers, smallest step between consecutive starts
    towards reading order). Extremes are over-estimated, never under-estimated."""
    starts, advances, pens = run.starts, run.advances, run.pens
    # A glyph covers its origin to origin + own advance; the pens bound it too.
    g_lo = min(min(starts) + min(min(advances), 0.0), min(pens))
    g_hi = max(max(starts) + max(max(advances), 0.0), max(pens))
    if len(starts) < 2:
        return g_lo, g_hi, math.inf
    steps = map(sub, islice(starts, 1, None), starts)
    # Writing mode 1 reads down the column, towards decreasing offsets.
    return g_lo, g_hi, min(steps) if run.wmode == 0 else -max(steps)
