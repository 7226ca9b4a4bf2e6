"""Which runs lie inside a box, a run at a time: the per-run test behind the ``visible-box``
filter, in a module of its own so that the compiled build compiles it (a module holding a
hook implementation cannot be; see :mod:`glyphweave.accelerated`).

On the usual page every run lies inside the visible box, and the filter only needs to know
that; the test of each run's bounds was the filter's whole cost, some 0.5 microseconds a
run interpreted.
"""

from __future__ import annotations

from collections.abc import Sequence

from glyphweave.plugin import RunGeometry

__all__ = ["first_outside"]


def first_outside(runs: Sequence[RunGeometry], x0: float, y0: float, x1: float, y1: float, start: int) -> int:
    """The index of the first of ``runs`` from ``start`` on whose box, doubled, does not lie
    within ``x0 <= x <= x1`` and ``y0 <= y <= y1`` (the bounds doubled too: the filter
    compares doubled glyph centres); ``len(runs)`` when every one does. A box with a
    coordinate that is not a number never lies within."""
    n = len(runs)
    k = start
    while k < n:
        bx0, by0, bx1, by1 = runs[k].box
        if not (x0 <= 2 * bx0 and 2 * bx1 <= x1 and y0 <= 2 * by0 and 2 * by1 <= y1):
            return k
        k += 1
    return n
