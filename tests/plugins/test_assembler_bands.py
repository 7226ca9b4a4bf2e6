"""Bands read top to bottom (order recovery): running heads, footers, footnote areas and a
poster's blocks painted out of order, on synthetic glyph tables; and what must not move
(a column's head, paint order with recovery off)."""

from __future__ import annotations

import pytest

from glyphweave.core.glyphtable import GlyphTable
from glyphweave.plugins.assemblers.auto import AutoAssembler
from glyphweave.plugins.assemblers.reading import ReadingAssembler
from glyphweave.testing.factories import add_text, page_context, text_of

RECOVERING = [ReadingAssembler, AutoAssembler]


def assemble(cls, table: GlyphTable, **options) -> str:
    assembler = cls(**cls.validate_options(options))
    return text_of(assembler.assemble(page_context(table), range(len(table))))


def paint(*blocks: tuple[float, float, list[str]], size: float = 10.0) -> GlyphTable:
    """Blocks painted in the order given: (x, y of the first baseline, lines 14 pt apart)."""
    table = GlyphTable()
    for x, y, texts in blocks:
        for k, text in enumerate(texts):
            add_text(table, text, x, y - 14.0 * k, size=size)
    return table


BODY = (72.0, 700.0, ["the first line of the body text here", "and its second line of body text too",
                      "and a third line of the body text end"])
HEADER = (72.0, 760.0, ["Annual report - Hollin Fell"])
FOOTER = (72.0, 60.0, ["Page 3 of 11"])


@pytest.mark.parametrize("cls", RECOVERING)
def test_a_header_painted_last_comes_first(cls):
    text = assemble(cls, paint(BODY, HEADER))
    assert text.splitlines()[0] == "Annual report - Hollin Fell"
    assert text.splitlines()[1].startswith("the first line")


@pytest.mark.parametrize("cls", RECOVERING)
def test_a_footer_painted_first_comes_last(cls):
    text = assemble(cls, paint(FOOTER, HEADER, BODY))
    assert text.splitlines() == ["Annual report - Hollin Fell", *BODY[2], "Page 3 of 11"]


@pytest.mark.parametrize("cls", RECOVERING)
def test_a_footnote_area_painted_mid_body_follows_the_body(cls):
    top = (72.0, 700.0, ["the body begins with a sentence that", "ends with a marker word here"])
    notes = (72.0, 120.0, ["1 The footnote text itself, small."])
    rest = (72.0, 650.0, ["and the body goes on after the note", "to the end of its paragraph here"])
    text = assemble(cls, paint(top, notes, rest, FOOTER))
    assert text.splitlines() == [*top[2], *rest[2], *notes[2], "Page 3 of 11"]


@pytest.mark.parametrize("cls", RECOVERING)
def test_a_poster_painted_bottom_up_reads_top_down(cls):
    blocks = [(72.0, 100.0, ["fine print at the foot of the poster"]),
              (72.0, 300.0, ["a list item painted second", "another list item below it"]),
              (72.0, 500.0, ["the date line under the title"]),
              (72.0, 700.0, ["STARGAZING NIGHT TONIGHT"])]
    text = assemble(cls, paint(*blocks))
    assert text.splitlines() == ["STARGAZING NIGHT TONIGHT", "the date line under the title",
                                 "a list item painted second", "another list item below it",
                                 "fine print at the foot of the poster"]


@pytest.mark.parametrize("cls", RECOVERING)
def test_a_columns_head_stays_in_its_column(cls):
    # The first column starts lower (a figure above it); the second column's first paragraph
    # sits above the first column's text, with clear space below it: it is that column's head.
    col1 = (72.0, 560.0, [f"left column line number {k} of text" for k in range(10)])
    col2_head = (320.0, 700.0, ["right column opening paragraph line", "and its last line right here"])
    col2 = (320.0, 640.0, [f"right column line number {k} more" for k in range(12)])
    text = assemble(cls, paint(col1, col2_head, col2))
    lines = text.splitlines()
    assert lines.index("right column opening paragraph line") == lines.index("right column line number 0 more") - 2
    assert lines[0] == "left column line number 0 of text"


@pytest.mark.parametrize("cls", RECOVERING)
def test_a_title_over_boxes_painted_last_comes_first(cls):
    boxes = [(300.0, 600.0, ["Bikes", "sixty in service"]), (500.0, 600.0, ["App", "most rides booked"]),
             (72.0, 600.0, ["Stations", "twelve docks"])]
    title = (72.0, 700.0, ["What We Learned from the pilot scheme"])
    text = assemble(cls, paint(*boxes, title))
    assert text.splitlines()[0] == "What We Learned from the pilot scheme"


def test_recovery_off_keeps_paint_order():
    text = assemble(ReadingAssembler, paint(BODY, HEADER), recover=False)
    assert text.splitlines()[-1] == "Annual report - Hollin Fell"


@pytest.mark.parametrize("cls", RECOVERING)
def test_a_rotated_label_is_not_moved(cls):
    table = paint(BODY)
    add_text(table, "SIDE LABEL", 40.0, 500.0, angle=90.0)
    add_text(table, "Annual report - Hollin Fell", 72.0, 760.0)
    text = assemble(cls, table)
    lines = text.splitlines()
    assert lines[0] == "Annual report - Hollin Fell"
    assert lines.index("SIDE LABEL") > lines.index(BODY[2][-1])
