"""``visible-box``: keep only the glyphs that land on the visible page.

ISO 32000-1 §14.11.2: the crop box is the region the page is clipped to when shown or
printed, and it is itself clipped to the media box. Text outside it (bleed, printer's
marks, content moved off the page to hide it) is not on the page a reader sees, so it is
not part of the page's text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from glyphweave.plugin import Filter, Option, PageContext, hookimpl

from .boxes import first_outside

Box = tuple[float, float, float, float]


def _normalize(box: Sequence[float]) -> Box:
    x0, y0, x1, y1 = (float(v) for v in box)
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def visible_area(mediabox: Sequence[float], cropbox: Sequence[float]) -> Box | None:
    """CropBox ∩ MediaBox, both normalized (x0 < x1, y0 < y1).

    Broken files carry crop boxes that miss the media box or have no area; a viewer then
    shows the media box (MuPDF does the same), so we fall back to it rather than empty the
    page. None when the media box itself has no area: there is nothing sane to clip to and
    every glyph is kept.
    """
    mx0, my0, mx1, my1 = _normalize(mediabox)
    if not (mx0 < mx1 and my0 < my1):
        return None
    cx0, cy0, cx1, cy1 = _normalize(cropbox)
    x0, y0, x1, y1 = max(mx0, cx0), max(my0, cy0), min(mx1, cx1), min(my1, cy1)
    if not (x0 < x1 and y0 < y1):
        return (mx0, my0, mx1, my1)
    return (x0, y0, x1, y1)


class VisibleBoxFilter(Filter):
    """Drop glyphs whose box centre lies outside CropBox ∩ MediaBox (ISO 32000-1 §14.11.2).

    The test point is the centre of the glyph's quad, not its origin: a rotated or large
    glyph whose origin sits just off the edge may still be mostly on the page, and vice
    versa. The box edges count as inside. Render mode does not matter: invisible text
    (mode 3, the OCR layer of a scan) on the page is kept, since it is the page's text; it
    is dropped outside the box like any other glyph, because cropping hides it too.
    """

    NAME = "visible-box"
    OPTIONS = {
        "margin": Option(
            default=0.0,
            doc="Grow the visible box by this many user-space units on every side "
            "(negative shrinks it); helps with text placed exactly on the crop edge.",
        ),
    }

    margin: float

    def apply(self, page: PageContext, indices: Sequence[int]) -> list[int]:
        area = visible_area(page.mediabox, page.cropbox)
        if area is None:
            return list(indices)
        m = self.margin
        # Compare doubled coordinates against doubled bounds: saves a multiply per glyph.
        x0, y0, x1, y1 = 2 * (area[0] - m), 2 * (area[1] - m), 2 * (area[2] + m), 2 * (area[3] + m)
        t = page.table
        if len(indices) == len(t):
            # Every glyph (indices are increasing and unique, so this is range(n)): decide
            # whole runs by their bounds and test glyphs only in runs that straddle an edge.
            return self._by_runs(t, indices, (x0, y0, x1, y1))
        return self._by_glyph(t, indices, (x0, y0, x1, y1))

    @staticmethod
    def _by_glyph(t: Any, indices: Sequence[int], bounds: Box) -> list[int]:
        x0, y0, x1, y1 = bounds
        ox, oy, ex, ey = t.ox, t.oy, t.ex, t.ey
        lox, loy, hix, hiy = t.lox, t.loy, t.hix, t.hiy
        # centre = (origin + end)/2 + (lo + hi)/2, so 2 × centre = origin + end + lo + hi
        return [
            i for i in indices
            if x0 <= ox[i] + ex[i] + lox[i] + hix[i] <= x1 and y0 <= oy[i] + ey[i] + loy[i] + hiy[i] <= y1
        ]

    def _by_runs(self, t: Any, every: Sequence[int], bounds: Box) -> list[int]:
        """:meth:`apply` when ``every`` glyph is still visible (``every`` is ``range(n)`` as a
        list). The runs wholly inside are skipped over by :func:`.boxes.first_outside`
        (compiled in the compiled build) and their glyphs copied as slices of ``every``: on
        the usual page every run lies inside and ``every`` is copied once, at C speed."""
        x0, y0, x1, y1 = bounds  # doubled, like the doubled centres
        cx0, cy0, cx1, cy1 = x0 / 2, y0 / 2, x1 / 2, y1 / 2
        runs = t.runs()
        n = len(runs)
        k = first_outside(runs, x0, y0, x1, y1, 0)
        if k == n:
            return list(every)
        kept = list(every[:runs[k].start])  # the runs before this one, all inside
        while k < n:
            run = runs[k]
            bx0, by0, bx1, by1 = run.box
            if not (2 * bx1 < x0 or 2 * bx0 > x1 or 2 * by1 < y0 or 2 * by0 > y1):
                # Straddles an edge: test its glyphs, from the run alone.
                xs, ys = t.run_centres(k)
                first = run.start
                kept.extend(
                    first + j for j, (x, y) in enumerate(zip(xs, ys, strict=True))
                    if cx0 <= x <= cx1 and cy0 <= y <= cy1
                )
            following = first_outside(runs, x0, y0, x1, y1, k + 1)
            # The runs in between lie inside: their glyphs follow this run's, up to the next one's.
            kept.extend(every[run.end:runs[following].start if following < n else len(every)])
            k = following
        return kept


@hookimpl
def glyphweave_register_filters() -> list[type[Filter]]:
    return [VisibleBoxFilter]
