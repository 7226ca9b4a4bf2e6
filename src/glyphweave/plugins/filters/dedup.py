"""``dedup``: paint each overprinted glyph once.

Producers fake bold by painting a word twice a fraction of a point apart, draw shadows as
a slightly offset copy, and overprint logos; a reader sees one glyph, so the text must
carry one. The test is deliberately tight (rules: filters) so real repeats survive: double
letters sit a full advance apart, identical table cells a column apart.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from glyphweave.plugin import Filter, Option, PageContext, hookimpl
from glyphweave.plugins.filters.overprint import COMPARISONS_PER_RUN

try:  # the compiled build's sweep: the same pairs of runs, found over C doubles
    from glyphweave.plugins.filters._coverprint import suspects as overprint_suspects
except ImportError:  # a pure install: the reference
    from glyphweave.plugins.filters.overprint import suspects as overprint_suspects
from glyphweave.plugins.filters.shadows import SAME_DIRECTION, is_space, shadows


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
        found = shadows(page, indices, self.shadow, self.size_tolerance) if self.shadow > 0 else None
        if found is not None:
            indices = [i for i in indices if not found[i]]
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
            blank = space.get(text)
            if blank is None:
                blank = space[text] = is_space(text)
            if blank:
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


@hookimpl
def glyphweave_register_filters() -> list[type[Filter]]:
    return [DedupFilter]
