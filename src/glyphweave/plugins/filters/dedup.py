"""``dedup``: paint each overprinted glyph once.

Producers fake bold by painting a word twice a fraction of a point apart, draw shadows as
a slightly offset copy, and overprint logos; a reader sees one glyph, so the text must
carry one. The test is deliberately tight (rules: filters) so real repeats survive: double
letters sit a full advance apart, identical table cells a column apart.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from itertools import compress
from operator import attrgetter
from typing import Any

from glyphweave.plugin import Filter, Option, PageContext, Run, RunFrame, RunGeometry, hookimpl
from glyphweave.plugins.filters.overprint import COMPARISONS_PER_RUN
from glyphweave.plugins.filters.overprint import suspects as overprint_suspects

SAME_DIRECTION = 0.99
"""Two writing directions are the same when their unit vectors' dot product exceeds this
(about 8°): copies painted through a slightly different matrix still match, while text
at a real angle to its neighbour (a rotated label over a table) never does."""

_SPACE_EXTRA = "\u00a0\u3000"


_FONT_AND_CODES = attrgetter("font", "codes")
"""A run's font and codes: what a string painted again has the same of (codes are tuples)."""


def _is_space(text: str) -> bool:
    return all(ch <= " " or ch in _SPACE_EXTRA for ch in text)


class DedupFilter(Filter):
    """Drop glyphs painted over an earlier copy of themselves (fake bold, shadows, overprint).

    A later glyph repeats an earlier one when both have the same text and writing
    direction, their box heights (the painted size, not the Tf operand) are within
    ``size_tolerance`` of the larger, and the later origin lies within ``along`` × height
    along the baseline and ``across`` × height across it, both measured in the earlier
    glyph's own baseline frame. The first painted copy wins. Later glyphs are compared
    only with glyphs already kept: a triple strike collapses to its first copy, and a
    chain of copies drifting 0.08 × size apart keeps every copy that has drifted beyond
    the tolerance from the survivor, so a match never spreads along a line. Spaces
    (≤ U+0020, U+00A0, U+3000) and unresolved glyphs are never candidates. Only the
    glyphs the sweep of :func:`~glyphweave.plugins.filters.overprint.suspects` finds
    within reach of another are compared.
    """

    NAME = "dedup"
    OPTIONS = {
        "along": Option(default=0.1, minimum=0.0,
                        doc="Largest offset along the baseline, as a fraction of the glyph's height."),
        "across": Option(default=0.2, minimum=0.0,
                         doc="Largest offset across the baseline, as a fraction of the glyph's height."),
        "size_tolerance": Option(
            default=0.05, minimum=0.0, maximum=0.99,
            doc="Largest height difference, as a fraction of the larger height.",
        ),
        "shadow": Option(
            default=0.35, minimum=0.0, maximum=2.0,
            doc="A string of three glyphs or more painted again, glyph for glyph, at one offset of at most this "
            "many heights in any direction (a drop shadow, a blurred or outlined copy) is one text (0: off).",
        ),
    }

    along: float
    across: float
    size_tolerance: float
    shadow: float

    def apply(self, page: PageContext, indices: Sequence[int]) -> list[int]:
        if not indices:
            return []
        shadows = _shadows(page, indices, self.shadow, self.size_tolerance) if self.shadow > 0 else None
        if shadows is not None:
            indices = [i for i in indices if not shadows[i]]
        # The budget is passed from here, not left to the default: a test changes it in this
        # module, which a compiled overprint module would not see.
        suspects = overprint_suspects(page.table, self.along, self.across, self.size_tolerance, SAME_DIRECTION,
                                      COMPARISONS_PER_RUN, page.check_time)
        if not suspects:
            return list(indices)
        if isinstance(suspects, range):  # the sweep gave up: every glyph is a suspect
            candidates = sorted(indices)
        else:
            # A mask, not a set of the indices: a byte per glyph, where a set of a page of
            # stacked copies took tens of bytes per glyph.
            wanted = bytearray(len(page.table))
            for i in indices:
                wanted[i] = 1
            candidates = sorted(i for i in suspects if wanted[i])
        dropped = self._exact(page, candidates)
        if dropped is None:
            return list(indices)
        return [i for i in indices if not dropped[i]]

    def _exact(self, page: PageContext, indices: Sequence[int]) -> bytearray | None:
        """The glyphs among ``indices`` (sorted) that repeat an earlier kept one, as a flag
        per glyph of the page (None when there are none)."""
        cols = page.table.sparse_columns(indices, ("text", "decoded_by", "height", "ox", "oy", "dx", "dy"))
        texts, decoded_by, heights = cols["text"], cols["decoded_by"], cols["height"]
        ox, oy, dxs, dys = cols["ox"], cols["oy"], cols["dx"], cols["dy"]
        along, across, tol = self.along, self.across, self.size_tolerance
        reach = math.hypot(along, across)  # farthest a match can lie, in heights
        lo_ratio = 1.0 - tol  # a match's height lies in [h × lo_ratio, h / lo_ratio]

        # Spatial hash instead of one sort by x: a sort window degrades to O(n²) on aligned
        # columns (a table's "0" at one x on every row), a grid does not. Glyphs are binned
        # by (text, height class, cell); height classes are powers of two, so a cell can be
        # sized to the largest reach in its class (a 100 pt headline never inflates the
        # cells of 9 pt body text), and a match lies in the classes the tolerated height
        # range spans (one, or two near a class boundary). Cells are twice the class reach,
        # so the neighbourhood a match can lie in touches at most 2 × 2 of them.
        grid: dict[tuple[str, int, int, int], list[int]] = {}
        cells: dict[int, float] = {}

        def cell_of(c: int) -> float:
            size = cells.get(c)
            if size is None:
                size = cells[c] = 2.0 * reach * math.ldexp(1.0, c) or 1.0
            return size

        def repeats(j: int, text: str, hj: float, x: float, y: float) -> bool:
            """Whether a kept glyph already paints glyph j."""
            ux_j, uy_j = dxs[j], dys[j]
            # Height classes a match can be in (slack for rounding at the bounds).
            first = math.frexp(hj * lo_ratio * (1.0 - 1e-9))[1]
            last = math.frexp(hj / lo_ratio * (1.0 + 1e-9))[1]
            for c in range(first, last + 1):
                cell = cell_of(c)
                fx, fy = x / cell, y / cell
                gx, gy = math.floor(fx), math.floor(fy)
                nx = gx - 1 if fx - gx < 0.5 else gx + 1
                ny = gy - 1 if fy - gy < 0.5 else gy + 1
                for key in ((text, c, gx, gy), (text, c, nx, gy), (text, c, gx, ny), (text, c, nx, ny)):
                    for k in grid.get(key, ()):
                        hk = heights[k]
                        if abs(hj - hk) > tol * (hj if hj > hk else hk):
                            continue
                        ux, uy = dxs[k], dys[k]
                        if ux_j * ux + uy_j * uy <= SAME_DIRECTION:
                            continue
                        vx, vy = x - ox[k], y - oy[k]
                        if abs(vx * ux + vy * uy) <= along * hk and abs(vy * ux - vx * uy) <= across * hk:
                            return True
            return False

        space: dict[str, bool] = {}
        dropped = bytearray(len(page.table))
        found = False
        check_time = page.check_time
        for n, j in enumerate(indices):  # paint order: first painted wins
            if not n & 4095:
                check_time()  # past the page's time limit, the pipeline skips dedup
            text = texts[j]
            if not text or decoded_by[j] is None:
                continue
            is_space = space.get(text)
            if is_space is None:
                is_space = space[text] = _is_space(text)
            if is_space:
                continue
            hj = heights[j]
            if not (0.0 < hj < math.inf):
                continue  # no size to scale the tolerances by
            x, y = ox[j], oy[j]
            try:
                if repeats(j, text, hj, x, y):
                    dropped[j] = found = True
                    continue
                c = math.frexp(hj)[1]  # hj in [2**(c-1), 2**c)
                cell = cell_of(c)
                key = (text, c, math.floor(x / cell), math.floor(y / cell))
            except (OverflowError, ValueError):
                continue  # NaN or astronomically far origin: not comparable, keep it
            bucket = grid.get(key)
            if bucket is None:
                grid[key] = [j]
            else:
                bucket.append(j)
        return dropped if found else None


SHADOW_MIN_GLYPHS = 3
"""Glyphs other than spaces a string needs before a copy of it counts as a shadow: two
glyphs repeat by chance (``11`` over ``11`` in a table), three at one offset do not."""

SHADOW_RECENT = 4
"""Earlier strings with the same codes a string is compared with, the most recent first in
paint order: producers paint a shadow next to its text (before or after it)."""

SHADOW_DRIFT = 0.05
"""How far, in heights, each glyph's offset from its original may differ from the first
glyph's: a copy is painted through one shifted matrix, so its offsets agree to rounding."""


def _shadows(page: PageContext, indices: Sequence[int], reach: float, tolerance: float) -> bytearray | None:
    """The glyphs of strings that repeat an earlier string at one offset within ``reach``
    heights (rules: filters, dedup), as a flag per glyph of the page, or None.

    Strings are compared by their font and codes, hashed, so a page pays one dictionary
    look-up per string of three glyphs or more, and only strings with the same codes are
    measured. Both strings must be wholly among ``indices``: a copy is not dropped for an
    original that another filter removed."""
    table = page.table
    runs = table.raw_runs()
    if len(runs) < 2:
        return None
    geometry = table.runs()
    frames = table.frames()
    wanted = bytearray()  # a flag per glyph of the page, filled when a string is first measured
    seen: dict[tuple[int, Any], list[int]] = {}
    dropped: bytearray | None = None
    verdicts: dict[int, bool] = {}

    def comparable(k: int) -> bool:
        """Whether run ``k`` is wholly among the indices and has enough glyphs besides spaces."""
        verdict = verdicts.get(k)
        if verdict is None:
            if not wanted:
                wanted.extend(bytes(len(table)))
                for i in indices:
                    wanted[i] = 1
            geo = geometry[k]
            verdict = verdicts[k] = wanted.count(1, geo.start, geo.end) == geo.end - geo.start and sum(
                1 for text, by in runs[k].decoded if by is not None and text and not _is_space(text)
            ) >= SHADOW_MIN_GLYPHS
        return verdict

    # The strings whose font and codes come again on the page, found at C speed: the usual
    # page has none, and a string that is not repeated is never looked at again.
    keys = list(map(_FONT_AND_CODES, runs))
    try:
        counts = Counter(keys)
    except TypeError:  # codes in a list: a run built by hand (the interpreter's are tuples)
        keys = [(font, tuple(codes)) for font, codes in keys]
        counts = Counter(keys)
    if len(counts) == len(keys):
        return None
    repeated = {key for key, count in counts.items() if count > 1 and len(key[1]) >= SHADOW_MIN_GLYPHS}
    if not repeated:
        return None
    for r in compress(range(len(keys)), map(repeated.__contains__, keys)):
        key = keys[r]
        run = runs[r]
        earlier = seen.get(key)
        if earlier is None:  # the first of the strings with these codes: nothing to compare
            seen[key] = [r]
            continue
        geo = geometry[r]
        frame = frames[r]
        x = frame.bx + frame.ax * run.starts[0]
        y = frame.by + frame.ay * run.starts[0]
        near = reach * geo.height
        # The last few strings with these codes only: a shadow is painted right before or
        # after its text, and an OCR layer repeats "the" hundreds of times on a page, which
        # compared all with all cost a scanned page 40 ms. Distance first, the rest after.
        if any(abs(frames[k].bx + frames[k].ax * runs[k].starts[0] - x) <= near
               and abs(frames[k].by + frames[k].ay * runs[k].starts[0] - y) <= near
               and comparable(k) and comparable(r)
               and _copies(runs[k], geometry[k], frames[k], run, geo, frame, reach, tolerance)
               for k in earlier[-SHADOW_RECENT:]):
            if dropped is None:
                dropped = bytearray(len(table))
            dropped[geo.start:geo.end] = b"\x01" * (geo.end - geo.start)
            continue
        earlier.append(r)
    return dropped


def _copies(first: Run, first_geo: RunGeometry, first_frame: RunFrame, later: Run, later_geo: RunGeometry,
            later_frame: RunFrame, reach: float, tolerance: float) -> bool:
    """Whether ``later`` paints ``first`` again (same codes known) at one offset within reach."""
    h0, h1 = first_geo.height, later_geo.height
    if not (0.0 < h0 < math.inf and 0.0 < h1 < math.inf) or abs(h0 - h1) > tolerance * max(h0, h1):
        return False
    if first_geo.dx * later_geo.dx + first_geo.dy * later_geo.dy <= SAME_DIRECTION:
        return False
    bx0, by0, ax0, ay0 = first_frame.bx, first_frame.by, first_frame.ax, first_frame.ay
    bx1, by1, ax1, ay1 = later_frame.bx, later_frame.by, later_frame.ax, later_frame.ay
    s0, s1 = first.starts, later.starts
    dx = (bx1 + ax1 * s1[0]) - (bx0 + ax0 * s0[0])
    dy = (by1 + ay1 * s1[0]) - (by0 + ay0 * s0[0])
    if math.hypot(dx, dy) > reach * h0:
        return False
    drift = SHADOW_DRIFT * h0
    for a, b in zip(s0, s1, strict=False):
        ex = (bx1 + ax1 * b) - (bx0 + ax0 * a) - dx
        ey = (by1 + ay1 * b) - (by0 + ay0 * a) - dy
        if abs(ex) > drift or abs(ey) > drift:
            return False
    return True


@hookimpl
def glyphweave_register_filters() -> list[type[Filter]]:
    return [DedupFilter]
