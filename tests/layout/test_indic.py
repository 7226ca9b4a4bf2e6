"""Indic pre-base vowel signs (rules: assembly): drawn before their consonant cluster, typed
after it. Geometry decides; the text only where positions say nothing."""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path

import pytest

from glyphweave.layout.indic import PREBASE_MATRAS, has_prebase_matra, typed_syllables
from glyphweave.testing.extract import extract_text
from glyphweave.testing.pdfs import make_pdf, text_at, truetype

SIGN_I = "\u093f"  # DEVANAGARI VOWEL SIGN I
DA, NA, PA, TA, SA, THA, DDA = "\u0926", "\u0928", "\u092a", "\u0924", "\u0938", "\u0925", "\u0921"
VIRAMA, NUKTA = "\u094d", "\u093c"


def at(*pieces: str, step: float = 5.0) -> list[float]:
    """Centres of glyphs drawn one after the other, left to right."""
    return [step * k for k in range(len(pieces))]


def test_a_sign_drawn_before_its_consonant_moves_after_it():
    drawn = [SIGN_I, DA, NA]  # दिन as XeTeX paints it
    assert "".join(typed_syllables(drawn, at(*drawn))) == DA + SIGN_I + NA


def test_the_same_letters_read_two_ways_by_where_the_sign_is_drawn():
    # पति is drawn प ि त; पित is drawn ि प त: the sign goes after its right neighbour
    assert "".join(typed_syllables([PA, SIGN_I, TA], [0.0, 5.0, 10.0])) == PA + TA + SIGN_I
    assert "".join(typed_syllables([SIGN_I, PA, TA], [0.0, 5.0, 10.0])) == PA + SIGN_I + TA
    # painted in typed order (प, then ि drawn to its left, then त): already typed, left alone
    assert "".join(typed_syllables([PA, SIGN_I, TA], [5.0, 0.0, 10.0])) == PA + SIGN_I + TA


def test_the_sign_moves_past_the_whole_cluster():
    drawn = [SIGN_I, SA + VIRAMA, THA, TA]  # स्थित: the sign before the conjunct स्थ
    assert "".join(typed_syllables(drawn, at(*drawn))) == SA + VIRAMA + THA + SIGN_I + TA
    drawn = [SIGN_I, SA, VIRAMA, THA]  # the virama as a glyph of its own
    assert "".join(typed_syllables(drawn, at(*drawn))) == SA + VIRAMA + THA + SIGN_I
    drawn = [SIGN_I, DDA, NUKTA]  # a nukta stays on its consonant
    assert "".join(typed_syllables(drawn, [0.0, 5.0, 6.0])) == DDA + NUKTA + SIGN_I


def test_a_mark_on_the_consonant_does_not_stand_between():
    drawn = [SIGN_I, TA, "\u0902"]  # anusvara drawn over the consonant, its centre inside it
    assert "".join(typed_syllables(drawn, [0.0, 6.0, 5.5])) == TA + SIGN_I + "\u0902"


def test_a_word_gap_or_a_letter_between_keeps_the_sign_where_it_is():
    assert typed_syllables([PA, SIGN_I, " " + DA], at(PA, SIGN_I, DA)) == [PA, SIGN_I, " " + DA]
    # the letter right of the sign on the page is not the one after it in the text
    assert "".join(typed_syllables([SIGN_I, TA, PA], [0.0, 10.0, 5.0])) == SIGN_I + TA + PA


def test_where_positions_say_nothing_the_text_decides():
    assert "".join(typed_syllables([SIGN_I, DA, NA], None)) == DA + SIGN_I + NA  # at the line start
    assert typed_syllables([NA, " " + SIGN_I, DA], None) == [NA, " " + DA, SIGN_I]  # at a word start
    assert "".join(typed_syllables([PA, SIGN_I, TA], None)) == PA + SIGN_I + TA  # after a consonant: typed
    assert "".join(typed_syllables(["\u093e", SIGN_I, TA], None)) == "\u093e" + TA + SIGN_I  # after a sign
    assert "".join(typed_syllables([PA, SIGN_I, TA], [5.0, 10.0, 10.0])) == PA + SIGN_I + TA  # centres coincide
    assert "".join(typed_syllables([SIGN_I, TA], [10.0, 10.0])) == TA + SIGN_I


def test_bengali_two_part_vowels_compose_as_typed():
    e, ka, aa = "\u09c7", "\u0995", "\u09be"  # কো drawn as ে ক া
    out = "".join(typed_syllables([e, ka, aa], [0.0, 5.0, 10.0]))
    assert unicodedata.normalize("NFC", out) == "\u09cb".join([ka, ""])


def test_the_decoding_layer_knows_the_same_signs():
    from glyphweave.pdf.clusters import PREBASE_MATRAS as DECODED

    assert DECODED == PREBASE_MATRAS  # kept apart by the layers (pdf may not import layout)


def test_the_signs_are_vowel_signs_of_their_scripts():
    for sign in PREBASE_MATRAS:
        assert unicodedata.category(sign) in ("Mc", "Mn")
        assert "VOWEL SIGN" in unicodedata.name(sign)
    assert has_prebase_matra("a" + SIGN_I) and not has_prebase_matra("plain") and not has_prebase_matra(DA)


def test_a_pdf_drawn_in_visual_order_reads_as_typed():
    mapping = {0x41: SIGN_I, 0x42: DA, 0x43: NA, 0x44: PA, 0x45: TA, 32: " "}
    font = truetype(mapping=mapping, widths=[250.0] + [500.0] * 94)
    content = text_at("ABC DE", 72, 700, size=10, font="FD")  # िदन पत: "दिन पत"
    assert extract_text(make_pdf(content, fonts={"FD": font}), separator="") == f"{DA}{SIGN_I}{NA} {PA}{TA}\n"


CORPUS = Path(os.environ.get("GLYPHWEAVE_SHARED") or Path(__file__).resolve().parents[2].parent / "shared") / "eval2/corpus"


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not on this machine")
def test_xetex_devanagari_reads_as_typed():
    out = extract_text(CORPUS / "xe_multilingual_rtl_devanagari.pdf").split()
    for word in ("\u0935\u0928\u0938\u094d\u092a\u0924\u093f",  # वनस्पति
                 "\u0926\u093f\u0928",  # दिन
                 "\u0915\u094d\u092f\u093e\u0930\u093f\u092f\u093e\u0901"):  # क्यारियाँ
        assert word in out


# -- marks painted on their own ---------------------------------------------------------------------

KA, R_SIGN = "\u0915", "\u0943"  # क, the vowel sign vocalic R drawn below it
MARKED = truetype(mapping={0x41: KA, 0x42: R_SIGN, 0x43: PA, 32: " "},
                  widths=[250.0] + [500.0] * 33 + [0.0] + [500.0] * 60)  # code 0x42 has no advance


def test_a_mark_painted_inside_its_base_does_not_end_the_word():
    # as fpdf2 paints कृपा: the mark on its own, placed inside its base, then the next letter
    # where the base ends (the mark's own end is 3 before it: a word gap of 0.3 box heights)
    content = b"\n".join([text_at("A", 72, 700, size=10, font="FD"), text_at("B", 74, 700, size=10, font="FD"),
                          text_at("C", 77, 700, size=10, font="FD")])
    assert extract_text(make_pdf(content, fonts={"FD": MARKED}), separator="") == KA + R_SIGN + PA + "\n"


def test_both_walks_measure_from_the_base_inside_one_string():
    from glyphweave.layout.glyphwalk import walk_glyphs
    from glyphweave.layout.rules import Rules
    from glyphweave.layout.runwalk import walk_runs
    from glyphweave.testing.pdfs import open_pdf

    content = b"BT /FD 10 Tf 72 700 Td [(A) 300 (B) -300 (C) -400 (A)] TJ ET"  # a word gap before the last
    with open_pdf(make_pdf(content, fonts={"FD": MARKED})) as doc:
        table = doc.pages[0].context().table
        rules = Rules(0.15, 0.5, 3.0)
        fast = walk_runs(table, range(len(table)), " ", rules)
        assert fast is not None
        assert fast.text() == walk_glyphs(table, range(len(table)), " ", rules).text() == f"{KA}{R_SIGN}{PA} {KA}\n"


# -- clusters mapped whole to their first glyph, vowels drawn in two parts --------------------------

RA, YA = "\u0930", "\u092f"


def test_a_cluster_mapped_whole_to_its_sign_is_read_once():
    # as fpdf2 maps दिन: the sign's glyph to the whole cluster दि, the consonant's to द again;
    # and त्रिय: the sign's glyph to त्रि, the conjunct's to nothing
    mapping = {0x41: DA + SIGN_I, 0x42: DA, 0x43: NA, 0x44: TA + VIRAMA + RA + SIGN_I, 0x46: YA, 32: " "}
    font = truetype(mapping=mapping, widths=[250.0] + [500.0] * 94, missing_width=500.0)
    content = text_at("ABC D\x01F", 72, 700, size=10, font="FD")  # 0x01: no mapping, no standard name
    out = extract_text(make_pdf(content, fonts={"FD": font}), separator="")
    assert out == f"{DA}{SIGN_I}{NA} {TA}{VIRAMA}{RA}{SIGN_I}{YA}\n"


def test_covered_glyphs_keep_their_place_and_lose_their_text():
    from glyphweave.pdf.clusters import covered_by_clusters

    decoded = [(DA + SIGN_I, "tounicode"), (DA, "tounicode"), (NA, "tounicode")]
    assert covered_by_clusters(decoded) == ((DA + SIGN_I, "tounicode"), ("", "tounicode"), (NA, "tounicode"))
    conjunct = [(TA + VIRAMA + RA + SIGN_I, "tounicode"), ("", None), (YA, "tounicode")]
    assert covered_by_clusters(conjunct)[1] == ("", "tounicode")
    # a glyph that is not the rest of the cluster ends it; a sign mapped alone covers nothing
    assert covered_by_clusters([(DA + SIGN_I, "x"), (NA, "x"), (DA, "x")]) == ((DA + SIGN_I, "x"), (NA, "x"), (DA, "x"))
    assert covered_by_clusters([(SIGN_I, "x"), ("", None)]) == ((SIGN_I, "x"), ("", None))


def test_vowels_drawn_in_two_parts_are_one_character():
    from glyphweave.layout.indic import has_drawn_order, joined_vowels

    aa, e, o = "\u093e", "\u0947", "\u094b"
    assert joined_vowels("\u092b\u0942\u0932" + aa + e + "\u0902") == "\u092b\u0942\u0932" + o + "\u0902"  # फूलों
    assert joined_vowels(PA + e + aa) == PA + o  # the mark glyph first
    assert joined_vowels("\u0905" + aa) == "\u0906"  # अ + ा is आ
    assert joined_vowels("plain " + PA + aa) == "plain " + PA + aa
    assert has_drawn_order(PA + aa + e) and not has_drawn_order(PA + aa) and not has_drawn_order("ascii")
