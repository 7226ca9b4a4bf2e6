"""The ``layout`` assembler: a monospace grid that keeps columns, indentation, tables and
blank lines (rules: assembly), in the displayed orientation, and never raises on degenerate
geometry."""

from __future__ import annotations

import io
import math
import re
from collections.abc import Sequence
from pathlib import Path

import attrs
import pikepdf
import pytest

from glyphweave.core.glyphtable import GlyphTable
from glyphweave.plugins.assemblers import layout
from glyphweave.plugins.assemblers.layout import LayoutAssembler
from glyphweave.testing.extract import extract_text
from glyphweave.testing.factories import add_text, page_context, text_of
from glyphweave.testing.pdfs import make_pdf, text_at

SHARED = Path("/work/shared")


def run(table: GlyphTable, indices: Sequence[int] | None = None, *, rotate: int = 0, **options) -> str:
    page = attrs.evolve(page_context(table), rotate=rotate)
    assembler = LayoutAssembler(**LayoutAssembler.validate_options(options))
    return text_of(assembler.assemble(page, range(len(table)) if indices is None else indices))


def layout_of(*snippets: bytes, rotate: int = 0, **kwargs) -> str:
    pdf = make_pdf(b"\n".join(snippets), **kwargs)
    if rotate:
        with pikepdf.open(io.BytesIO(pdf)) as doc:
            doc.pages[0].obj.Rotate = rotate
            out = io.BytesIO()
            doc.save(out)
            pdf = out.getvalue()
    return extract_text(pdf, mode="layout", separator="")


# -- registration and the plain cases ----------------------------------------------------
def test_registration():
    assert layout.glyphweave_register_assemblers() == [LayoutAssembler]
    assert LayoutAssembler.NAME == "layout"
    options = LayoutAssembler.validate_options({})
    assert {k: options[k] for k in ("word_gap", "line_gap", "back_jump", "ligatures")} == {
        "word_gap": 0.15, "line_gap": 0.5, "back_jump": 3.0, "ligatures": False}
    assert options["cell_width"] == 0.0 and options["max_blank"] == 2 and options["max_width"] == 1000


def test_empty_page():
    assert run(GlyphTable()) == ""
    assert run(GlyphTable(), []) == ""
    assert layout_of(b"") == ""


def test_one_line_from_the_left_margin():
    assert layout_of(text_at("Hello world", 72, 700)) == "Hello world\n"


def test_two_columns_stay_aligned():
    left = ["The river rises in a", "bog and flows for", "sixty kilometres.", "Short."]
    right = ["Samples were taken", "at each point and", "carried away", "the same evening."]
    snippets = []
    for i, (a, b) in enumerate(zip(left, right, strict=True)):
        y = 700 - 14 * i
        snippets += [text_at(a, 72, y, size=11), text_at(b, 320, y, size=11)]
    text = layout_of(*snippets)
    lines = text.splitlines()
    assert len(lines) == 4
    starts = {line.index(b) for line, b in zip(lines, right, strict=True)}
    assert len(starts) == 1  # the right column starts at one column on every row
    assert all(line.startswith(a) for line, a in zip(lines, left, strict=True))
    assert starts.pop() > max(map(len, left))


def test_table_cells_stay_in_columns():
    rows = [("Train", "Destination", "Platform", "Departs"),
            ("101", "Northbridge", "1", "06:15"),
            ("103", "Elm Valley", "3", "06:40"),
            ("1055", "Castle Point West", "12", "07:05")]
    xs = (72, 140, 260, 340)
    snippets = [text_at(cell, x, 700 - 16 * r) for r, row in enumerate(rows) for cell, x in zip(row, xs, strict=True)]
    text = layout_of(*snippets)
    lines = text.splitlines()
    assert len(lines) == 4
    cells = [[(m.start(), m.group()) for m in re.finditer(r"\S+(?: \S+)*", line)] for line in lines]
    assert [[text for _at, text in row] for row in cells] == [list(row) for row in rows]
    for c in range(4):
        assert len({row[c][0] for row in cells}) == 1, text


def test_table_padded_with_painted_spaces():
    # groff pads table cells with space glyphs: the padding is a gap like any other
    text = layout_of(text_at("101   Northbridge   1", 72, 700), text_at("103   Elm   3", 72, 684),
                     text_at("Northbridge", 72 + 6 * 2.78 * 1.2 + 20, 668))
    assert text.splitlines()[0].startswith("101")
    assert "Northbridge" in text


def test_indentation_survives():
    text = layout_of(text_at("Indented first line of a", 108, 700), text_at("paragraph that goes on", 72, 686),
                     text_at("and on.", 72, 672))
    lines = text.splitlines()
    assert lines[0].startswith(" ") and not lines[1].startswith(" ") and not lines[2].startswith(" ")
    indent = len(lines[0]) - len(lines[0].lstrip())
    assert 4 <= indent <= 10  # 36 pt at about 5.5 pt per cell


def test_justified_spaces_are_single():
    t = GlyphTable()
    x = 72.0
    for word in ("stretched", "words", "of", "a", "justified", "line"):
        add_text(t, word, x, 700)
        x += len(word) * 5 + 9  # word spaces of 9 pt, nearly two cells
    add_text(t, "next", 72, 688)
    assert run(t) == "stretched words of a justified line\nnext\n"


def test_blank_lines_for_large_vertical_gaps():
    text = layout_of(text_at("one", 72, 700), text_at("two", 72, 686), text_at("three", 72, 650),
                     text_at("four", 72, 100))
    assert text == "one\ntwo\n\n\nthree\n\n\nfour\n"  # 36 pt: two blank lines; 550 pt: capped at 2
    assert extract_text(make_pdf(text_at("one", 72, 700) + b"\n" + text_at("two", 72, 686)),
                        mode="layout") == "one\ntwo\n\f"


def test_blank_line_options():
    t = GlyphTable()
    add_text(t, "one", 72, 700)
    add_text(t, "two", 72, 600)
    assert run(t) == "one\n\n\ntwo\n"
    assert run(t, max_blank=5) == "one\n\n\n\n\n\ntwo\n"
    assert run(t, blank_gap=0.0) == "one\ntwo\n"


def test_cell_width_option():
    t = GlyphTable()
    add_text(t, "a", 72, 700)
    add_text(t, "b", 172, 700)
    assert run(t, cell_width=10.0) == "a" + " " * 9 + "b\n"
    assert run(t, cell_width=50.0) == "a b\n"  # at least one space


def test_ligatures_expanded_unless_kept():
    t = GlyphTable()
    add_text(t, "\ufb01ne", 72, 700)
    assert run(t) == "fine\n"
    assert run(t, ligatures=True) == "\ufb01ne\n"


# -- orientation --------------------------------------------------------------------------
UP = (0, 1, -1, 0)  # text running up the paper: upright on a page shown with /Rotate 90


def rotated_page(rotate: int) -> str:
    # on the paper: lines running up, the first line nearest the left edge (the displayed top)
    return layout_of(text_at("First line of the page", 100, 100, matrix=UP),
                     text_at("second line", 114, 100, matrix=UP),
                     text_at("right", 114, 400, matrix=UP),
                     text_at("after a gap", 160, 100, matrix=UP), rotate=rotate)


def test_rotate_90_page_laid_out_as_displayed():
    text = rotated_page(90)
    lines = text.splitlines()
    assert lines[0] == "First line of the page"
    assert lines[1].startswith("second line") and lines[1].rstrip().endswith("right")
    assert lines[1].index("right") > len("First line of the page")
    assert lines[-1] == "after a gap" and lines[-2] == ""


def test_sideways_text_on_an_unrotated_page_uses_its_own_frame():
    assert rotated_page(0) == rotated_page(90)


def test_upside_down_page():
    text = layout_of(text_at("top line", 500, 100, matrix=(-1, 0, 0, -1)),
                     text_at("below it", 500, 114, matrix=(-1, 0, 0, -1)), rotate=180)
    assert text == "top line\nbelow it\n"


def test_rotate_breaks_a_tie_between_directions():
    t = GlyphTable()
    add_text(t, "flat", 72, 700)
    add_text(t, "sideways", 300, 300, angle=90)
    assert run(t).splitlines()[0] == "sideways"  # equal glyph counts would not do: 8 > 4
    t2 = GlyphTable()
    add_text(t2, "flat", 72, 700)
    add_text(t2, "side", 300, 300, angle=90)
    assert run(t2, rotate=0).splitlines()[0] == "flat"
    assert run(t2, rotate=90).splitlines()[0] == "side"


def test_other_directions_follow_the_main_grid():
    t = GlyphTable()
    add_text(t, "Main text of the page", 72, 700)
    add_text(t, "second main line", 72, 686)
    add_text(t, "LABEL", 30, 400, angle=90)
    add_text(t, "DRAFT", 200, 400, angle=45)
    text = run(t)
    assert text.splitlines()[:2] == ["Main text of the page", "second main line"]
    assert text.splitlines()[2] == ""
    assert "LABEL" in text.splitlines()[3:] and "DRAFT" in text.splitlines()[3:]


def test_vertical_writing_is_transposed():
    # writing mode 1: each column becomes a row, the rightmost column first
    t = GlyphTable()
    add_text(t, "縦書き", 500, 700, wmode=1, size=12)
    add_text(t, "二列目", 486, 700, wmode=1, size=12)
    add_text(t, "下", 486 - 14 * 3, 700 - 24, wmode=1, size=12)  # a column starting two cells lower
    assert run(t) == "縦書き\n二列目\n\n\n  下\n"


# -- degenerate geometry ------------------------------------------------------------------
def test_non_finite_positions_never_raise():
    t = GlyphTable()
    add_text(t, "good", 72, 700)
    add_text(t, "nan", math.nan, 690)
    add_text(t, "inf", 72, math.inf)
    add_text(t, "also good", 72, 680)
    text = run(t)
    assert text.startswith("good\n")
    assert "also good" in text
    # lines without a finite place come after the grid, in paint order (however the
    # geometry cut them)
    assert "".join(text.split()).endswith("naninf")


def test_zero_font_size():
    text = layout_of(text_at("zero", 72, 700, size=0), text_at("normal", 72, 680))
    assert "normal" in text
    t = GlyphTable()
    add_text(t, "zero", 72, 700, size=0.0)
    add_text(t, "size", 72, 690, size=0.0)
    assert run(t).split() == ["zero", "size"]


def test_huge_coordinates_are_clamped():
    t = GlyphTable()
    add_text(t, "near", 72, 700)
    add_text(t, "far", 1e30, 700)
    add_text(t, "below", 72, -1e30)
    add_text(t, "left", -1e30, 690)
    add_text(t, "huge", 72, 680, size=1e300)
    text = run(t)
    assert max(map(len, text.splitlines())) < 1100
    for word in ("near", "far", "below", "left", "huge"):
        assert word in text
    assert "\n\n\n\n" not in text  # blank lines capped
    # in a PDF, the visible-box filter drops what lies off the page before the assembler
    assert layout_of(b"BT /F1 12 Tf 1 0 0 1 1000000000000000000000000000000.0 700 Tm (far) Tj ET",
                     text_at("near", 72, 700)) == "near\n"


def test_row_width_is_clamped():
    t = GlyphTable()
    add_text(t, "a", 72, 700)
    add_text(t, "b", 72 + 5000, 700)
    assert run(t, max_width=100) == "a b\n"


def test_many_glyphs_on_one_line():
    text = layout_of(text_at("ab " * 7000, 0, 700, size=1), mediabox=(0, 0, 20000, 792))
    assert text.split() == ["ab"] * 7000


def test_control_characters_do_not_break_rows():
    t = GlyphTable()
    add_text(t, "a\nb\rc\x0cd", 72, 700)
    assert run(t) == "a b c d\n"


# -- real documents (skipped without the shared corpus) -----------------------------------
def shared(path: str) -> Path:
    file = SHARED / path
    if not file.is_file():
        pytest.skip(f"{file} is not available")
    return file


def first_page(path: Path) -> str:
    return extract_text(path, mode="layout", separator="\f").split("\f")[0]


def test_irs_form_line_numbers_and_labels_aligned():
    text = first_page(shared("corpus/doc-form-irs-f1040nr.pdf"))
    rows = [line for line in text.splitlines() if re.match(r"\s+(1[1-9]|2[0-1]) {2,}[A-Z]", line)]
    assert len(rows) >= 8
    # the line numbers, their labels and the right-hand box numbers each in one column
    assert len({len(line) - len(line.lstrip()) for line in rows}) == 1
    assert len({re.search(r"\d+ +([A-Z])", line).start(1) for line in rows}) == 1
    assert len({line.rstrip().rindex(" ") for line in rows}) == 1


def test_groff_two_columns_aligned():
    text = first_page(shared("eval/corpus/groff_twocolumn.pdf"))
    starts = [m.start(1) for line in text.splitlines() if (m := re.search(r"\S {3,}(\S)", line))]
    assert len(starts) >= 15
    common = max(set(starts), key=starts.count)
    assert starts.count(common) >= 0.6 * len(starts)  # the rest are indented paragraph starts
    assert all(s >= common for s in starts)
