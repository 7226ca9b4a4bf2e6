"""The content interpreter (ISO 32000-1 §8-9), through the public API on synthetic PDFs.

Unless a test says otherwise the font is ``F1``: Helvetica with /Widths of 500 for every code,
shown at 10 pt, so each glyph advances exactly 5 units; Helvetica's AFM ascent and descent
(718, -207) give a 9.25 unit box.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import glyphweave
from glyphweave.accelerated import compiled_modules
from glyphweave.core.glyphtable import Run
from glyphweave.pdf import interpreter
from glyphweave.pdf.fonts import FontLoader
from glyphweave.pdf.tokenizer import FUSIONS
from pdfs import (
    form,
    helvetica,
    make_pdf,
    open_pdf,
    page_glyphs,
    truetype,
    type0_identity,
    type0_vertical,
    type3,
)

ASC, DESC = 7.18, -2.07  # Helvetica 718 / -207 at 10 pt


def approx(value: Sequence[float]) -> Any:
    return pytest.approx(tuple(value), abs=1e-6)


def glyphs(content: bytes | Sequence[bytes], **kwargs: Any) -> list[Any]:
    found, _ = page_glyphs(content, **kwargs)
    return found


def text_of(found: list[Any]) -> str:
    return "".join(g.text for g in found)


def check(g: Any, origin: Sequence[float], end: Sequence[float] | None = None,
          pen: Sequence[float] | None = None) -> None:
    assert g.origin == approx(origin), g
    if end is not None:
        assert g.glyph_end == approx(end), g
    if pen is not None:
        assert g.pen_end == approx(pen), g


# --------------------------------------------------------------------------- positioning


def test_td_moves_from_the_line_start():
    a, b, c = glyphs(b"BT /F1 10 Tf 100 200 Td (ab) Tj 10 -20 Td (c) Tj ET")
    check(a, (100, 200), (105, 200), (105, 200))
    check(b, (105, 200), (110, 200), (110, 200))
    check(c, (110, 180), (115, 180))  # from the line start (100, 200), not from the pen
    assert text_of([a, b, c]) == "abc"
    assert a.font.resource == "/F1" and a.font.base_font == "Helvetica" and a.font_size == 10


def test_td_upper_sets_leading():
    a, b = glyphs(b"BT /F1 10 Tf 100 700 Td 0 -14 TD (a) Tj T* (b) Tj ET")
    check(a, (100, 686))
    check(b, (100, 672))


def test_tstar_uses_tl_in_text_space():
    a, b = glyphs(b"BT /F1 10 Tf 12 TL 2 0 0 2 100 700 Tm T* (a) Tj T* (b) Tj ET")
    check(a, (100, 676))
    check(b, (100, 652))


def test_tstar_with_no_leading_stays_on_the_line_start():
    (a,) = glyphs(b"BT /F1 10 Tf 100 700 Td (x) Tj T* ET BT /F1 10 Tf 100 700 Td T* (a) Tj ET")[1:]
    check(a, (100, 700))


def test_quote_moves_to_next_line_and_shows():
    a, b = glyphs(b"BT /F1 10 Tf 12 TL 100 700 Td (a) Tj (b) ' ET")
    check(a, (100, 700))
    check(b, (100, 688))


def test_double_quote_sets_word_and_char_spacing():
    a, sp, b, sp2 = glyphs(b'BT /F1 10 Tf 12 TL 100 700 Td 3 2 (a b) " ( ) Tj ET')
    check(a, (100, 688), (105, 688), (107, 688))
    check(sp, (107, 688), (112, 688), (117, 688))  # 5 + Tc 2 + Tw 3
    check(b, (117, 688), (122, 688), (124, 688))
    check(sp2, (124, 688), (129, 688), (134, 688))  # Tw and Tc stay set


def test_tm_sets_the_matrix_and_scales():
    a, b = glyphs(b"BT /F1 10 Tf 2 0 0 2 100 100 Tm (ab) Tj ET")
    check(a, (100, 100), (110, 100), (110, 100))
    check(b, (110, 100), (120, 100))
    assert a.font_size == 10
    assert a.box_height == pytest.approx(18.5)


def test_tm_replaces_and_td_is_relative_to_it():
    (a,) = glyphs(b"BT /F1 10 Tf 1 0 0 1 50 50 Tm 1 0 0 1 100 100 Tm (a) Tj ET")
    check(a, (100, 100))
    (a,) = glyphs(b"BT /F1 10 Tf 2 0 0 2 100 100 Tm 10 5 Td (a) Tj ET")
    check(a, (120, 110))


def test_bt_resets_the_text_matrix():
    a, b = glyphs(b"BT /F1 10 Tf 100 700 Td (a) Tj ET BT 5 5 Td (b) Tj ET")
    check(a, (100, 700))
    check(b, (5, 5))


def test_cm_scale():
    (a,) = glyphs(b"2 0 0 2 0 0 cm BT /F1 10 Tf 10 20 Td (a) Tj ET")
    check(a, (20, 40), (30, 40), (30, 40))
    assert a.box_height == pytest.approx(18.5)


def test_cm_translate():
    (a,) = glyphs(b"1 0 0 1 50 60 cm BT /F1 10 Tf 10 20 Td (a) Tj ET")
    check(a, (60, 80), (65, 80))


def test_cm_rotate_and_quad():
    a, b = glyphs(b"0 1 -1 0 300 100 cm BT /F1 10 Tf (ab) Tj ET")
    check(a, (300, 100), (300, 105), (300, 105))
    check(b, (300, 105), (300, 110))
    # quad: baseline start, glyph end on the descent line, then the ascent line
    expected = ((300 - DESC, 100), (300 - DESC, 105), (300 - ASC, 105), (300 - ASC, 100))
    for got, want in zip(a.quad, expected, strict=True):
        assert got == approx(want)
    assert a.box_height == pytest.approx(9.25)


def test_cm_concatenates_in_order():
    # The last cm applies first: (10, 0) scaled to (20, 0), then moved to (120, 0).
    (a,) = glyphs(b"1 0 0 1 100 0 cm 2 0 0 2 0 0 cm BT /F1 10 Tf 10 0 Td (a) Tj ET")
    check(a, (120, 0), (130, 0))


def test_cm_and_tm_combine():
    (a,) = glyphs(b"1 0 0 1 100 100 cm BT /F1 10 Tf 0 1 -1 0 10 20 Tm (a) Tj ET")
    check(a, (110, 120), (110, 125))


# --------------------------------------------------------------------------- graphics state


Q_STATE = (
    b"/F1 10 Tf 1 Tc 14 TL\n"
    b"q /F2 20 Tf 5 Tc 3 Tw 50 Tz 30 TL 3 Tr 4 Ts\n"
    b"BT 100 700 Td (x y) Tj T* (z) Tj ET\n"
    b"Q\n"
    b"BT 100 500 Td (a b) Tj T* (c) Tj ET"
)


def test_q_state_changes_apply_inside():
    x, sp, y, z = glyphs(Q_STATE, fonts={"F1": helvetica(widths=True), "F2": helvetica(widths=True)})[:4]
    assert (x.font.resource, x.font_size, x.render_mode) == ("/F2", 20, 3)
    # size 20, Tz 50 %: own advance 5, Tc 2.5 after scaling, rise 4
    check(x, (100, 704), (105, 704))
    assert x.pen_end[0] == pytest.approx(107.5)
    assert sp.pen_end[0] == pytest.approx(116.5)  # 5 + (5 + 3) × 0.5
    check(y, (116.5, 704))
    check(z, (100, 674))  # TL 30


def test_q_Q_restores_the_whole_text_state():
    a, sp, b, c = glyphs(Q_STATE, fonts={"F1": helvetica(widths=True), "F2": helvetica(widths=True)})[4:]
    for g in (a, sp, b, c):
        assert (g.font.resource, g.font_size, g.render_mode) == ("/F1", 10, 0)
    check(a, (100, 500), (105, 500), (106, 500))  # Tz 100, Tc 1, Ts 0
    check(sp, (106, 500), (111, 500), (112, 500))  # Tw 0
    check(b, (112, 500))
    check(c, (100, 486))  # TL 14


def test_Q_restores_the_ctm():
    (a,) = glyphs(b"q 2 0 0 2 0 0 cm Q BT /F1 10 Tf 100 700 Td (a) Tj ET")
    check(a, (100, 700), (105, 700))


def test_Q_does_not_restore_the_text_matrix():
    a, b = glyphs(b"BT /F1 10 Tf 100 700 Td q 1 0 0 1 300 300 Tm (a) Tj Q (b) Tj ET")
    check(a, (300, 300))
    check(b, (305, 300))


def test_unbalanced_Q_is_ignored():
    (a,) = glyphs(b"Q Q BT /F1 10 Tf 100 700 Td (a) Tj ET Q")
    check(a, (100, 700))


# --------------------------------------------------------------------------- spacing


def test_tj_numbers_move_the_pen():
    a, b, c, d = glyphs(b"BT /F1 10 Tf 100 700 Td [(a) -1000 (b) 500 (c)] TJ (d) Tj ET")
    check(a, (100, 700), (105, 700), (105, 700))  # the adjustment is not part of a's pen end
    check(b, (115, 700), (120, 700))
    check(c, (115, 700))
    check(d, (120, 700))


def test_tj_numbers_leading_and_only_numbers():
    a, b = glyphs(b"BT /F1 10 Tf 100 700 Td [-1000 (a)] TJ [-500 -500] TJ (b) Tj ET")
    check(a, (110, 700))
    check(b, (125, 700))


def test_tj_single_number_moves_the_pen():
    a, b = glyphs(b"BT /F1 10 Tf 100 700 Td (a) Tj [-1000] TJ (b) Tj ET")
    check(b, (115, 700))


def test_tj_numbers_scale_with_tz_and_follow_the_matrix():
    a, b = glyphs(b"BT /F1 10 Tf 50 Tz 100 700 Td [(a) -1000 (b)] TJ ET")
    check(a, (100, 700), (102.5, 700))
    check(b, (107.5, 700))
    a, b = glyphs(b"BT /F1 10 Tf 0 1 -1 0 300 100 Tm [(a) -1000 (b)] TJ ET")
    check(b, (300, 115))


def test_char_spacing():
    a, b = glyphs(b"BT /F1 10 Tf 2 Tc 100 700 Td (ab) Tj ET")
    check(a, (100, 700), (105, 700), (107, 700))
    check(b, (107, 700), (112, 700), (114, 700))
    a, b = glyphs(b"BT /F1 10 Tf -1 Tc 100 700 Td (ab) Tj ET")
    check(b, (104, 700))


def test_word_spacing_applies_to_single_byte_space_only():
    a, sp, b, nbsp, c = glyphs(b"BT /F1 10 Tf 3 Tw 100 700 Td (a b\\240c) Tj ET")
    check(sp, (105, 700), (110, 700), (113, 700))
    check(b, (113, 700), (118, 700), (118, 700))
    assert nbsp.code == b"\xa0"
    check(c, nbsp.pen_end)  # no Tw after code 0xA0


def test_word_spacing_not_applied_to_two_byte_codes():
    font = type0_identity(dw=1000, mapping={0x20: " ", 0x41: "A", 0x42: "B"})
    a, sp, b = glyphs(b"BT /F1 10 Tf 3 Tw 100 700 Td <004100200042> Tj ET", fonts={"F1": font})
    assert text_of([a, sp, b]) == "A B"
    assert sp.code == b"\x00\x20" and sp.cid == 0x20
    check(sp, (110, 700), (120, 700), (120, 700))
    check(b, (120, 700))
    # Tc applies to every glyph
    a, sp, b = glyphs(b"BT /F1 10 Tf 2 Tc 3 Tw 100 700 Td <004100200042> Tj ET", fonts={"F1": font})
    check(sp, (112, 700))
    check(b, (124, 700))


def test_horizontal_scaling():
    a, b = glyphs(b"BT /F1 10 Tf 50 Tz 100 700 Td (ab) Tj ET")
    check(a, (100, 700), (102.5, 700), (102.5, 700))
    check(b, (102.5, 700), (105, 700))
    assert a.box_height == pytest.approx(9.25)  # Tz is horizontal only
    a, b = glyphs(b"BT /F1 10 Tf 50 Tz 2 Tc 100 700 Td (ab) Tj ET")
    check(a, (100, 700), (102.5, 700), (103.5, 700))


def test_rise_moves_origin_and_quad():
    (a,) = glyphs(b"BT /F1 10 Tf 5 Ts 100 700 Td (a) Tj ET")
    check(a, (100, 705), (105, 705))
    assert a.pen_end[0] == pytest.approx(105)
    assert a.quad[0] == approx((100, 705 + DESC))
    assert a.quad[2] == approx((105, 705 + ASC))
    (a,) = glyphs(b"BT /F1 10 Tf -3 Ts 100 700 Td (a) Tj ET")
    check(a, (100, 697))


def test_rise_follows_the_matrix():
    (a,) = glyphs(b"0 1 -1 0 300 100 cm BT /F1 10 Tf 5 Ts (a) Tj ET")
    check(a, (295, 100), (295, 105))
    (a,) = glyphs(b"BT /F1 10 Tf 5 Ts 1 0 0 2 100 700 Tm (a) Tj ET")
    check(a, (100, 710))


def test_render_mode_recorded():
    found = glyphs(b"BT /F1 10 Tf 100 700 Td 3 Tr (a) Tj 1 Tr (b) Tj 0 Tr (c) Tj ET")
    assert [g.render_mode for g in found] == [3, 1, 0]


def test_invisible_text_stays_visible_to_extraction():
    with open_pdf(make_pdf(b"BT /F1 10 Tf 100 700 Td 3 Tr (ocr) Tj ET")) as doc:
        assert [g.text for g in doc.pages[0].glyphs()] == ["o", "c", "r"]


# --------------------------------------------------------------------------- font metrics


def test_type3_font_matrix_scales_widths():
    a, b = glyphs(b"BT /F1 10 Tf 100 700 Td (ab) Tj ET", fonts={"F1": type3()})
    assert text_of([a, b]) == "ab"
    assert a.font.subtype == "Type3"
    check(a, (100, 700), (105, 700))  # 50 × 0.01 × 10
    check(b, (105, 700), (112, 700))  # 70 × 0.01 × 10
    assert a.box_height == pytest.approx(10)  # FontBBox 80 - (-20), × 0.01 × 10


def test_type3_other_matrix_and_tj_in_text_space():
    font = type3(widths=(500, 250), font_matrix=(0.002, 0, 0, 0.002, 0, 0))
    a, b = glyphs(b"BT /F1 10 Tf 100 700 Td [(a) -1000 (b)] TJ ET", fonts={"F1": font})
    check(a, (100, 700), (110, 700))
    check(b, (120, 700), (125, 700))  # the TJ number is in thousandths of text space


def test_widths_first_char_and_missing_width():
    font = truetype(widths=[250, 750], first_char=65, missing_width=333, mapping={65: "A", 66: "B", 67: "C"})
    a, b, c, at = glyphs(b"BT /F1 10 Tf 100 700 Td (ABC@) Tj ET", fonts={"F1": font})
    check(a, (100, 700), (102.5, 700))
    check(b, (102.5, 700), (110, 700))
    check(c, (110, 700), (113.33, 700))  # past LastChar: MissingWidth
    check(at, (113.33, 700), (116.66, 700))  # before FirstChar: MissingWidth
    assert (a.text, a.decoded_by) == ("A", "tounicode")


def test_missing_width_defaults_to_zero():
    font = truetype(widths=[250], first_char=65, mapping={65: "A", 66: "B"})
    a, b, c = glyphs(b"BT /F1 10 Tf 100 700 Td (ABA) Tj ET", fonts={"F1": font})
    check(b, (102.5, 700), (102.5, 700))
    check(c, (102.5, 700))


def test_tounicode_font_descriptor_metrics():
    font = truetype(mapping={65: "X"}, ascent=900, descent=-300)
    (a,) = glyphs(b"BT /F1 10 Tf 100 700 Td (A) Tj ET", fonts={"F1": font})
    assert (a.text, a.decoded_by) == ("X", "tounicode")
    assert a.font.base_font == "TestSans" and a.font.subset_prefix == "ABCDEF"
    assert a.box_height == pytest.approx(12)
    assert a.quad[0] == approx((100, 697))


@pytest.mark.parametrize(
    ("base_font", "text", "advances"),
    [
        ("Helvetica", b"a", [5.56]),
        ("Helvetica", b"W i", [9.44, 2.78, 2.22]),
        ("Helvetica-Bold", b"a", [5.56]),
        ("Times-Roman", b"a", [4.44]),
        ("Courier", b"ai", [6.0, 6.0]),
    ],
)
def test_standard_14_without_widths_uses_afm(base_font: str, text: bytes, advances: list[float]):
    found = glyphs(b"BT /F1 10 Tf 100 700 Td (" + text + b") Tj ET", fonts={"F1": helvetica(base_font=base_font)})
    assert [g.glyph_end[0] - g.origin[0] for g in found] == pytest.approx(advances)
    assert text_of(found) == text.decode()


def test_standard_14_without_widths_follows_its_encoding():
    font = helvetica(encoding="WinAnsiEncoding")
    (e,) = glyphs(b"BT /F1 10 Tf 100 700 Td (\\351) Tj ET", fonts={"F1": font})
    assert e.text == "\u00e9"
    check(e, (100, 700), (105.56, 700))  # eacute 556


COMPOSITE_W = [10, [300, 400], 1, [100, 200], 5, 7, 600, 6, [999], 5, [111]]


def test_composite_w_unsorted_and_overlapping():
    font = type0_identity(w=COMPOSITE_W, dw=750)
    found = glyphs(b"BT /F1 10 Tf 0 0 Td <000A000B000100020005000600070003> Tj ET", fonts={"F1": font})
    assert [g.cid for g in found] == [10, 11, 1, 2, 5, 6, 7, 3]
    advances = [g.glyph_end[0] - g.origin[0] for g in found]
    # 6 and 5 are covered twice: the first entry (5 7 600) wins; CID 3 is not listed: /DW
    assert advances == pytest.approx([3, 4, 1, 2, 6, 6, 6, 7.5])
    assert [g.origin[0] for g in found] == pytest.approx([0, 3, 7, 8, 10, 16, 22, 28])


def test_composite_default_width_is_1000():
    font = type0_identity(w=[1, [500]])
    a, b = glyphs(b"BT /F1 10 Tf 0 0 Td <00010002> Tj ET", fonts={"F1": font})
    check(a, (0, 0), (5, 0))
    check(b, (5, 0), (15, 0))


def test_composite_w_big_range_first_entry_wins():
    font = type0_identity(w=[0, 9999, 300, 100, [900]])
    (a,) = glyphs(b"BT /F1 10 Tf 0 0 Td <0064> Tj ET", fonts={"F1": font})
    check(a, (0, 0), (3, 0))


def test_composite_w_big_range():
    font = type0_identity(w=[0, 9999, 300, 20000, 30000, 700], dw=100)
    a, b, c = glyphs(b"BT /F1 10 Tf 0 0 Td <1F40 59D8 2710> Tj ET", fonts={"F1": font})
    assert [g.glyph_end[0] - g.origin[0] for g in (a, b, c)] == pytest.approx([3, 7, 1])


VERTICAL = type0_vertical(w2=[1, [-500, 500, 880], 5, 7, -700, 500, 880], dw2=[880, -1200],
                          mapping={1: "\u4e00", 2: "\u4e8c", 5: "\u4e09"})


def test_vertical_w2_dw2_pen_moves_down():
    a, b, c = glyphs(b"BT /F1 10 Tf 100 700 Td <000100020005> Tj ET", fonts={"F1": VERTICAL})
    assert [g.writing_mode for g in (a, b, c)] == [1, 1, 1]
    assert text_of([a, b, c]) == "\u4e00\u4e8c\u4e09"
    check(a, (100, 700), (100, 695), (100, 695))  # W2: -500
    check(b, (100, 695), (100, 683), (100, 683))  # DW2: -1200
    check(c, (100, 683), (100, 676), (100, 676))  # W2 range 5-7: -700


def test_vertical_default_dw2_and_horizontal_w_ignored():
    font = type0_vertical(w=[1, [2000]], mapping={1: "\u4e00"})
    a, b = glyphs(b"BT /F1 10 Tf 100 700 Td <00010001> Tj ET", fonts={"F1": font})
    check(a, (100, 700), (100, 690))  # DW2 default [880 -1000]
    check(b, (100, 690), (100, 680))


def test_vertical_tj_numbers_move_down_and_pen_continues():
    a, b, c = glyphs(b"BT /F1 10 Tf 100 700 Td [<0001> 500 <0001>] TJ <0001> Tj ET", fonts={"F1": VERTICAL})
    check(a, (100, 700))
    check(b, (100, 690))
    check(c, (100, 685))


def test_vertical_follows_the_ctm():
    a, b = glyphs(b"2 0 0 2 0 0 cm BT /F1 10 Tf 50 350 Td <00010001> Tj ET", fonts={"F1": VERTICAL})
    check(a, (100, 700), (100, 690))
    check(b, (100, 690))


# --------------------------------------------------------------------------- form XObjects

TEXT_A = b"BT /F1 10 Tf 5 5 Td (a) Tj ET"


def test_form_matrix_times_ctm():
    (a,) = glyphs(b"q 2 0 0 2 0 0 cm /Fm1 Do Q", xobjects={"Fm1": form(TEXT_A, matrix=(1, 0, 0, 1, 10, 20))})
    check(a, (30, 50), (40, 50))
    assert a.token_index == -1


def test_form_state_does_not_leak():
    content = b"/Fm1 Do BT /F1 10 Tf 100 700 Td (b) Tj ET"
    fm = form(b"3 0 0 3 0 0 cm q 5 Tc " + TEXT_A, matrix=(1, 0, 0, 1, 10, 20))  # unbalanced q
    a, b = glyphs(content, xobjects={"Fm1": fm})
    check(a, (3 * 5 + 10, 3 * 5 + 20))  # Fm's cm applies first, then its /Matrix
    check(b, (100, 700), (105, 700), (105, 700))
    assert b.token_index >= 0


def test_unbalanced_Q_in_a_form_stays_in_the_form():
    content = b"q 2 0 0 2 0 0 cm /Fm1 Do Q BT /F1 10 Tf 100 700 Td (b) Tj ET"
    a, b = glyphs(content, xobjects={"Fm1": form(b"Q " + TEXT_A)})
    check(a, (10, 10), (20, 10))  # a form runs inside an implicit q ... Q (8.10.1)
    check(b, (100, 700), (105, 700))


def test_unbalanced_EMC_in_a_form_stays_in_the_form():
    content = b"/P <</MCID 1>> BDC /Fm1 Do BT /F1 10 Tf 100 700 Td (b) Tj ET EMC"
    a, b = glyphs(content, xobjects={"Fm1": form(b"EMC " + TEXT_A)})
    assert (b.tag, b.mcid) == ("P", 1)


def test_form_font_change_does_not_leak():
    content = b"BT /F1 10 Tf ET /Fm1 Do BT 100 700 Td (b) Tj ET"
    fm = form(b"BT /F2 20 Tf 2 Tc 0 0 Td (x) Tj ET", fonts={"F2": helvetica(widths=True)})
    x, b = glyphs(content, xobjects={"Fm1": fm})
    assert (x.font.resource, x.font_size) == ("/F2", 20)
    assert (b.font.resource, b.font_size) == ("/F1", 10)
    check(b, (100, 700), (105, 700), (105, 700))


def test_inline_image_in_a_form():
    fm = form(b"BI /W 1 /H 1 /BPC 8 /CS /G ID \x00\nEI " + TEXT_A)
    (a,) = glyphs(b"/Fm1 Do", xobjects={"Fm1": fm})
    check(a, (5, 5))


def test_marked_content_properties_follow_the_form_resources():
    content = b"/Span /MC0 BDC " + TEXT_A + b" EMC"
    (a,) = glyphs(b"/Fm1 Do", xobjects={"Fm1": form(content, resources=False)}, properties={"MC0": {"MCID": 7}})
    assert (a.tag, a.mcid) == ("Span", 7)  # borrowed with the page's resources
    (a,) = glyphs(b"/Fm1 Do", xobjects={"Fm1": form(content)}, properties={"MC0": {"MCID": 7}})
    assert (a.tag, a.mcid) == ("Span", None)  # the form's own resources have no /Properties


def test_form_painted_twice_is_not_a_cycle():
    content = b"/Fm1 Do 1 0 0 1 100 0 cm /Fm1 Do"
    (a, b), warnings = page_glyphs(content, xobjects={"Fm1": form(TEXT_A)})
    check(a, (5, 5))
    check(b, (105, 5))
    assert not any("cycle" in w.message for w in warnings)


def test_nested_forms():
    xobjects = {
        "Outer": form(b"BT /F1 10 Tf 0 0 Td (o) Tj ET /Inner Do", matrix=(2, 0, 0, 2, 0, 0),
                      fonts={"F1": "F1"}, xobjects={"Inner": "Inner"}),
        "Inner": form(TEXT_A, matrix=(1, 0, 0, 1, 100, 0), fonts={"F1": "F1"}),
    }
    o, a = glyphs(b"1 0 0 1 10 10 cm /Outer Do", xobjects=xobjects)
    check(o, (10, 10), (20, 10))
    check(a, (10 + 2 * 105, 10 + 2 * 5), (10 + 2 * 110, 20))
    assert o.token_index == a.token_index == -1
    assert a.font_size == 10 and a.box_height == pytest.approx(18.5)


def test_form_without_resources_borrows_the_parents():
    (a,) = glyphs(b"/Fm1 Do", xobjects={"Fm1": form(TEXT_A, resources=False)})
    assert a.text == "a" and a.font.resource == "/F1"


def test_form_own_resources():
    fm = form(b"BT /G7 10 Tf 0 0 Td (A) Tj ET", fonts={"G7": truetype(mapping={65: "Z"})})
    (a,) = glyphs(b"/Fm1 Do", xobjects={"Fm1": fm})
    assert (a.text, a.font.resource, a.font.base_font) == ("Z", "/G7", "TestSans")
    check(a, (0, 0), (6, 0))


def test_nested_form_without_resources_borrows_the_nearest():
    xobjects = {
        "Outer": form(b"/Inner Do", fonts={"F1": truetype(mapping={97: "Q"})}, xobjects={"Inner": "Inner"}),
        "Inner": form(TEXT_A, resources=False),
    }
    (a,) = glyphs(b"/Outer Do", xobjects=xobjects)
    assert a.text == "Q"  # the outer form's F1, not the page's


def test_form_cycle_self():
    fm = form(TEXT_A + b" /A Do", fonts={"F1": "F1"}, xobjects={"A": "A"})
    found, warnings = page_glyphs(b"/A Do BT /F1 10 Tf 100 700 Td (z) Tj ET", xobjects={"A": fm})
    assert text_of(found) == "az"
    assert [g.token_index for g in found][0] == -1
    assert any("cycle" in w.message for w in warnings), warnings


def test_form_cycle_two_forms():
    xobjects = {
        "A": form(TEXT_A + b" /B Do", fonts={"F1": "F1"}, xobjects={"B": "B"}),
        "B": form(b"BT /F1 10 Tf 50 5 Td (b) Tj ET /A Do", fonts={"F1": "F1"}, xobjects={"A": "A"}),
    }
    found, warnings = page_glyphs(b"/A Do", xobjects=xobjects)
    assert text_of(found) == "ab"
    assert any("cycle" in w.message for w in warnings), warnings


def test_form_cycle_without_resources_on_the_form():
    # The form borrows the page's resources, where /A is the form itself.
    found, warnings = page_glyphs(b"/A Do", xobjects={"A": form(TEXT_A + b" /A Do", resources=False)})
    assert text_of(found) == "a"
    assert any("cycle" in w.message for w in warnings), warnings


def test_token_index_is_the_operator_index():
    content = [b"BT /F1 10 Tf 100 700 Td (ab) Tj 0 0 1 rg (c) Tj ET", b"BT /F1 10 Tf 100 600 Td (d) Tj ET"]
    a, b, c, d = glyphs(content)
    assert a.token_index == b.token_index
    assert a.token_index in (3, 4)  # BT Tf Td Tj: 0- or 1-based
    assert c.token_index == a.token_index + 2
    assert d.token_index == c.token_index + 5  # ET | BT Tf Td Tj: the streams are one content stream


def test_token_index_does_not_count_form_operators():
    xobjects = {"Fm1": form(b"q 1 0 0 1 0 0 cm " + TEXT_A + b" Q")}
    found = glyphs(b"/Fm1 Do BT /F1 10 Tf 100 700 Td (b) Tj ET", xobjects=xobjects)
    assert [g.token_index for g in found][0] == -1
    assert found[1].token_index in (4, 5)  # Do BT Tf Td Tj


# --------------------------------------------------------------------------- marked content


def test_mcid_from_inline_dictionary():
    found = glyphs(b"/P <</MCID 3>> BDC BT /F1 10 Tf (a) Tj ET EMC BT /F1 10 Tf (b) Tj ET")
    assert [(g.tag, g.mcid) for g in found] == [("P", 3), (None, None)]


def test_mcid_from_properties_resource():
    found = glyphs(b"/Span /MC0 BDC BT /F1 10 Tf (a) Tj ET EMC",
                   properties={"MC0": {"MCID": 5, "ActualText": "x"}})
    assert [(g.tag, g.mcid, g.actual_text) for g in found] == [("Span", 5, "x")]


def test_nested_marked_content():
    content = (b"BT /F1 10 Tf /P <</MCID 1>> BDC (a) Tj /Span <</Lang (en)>> BDC (b) Tj "
               b"/Artifact BMC (c) Tj EMC EMC (d) Tj EMC (e) Tj ET")
    found = glyphs(content)
    assert [(g.text, g.tag, g.mcid) for g in found] == [
        ("a", "P", 1), ("b", "Span", 1), ("c", "Artifact", 1), ("d", "P", 1), ("e", None, None),
    ]


def test_actual_text_captured():
    content = (b"BT /F1 10 Tf /Span <</ActualText (fi)>> BDC (xy) Tj EMC "
               b"/Span <</ActualText <FEFF00E9>>> BDC (z) Tj EMC (w) Tj ET")
    found = glyphs(content)
    assert [g.actual_text for g in found] == ["fi", "fi", "\u00e9", None]


def test_unbalanced_emc_is_ignored():
    found = glyphs(b"EMC EMC /P <</MCID 2>> BDC BT /F1 10 Tf (a) Tj ET")
    assert [(g.tag, g.mcid) for g in found] == [("P", 2)]


def test_marked_content_in_a_form():
    fm = form(b"/P <</MCID 9>> BDC " + TEXT_A + b" EMC")
    found = glyphs(b"/Art <</MCID 4>> BDC /Fm1 Do (x) Tj EMC", xobjects={"Fm1": fm})
    assert [(g.tag, g.mcid) for g in found][0] == ("P", 9)


# --------------------------------------------------------------------------- robustness


def test_inline_image_skipped():
    binary = b"\xff\xfe BT /F1 10 Tf (Z) Tj ET \x00EI \x81\x82\x83 EI\x90"
    content = (b"BT /F1 10 Tf 100 700 Td (a) Tj ET q BI /W 4 /H 4 /BPC 8 /CS /G ID " + binary
               + b"\nEI Q BT /F1 10 Tf 100 600 Td (after) Tj ET")
    found = glyphs(content)
    assert text_of(found) == "aafter"
    check(found[1], (100, 600))


def test_unknown_font_resource_warns():
    found, warnings = page_glyphs(b"BT /F9 12 Tf 100 700 Td (a) Tj /F1 10 Tf (b) Tj ET")
    assert text_of(found) == "b"
    assert any("F9" in w.message for w in warnings), warnings


def test_text_without_tf_warns():
    found, warnings = page_glyphs(b"BT 100 700 Td (a) Tj ET")
    assert found == []
    assert warnings


def test_bad_operands_are_skipped():
    found, _ = page_glyphs(b"BT /F1 10 Tf 100 700 Td (x) Td 1 Tm (a) Tj ET")
    check(found[0], (100, 700))


def test_glyph_records_are_consistent():
    found = glyphs(b"BT /F1 10 Tf 100 700 Td (ab) Tj ET 0 1 -1 0 300 100 cm BT /F1 10 Tf (c) Tj ET")
    assert [g.paint_order for g in found] == [0, 1, 2]
    for g in found:
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = g.quad
        # the descent corners sit at the same offset from origin and glyph end; so do the ascent ones
        assert (x0 - g.origin[0], y0 - g.origin[1]) == approx((x1 - g.glyph_end[0], y1 - g.glyph_end[1]))
        assert (x3 - g.origin[0], y3 - g.origin[1]) == approx((x2 - g.glyph_end[0], y2 - g.glyph_end[1]))
        assert ((x3 - x0) ** 2 + (y3 - y0) ** 2) ** 0.5 == pytest.approx(g.box_height)
        assert not g.unresolved and g.decoded_by
        d = g.to_dict()
        assert d["code"] == g.code.hex() and d["text"] == g.text


def test_actual_text_replaces_the_glyphs_of_its_span():
    content = (b"BT /F1 10 Tf /Span <</ActualText (fi)>> BDC (xy) Tj (z) Tj EMC "
               b"/Span <</ActualText (fi)>> BDC (q) Tj EMC (w) Tj ET")
    found = glyphs(content)
    # One span, however many strings it paints: its text once, on its first glyph.
    assert [(g.text, g.decoded_by) for g in found] == [
        ("fi", "actualtext"), ("", "actualtext"), ("", "actualtext"),
        ("fi", "actualtext"),  # a second span with the same text is its own span
        ("w", "standard-fallback"),
    ]


def test_actual_text_nested_sequences_share_the_span():
    content = (b"BT /F1 10 Tf /Span <</ActualText (AB)>> BDC (a) Tj /Inner BMC (b) Tj EMC EMC ET")
    assert [g.text for g in glyphs(content)] == ["AB", ""]


def test_empty_actual_text_hides_the_glyphs():
    assert [g.text for g in glyphs(b"BT /F1 10 Tf /Span <</ActualText ()>> BDC (ab) Tj EMC ET")] == ["", ""]


def test_placeholder_actual_text_keeps_the_glyphs():
    # iText writes U+FFFD as ActualText for dot leaders: it says nothing, so keep the glyphs.
    content = b"BT /F1 10 Tf /Span <</ActualText <FEFFFFFD>>> BDC (..) Tj EMC ET"
    assert [g.text for g in glyphs(content)] == [".", "."]


# --------------------------------------------------------------------------- repeated strings


def test_a_repeated_operand_is_measured_in_its_own_text_state():
    # The same operand, shown again after each text-state change that shapes it: the
    # interpreter remembers measured strings, and must never give back a stale one.
    content = (b"BT /F1 10 Tf 0 700 Td [(ab) -500 (c)] TJ 0 -20 Td [(ab) -500 (c)] TJ "
               b"2 Tc 0 -20 Td [(ab) -500 (c)] TJ 0 Tc 50 Tz 0 -20 Td [(ab) -500 (c)] TJ "
               b"100 Tz /F1 20 Tf 0 -20 Td [(ab) -500 (c)] TJ ET")
    found = glyphs(content)
    rows = [found[i:i + 3] for i in range(0, 15, 3)]
    assert [text_of(row) for row in rows] == ["abc"] * 5
    ends = [round(row[2].origin[0], 6) for row in rows]
    # 5 + 5 + 5 (TJ -500 at 10 pt) | same | Tc 2 after a and b | Tz 50 halves | 20 pt doubles
    assert ends == [15.0, 15.0, 19.0, 7.5, 30.0]


def test_a_repeated_operand_in_an_actualtext_span_takes_the_span_text():
    content = (b"BT /F1 10 Tf 0 700 Td (xy) Tj /Span <</ActualText (Q)>> BDC (xy) Tj EMC (xy) Tj ET")
    found = glyphs(content)
    assert [g.text for g in found] == ["x", "y", "Q", "", "x", "y"]


def test_one_operand_in_two_fonts_is_decoded_by_each():
    content = b"BT /F1 10 Tf 0 700 Td (a) Tj /F2 10 Tf (a) Tj /F1 10 Tf (a) Tj ET"
    found = glyphs(content, fonts={"F1": helvetica(widths=True),
                                   "F2": helvetica(widths=[250] * 95, base_font="Symbol")})
    assert text_of(found) == "a\u03b1a"
    assert [g.font.resource for g in found] == ["/F1", "/F2", "/F1"]
    assert [round(g.glyph_end[0] - g.origin[0], 6) for g in found] == [5.0, 2.5, 5.0]


# --------------------------------------------------------------------------- records and dispatch


def _method_tree(name: str) -> ast.AST:
    """The syntax tree of a :class:`PageInterpreter` method, from the module's source file
    (beside the extension in a compiled build, where ``inspect`` finds no source)."""
    source = Path(interpreter.__file__).with_name("interpreter.py").read_text(encoding="utf-8")
    (cls,) = [node for node in ast.parse(source).body
              if isinstance(node, ast.ClassDef) and node.name == "PageInterpreter"]
    (method,) = [node for node in cls.body if isinstance(node, ast.FunctionDef) and node.name == name]
    return method


def _tuple_names(method: str, callee: str) -> list[list[str]]:
    """The names in each tuple passed to ``callee`` in a method's source."""
    tree = _method_tree(method)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == callee:
            (arg,) = node.args
            assert isinstance(arg, ast.Tuple)
            found.append([elt.id for elt in arg.elts if isinstance(elt, ast.Name)])
            assert len(found[-1]) == len(arg.elts), "only plain names, spelt like the fields"
    return found


def test_runs_and_measured_records_are_built_in_field_order():
    # The hot path builds both records from tuples (keywords cost three times as much):
    # the tuples' names must be the fields, in order.
    assert _tuple_names("_show", "_make_run") == [list(Run._fields)]
    assert _tuple_names("_measure", "_make_measured") == [list(interpreter.Measured._fields)]


def test_measured_records_are_unpacked_in_field_order():
    tree = _method_tree("_show")
    unpacks = [node.targets[0] for node in ast.walk(tree) if isinstance(node, ast.Assign)
               and isinstance(node.value, ast.Name) and node.value.id == "measured"
               and isinstance(node.targets[0], ast.Tuple)]
    assert len(unpacks) == 1
    assert [getattr(elt, "id", None) for elt in unpacks[0].elts] == list(interpreter.Measured._fields)


def test_operators_are_dispatched_apart_from_fused_items():
    operators, fused = interpreter.PageInterpreter(FontLoader(lambda info, to_cid: None))._handlers()  # type: ignore[arg-type,return-value]
    assert all(isinstance(op, bytes) and b" " not in op for op in operators)
    assert set(fused) == set(FUSIONS.values())
    assert all(op in operators for record in fused for op in record.operators)


def test_an_ocr_glyph_block_paints_what_its_operators_paint_one_by_one():
    # A comment after "q" keeps the tokenizer from reading a block as one item.
    blocks = [
        b"q 1.1 0 0 1.4 72 700 cm BT 3 Tr 1 0 0 1 0 0 Tm /F1 9 Tf 0 0 Td (a) Tj ET Q",
        b"q 0.9 0 0 1.4 80 700 cm BT 1 0 0 1 2 0 Tm /F1 11 Tf 1 0 Td <62> Tj ET Q",
        b"q 1 0 0 1 90 700 cm BT 1 0 0 1 0 0 Tm /Missing 9 Tf 0 0 Td (c) Tj ET Q",  # no such font
        # Tc is kept in the block; Q restores the font and the CTM for (e).
        b"BT /F2 8 Tf 5 Tc ET q 1 0 0 1 99 700 cm BT 1 0 0 1 0 0 Tm /F1 9 Tf 0 0 Td (d) Tj ET Q BT 1 2 Td (e) Tj ET",
    ]
    content = b"\n".join(blocks)
    fonts = {"F1": helvetica(widths=True), "F2": helvetica(widths=True)}

    def both(data: bytes, **kwargs: Any) -> tuple[Any, Any]:
        return (page_glyphs(data, fonts=fonts, **kwargs),
                page_glyphs(data.replace(b"q ", b"q %\n"), fonts=fonts, **kwargs))

    (fused, fused_warnings), (apart, apart_warnings) = both(content)
    assert text_of(fused) == "abde"
    assert fused == apart
    assert fused_warnings == apart_warnings and any("Missing" in w.message for w in fused_warnings)
    # In a form too (where glyphs have no token index).
    (in_form, _), (in_form_apart, _) = both(b"/Fm0 Do", xobjects={"Fm0": form(content)})
    assert text_of(in_form) == "abde" and in_form == in_form_apart


def test_an_ocr_glyph_block_past_the_nesting_limit_balances_its_q_and_q():
    block = b"q 1 0 0 1 72 700 cm BT 1 0 0 1 0 0 Tm /F1 9 Tf 0 0 Td (a) Tj ET Q"
    deep = b"q " * 3 + block + b" Q" * 3 + b" BT /F1 9 Tf 72 600 Td (b) Tj ET"
    with open_pdf(make_pdf(deep), limits={"nesting": 2}) as doc:
        fused = doc.pages[0].glyphs(raw=True)
    with open_pdf(make_pdf(deep.replace(b"q 1", b"q %\n1")), limits={"nesting": 2}) as doc:
        apart = doc.pages[0].glyphs(raw=True)
    assert text_of(fused) == "ab" and fused == apart


def test_a_fused_operation_that_fails_still_shows_its_string():
    # Bad operands for the operation before a shown string: reported, and the string shown
    # (as when the two are read apart).
    found, warnings = page_glyphs(b"BT /F1 10 Tf 0 700 Td (a) Tj 1 Tc 1.2.3 Tw (b) Tj ET")
    assert text_of(found) == "ab"
    assert len(warnings) == 1 and "before a shown string" in warnings[0].message


def test_a_tm_repeating_the_line_matrix_shares_its_tuple_to_the_bit():
    pdf = make_pdf(b"BT /F1 10 Tf 1 0 0 1 72 700 Tm (a) Tj 1 0 0 1 72 700 Tm (a) Tj "
                   b"1 0 -0.0 1 72 700 Tm (a) Tj ET")
    from glyphweave.accelerated import compiled_modules

    with glyphweave.open(pdf) as doc:
        first, second, third = (run.matrix for run in doc.pages[0].table.raw_runs())
    assert second == first and third == first
    if "glyphweave.pdf.interpreter" not in compiled_modules():
        # One tuple for both runs, and another for the third, which keeps its -0.0. (Compiled,
        # the interpreter keeps its matrices unboxed, builds a new tuple for each run and
        # composes -0.0 away as IEEE arithmetic does: nothing to share, no sign to keep.)
        assert second is first and third is not first and math.copysign(1.0, third[2]) == -1.0


def test_an_inline_image_with_no_end_is_a_page_warning() -> None:
    """Text lost to an inline image that never ends is said, not silently dropped."""
    from glyphweave.testing.pdfs import helvetica, make_pdf

    pdf = make_pdf(b"BT /F1 12 Tf 72 700 Td (Before) Tj ET\nBI /W 8 /H 1 /BPC 8 /CS /G ID \x81\x82 EI \xff\xfe\n"
                   b"BT /F1 12 Tf 72 600 Td (After) Tj ET", fonts={"F1": helvetica()})
    with glyphweave.open(pdf) as doc:
        page = doc.pages[0]
        assert page.text().strip() == "Before"
        assert any("inline image has no EI" in w.message for w in page.stats.warnings)


@pytest.mark.skipif("glyphweave.pdf.fontstate" in compiled_modules(),
                    reason="counts calls by patching a method, which a compiled class does not allow")
def test_a_fonts_scaled_advances_are_asked_for_once_per_font_and_size_in_a_row(monkeypatch):
    # The interpreter keeps the last font and scale's table: the font's own cache is a
    # dictionary look-up, and consecutive strings are nearly always in one font and size.
    from glyphweave.pdf.fontstate import FontState

    asked: list[float] = []
    real = FontState.scaled_widths

    def scaled_widths(self: FontState, scale: float) -> Any:
        asked.append(scale)
        return real(self, scale)

    monkeypatch.setattr(FontState, "scaled_widths", scaled_widths)
    found = glyphs(b"BT /F1 10 Tf (ab) Tj (cd) Tj [(e) -100 (f)] TJ /F1 12 Tf (gh) Tj (ij) Tj /F1 10 Tf (kl) Tj ET")
    assert text_of(found) == "abcdefghijkl"
    assert asked == [10.0, 12.0, 10.0]
    assert [g.glyph_end[0] - g.origin[0] for g in found[-2:]] == approx([5.0, 5.0])  # the size-10 table again


# --------------------------------------------------------------------------- inherited attributes


def _branching_tree() -> tuple[Any, list[Any]]:
    """Five pages under two intermediate nodes of a root: the root gives /MediaBox and
    /Resources, the first node /Rotate and /CropBox, one page its own /MediaBox, the second
    node nothing, and the last page hangs from the root directly."""
    import pikepdf

    pdf = pikepdf.new()
    root = pdf.Root.Pages
    root.MediaBox = pikepdf.Array([0, 0, 612, 792])
    root.Resources = pdf.make_indirect(pikepdf.Dictionary(Font=pikepdf.Dictionary()))
    first = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Pages, Parent=root, Rotate=90,
                                                 CropBox=pikepdf.Array([0, 0, 300, 300])))
    second = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Pages, Parent=root))
    pages = []
    for parent, own in ((first, {"MediaBox": pikepdf.Array([0, 0, 100, 100])}), (first, {}), (second, {}),
                        (second, {"Rotate": 180}), (root, {})):
        page = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Page, Parent=parent, **own))
        pages.append(page)
    return pdf, pages


@pytest.mark.parametrize("order", [(0, 1, 2, 3, 4), (4, 3, 2, 1, 0), (1, 3, 0, 4, 2)])
def test_inherited_attributes_through_the_parents_cache_are_the_walks(order):
    _pdf, pages = _branching_tree()
    keys = ("/MediaBox", "/CropBox", "/Rotate", "/Resources", "/Missing")
    expected = {(i, key): interpreter.resolve_inherited(pages[i], key) for i in order for key in keys}
    inherited: dict[tuple[Any, str], Any] = {}
    for i in order:
        for key in keys:
            got = interpreter.resolve_inherited(pages[i], key, inherited)
            want = expected[(i, key)]
            assert (got is None) == (want is None)
            if want is not None:
                assert got == want and getattr(got, "objgen", None) == getattr(want, "objgen", None)
    # Asked once per parent and key: the pages' own attributes never enter it.
    assert {key for _objgen, key in inherited} == set(keys)
    assert len({objgen for objgen, _key in inherited}) == 3
    assert expected[(0, "/MediaBox")] == [0, 0, 100, 100]
    assert expected[(1, "/MediaBox")] == [0, 0, 612, 792]
    assert expected[(1, "/Rotate")] == 90 and expected[(3, "/Rotate")] == 180 and expected[(2, "/Rotate")] is None
    assert expected[(2, "/CropBox")] is None and expected[(4, "/Missing")] is None


def test_a_page_tree_loop_ends_with_the_cache_too():
    import pikepdf

    pdf = pikepdf.new()
    a = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Pages))
    b = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Pages, Parent=a))
    a.Parent = b
    page = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Page, Parent=a))
    assert interpreter.resolve_inherited(page, "/MediaBox", {}) is None
    assert interpreter.resolve_inherited(page, "/MediaBox") is None


def test_matrix_operands_read_as_the_reference_reads_them():
    """The interpreter's matrix reader (the C one in the compiled build) indexes its six
    operands one by one: the same numbers (and the same refusals) as ``float`` over the
    last six, whatever each operand is."""
    from decimal import Decimal

    from glyphweave.pdf.interpreter import read_matrix

    operands = [b"q", b"2", 0.5, 3, Decimal("1.25"), b"-0", b"7.5"]
    assert read_matrix(operands) == tuple(float(v) for v in operands[-6:]) == (2.0, 0.5, 3.0, 1.25, -0.0, 7.5)
    assert math.copysign(1.0, read_matrix([1.0, 0.0, b"-0.0", 1.0, 0.0, 0.0])[2]) == -1.0
    assert read_matrix([1.0, 0.0, 0.0, 1.0, 0.0]) is None
    assert read_matrix([1.0, 0.0, 0.0, 1.0, 0.0, b"x"]) is None
    assert read_matrix([1.0, 0.0, 0.0, 1.0, 0.0, None]) is None


@pytest.mark.parametrize("zero", range(6))
def test_equal_matrices_differ_in_sign_only_at_a_zero(zero):
    from glyphweave.pdf.interpreter import _same_signs

    plus = tuple(0.0 if i == zero else 2.0 - i for i in range(6))
    minus = tuple(-0.0 if i == zero else 2.0 - i for i in range(6))
    assert _same_signs(plus, plus) and _same_signs(minus, minus)
    assert not _same_signs(plus, minus) and not _same_signs(minus, plus)
