"""GlyphTable: run frames, the direct path for upright runs against the general one, and the
per-run helpers against the columns they stand in for."""

from __future__ import annotations

import math

import pytest

from glyphweave.core.glyphtable import GlyphTable, Run, RunFrame, run_frame


def _run(matrix, *, n=4, advance=6.0, rise=0.0, extent=True, wmode=0):
    """A run of ``n`` glyphs ``advance`` apart; writing mode 1 moves the pen down (negative
    offsets), as the interpreter records it."""
    step = advance if wmode == 0 else -advance
    starts = [i * step for i in range(n)]
    own = [step] * n
    pens = [s + step for s in starts]
    covered = starts + [s + w for s, w in zip(starts, own, strict=True)] + pens
    known = (min(covered), max(covered), advance if n > 1 else math.inf) if extent else None
    return Run(font=0, size=12.0, matrix=matrix, rise=rise, wmode=wmode, codes=list(range(65, 65 + n)), cids=None,
               decoded=[("A", "t")] * n, starts=starts, advances=own, pens=pens, lo=-2.5, hi=9.0, render=0,
               mcid=None, tag=None, actual_text=None, token=1, extent=known)


def _table(*runs):
    table = GlyphTable()
    for run in runs:
        table.append(run)
    return table


def _geometry(run):
    [geo] = _table(run).runs()
    return geo


def test_extend_records_what_append_records_one_run_at_a_time():
    empty = _run(TURNED, n=1)._replace(codes=[])
    runs = [_run(TURNED, n=3), empty, _run((1.0, 0.0, 0.0, 1.0, 5.0, 6.0), n=2)]
    one_by_one = _table(*runs)
    at_once = GlyphTable()
    at_once.append(_run(TURNED, n=1))
    at_once.extend([])
    assert at_once.columns()["ox"]  # the columns built before the extension are dropped by it
    at_once.extend(runs)
    assert len(at_once) == 1 + 3 + 2
    assert at_once.raw_runs()[1:] == one_by_one.raw_runs()  # the empty run is ignored, as by append
    assert at_once.columns()["ox"][1:] == one_by_one.columns()["ox"]
    assert len(at_once.runs()) == 3


# Rotated 90° and mirrored: the writing axis of writing mode 0 points down, that of writing
# mode 1 to the left, so neither frame is the identity's.
TURNED = (0.0, -2.0, -2.0, 0.0, 100.0, 50.0)


def test_run_frame_writing_mode_0():
    frame = run_frame(_run(TURNED, rise=3.0))
    assert isinstance(frame, RunFrame)
    # The base is the text-space point (0, rise); the axis and across vectors are the
    # matrix's first and second rows; reading follows the axis.
    assert frame == RunFrame(bx=94.0, by=50.0, ax=0.0, ay=-2.0, nx=-2.0, ny=0.0, ux=0.0, uy=-2.0)


def test_run_frame_writing_mode_1():
    frame = run_frame(_run(TURNED, rise=3.0, wmode=1))
    # Rise does not move a vertical run; the rows swap roles, and reading goes down the
    # column, against the axis.
    assert frame == RunFrame(bx=100.0, by=50.0, ax=-2.0, ay=0.0, nx=0.0, ny=-2.0, ux=2.0, uy=0.0)


@pytest.mark.parametrize("wmode", [0, 1])
@pytest.mark.parametrize("matrix", [TURNED, (1.0, 0.5, -0.25, 2.0, 10.0, 20.0), (-1.0, 0.0, 0.0, 1.0, 300.0, 400.0)])
def test_run_frame_is_what_the_columns_are_built_from(matrix, wmode):
    run = _run(matrix, n=5, rise=1.5, wmode=wmode)
    table = _table(run)
    bx, by, ax, ay, nx, ny, ux, uy = run_frame(run)
    assert table.ox == [bx + ax * s for s in run.starts]
    assert table.oy == [by + ay * s for s in run.starts]
    assert table.px == [bx + ax * s for s in run.pens]
    assert set(zip(table.lox, table.loy, table.hix, table.hiy, strict=True)) == {(nx * run.lo, ny * run.lo, nx * run.hi, ny * run.hi)}
    norm = math.hypot(ux, uy)
    assert set(zip(table.dx, table.dy, strict=True)) == {(ux / norm, uy / norm)}


@pytest.mark.parametrize(
    ("matrix", "wmode"),
    [
        ((1.0, 0.0, 0.0, 1.0, 72.0, 700.0), 0),  # plain
        ((1.5, 0.0, 0.0, 2.0, 10.0, -5.0), 0),  # scaled
        ((-1.0, 0.0, 0.0, 1.0, 300.0, 400.0), 0),  # mirrored: runs right to left
        ((1.0, 0.0, 0.0, -1.0, 50.0, 600.0), 0),  # flipped upside down (a y-down CTM)
        ((0.5, -0.0, -0.0, 0.5, 1.0, 2.0), 0),  # negative zeros
        ((0.0, 1.0, -1.0, 0.0, 300.0, 100.0), 1),  # vertical text turned 90°: its column runs along x
        ((0.0, -1.0, 1.0, 0.0, 300.0, 100.0), 1),  # ... and the other way
    ],
)
@pytest.mark.parametrize("n", [1, 5])
def test_upright_direct_path_matches_general_path(matrix, wmode, n):
    direct = _geometry(_run(matrix, n=n, rise=3.0, wmode=wmode))
    general = _geometry(_run(matrix, n=n, rise=3.0, wmode=wmode, extent=False))
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
    table = _table(_run(matrix, n=12, extent=extent))
    xs, ys = table.ox, table.oy
    for k in range(0, 12, 3):
        # Boxes whose edges fall exactly on origins, between them, and around none.
        for box in ((xs[k], ys[k], xs[k], ys[k]), (min(xs[k], xs[k + 2]) - 0.5, ys[k] - 1,
                                                    max(xs[k], xs[k + 2]) + 0.5, ys[k] + 1),
                    (min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1), (0.0, 0.0, 1.0, 1.0)):
            expected = [j for j, (x, y) in enumerate(zip(xs, ys, strict=True)) if box[0] <= x <= box[2] and box[1] <= y <= box[3]]
            assert table.origins_within(0, box) == expected


@pytest.mark.parametrize("wmode", [0, 1])
@pytest.mark.parametrize("matrix", [TURNED, (1.0, 0.5, -0.25, 2.0, 10.0, 20.0), (0.5, -0.0, -0.0, 0.5, 1.0, 2.0)])
def test_sparse_columns_are_the_columns_bit_for_bit(matrix, wmode):
    # Three glyphs of 37: mappings for just those (few enough for them).
    runs = [_run(matrix, n=1, rise=2.0, wmode=wmode), _run(matrix, n=6, wmode=wmode), _run(matrix, n=30, wmode=wmode)]
    names = ("text", "decoded_by", "ox", "oy", "dx", "dy", "height")
    sparse = _table(*runs).sparse_columns([0, 2, 6], names)  # before any column is built
    assert all(type(sparse[name]) is dict for name in names)
    cols = _table(*runs).columns()
    for name in names[:-1]:
        assert repr(sparse[name]) == repr({i: cols[name][i] for i in (0, 2, 6)}), name
    # The run geometry's height, |hi - lo|·|n|, may differ from the column's |hi·n - lo·n|
    # in the last bit.
    assert sparse["height"] == pytest.approx({i: cols["height"][i] for i in (0, 2, 6)})


@pytest.mark.parametrize("wmode", [0, 1])
@pytest.mark.parametrize("matrix", [TURNED, (1.0, 0.5, -0.25, 2.0, 10.0, 20.0), (0.5, -0.0, -0.0, 0.5, 1.0, 2.0)])
def test_sparse_columns_for_much_of_the_page_are_whole_lists_of_the_same_values(matrix, wmode):
    runs = [_run(matrix, n=1, rise=2.0, wmode=wmode), _run(matrix, n=6, wmode=wmode), _run(matrix, n=5, wmode=wmode)]
    names = ("text", "decoded_by", "ox", "oy", "dx", "dy", "height")
    every = _table(*runs).sparse_columns(range(12), names)
    few = _table(*runs).sparse_columns([3], names)  # one of twelve: a mapping
    assert all(type(every[name]) is list and len(every[name]) == 12 for name in names)
    for i in range(12):
        one = _table(*runs).sparse_columns([i], names)
        assert repr([one[name][i] for name in names]) == repr([every[name][i] for name in names])
    assert type(few["ox"]) is dict
    # Only the columns asked for.
    assert set(_table(*runs).sparse_columns(range(12), ("ox", "height"))) == {"ox", "height"}


@pytest.mark.parametrize("wmode", [0, 1])
def test_run_centres_are_the_quad_centres(wmode):
    table = _table(_run(TURNED, n=4, rise=1.0, wmode=wmode))
    c = table.columns()
    xs, ys = table.run_centres(0)
    for i in range(4):
        assert xs[i] == pytest.approx((c["ox"][i] + c["ex"][i] + c["lox"][i] + c["hix"][i]) / 2)
        assert ys[i] == pytest.approx((c["oy"][i] + c["ey"][i] + c["loy"][i] + c["hiy"][i]) / 2)


def test_frames_are_each_runs_run_frame():
    from glyphweave.core.glyphtable import run_frame
    from glyphweave.testing.factories import add_text

    table = GlyphTable()
    add_text(table, "ab", 10, 20)
    add_text(table, "cd", 30, 40, angle=90)
    add_text(table, "ef", 50, 60, wmode=1)
    assert table.frames() == [run_frame(run) for run in table.raw_runs()]
    assert table.frames() is table.frames()  # cached, with runs()

