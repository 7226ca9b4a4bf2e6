"""Right-to-left lines (rules: assembly): word gaps from positions whichever way the glyphs
were painted, word gaps where right-to-left script meets Latin, numbers in their logical
order. Synthetic PDFs whose fonts map codes to Arabic and Hebrew letters, and the shared
known-text files where they are present."""

from __future__ import annotations

import math
import os
from pathlib import Path

import pytest

from glyphweave.layout import page_geometry
from glyphweave.layout.glyphwalk import walk_glyphs
from glyphweave.layout.rules import JOIN, Rules, Side, Verdict
from glyphweave.layout.runwalk import walk_runs
from glyphweave.testing.extract import extract_text
from glyphweave.testing.pdfs import make_pdf, open_pdf, text_at, truetype

# Codes of the test fonts: Latin letters, digits and '-' as themselves; in the Arabic font
# A-G are the letters below, in the Hebrew one A-D.
ARABIC = dict(zip("ABCDEFG", "\u0641\u064a\u0635\u0631\u0628\u0627\u062a", strict=True))  # ف ي ص ر ب ا ت
HEBREW = dict(zip("ABCD", "\u05d0\u05d1\u05d2\u05d3", strict=True))  # א ב ג ד
RASIF = "\u0631\u0635\u064a\u0641"  # رصيف, typed; painted left to right as codes ABCD
BAT = "\u0628\u0627\u062a"  # بات, typed; painted left to right as codes GFE


def _font(mapping: dict[str, str], *, ascent: float = 800, descent: float = -200):
    """A font whose codes 32-126 are 500/1000 em wide (the space 250), mapped as given."""
    codes = {ord(code): text for code, text in mapping.items()} | {32: " "}
    widths = [250.0] + [500.0] * 94
    return truetype(mapping=codes, widths=widths, ascent=ascent, descent=descent)


LATIN = _font({c: c for c in "abcdefghijklmnopqrstuvwxyz0123456789-"})
# Fonts made for Arabic reserve height for stacked marks: a box of 1.7 em against Latin's 1.0.
FONTS = {"FL": LATIN, "FA": _font(ARABIC, ascent=1100, descent=-600), "FH": _font(HEBREW)}


def text(*snippets: bytes) -> str:
    return extract_text(make_pdf(b"\n".join(snippets), fonts=FONTS), separator="")


def show(codes: str, x: float, font: str) -> bytes:
    return text_at(codes, x, 700, size=10, font=font)


# -- word gaps -----------------------------------------------------------------------------------

def test_an_arabic_line_painted_glyph_by_glyph_from_the_right_keeps_its_first_letter():
    # As cairo paints it: the left-to-right number first, then the letters in typed order,
    # each placed on its own, from the right. On the page: "10 " + bat + " " + rasif.
    snippets = [show("10", 105, "FL")]
    for code, x in zip("DCBA EFG ", (150, 145, 140, 135, 132.5, 127.5, 122.5, 117.5, 115), strict=True):
        snippets.append(show(code, x, "FA"))
    assert text(*snippets) == f"{RASIF} {BAT} 10\n"


def test_an_arabic_word_inside_latin_is_spaced_by_its_gaps():
    # As XeTeX sets it: no space glyphs, every word gap 2.2 (0.22 of the Latin box, 0.13 of
    # the Arabic font's taller one).
    snippets = [show("the", 72, "FL"), show("word", 89.2, "FL"), show("ABCD", 111.4, "FA"),
                show("and", 133.6, "FL")]
    assert text(*snippets) == f"the word {RASIF} and\n"


def test_a_hebrew_word_painted_backwards_in_one_string_has_its_word_gap():
    # Hebrew painted in reading order by one TJ whose numbers move the pen back: the gap
    # between the second and third letters is 2 (the word gap limit is 1.5).
    content = b"BT /FH 10 Tf 300 700 Td [(A) 1000 (B) 1200 (C) 1000 (D)] TJ ET"
    data = make_pdf(content, fonts=FONTS)
    assert extract_text(data, separator="") == "\u05d0\u05d1 \u05d2\u05d3\n"
    with open_pdf(data) as doc:  # both walks see the space
        table = doc.pages[0].context().table
        rules = Rules(0.15, 0.5, 3.0)
        indices = range(len(table))
        fast = walk_runs(table, indices, " ", rules)
        assert fast is not None
        assert fast.text() == walk_glyphs(table, indices, " ", rules).text() == "\u05d0\u05d1 \u05d2\u05d3\n"


def test_a_latin_word_touching_an_arabic_one_is_still_a_word_of_its_own():
    # As Word lays out a Latin word in an Arabic line: painted in typed order, the space
    # between the two words moved to the far side of the Latin run, the letters touching.
    snippets = [show("ABCD", 132.5, "FA"), show("abc", 117.5, "FL"), show(" ", 115, "FA"), show("GFE", 100, "FA")]
    assert text(*snippets) == f"{RASIF} abc {BAT}\n"
    # a number touching an Arabic letter is typed attached (و18)
    snippets = [show("ABCD", 127.5, "FA"), show("18", 117.5, "FL"), show(" ", 115, "FA"), show("GFE", 100, "FA")]
    assert text(*snippets) == f"{RASIF}18 {BAT}\n"


# -- numbers -------------------------------------------------------------------------------------

def test_a_number_set_as_one_string_keeps_its_order_inside_arabic():
    # XeTeX: the number is one string left to right (UAX #9 alone would read 2468-800).
    snippets = [show("GFE", 100, "FA"), show("800-2468", 117.2, "FL"), show("ABCD", 159.4, "FA")]
    assert text(*snippets) == f"{RASIF} 800-2468 {BAT}\n"


def test_a_number_painted_in_pieces_in_typed_order_reads_by_the_bidi_algorithm():
    # Typst: 800, - and 2468 painted as three strings, in typed order, laid out by UAX #9
    # (which shows 2468-800 on the page).
    snippets = [show("ABCD", 159.4, "FA"), show("800", 142.2, "FL"), show("-", 137.2, "FL"),
                show("2468", 117.2, "FL"), show("GFE", 100, "FA")]
    assert text(*snippets) == f"{RASIF} 800-2468 {BAT}\n"


def test_the_bidi_algorithm_alone_orders_a_number_string_when_asked():
    snippets = [show("GFE", 100, "FA"), show("800-2468", 117.2, "FL"), show("ABCD", 159.4, "FA")]
    with open_pdf(make_pdf(b"\n".join(snippets), fonts=FONTS)) as doc:
        page = doc.pages[0].context()
        glyphs = range(len(page.table))
        assert page_geometry(page, glyphs, number_strings=False).reading_text() == f"{RASIF} 2468-800 {BAT}\n"
        assert page_geometry(page, glyphs).reading_text() == f"{RASIF} 800-2468 {BAT}\n"


def test_digits_of_one_string_are_not_joined_across_a_space():
    snippets = [show("GFE", 100, "FA"), show("12 34", 117.2, "FL"), show("ABCD", 145.7, "FA")]
    assert text(*snippets) == f"{RASIF} 34 12 {BAT}\n"


# -- the rules ------------------------------------------------------------------------------------

def glyph(x: float, *, advance: float = 5.0, h: float = 10.0) -> Side:
    return Side(x, 0.0, x + advance, 0.0, x + advance, 0.0, 1.0, 0.0, h)


ALEF, BET = "\u05d0", "\u05d1"


def decide(prev: Side, cur: Side, before: str = ALEF, after: str = BET):
    return Rules(0.15, 0.5, 3.0).decide(prev, cur, before, after)


def test_a_glyph_placed_behind_the_previous_one_is_measured_backwards():
    # Hebrew painted in reading order: from the current glyph's end to the previous glyph's
    # start; the limit is 1.5
    assert decide(glyph(0), glyph(-5)) is JOIN  # touching
    assert decide(glyph(0), glyph(-6)) is JOIN  # 1 apart: within a word
    decision = decide(glyph(0), glyph(-7))
    assert decision.verdict is Verdict.SPACE and math.isclose(decision.gap, 0.2)
    assert decide(glyph(0), glyph(-7), ALEF, "7").verdict is Verdict.SPACE  # a number behind a word
    assert decide(glyph(0), glyph(-3)) is JOIN  # overlapping: a mark, a kerned pair
    assert decide(glyph(0), glyph(-7), " ", BET) is JOIN  # next to a space glyph
    assert decide(glyph(0), glyph(-9), ALEF, " ").verdict is Verdict.JOIN  # (a wide gap, noted)
    # Latin text stepping back is a repaint, not reading order
    assert decide(glyph(0), glyph(-7), "a", "b") is JOIN


def test_where_scripts_meet_the_smaller_box_judges_the_gap():
    latin, arabic = glyph(0), glyph(6.8, h=14.0)  # 1.8 apart: over 1.5, under 2.1
    assert decide(latin, arabic, "d", "\u0641").verdict is Verdict.SPACE
    assert decide(latin, arabic, "d", "e") is JOIN  # one script: the larger box judges
    assert decide(latin, arabic, "\u0641", "\u0642") is JOIN


# -- the shared known-text files ------------------------------------------------------------------

# where tests/corpus/shared_corpus.py finds the shared folder
CORPUS = Path(os.environ.get("GLYPHWEAVE_SHARED") or Path(__file__).resolve().parents[2].parent / "shared") / "eval2/corpus"


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not on this machine")
@pytest.mark.parametrize(("name", "phrases"), [
    ("cairo_flyer", ["\u064a\u0641\u062a\u062d \u0627\u0644\u0645\u062a\u062d\u0641",  # يفتح المتحف
                     "\u0627\u0644\u062f\u062e\u0648\u0644 \u0645\u062c\u0627\u0646\u064a",  # الدخول مجاني
                     "\u05d4\u05e9\u05d5\u05e7 \u05e4\u05d5\u05e2\u05dc",  # השוק פועל
                     "\u0628\u064a\u0646 10 \u064818."]),  # بين 10 و18.
    ("xe_multilingual_rtl_devanagari", ["word \u0631\u0635\u064a\u0641 and",
                                        "\u0628\u0627\u0644\u0631\u0642\u0645 800-2468 \u0623\u0648"]),
    ("typst_rtl_notices", ["\u0628\u0627\u0644\u0631\u0642\u0645 800-2468 \u0623\u0648",
                           "\u05dc\u05de\u05e1\u05e4\u05e8 08-9274410."]),
])
def test_the_shared_files_read_as_typed(name: str, phrases: list[str]) -> None:
    out = " ".join(extract_text(CORPUS / f"{name}.pdf").split())
    truth = " ".join((CORPUS / f"{name}.truth.txt").read_text(encoding="utf-8").split())
    for phrase in phrases:
        assert phrase in truth  # the phrase is typed so
        assert phrase in out
