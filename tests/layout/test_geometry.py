"""The layout layer (glyphweave.layout): lines, words, blocks, geometric order and order
recovery, as an assembler reads them through ``page_geometry`` (rules: assembly)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphweave.accelerated import compiled_modules
from glyphweave.core.glyphtable import GlyphTable
from glyphweave.core.stages import PageContext
from glyphweave.layout import Line, PageGeometry, build_blocks, geometric_rows, page_geometry
from glyphweave.layout.recovery import recover
from glyphweave.plugins.assemblers.reading import ReadingAssembler
from glyphweave.testing.factories import add_text, page_context, text_of

# add_text defaults: 10 pt, advance 0.5 em (5 units per glyph), ascent 0.75, descent -0.25:
# a glyph's box is 10 units high, 2.5 below the baseline and 7.5 above it.
SIZE = 10.0
STEP = 5.0
LEADING = 12.0


def geometry(table: GlyphTable, **options) -> tuple[PageContext, PageGeometry]:
    page = page_context(table)
    return page, page_geometry(page, range(len(table)), **options)


def reading(page: PageContext, **options) -> str:
    assembler = ReadingAssembler(**ReadingAssembler.validate_options(options))
    return text_of(assembler.assemble(page, range(len(page.table))))


def paragraph(table: GlyphTable, lines: Sequence[str], x: float, y: float, *, leading: float = LEADING) -> float:
    """Paint ``lines`` top down from baseline ``y``; the baseline after the last one."""
    for text in lines:
        add_text(table, text, x, y)
        y -= leading
    return y


def texts(rows: Sequence[Sequence[Line]]) -> list[str]:
    return [" | ".join(line.text for line in row) for row in rows]


def order_options(g: PageGeometry) -> dict[str, float]:
    """The reading assembler's default recovery options, in user space."""
    return {"gap": 3.0 * g.advance, "min_width": 12.0 * g.advance, "min_lines": 2}


LEFT = [f"left column line {i} of text" for i in range(1, 7)]
RIGHT = [f"right column line {i} text" for i in range(1, 7)]


# -- lines -------------------------------------------------------------------------------------

def test_a_horizontal_line():
    t = GlyphTable()
    add_text(t, "Hello world", 72, 700)
    _, g = geometry(t)
    [line] = g.lines
    assert line.text == "Hello world"
    assert (line.ux, line.uy) == (1.0, 0.0)
    assert line.across == pytest.approx(700)  # the baseline's y
    assert (line.start, line.end) == pytest.approx((72, 72 + 11 * STEP))
    assert line.box == pytest.approx((72, 697.5, 127, 707.5))
    assert line.height == pytest.approx(SIZE)
    assert line.wmode == 0
    assert line.glyphs == list(range(11))


def test_a_line_turned_a_quarter_left_reads_bottom_to_top():
    t = GlyphTable()
    add_text(t, "Label", 300, 100, angle=90)
    _, g = geometry(t)
    [line] = g.lines
    assert line.text == "Label"
    assert (line.ux, line.uy) == pytest.approx((0, 1))
    # across is the normal (-uy, ux) = (-1, 0): minus the baseline's x
    assert line.across == pytest.approx(-300)
    assert (line.start, line.end) == pytest.approx((100, 125))  # along is y, upwards
    # the glyphs' ascent lies to the left of the baseline (x < 300)
    assert line.box == pytest.approx((292.5, 100, 302.5, 125))
    assert line.height == pytest.approx(SIZE)


def test_an_upside_down_line():
    t = GlyphTable()
    add_text(t, "Down", 400, 400, angle=180)
    _, g = geometry(t)
    [line] = g.lines
    assert line.text == "Down"
    assert (line.ux, line.uy) == pytest.approx((-1, 0))
    assert line.across == pytest.approx(-400)  # normal (0, -1): minus the baseline's y
    assert (line.start, line.end) == pytest.approx((-400, -380))  # along is -x
    assert line.box == pytest.approx((380, 392.5, 400, 402.5))
    assert line.height == pytest.approx(SIZE)


def test_vertical_text_makes_one_line_per_column_read_right_to_left():
    t = GlyphTable()
    add_text(t, "\u7e26\u66f8\u304d", 500, 700, wmode=1)  # 縦書き
    add_text(t, "\u306e\u6587", 480, 700, wmode=1)  # の文, the next column to the left
    _, g = geometry(t)
    first, second = g.lines
    assert (first.text, second.text) == ("\u7e26\u66f8\u304d", "\u306e\u6587")
    assert first.wmode == second.wmode == 1
    assert (first.ux, first.uy) == pytest.approx((0, -1))  # down the column
    # across is the normal (1, 0): the column's x, so the next column (to the left) is lower
    assert first.across == pytest.approx(500)
    assert second.across == pytest.approx(480)
    assert (first.start, first.end) == pytest.approx((-700, -670))
    assert first.box == pytest.approx((495, 670, 505, 700))
    assert first.height == pytest.approx(SIZE)  # the column width
    assert g.walk.text() == "\u7e26\u66f8\u304d\n\u306e\u6587\n"


def test_mixed_directions_are_separate_lines():
    t = GlyphTable()
    add_text(t, "Body", 72, 700)
    add_text(t, "Side", 30, 400, angle=90)
    add_text(t, "More", 72, 688)
    _, g = geometry(t)
    assert [line.text for line in g.lines] == ["Body", "Side", "More"]
    assert g.walk.breaks == [4, 8]


def test_a_superscript_stays_on_its_line_and_does_not_move_the_baseline():
    t = GlyphTable()
    add_text(t, "E=mc", 72, 700)
    add_text(t, "2", 92, 704, size=6)
    _, g = geometry(t)
    [line] = g.lines
    assert line.text == "E=mc2"
    assert line.across == pytest.approx(700)
    assert line.height == pytest.approx(SIZE)  # the larger box


# -- words ----------------------------------------------------------------------------------------

def test_words_and_their_boxes():
    t = GlyphTable()
    add_text(t, "Hello world", 72, 700)
    add_text(t, "again", 72 + 11 * STEP + 4, 700)  # a positioned word gap, no space glyph
    _, g = geometry(t)
    [line] = g.lines
    assert line.text == "Hello world again"
    hello, world, again = line.words
    assert [w.text for w in line.words] == ["Hello", "world", "again"]
    assert hello.glyphs == [0, 1, 2, 3, 4]
    assert world.glyphs == [6, 7, 8, 9, 10]  # the space glyph belongs to no word
    assert again.glyphs == [11, 12, 13, 14, 15]
    assert hello.box == pytest.approx((72, 697.5, 97, 707.5))
    assert world.box == pytest.approx((102, 697.5, 127, 707.5))
    assert again.box == pytest.approx((131, 697.5, 156, 707.5))
    assert (again.start, again.end) == pytest.approx((131, 156))
    assert line.words is line.words  # computed once


def test_words_of_a_rotated_line_are_measured_along_it():
    t = GlyphTable()
    add_text(t, "up here", 300, 100, angle=90)
    _, g = geometry(t)
    [line] = g.lines
    up, here = line.words
    assert (up.text, here.text) == ("up", "here")
    assert (up.start, up.end) == pytest.approx((100, 110))
    assert (here.start, here.end) == pytest.approx((115, 135))
    assert here.box == pytest.approx((292.5, 115, 302.5, 135))


def test_a_line_without_words():
    t = GlyphTable()
    add_text(t, "   ", 72, 700)
    _, g = geometry(t)
    assert [line.words for line in g.lines] == [[]]


# -- Line.split ------------------------------------------------------------------------------------

def test_a_two_column_line_splits_at_the_gutter():
    t = GlyphTable()
    add_text(t, "Left column text", 72, 700)
    add_text(t, "Right column", 300, 700)
    _, g = geometry(t)
    [line] = g.lines
    assert line.text == "Left column text Right column"
    left, right = line.split(3 * g.advance)
    assert (left.text, right.text) == ("Left column text", "Right column")
    assert (left.start, left.end) == pytest.approx((72, 152))
    assert (right.start, right.end) == pytest.approx((300, 360))
    assert left.box == pytest.approx((72, 697.5, 152, 707.5))
    assert right.across == pytest.approx(700)
    assert right.glyphs == list(range(16, 28))
    assert [w.text for w in right.words] == ["Right", "column"]
    # a gap narrower than the gutter asked for does not split
    assert line.split(1000) == [line]


def test_an_uncut_line_is_not_kept_in_a_reference_cycle():
    # A page's lines are freed by reference counting: a cycle per line would leave every
    # page's geometry to the cyclic collector.
    import gc

    t = GlyphTable()
    add_text(t, "Hello", 72, 660)
    add_text(t, "world", 72 + 5 * STEP + 8, 660)  # a wide gap, far narrower than a gutter
    _, g = geometry(t)
    [line] = g.lines
    assert line.wide
    assert line.split(3 * g.advance) == [line]
    assert line.split(3 * g.advance) == [line]  # from the cache
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        del line, g, _
        gc.collect()
        assert not [obj for obj in gc.garbage if isinstance(obj, Line)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def test_a_word_space_does_not_split_a_line():
    t = GlyphTable()
    add_text(t, "Hello world", 72, 680)  # a space glyph
    add_text(t, "Hello", 72, 660)
    add_text(t, "world", 72 + 5 * STEP + 8, 660)  # a positioned space, a little wide
    _, g = geometry(t)
    for line in g.lines:
        assert line.split(3 * g.advance) == [line]


def test_a_line_splits_into_three_at_two_gutters():
    t = GlyphTable()
    add_text(t, "one", 72, 700)
    add_text(t, "two", 200, 700)
    add_text(t, "three", 320, 700)
    _, g = geometry(t)
    [line] = g.lines
    assert [piece.text for piece in line.split(30)] == ["one", "two", "three"]


class _CountingList(list):
    """A list that counts how many times it is iterated over whole."""

    walks = 0

    def __iter__(self):
        type(self).walks += 1
        return super().__iter__()


def test_splitting_a_line_of_many_pieces_does_not_rescan_its_wide_gaps_per_piece():
    # A line of 2,000 three-letter cells, each after a wide gap, and narrower wide gaps inside
    # the cells of every tenth: splitting it used to scan all the line's wide gaps once per
    # piece (quadratic: seconds for a 100k-glyph line of cells).
    t = GlyphTable()
    for k in range(2000):
        x = 72 + k * 40.0
        if k % 10:
            add_text(t, "abc", x, 700)
        else:
            add_text(t, "a", x, 700)
            add_text(t, "bc", x + 10, 700)  # a wide gap (5 units: 0.5 box heights), but no gutter
    _, g = geometry(t)
    [line] = g.lines
    assert len(line.wide) == 2199
    line.wide = _CountingList(line.wide)
    _CountingList.walks = 0
    pieces = line.split(20)
    assert _CountingList.walks <= 1
    assert [piece.text for piece in pieces[:2]] == ["a bc", "abc"]
    assert len(pieces) == 2000
    assert pieces[0].wide == [1] and pieces[1].wide == [] and pieces[10].wide == [1]
    assert [piece.text for piece in pieces[0].split(2)] == ["a", "bc"]


# -- blocks -----------------------------------------------------------------------------------------

def test_two_paragraphs_separated_by_a_blank_line_are_two_blocks():
    t = GlyphTable()
    y = paragraph(t, ["The first paragraph has", "three lines of text", "in a column."], 72, 700)
    paragraph(t, ["The second one has", "two lines."], 72, y - LEADING)
    _, g = geometry(t)
    first, second = g.blocks
    assert [line.text for line in first.lines] == ["The first paragraph has", "three lines of text",
                                                   "in a column."]
    assert [line.text for line in second.lines] == ["The second one has", "two lines."]
    assert first.box == pytest.approx((72, 700 - 2 * LEADING - 2.5, 72 + 23 * STEP, 707.5))
    assert (first.ux, first.uy) == (1.0, 0.0)


def test_a_paragraph_is_one_block_in_reading_order_whatever_the_paint_order():
    t = GlyphTable()
    lines = ["A paragraph of four", "lines set at single", "spacing in one", "column."]
    for k in (2, 0, 3, 1):
        add_text(t, lines[k], 72, 700 - k * LEADING)
    _, g = geometry(t)
    [block] = g.blocks
    assert [line.text for line in block.lines] == lines


def test_side_by_side_columns_are_separate_blocks():
    t = GlyphTable()
    paragraph(t, LEFT[:3], 72, 700)
    paragraph(t, RIGHT[:3], 320, 700)
    _, g = geometry(t)
    assert [[line.text for line in b.lines] for b in g.blocks] == [LEFT[:3], RIGHT[:3]]


def test_a_rotated_label_is_not_in_the_paragraphs_block():
    t = GlyphTable()
    paragraph(t, ["Text beside", "a label"], 72, 700)
    add_text(t, "label", 60, 680, angle=90)
    _, g = geometry(t)
    assert [[line.text for line in b.lines] for b in g.blocks] == [["Text beside", "a label"], ["label"]]


def test_no_lines_no_blocks():
    assert build_blocks([]) == []


# -- geometric_rows ---------------------------------------------------------------------------------

def test_two_columns_read_column_by_column():
    t = GlyphTable()
    for left, right, k in zip(LEFT, RIGHT, range(6), strict=True):  # painted row by row
        add_text(t, left, 72, 700 - k * LEADING)
        add_text(t, right, 320, 700 - k * LEADING)
    _, g = geometry(t)
    rows = geometric_rows(g.lines, **order_options(g))
    assert texts(rows) == LEFT + RIGHT


def test_a_full_width_title_stays_first_and_a_footer_last():
    t = GlyphTable()
    paragraph(t, LEFT, 72, 700)
    paragraph(t, RIGHT, 320, 700)
    add_text(t, "A title set across both of the columns of the page", 100, 730)  # painted after them
    add_text(t, "The footer of the page also runs across both columns", 90, 600)
    _, g = geometry(t)
    rows = geometric_rows(g.lines, **order_options(g))
    assert texts(rows) == ["A title set across both of the columns of the page", *LEFT, *RIGHT,
                           "The footer of the page also runs across both columns"]


def test_a_table_of_short_cells_is_read_row_by_row():
    t = GlyphTable()
    cells = [["Name", "Qty", "Price"], ["apple", "3", "1.20"], ["pear", "12", "0.80"], ["plum", "7", "2.05"]]
    for col in range(3):  # painted column by column
        for k, row in enumerate(cells):
            add_text(t, row[col], 72 + 120 * col, 700 - k * LEADING)
    _, g = geometry(t)
    rows = geometric_rows(g.lines, **order_options(g))
    assert texts(rows) == [" | ".join(row) for row in cells]


SLIDE_BOXES = [["Stations", "Twelve docks", "Two moved"], ["Bikes", "Sixty in use", "Tyres wear"],
               ["App", "Most rides", "Needs a map"]]


@pytest.mark.parametrize("painted", [(1, 2, 0), (2, 1, 0), (1, 0, 2)])
def test_text_boxes_painted_out_of_order_are_read_left_to_right(painted: tuple[int, int, int]):
    # a slide's three short lists side by side, each painted whole, in the order they were placed
    t = GlyphTable()
    for box in painted:
        for k, text in enumerate(SLIDE_BOXES[box]):
            add_text(t, text, 72 + 160 * box, 700 - k * LEADING)
    _, g = geometry(t)
    rows = geometric_rows(g.lines, boxes=True, **order_options(g))
    assert texts(rows) == [text for box in SLIDE_BOXES for text in box]
    # a region order recovery reorders is read without looking for boxes
    assert texts(geometric_rows(g.lines, **order_options(g)))[0] == "Stations | Bikes | App"


def test_two_parts_painted_right_first_are_a_form_read_across():
    # labels and values, the values painted first: as two boxes they would read all labels first
    t = GlyphTable()
    pairs = [("Notice", "17 May 2021"), ("Adoption", "19 July 2021"), ("In force", "23 Sept 2021")]
    for k, (_label, value) in enumerate(pairs):
        add_text(t, value, 300, 700 - k * LEADING)
    for k, (label, _value) in enumerate(pairs):
        add_text(t, label, 72, 700 - k * LEADING)
    _, g = geometry(t)
    assert texts(geometric_rows(g.lines, boxes=True, **order_options(g))) == [" | ".join(p) for p in pairs]


def test_short_boxes_painted_in_order_are_a_table_to_the_geometric_order():
    # painted left to right, nothing tells them from a table painted a column at a time
    t = GlyphTable()
    for box in range(3):
        for k, text in enumerate(SLIDE_BOXES[box]):
            add_text(t, text, 72 + 160 * box, 700 - k * LEADING)
    _, g = geometry(t)
    assert texts(geometric_rows(g.lines, boxes=True, **order_options(g)))[0] == "Stations | Bikes | App"


def test_rotated_text_follows_the_main_text_and_never_joins_its_rows():
    t = GlyphTable()
    paragraph(t, ["The main text of the page", "goes on for three lines", "and ends here."], 72, 700)
    add_text(t, "A sideways margin label", 40, 640, angle=90)  # beside the main text's lines
    add_text(t, "upside down", 300, 300, angle=180)
    _, g = geometry(t)
    rows = geometric_rows(g.lines, **order_options(g))
    assert texts(rows) == ["The main text of the page", "goes on for three lines", "and ends here.",
                           "A sideways margin label", "upside down"]
    for row in rows:
        assert len({(round(line.ux, 6), round(line.uy, 6)) for line in row}) == 1


def test_vertical_columns_are_read_right_to_left():
    t = GlyphTable()
    for x in (440, 480, 460, 500):
        add_text(t, f"{x}", x, 700, wmode=1)
    _, g = geometry(t)
    rows = geometric_rows(g.lines, gap=0, min_width=0, min_lines=2)
    assert texts(rows) == ["500", "480", "460", "440"]


@pytest.mark.skipif("glyphweave.layout.order" in compiled_modules(),
                    reason="counts calls by patching a module function, which compiled code calls directly")
def test_a_wide_table_checks_a_bounded_number_of_gutters(monkeypatch: pytest.MonkeyPatch):
    # Rows of 500 short cells: every gap between two cells is a gutter candidate, and none
    # has text columns on its sides. Each check is a pass over all the pieces: checking every
    # candidate made such a page quadratic (seconds for 100k glyphs, in columns, auto and the
    # reading assembler's recovery of interleaved lines).
    from glyphweave.layout import order

    calls = []
    check = order._columns

    def counted(*args, **kwargs):
        calls.append(args[1:3])
        return check(*args, **kwargs)

    monkeypatch.setattr(order, "_columns", counted)
    t = GlyphTable()
    for row in range(3):
        for k in range(500):
            add_text(t, "abc", 72 + k * 40.0 + row, 700 - row * LEADING)
    _, g = geometry(t)
    rows = geometric_rows(g.lines, gap=3 * STEP, min_width=12 * STEP, min_lines=2)
    assert len(rows) == 3 and all(len(row) == 500 for row in rows)  # read row by row
    assert 0 < len(calls) <= order.MAX_GUTTERS * getattr(order, "MAX_LIMITS", 1)


def _crossings_by_events(items: Sequence[object]) -> tuple[list[float], list[float], list[int]]:
    """order._crossings as it was first written: one sort of (position, +1/-1) events."""
    events = sorted([(it.s0, 1) for it in items] + [(it.s1, -1) for it in items])  # type: ignore[attr-defined]
    lows: list[float] = []
    highs: list[float] = []
    crossed: list[int] = []
    count = i = 0
    while i < len(events):
        pos = events[i][0]
        while i < len(events) and events[i][0] == pos:
            count += events[i][1]
            i += 1
        if i < len(events):
            lows.append(pos)
            highs.append(events[i][0])
            crossed.append(count)
    return lows, highs, crossed


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(1, 6), st.integers(0, 5)), min_size=1, max_size=40))
def test_the_stretches_a_gutter_is_looked_for_in_match_a_sort_of_events(pieces: list[tuple[int, int, int]]):
    # Pieces on a coarse grid, so that many start and end at the same position, some of them
    # exactly where others end.
    from glyphweave.layout import order

    t = GlyphTable()
    for k, (column, length, row) in enumerate(pieces):
        add_text(t, "x" * length, 72 + column * STEP, 700 - (row * len(pieces) + k) * LEADING)
    _, g = geometry(t)
    items = [order._Item(line, line.ux, line.uy) for line in g.lines]
    assert order._crossings(items) == _crossings_by_events(items)


def test_geometric_rows_of_nothing():
    assert geometric_rows([], gap=15, min_width=60, min_lines=2) == []


# -- order recovery ---------------------------------------------------------------------------------

def test_words_painted_backwards_come_out_in_order():
    t = GlyphTable()
    x = {"Backwards": 72.0, "painted": 72 + 10 * STEP, "words": 72 + 18 * STEP}
    for word in ("words", "painted", "Backwards"):
        add_text(t, word, x[word], 700)
    add_text(t, "and a normal line below", 72, 700 - LEADING)
    page, g = geometry(t)
    assert [line.text for line in g.lines] == ["words", "painted", "Backwards", "and a normal line below"]
    result = recover(g.lines, **order_options(g))
    assert result.fixes == {"backwards": 1}
    assert texts(result.rows) == ["Backwards | painted | words", "and a normal line below"]
    assert reading(page) == "Backwards painted words\nand a normal line below\n"
    assert page.notes["order"] == "recovered: backwards 1"  # the page says that it reordered


def test_lines_painted_bottom_up_in_a_column_come_out_top_down():
    t = GlyphTable()
    lines = ["The first line of a column", "the second line of it", "the third line", "and the last one."]
    for k in reversed(range(4)):
        add_text(t, lines[k], 72, 700 - k * LEADING)
    page, g = geometry(t)
    result = recover(g.lines, **order_options(g))
    assert result.fixes == {"jumps": 1}
    assert texts(result.rows) == lines
    assert reading(page) == "\n".join(lines) + "\n"


def test_two_columns_interleaved_line_by_line_come_out_column_by_column():
    t = GlyphTable()
    for left, right, k in zip(LEFT, RIGHT, range(6), strict=True):
        add_text(t, left, 72, 700 - k * LEADING)
        add_text(t, right, 320, 700 - k * LEADING)
    page, g = geometry(t)
    assert len(g.lines) == 6  # each row is one line, split at the gutter
    result = recover(g.lines, **order_options(g))
    assert result.fixes == {"interleaved": 1}
    assert texts(result.rows) == LEFT + RIGHT
    assert reading(page) == "\n".join(LEFT + RIGHT) + "\n"
    assert reading(page_context(t), recover=False).startswith(f"{LEFT[0]} {RIGHT[0]}\n")


def test_ordinary_paint_order_is_left_alone():
    t = GlyphTable()
    y = paragraph(t, ["A title", ""], 72, 740)
    y = paragraph(t, ["An ordinary paragraph painted", "top down, line after line,", "as most producers do."],
                  72, y)
    add_text(t, "a note", 400, 200)
    add_text(t, "side", 30, 400, angle=90)
    page, g = geometry(t)
    result = recover(g.lines, **order_options(g))
    assert result.fixes == {}
    assert result.rows == [[line] for line in g.lines]


def test_ordinary_columns_painted_column_by_column_are_left_alone():
    t = GlyphTable()
    paragraph(t, LEFT, 72, 700)
    paragraph(t, RIGHT, 320, 700)
    _, g = geometry(t)
    result = recover(g.lines, **order_options(g))
    assert result.fixes == {}
    assert texts(result.rows) == LEFT + RIGHT


def test_recover_of_nothing():
    assert recover([], gap=15, min_width=60, min_lines=2).rows == []


def _justified_lines() -> GlyphTable:
    """Two lines, each with a word space wider than a wide gap (0.4 box heights) but far
    narrower than a gutter: justified text, not interleaved columns."""
    t = GlyphTable()
    add_text(t, "Justified", 72, 700)
    add_text(t, "text", 72 + 9 * STEP + 6, 700)
    add_text(t, "spreads", 72, 700 - LEADING)
    add_text(t, "wide", 72 + 7 * STEP + 6, 700 - LEADING)
    return t


def test_plain_order_counts_only_gaps_as_wide_as_the_order_cuts_at():
    _, g = geometry(_justified_lines())
    assert len(g.walk.wide) == 2
    assert not g.plain_order()  # every wide gap counts: look closer
    assert g.plain_order(order_options(g)["gap"])
    # Columns side by side on every baseline stay "look closer" under the same gap.
    t = GlyphTable()
    for i, (left, right) in enumerate(zip(LEFT[:3], RIGHT[:3], strict=True)):
        add_text(t, left, 72, 700 - i * LEADING)
        add_text(t, right, 300, 700 - i * LEADING)
    _, g = geometry(t)
    assert not g.plain_order(order_options(g)["gap"])


def test_a_page_plainly_in_order_at_no_gap_is_so_without_its_lines_being_built():
    from glyphweave.plugins.assemblers._shared import plainly_in_order

    t = GlyphTable()
    paragraph(t, [f"body line {i} of the page" for i in range(4)], 72, 700)
    _, g = geometry(t)
    assert plainly_in_order(ReadingAssembler(), g)
    assert g._lines is None  # the typical advance was not needed
    # Justified lines (a wide gap on two consecutive lines) need the gap: then the lines.
    _, g = geometry(_justified_lines())
    assert plainly_in_order(ReadingAssembler(), g) == g.plain_order(order_options(g)["gap"]) is True
    assert g._lines is not None


def test_plain_order_lets_the_first_and_last_line_start_anywhere_along():
    # A page number set right below the text, a running head set right above it: still plain.
    t = GlyphTable()
    add_text(t, "RUNNING HEAD 12", 450, 740)
    paragraph(t, [f"body line {i} of the page" for i in range(4)], 72, 700)
    add_text(t, "13", 520, 600)
    _, g = geometry(t)
    assert len(g.walk.breaks) == 5
    assert g.plain_order(order_options(g)["gap"])
    # A line set that far aside between two others is a margin note or a column: look closer.
    t = GlyphTable()
    paragraph(t, ["body line one", "body line two"], 72, 700)
    add_text(t, "a margin note", 450, 700 - 2 * LEADING)
    paragraph(t, ["body line three", "body line four"], 72, 700 - 3 * LEADING)
    _, g = geometry(t)
    assert not g.plain_order(order_options(g)["gap"])


# -- the reading assembler reads the geometry ------------------------------------------------------------

def test_reading_text_is_the_walks_text_when_nothing_is_recovered():
    t = GlyphTable()
    paragraph(t, ["Ordinary text, painted in", "reading order, with a", "few lines."], 72, 700)
    add_text(t, "Tracked", 72, 600, char_spacing=4)
    add_text(t, "side", 30, 400, angle=90)
    add_text(t, "\u7e26\u66f8\u304d", 500, 700, wmode=1)
    page, g = geometry(t)
    text = reading(page)
    assert text == g.walk.text() == g.reading_text()
    assert "Tracked\n" in text
    assert page.notes == {}


def test_ligatures_are_expanded_by_default_and_kept_on_request():
    t = GlyphTable()
    add_text(t, "the o\ufb03ce \ufb01les", 72, 700)
    page, g = geometry(t)
    assert g.walk.text() == "the o\ufb03ce \ufb01les\n"  # the walk keeps what was decoded
    assert g.reading_text() == "the office files\n"
    assert g.line_text(g.lines[0]) == "the office files"
    assert reading(page) == "the office files\n"
    kept = page_geometry(page, range(len(t)), ligatures=True)
    assert kept.reading_text() == "the o\ufb03ce \ufb01les\n"
    assert reading(page, ligatures=True) == "the o\ufb03ce \ufb01les\n"


# سلام (seen, lam, alef, meem) as a producer paints it: presentation forms, left to right on the page,
# so the last letter comes first.
SALAM_VISUAL = "\ufee1\ufe8e\ufee0\ufeb3"  # meem isolated, alef final, lam medial, seen initial
SALAM = "\u0633\u0644\u0627\u0645"


def test_a_right_to_left_line_in_visual_order_comes_out_logical_with_base_letters():
    t = GlyphTable()
    add_text(t, SALAM_VISUAL, 72, 700)
    page, g = geometry(t)
    [line] = g.lines
    assert line.text == SALAM_VISUAL  # paint order
    assert g.line_text(line) == SALAM
    assert g.reading_text() == SALAM + "\n"
    assert reading(page) == SALAM + "\n"


def test_a_mixed_line_follows_the_bidi_algorithm():
    t = GlyphTable()
    # on the page, left to right: "say [salam] here", the Arabic painted visually
    add_text(t, f"say {SALAM_VISUAL} here", 72, 700)
    page, g = geometry(t)
    # Latin at both ends: a left-to-right line, the Arabic word reversed in its place
    assert reading(page) == f"say {SALAM} here\n"
    # Arabic at both ends: a right-to-left line, whose first word is the rightmost
    t = GlyphTable()
    add_text(t, f"{SALAM_VISUAL} and {SALAM_VISUAL}", 72, 700)
    assert reading(page_context(t)) == f"{SALAM} and {SALAM}\n"
    t = GlyphTable()
    add_text(t, f"{SALAM_VISUAL} 2024", 72, 700)
    assert reading(page_context(t)) == f"2024 {SALAM}\n"


# -- page_geometry -----------------------------------------------------------------------------------------

def test_page_geometry_is_shared_for_the_same_glyphs_and_options():
    t = GlyphTable()
    add_text(t, "Hello world", 72, 700)
    page = page_context(t)
    g = page_geometry(page, range(len(t)))
    assert page_geometry(page, list(range(len(t)))) is g
    assert page_geometry(page, range(len(t)), word_gap=0.15, line_gap=0.5, back_jump=3.0, ligatures=False) is g
    others = [page_geometry(page, range(len(t)), word_gap=0.3), page_geometry(page, range(len(t)), line_gap=0.4),
              page_geometry(page, range(len(t)), back_jump=2.0), page_geometry(page, range(len(t)), ligatures=True),
              page_geometry(page, range(5))]
    assert all(other is not g for other in others)
    assert len({id(other) for other in others}) == len(others)
    assert page_geometry(page, range(5)).walk.text() == "Hello\n"


def test_the_geometry_is_computed_on_first_use_only():
    t = GlyphTable()
    paragraph(t, ["one line", "and another"], 72, 700)
    _, g = geometry(t)
    assert g.lines is g.lines
    assert g.blocks is g.blocks
    assert g.walk is g.walk


def test_an_empty_selection_has_no_geometry():
    t = GlyphTable()
    add_text(t, "unused", 72, 700)
    page = page_context(t)
    g = page_geometry(page, [])
    assert (g.walk.text(), g.lines, g.blocks, g.advance) == ("", [], [], 0.0)
    assert g.reading_text() == ""


@settings(max_examples=300, deadline=None)
@given(values=st.lists(st.one_of(st.floats(allow_nan=False), st.integers(-10**6, 10**6).map(float)), min_size=1,
                       max_size=40))
def test_the_layouts_median_is_statistics_median(values):
    import statistics

    from glyphweave.layout.median import median

    got, want = median(values), statistics.median(values)
    assert got == want or (got != got and want != want)  # the same number (inf - inf is nan in both)


def test_the_median_of_nothing_raises():
    from glyphweave.layout.median import median

    with pytest.raises(ValueError):
        median([])


def test_a_runs_numbers_are_read_as_the_tuple_recorded_or_a_copy():
    from array import array

    from glyphweave.layout.walk import numbers_tuple

    recorded = (0.0, 5.5, 11.0)
    assert numbers_tuple(recorded) is recorded  # the interpreter's tuple, not a copy
    assert numbers_tuple([0.0, 5.5]) == (0.0, 5.5) and type(numbers_tuple([0.0, 5.5])) is tuple
    assert numbers_tuple(array("d", [1.0])) == (1.0,)


@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=4, max_size=4))
def test_bounds4_is_min_and_max_of_the_four(values):
    # The same numbers min() and max() give, NaNs and the signs of zeros included.
    import math

    from glyphweave.layout.lines import bounds4

    def same(x: float, y: float) -> bool:
        return (math.isnan(x) and math.isnan(y)) or (x == y and math.copysign(1.0, x) == math.copysign(1.0, y))

    lo, hi = bounds4(*values)
    assert same(lo, min(values)) and same(hi, max(values))


def test_rows_read_in_paint_order_only_when_every_glyph_follows_the_lines() -> None:
    # geometric_choice serves the reading order when the rows it found give the glyphs of
    # the lines in their own order: piece by piece against its stretch of a line.
    from types import SimpleNamespace

    from glyphweave.plugins.assemblers.geometric import _in_paint_order

    def pieces(*groups: list[int]) -> list[SimpleNamespace]:
        return [SimpleNamespace(glyphs=glyphs) for glyphs in groups]

    lines = pieces([0, 1, 2], [3, 4], [5])
    assert _in_paint_order(lines, [lines])
    assert _in_paint_order(lines, [pieces([0, 1]), pieces([2, 3], [4, 5])])  # cut elsewhere, same order
    assert not _in_paint_order(lines, [pieces([3, 4]), pieces([0, 1, 2], [5])])
    assert not _in_paint_order(lines, [pieces([0, 1, 2], [3, 4])])  # a glyph short
    assert not _in_paint_order(lines, [pieces([0, 1, 2], [3, 4], [5, 6])])  # one over
    assert not _in_paint_order(lines, [pieces([0, 1, 2], [4, 3], [5])])  # within a line
    assert _in_paint_order(lines, [pieces([0, 1, 2, 3], [4], [5])])  # across lines: the long way
    assert not _in_paint_order(lines, [pieces([0, 1, 2, 4], [3], [5])])
    assert _in_paint_order([*lines, *pieces([])], [pieces([], [0, 1, 2], [3, 4], [5])])  # empty ones
    assert _in_paint_order([], [])
