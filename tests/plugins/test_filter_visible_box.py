from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphweave.core.glyphtable import GlyphTable
from glyphweave.plugins.filters import visible_box
from glyphweave.plugins.filters.visible_box import VisibleBoxFilter, visible_area
from glyphweave.testing.factories import add_text, page_context


def run(table: GlyphTable, **ctx) -> list[int]:
    options = ctx.pop("options", {})
    page = page_context(table, **ctx)
    return VisibleBoxFilter(**VisibleBoxFilter.validate_options(options)).apply(page, range(len(table)))


def kept_text(table: GlyphTable, kept: list[int]) -> str:
    return "".join(table.text[i] for i in kept)


def test_registration():
    assert visible_box.glyphweave_register_filters() == [VisibleBoxFilter]
    assert VisibleBoxFilter.NAME == "visible-box"
    assert VisibleBoxFilter.validate_options({}) == {"margin": 0.0}


def test_inside_kept_outside_crop_dropped():
    t = GlyphTable()
    add_text(t, "in", 100, 100)
    add_text(t, "out", 100, 700)  # above the crop box's top at 600
    add_text(t, "left", -50, 300)
    kept = run(t, cropbox=(0, 0, 612, 600))
    assert kept_text(t, kept) == "in"


def test_centre_decides_not_origin():
    # 10 pt glyph, advance 5, ascent 7.5, descent -2.5: centre is (x + 2.5, y + 2.5).
    t = GlyphTable()
    add_text(t, "a", -2.0, 100)  # origin outside, centre at x=0.5 inside
    add_text(t, "b", -3.0, 100)  # centre at x=-0.5 outside
    add_text(t, "c", 100, 598)  # origin inside, centre y=600.5 above the top at 600
    add_text(t, "d", 100, 597)  # centre y=599.5 inside
    kept = run(t, cropbox=(0, 0, 612, 600))
    assert kept_text(t, kept) == "ad"


def test_edges_count_as_inside():
    t = GlyphTable()
    add_text(t, "a", -2.5, 100)  # centre exactly on x=0
    kept = run(t)
    assert kept == [0]


def test_crop_larger_than_media_uses_intersection():
    t = GlyphTable()
    add_text(t, "a", 300, 400)
    add_text(t, "b", 650, 400)  # inside the crop, outside the media box
    add_text(t, "c", 300, -20)
    kept = run(t, mediabox=(0, 0, 612, 792), cropbox=(-100, -100, 1000, 1000))
    assert kept_text(t, kept) == "a"


def test_unnormalized_boxes():
    t = GlyphTable()
    add_text(t, "a", 300, 400)
    add_text(t, "b", 300, 750)
    kept = run(t, mediabox=(612, 792, 0, 0), cropbox=(612, 700, 0, 0))
    assert kept_text(t, kept) == "a"


def test_offset_media_box():
    t = GlyphTable()
    add_text(t, "a", 150, 150)
    add_text(t, "b", 50, 150)
    kept = run(t, mediabox=(100, 100, 300, 300))
    assert kept_text(t, kept) == "a"


@pytest.mark.parametrize("cropbox", [(700, 0, 800, 100), (0, 0, 0, 0), (10, 10, 10, 500)])
def test_empty_intersection_falls_back_to_media_box(cropbox):
    assert visible_area((0, 0, 612, 792), cropbox) == (0, 0, 612, 792)
    t = GlyphTable()
    add_text(t, "a", 300, 400)
    add_text(t, "b", 700, 400)
    kept = run(t, cropbox=cropbox)
    assert kept_text(t, kept) == "a"


def test_degenerate_media_box_keeps_everything():
    assert visible_area((0, 0, 0, 0), (0, 0, 612, 792)) is None
    t = GlyphTable()
    add_text(t, "ab", 5000, -5000)
    assert run(t, mediabox=(0, 0, 0, 0), cropbox=(0, 0, 612, 792)) == [0, 1]


def test_rotated_glyph_near_edge():
    # Rotated 90°: the baseline runs up, the ascent points to -x. A 10 pt glyph at
    # origin x spans x-7.5 .. x+2.5, so its centre is at x-2.5.
    t = GlyphTable()
    add_text(t, "a", 5.0, 300, angle=90)  # origin inside, centre x=2.5 outside crop x0=3
    add_text(t, "b", 6.0, 300, angle=90)  # centre 3.5 inside
    add_text(t, "c", 614.0, 300, angle=90)  # origin beyond x1=612, centre 611.5 inside
    add_text(t, "d", 615.0, 300, angle=90)  # centre 612.5 outside
    kept = run(t, cropbox=(3, 0, 612, 792))
    assert kept_text(t, kept) == "bc"


def test_vertical_writing_mode_centre():
    # Writing mode 1 runs down from the origin, a 10 pt glyph spans y-10 .. y and
    # x-5 .. x+5: centre (x, y-5).
    t = GlyphTable()
    add_text(t, "a", 300, 4.0, wmode=1)  # centre y=-1 outside
    add_text(t, "b", 300, 6.0, wmode=1)  # centre y=1 inside
    kept = run(t)
    assert kept_text(t, kept) == "b"


def test_render_mode_3_kept():
    t = GlyphTable()
    add_text(t, "ocr", 100, 100, render=3)
    add_text(t, "x", 100, 900, render=3)  # off the page: cropped like any glyph
    kept = run(t)
    assert kept_text(t, kept) == "ocr"


def test_margin_grows_box():
    t = GlyphTable()
    add_text(t, "a", -4.0, 100)  # centre x=-1.5
    add_text(t, "b", -6.0, 100)  # centre x=-3.5
    assert kept_text(t, run(t)) == ""
    assert kept_text(t, run(t, options={"margin": 2})) == "a"
    assert kept_text(t, run(t, options={"margin": 4.0})) == "ab"


def test_order_and_subset_preserved():
    t = GlyphTable()
    add_text(t, "abcd", 100, 100)
    add_text(t, "zz", 100, 900)
    page = page_context(t)
    assert VisibleBoxFilter().apply(page, [3, 5, 1, 0]) == [3, 1, 0]
    assert VisibleBoxFilter().apply(page, []) == []


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.text(alphabet="ab", min_size=1, max_size=5),
                          st.floats(-60, 640), st.floats(-60, 850), st.sampled_from([0.0, 30.0, 90.0])),
                max_size=12))
def test_runs_decided_whole_keep_what_a_glyph_by_glyph_test_keeps(runs):
    # Runs inside, outside and across the crop box's edges, in any order: deciding whole runs
    # (every glyph still visible) keeps exactly the glyphs the per-glyph test keeps.
    t = GlyphTable()
    for text, x, y, angle in runs:
        add_text(t, text, x, y, size=12.0, angle=angle)
    page = page_context(t, cropbox=(0, 0, 580, 780))
    every = list(range(len(t)))
    by_runs = VisibleBoxFilter().apply(page, every)
    area = visible_area(page.mediabox, page.cropbox)
    assert area is not None
    doubled = tuple(2 * v for v in area)
    assert by_runs == VisibleBoxFilter._by_glyph(t, every, doubled)
    assert every == list(range(len(t)))  # the list received is not changed


def test_first_outside_skips_the_runs_inside_and_stops_at_one_that_is_not():
    from glyphweave.plugins.filters.boxes import first_outside

    t = GlyphTable()
    for x, y in ((100, 100), (120, 100), (100, 900), (140, 100), (float("nan"), 100), (160, 100)):
        add_text(t, "ab", x, y)
    runs = t.runs()
    bounds = (0.0, 0.0, 2 * 612.0, 2 * 792.0)
    assert first_outside(runs, *bounds, 0) == 2  # above the page
    assert first_outside(runs, *bounds, 3) == 4  # a box that is not a number is never inside
    assert first_outside(runs, *bounds, 5) == 6 == len(runs)
    assert first_outside(runs, *bounds, 6) == 6
    assert first_outside([], *bounds, 0) == 0
