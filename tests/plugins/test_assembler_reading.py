from __future__ import annotations

import math
from collections.abc import Sequence

import pytest

from glyphweave.core.glyphtable import GlyphTable
from glyphweave.plugins.assemblers import reading
from glyphweave.plugins.assemblers.reading import ReadingAssembler, is_cjk
from glyphweave.testing.factories import TEST_FONT, add_text, page_context, text_of

# add_text defaults: 10 pt, advance 0.5 em (5 units), ascent 0.75, descent -0.25, so the
# box height is 1.0 × size and the word-gap threshold is 0.15 × size.


def run(table: GlyphTable, indices: Sequence[int] | None = None, placeholder: str = " ", **options) -> str:
    page = page_context(table, placeholder=placeholder)
    assembler = ReadingAssembler(**ReadingAssembler.validate_options(options))
    return text_of(assembler.assemble(page, range(len(table)) if indices is None else indices))


def words(table: GlyphTable, items: Sequence[tuple[str, float]], y: float, *, x: float = 72.0, size: float = 10.0,
          advance: float = 0.5, **kw) -> float:
    """Paint each (text, gap before it) as its own run: positioned gaps, no space glyphs."""
    for text, gap in items:
        x += gap
        add_text(table, text, x, y, size=size, advance=advance, **kw)
        x += len(text) * advance * size
    return x


def add_glyphs(table: GlyphTable, texts: Sequence[str], x: float, y: float, *, size: float = 10.0,
               advance: float = 0.5, char_spacing: float = 0.0, word_spacing: float = 0.0) -> None:
    """One run whose glyphs may carry several characters each; Tw widens the pen after " "."""
    starts, pens, pen = [], [], 0.0
    own = advance * size
    for text in texts:
        starts.append(pen)
        pen += own + char_spacing + (word_spacing if text == " " else 0.0)
        pens.append(pen)
    table.add_run(
        font=table.font_index(TEST_FONT), size=size, matrix=(1.0, 0.0, 0.0, 1.0, x, y), rise=0.0, wmode=0,
        codes=list(range(1, len(texts) + 1)), cids=None, decoded=[(t, "test") for t in texts],
        starts=starts, advances=[own] * len(texts), pens=pens, lo=-0.25 * size, hi=0.75 * size,
        render=0, mcid=None, tag=None, actual_text=None, token=0,
    )


def test_registration():
    assert reading.glyphweave_register_assemblers() == [ReadingAssembler]
    assert ReadingAssembler.NAME == "reading"
    assert ReadingAssembler.validate_options({}) == {
        "word_gap": 0.15, "line_gap": 0.5, "back_jump": 3.0, "ligatures": False, "number_strings": True,
        "math_letters": False, "recover": True, "gap": 3.0, "min_width": 12.0, "min_lines": 2, "dehyphenate": "auto", "language": "en"}


def test_empty_page():
    assert run(GlyphTable()) == ""


# -- word spaces ------------------------------------------------------------------------------

def test_positioned_gap_gives_one_space():
    t = GlyphTable()
    words(t, [("Hello", 0), ("world", 2.8)], 700)
    assert run(t) == "Hello world\n"


def test_space_glyph_not_doubled():
    t = GlyphTable()
    add_text(t, "Hello world", 72, 700)
    x = words(t, [("and ", 4)], 700, x=72 + 55)  # a gap before a run ending in a space glyph
    words(t, [("more", 3)], 700, x=x)  # and a pen jump right after that space glyph
    assert run(t) == "Hello world and more\n"


def test_kerning_is_not_a_space():
    t = GlyphTable()
    words(t, [("A", 0), ("V", -0.8), ("A", 1.2), ("TAR", -0.4), ("S", 1.4)], 700)
    assert run(t) == "AVATARS\n"


def test_threshold_scales_with_box_height():
    t = GlyphTable()
    words(t, [("ab", 0), ("cd", 2.9)], 700, size=20)  # 2.9 < 0.15 × 20
    words(t, [("ab", 0), ("cd", 3.1)], 650, size=20)
    assert run(t) == "abcd\nab cd\n"
    assert run(t, word_gap=0.1) == "ab cd\nab cd\n"


def test_justified_with_positioned_spaces_of_varying_width():
    # groff / TeX: no space glyphs, each word gap a pen jump widened to justify the line.
    t = GlyphTable()
    words(t, [("Most", 0), ("wall", 3.1), ("clocks", 6.4), ("that", 2.2), ("stop", 9.0)], 700)
    assert run(t) == "Most wall clocks that stop\n"


def test_justified_with_tw_widened_space_glyphs():
    # ReportLab: real space glyphs, Tw widens only their pen advance.
    t = GlyphTable()
    add_glyphs(t, list("cloth, lace and"), 72, 700, word_spacing=4.2)
    assert run(t) == "cloth, lace and\n"


def test_tc_letter_spaced_heading_joined():
    t = GlyphTable()
    add_text(t, "Tracked", 72, 700, size=12, char_spacing=4)
    add_text(t, "Spring", 72, 680, size=11, char_spacing=2)
    assert run(t) == "Tracked\nSpring\n"


def test_tc_heading_keeps_positioned_word_break():
    t = GlyphTable()
    add_text(t, "Two", 72, 700, size=12, char_spacing=4)  # pen ends at 72 + 3 × (6 + 4) = 102
    add_text(t, "Words", 102 + 3.3, 700, size=12, char_spacing=4)  # + the width of a space
    assert run(t) == "Two Words\n"


def test_tc_heading_with_space_glyph():
    # ReportLab: "4 Tc (MUSEUM VISITOR BULLETIN) Tj", Tc applies to the space glyph too.
    t = GlyphTable()
    add_text(t, "MUSEUM VISITOR", 72, 700, size=16, char_spacing=4)
    assert run(t) == "MUSEUM VISITOR\n"


def test_letter_spacing_by_positioning_joined_with_word_break():
    # No Tc: every glyph placed on its own with a 3 pt gap (0.3 em); the word break is the
    # letter gap plus a space width.
    t = GlyphTable()
    items = [(ch, 3.0) for ch in "SPACED"] + [("O", 6.0)] + [(ch, 3.0) for ch in "UT"]
    words(t, items, 700)
    assert run(t) == "SPACED OUT\n"


def test_evenly_spaced_table_cells_keep_their_spaces():
    t = GlyphTable()
    words(t, [("A", 0), ("B", 30), ("C", 30), ("D", 30)], 700)  # far wider than tracking
    words(t, [("a", 0), ("b", 3)], 680)  # one gap alone is never taken for tracking
    assert run(t) == "A B C D\na b\n"


def test_title_and_caption_on_one_baseline():
    t = GlyphTable()
    add_text(t, "Big Title", 72, 700, size=28)
    add_text(t, "Figure caption", 400, 700, size=8)
    assert run(t) == "Big Title Figure caption\n"


# -- sub- and superscripts --------------------------------------------------------------------

def test_superscript_attaches():
    t = GlyphTable()
    x = words(t, [("area in m", 0)], 700)
    add_text(t, "2", x, 700, size=7, rise=3.0)
    words(t, [("is", 2.8)], 700, x=x + 3.5)
    assert run(t) == "area in m2 is\n"


def test_subscript_attaches():
    t = GlyphTable()
    add_text(t, "H", 72, 700)
    add_text(t, "2", 77, 700, size=7, rise=-2.0)
    add_text(t, "O", 80.5, 700)
    assert run(t) == "H2O\n"


# Helvetica's ascent-to-descent box (0.925 em): a half-em rise is more than half of it.
HELVETICA = {"ascent": 0.718, "descent": -0.207}


def test_half_em_rise_with_font_metrics_stays_on_line():
    # ReportLab <super>/<sub>: 10 pt digits raised or lowered 6 pt on 12 pt text.
    t = GlyphTable()
    add_text(t, "H", 187.7, 723.9, size=12, **HELVETICA)
    add_text(t, "2", 193.7, 723.9, size=10, rise=-6.0, **HELVETICA)
    add_text(t, "O", 198.7, 723.9, size=12, **HELVETICA)
    add_text(t, " in m", 204.7, 723.9, size=12, **HELVETICA)
    add_text(t, "2", 234.7, 723.9, size=10, rise=6.0, **HELVETICA)
    add_text(t, "3", 72, 706.9, size=10, rise=6.0, **HELVETICA)  # next line starts with a script
    add_text(t, "rd", 77, 706.9, size=12, **HELVETICA)
    assert run(t) == "H2O in m2\n3rd\n"


def test_smaller_text_on_next_line_is_not_a_script():
    t = GlyphTable()
    add_text(t, "Body text", 72, 700, size=12, **HELVETICA)
    add_text(t, "small note", 72, 693, size=8, **HELVETICA)  # tight, but back at the margin
    add_text(t, "far", 300, 707, size=12, **HELVETICA)  # raised 7 pt, but not adjacent
    assert run(t) == "Body text\nsmall note\nfar\n"


def test_footnote_citation_then_new_line():
    t = GlyphTable()
    x = words(t, [("notes", 0)], 700)
    add_text(t, "1", x, 700, size=7, rise=3.5)
    add_text(t, "next line", 72, 686)
    assert run(t) == "notes1\nnext line\n"


# -- lines --------------------------------------------------------------------------------------

def test_new_line_on_baseline_drop():
    t = GlyphTable()
    add_text(t, "first line", 72, 700)
    add_text(t, "second line", 72, 686)
    add_text(t, "jitter", 72 + 55 + 3, 686.8)  # less than half a box height up: same line
    assert run(t) == "first line\nsecond line jitter\n"
    t2 = GlyphTable()
    add_text(t2, "left", 72, 700)
    add_text(t2, "right", 200, 699.2)  # not adjacent, so only line_gap decides
    assert run(t2) == "left right\n"
    assert run(t2, line_gap=0.05) == "left\nright\n"


def test_backward_jump_on_same_baseline_breaks_line():
    t = GlyphTable()
    add_text(t, "right cell", 300, 700)
    add_text(t, "left cell", 72, 700)
    add_text(t, "e", 72 + 40, 700)  # small step back (an overstruck accent): no break
    assert run(t) == "right cell\nleft celle\n"


def test_rotated_90_run_is_one_line():
    t = GlyphTable()
    add_text(t, "Paragraph above", 72, 700)
    add_text(t, "Vertical label", 300, 500, angle=90)
    add_text(t, "reading", 310, 300, angle=90)
    add_text(t, "upwards", 310, 300 + 35 + 3, angle=90)  # a positioned gap up the page
    add_text(t, "Paragraph below", 72, 300)
    assert run(t) == "Paragraph above\nVertical label\nreading upwards\nParagraph below\n"


def test_rotated_label_at_same_origin_as_text_breaks():
    t = GlyphTable()
    add_text(t, "abc", 72, 700)
    add_text(t, "up", 87, 700, angle=90)  # starts where "abc" ends, turned 90 degrees
    assert run(t) == "abc\nup\n"


def test_slightly_rotated_glyphs_stay_on_line():
    t = GlyphTable()
    x, y = 72.0, 700.0
    for k, ch in enumerate("curve"):
        angle = 4.0 * k
        add_text(t, ch, x, y, angle=angle)
        x += 5 * math.cos(math.radians(angle))
        y += 5 * math.sin(math.radians(angle))
    assert run(t) == "curve\n"


def test_upside_down_text():
    t = GlyphTable()
    add_text(t, "printed", 400, 500, angle=180)  # glyphs run to the left
    add_text(t, "upside down", 400 - 35 - 3, 500, angle=180)  # a positioned word gap
    assert run(t) == "printed upside down\n"


def test_wmode1_two_columns_right_to_left():
    t = GlyphTable()
    add_text(t, "縦書き", 500, 700, wmode=1, size=12)
    add_text(t, "二列目", 480, 700, wmode=1, size=12)
    assert run(t) == "縦書き\n二列目\n"


def test_wmode1_column_with_positioned_gap_and_latin():
    t = GlyphTable()
    add_text(t, "日本", 500, 700, wmode=1, size=12)
    add_text(t, "語", 500, 700 - 24 - 4, wmode=1, size=12)  # a gap down the column: CJK, no space
    assert run(t) == "日本語\n"


def test_upright_cjk_stacked_glyph_by_glyph_reads_as_columns():
    # LibreOffice vertical writing: wmode 0, each glyph its own Tm, one em lower each time.
    t = GlyphTable()
    for k, ch in enumerate("秋の夜"):
        add_text(t, ch, 508.6, 767.5 - 20 * k, size=20, advance=1.0)
    for k, ch in enumerate("秋の夜は長い"):
        add_text(t, ch, 474.3, 772.8 - 14 * k, size=14, advance=1.0)
    assert run(t) == "秋の夜\n秋の夜は長い\n"


def test_cjk_gets_no_spaces_but_latin_next_to_it_does():
    t = GlyphTable()
    words(t, [("日本語", 0), ("テキスト", 3), ("、한국어", 4), ("PDF", 4), ("です", 4)], 700, advance=1.0)
    assert run(t) == "日本語テキスト、한국어 PDF です\n"


def test_is_cjk():
    assert all(is_cjk(ch) for ch in "漢かカ한。「Ａ㐀𠀋")
    assert not any(is_cjk(ch) for ch in "aÄ1 —€")


# -- glyph text ---------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("placeholder", "expected"),
    [("\ufffd", "a\ufffdc d\n"), ("", "ac d\n"), (" ", "a c d\n")],
)
def test_unresolved_placeholder(placeholder, expected):
    t = GlyphTable()
    add_text(t, "abc", 72, 700, unresolved=[1])
    words(t, [("d", 3)], 700, x=87)
    assert run(t, placeholder=placeholder) == expected


def test_unresolved_glyph_in_a_gap_makes_one_space():
    t2 = GlyphTable()
    words(t2, [("ab", 0)], 700)
    add_text(t2, "?", 85, 700, unresolved=[0])
    words(t2, [("cd", 3)], 700, x=90)
    assert run(t2, placeholder="") == "ab cd\n"


def test_ligature_glyph_emitted_as_is():
    t = GlyphTable()
    add_glyphs(t, ["o", "fi", "ce", " ", "e", "ffl", "uent"], 72, 700)
    assert run(t) == "ofice effluent\n"


# -- output shape -------------------------------------------------------------------------------

def test_trailing_spaces_stripped_and_blank_lines_collapsed():
    t = GlyphTable()
    add_text(t, "line one   ", 72, 700)
    add_text(t, "   ", 72, 686)
    add_text(t, "  ", 72, 672)
    add_text(t, "line two", 72, 658)
    add_glyphs(t, ["x", "\n", "\n", "\n", "y"], 72, 644)
    assert run(t) == "line one\n\nline two\nx\n\ny\n"


def test_subset_of_indices():
    t = GlyphTable()
    add_text(t, "keep drop keep", 72, 700)
    kept = [i for i in range(len(t)) if not 5 <= i <= 9]
    assert run(t, kept) == "keep keep\n"
    assert run(t, [3]) == "p\n"
    add_text(t, "x?z", 72, 686, unresolved=[1])
    assert run(t, [0, 1, 2, 3, len(t) - 3, len(t) - 2, len(t) - 1], placeholder="\ufffd") == "keep\nx\ufffdz\n"
    assert run(t, []) == ""


def test_zero_box_heights_fall_back():
    t = GlyphTable()
    add_text(t, "no", 72, 700, ascent=0.0, descent=0.0)
    words(t, [("bbox", 3)], 700, x=82, ascent=0.0, descent=0.0)
    add_text(t, "below", 72, 680, ascent=0.0, descent=0.0)
    assert run(t) == "no bbox\nbelow\n"
    t2 = GlyphTable()
    add_text(t2, "ab", 72, 700)
    words(t2, [("cd", 3)], 700, x=82, ascent=0.0, descent=0.0)  # median of the page's heights
    assert run(t2) == "ab cd\n"
