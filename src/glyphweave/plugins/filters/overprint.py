"""Where glyphs may be painted over a copy of themselves: the sweep behind the ``dedup``
filter. This is the reference; the compiled build sweeps in C
(:mod:`glyphweave.plugins.filters._coverprint`, beside it), to the same answers.

A copy lies within a small reach of its original, so two runs can hold a copy of each
other only where their origin bounds, grown by that reach, overlap; a run can repeat itself
only where its pen stands still or moves back. The runs are swept bottom to top, so only
runs on the same line are compared: per-run work, not per-glyph, on the usual page with no
overprint at all.

Runs stacked on one spot (a string painted thousands of times over itself) would make every
run a neighbour of every other, and the sweep quadratic in time and in the pairs it keeps.
Past a budget of comparisons proportional to the page's runs, the sweep gives up and names
every glyph a suspect: the filter's exact test bins glyphs in a grid, so it stays
near-linear on such a page, and a suspect is only a glyph the exact test looks at.
"""

from __future__ import annotations

import math
from array import array
from bisect import insort
from collections.abc import Callable, Collection, Sequence
from operator import itemgetter
from typing import Final

from glyphweave.plugin import GlyphTable, RunGeometry

# A run's span in the sweep: bottom, top, left and right of its grown origin bounds, the
# run's geometry, its index, and its own reach.
_Span = tuple[float, float, float, float, RunGeometry, int, float]

_BOTTOM: Final = itemgetter(0)
_TOP: Final = itemgetter(1)

COMPARISONS_PER_RUN: Final = 64
"""Comparisons of one run with the runs it may overlap that the sweep spends, on average
over the page, before it names every glyph a suspect. The bench corpus needs 1-16; a page
of runs stacked on one spot needs as many as it has runs."""
PAIRS_PER_RUN: Final = 4
"""Pairs of runs within reach of each other that the sweep keeps, on average over the page,
before it names every glyph a suspect. The pairs are kept until the sweep ends, 16 bytes
each, so the comparisons' budget alone let a page of stacked runs keep a kilobyte per run;
the pages of the shared corpora keep at most 1.4 pairs per run. Giving up changes no
answer (a suspect is only a glyph the exact test looks at)."""

_CHECK_EVERY: Final = 1 << 16
"""Comparisons between two looks at the page's clock (a few milliseconds of them)."""


def suspects(table: GlyphTable, along: float, across: float, size_tolerance: float,
             same_direction: float, comparisons_per_run: int = COMPARISONS_PER_RUN,
             check_time: Callable[[], None] | None = None,
             pairs_per_run: int = PAIRS_PER_RUN) -> Collection[int]:
    """The glyphs of ``table`` that could repeat, or be repeated by, another glyph: those
    within reach of a glyph of another run of the same writing direction (the dot product
    of the two unit directions above ``same_direction``), and those of a run whose pen
    ever moves less than ``along`` heights forward. ``along``, ``across`` and
    ``size_tolerance`` are the ``dedup`` filter's options (a match lies within ``along``
    × height along the baseline and ``across`` × height across it, its height within
    ``size_tolerance`` of the larger). Past ``comparisons_per_run`` comparisons, or
    ``pairs_per_run`` pairs kept, per run on average, every glyph is a suspect (see the
    module docstring): the answer is then ``range(len(table))``, not a set of millions of
    numbers. ``check_time`` (the page's :meth:`~glyphweave.plugin.PageContext.check_time`)
    is called every ``_CHECK_EVERY`` comparisons."""
    grow = math.hypot(along, across) / (1.0 - size_tolerance)
    found: set[int] = set()
    spans: list[_Span] = []
    geometry = table.runs()
    for k, run in enumerate(geometry):
        h = run.height
        if not (0.0 < h < math.inf):
            continue
        if run.min_step <= along * h * 1.000001:
            found.update(range(run.start, run.end))
        r = grow * h
        x0, y0, x1, y1 = run.origins
        spans.append((y0 - r, y1 + r, x0 - r, x1 + r, run, k, r))
    if len(spans) < 2:
        return found
    spans.sort(key=_BOTTOM)
    active: list[_Span] = []
    pairs = array("q")
    """The runs paired, as two run indices a pair: 16 bytes, where a tuple of the two spans
    cost 88 (and a compiled build copies a span each time it is stored)."""
    budget = comparisons_per_run * len(spans)
    check_at = budget - _CHECK_EVERY if check_time is not None else -1
    most_pairs = 2 * pairs_per_run * len(spans)
    for span in spans:
        bottom = span[0]
        if active and active[0][1] < bottom:
            active = [a for a in active if a[1] >= bottom]
        budget -= len(active)
        if budget < 0 or len(pairs) > most_pairs:
            return range(len(table))
        if budget < check_at:
            check_time()  # type: ignore[misc]
            check_at = budget - _CHECK_EVERY
        run, r = span[4], span[6]
        for other in active:
            # Each span is grown by its own reach r, but a match lies within the larger r
            # of the two (r carries the height tolerance): pairing runs only that close,
            # not within the sum, spares pairing every word with its neighbours.
            slack = r if r < other[6] else other[6]
            if other[2] + slack <= span[3] and span[2] + slack <= other[3]:
                o = other[4]
                if run.dx * o.dx + run.dy * o.dy > same_direction and (
                        other[0] + slack <= span[1] and span[0] + slack <= other[1]):
                    pairs.append(other[5])
                    pairs.append(span[5])
        insort(active, span, key=_TOP)
    paired_glyphs(table, geometry, pairs, grow, found)
    return found


def paired_glyphs(table: GlyphTable, geometry: list[RunGeometry], pairs: Sequence[int], grow: float,
                  found: set[int]) -> None:
    """Add to ``found`` the glyphs of each run of ``pairs`` (two run indices a pair) that lie
    in the other's reach, from the runs themselves (no page-wide columns; a bisection for the
    usual forward run). The C sweep hands its pairs here too."""
    for p in range(0, len(pairs), 2):
        a, b = pairs[p], pairs[p + 1]
        for mine, theirs in ((a, b), (b, a)):
            # The other run's span, grown as the sweep grows it: its origins' bounds and reach.
            other_run = geometry[theirs]
            r = grow * other_run.height
            x0, y0, x1, y1 = other_run.origins
            first = geometry[mine].start
            found.update(first + j for j in table.origins_within(mine, (x0 - r, y0 - r, x1 + r, y1 + r)))
