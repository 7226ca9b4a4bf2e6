"""GlyphTable's run geometry: the direct path for upright runs agrees with the general one."""

from __future__ import annotations

import math

import pytest

from glyphweave.core.glyphtable import GlyphTable, Run


def _run(matrix, *, n=4, advance=6.0, rise=0.0, extent=True):
    starts = [i * advance for i in range(n)]
    pens = [s + advance for s in starts]
    own = [advance] * n
    known = (starts[0], max(pens[-1], starts[-1] + own[-1]), advance if n > 1 else math.inf) if extent else None
    return Run(font=0, size=12.0, matrix=matrix, rise=rise, wmode=0, codes=list(range(65, 65 + n)), cids=None,
               decoded=[("A", "t")] * n, starts=starts, advances=own, pens=pens, lo=-2.5, hi=9.0, render=0,
               mcid=None, tag=None, actual_text=None, token=1, extent=known)


def _geometry(run):
    table = GlyphTable()
    table.append(run)
    [geo] = table.runs()
    return geo


@pytest.mark.parametrize(
    "matrix",
    [
        (1.0, 0.0, 0.0, 1.0, 72.0, 700.0),  # plain
        (1.5, 0.0, 0.0, 2.0, 10.0, -5.0),  # scaled
        (-1.0, 0.0, 0.0, 1.0, 300.0, 400.0),  # mirrored: runs right to left
        (1.0, 0.0, 0.0, -1.0, 50.0, 600.0),  # flipped upside down (a y-down CTM)
        (0.5, -0.0, -0.0, 0.5, 1.0, 2.0),  # negative zeros
    ],
)
@pytest.mark.parametrize("n", [1, 5])
def test_upright_direct_path_matches_general_path(matrix, n):
    direct = _geometry(_run(matrix, n=n, rise=3.0))
    general = _geometry(_run(matrix, n=n, rise=3.0, extent=False))
    assert direct == general


def test_upright_box_and_direction():
    geo = _geometry(_run((2.0, 0.0, 0.0, 2.0, 100.0, 200.0), n=3))
    assert geo.start == 0 and geo.end == 3
    assert geo.box == (100.0, 195.0, 136.0, 218.0)
    assert geo.origins == (100.0, 200.0, 124.0, 200.0)
    assert (geo.dx, geo.dy) == (1.0, 0.0)
    assert geo.height == 23.0
    assert geo.min_step == 12.0


def test_rotated_run_takes_the_general_path():
    run = _run((0.0, 1.0, -1.0, 0.0, 300.0, 100.0), n=3)
    geo = _geometry(run)
    assert (geo.dx, geo.dy) == (0.0, 1.0)
    assert geo.box == (291.0, 100.0, 302.5, 118.0)


@pytest.mark.parametrize(
    "matrix",
    [(1.0, 0.0, 0.0, 1.0, 72.0, 700.0), (-1.0, 0.0, 0.0, 1.0, 300.0, 400.0), (0.0, 1.0, -1.0, 0.0, 300.0, 100.0)],
)
@pytest.mark.parametrize("extent", [True, False])
def test_origins_within_matches_a_scan_of_every_origin(matrix, extent):
    table = GlyphTable()
    table.append(_run(matrix, n=12, extent=extent))
    xs, ys = table.ox, table.oy
    for k in range(0, 12, 3):
        # Boxes whose edges fall exactly on origins, between them, and around none.
        for box in ((xs[k], ys[k], xs[k], ys[k]), (min(xs[k], xs[k + 2]) - 0.5, ys[k] - 1,
                                                    max(xs[k], xs[k + 2]) + 0.5, ys[k] + 1),
                    (min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1), (0.0, 0.0, 1.0, 1.0)):
            expected = [j for j, (x, y) in enumerate(zip(xs, ys, strict=True)) if box[0] <= x <= box[2] and box[1] <= y <= box[3]]
            assert table.origins_within(0, box) == expected
