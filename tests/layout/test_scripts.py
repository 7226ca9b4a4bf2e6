"""glyphweave.layout.scripts: ligatures, Arabic presentation forms and visual → logical order."""

from __future__ import annotations

import unicodedata
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphweave.layout.scripts import (
    _MIRROR,
    _logical_units,
    _reorder,
    expand_ligatures,
    has_rtl,
    logical_order,
    normalize_arabic_forms,
)

HEBREW_LETTERS = "אבגדהוזחטיכלמנסעפצקרשת"


def visual(logical: str) -> list[str]:
    """The units of a right-to-left-only line as painted: one glyph per character, right to left."""
    return list(reversed(logical))


# --- expand_ligatures ------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("ligature", "letters"),
    [("\ufb00", "ff"), ("\ufb01", "fi"), ("\ufb02", "fl"), ("\ufb03", "ffi"), ("\ufb04", "ffl"),
     ("\ufb05", "st"), ("\ufb06", "st")],
)
def test_each_latin_ligature_becomes_its_letters(ligature: str, letters: str) -> None:
    assert expand_ligatures(ligature) == letters
    assert expand_ligatures(f"a{ligature}b") == f"a{letters}b"


def test_ligatures_expand_in_context_and_nothing_else_changes() -> None:
    assert expand_ligatures("the o\ufb03ce \ufb01les, ca\ufb00\u00e9") == "the office files, caff\u00e9"
    assert expand_ligatures("\ufb13") == "\ufb13"  # Armenian ligature: not in U+FB00-FB06


@given(st.text(alphabet=st.sampled_from("af i\u00e9\u2019\u05e9\ufb00\ufb01\ufb02\ufb03\ufb04\ufb05\ufb06\ufb13")))
def test_ligatures_expand_as_a_translation_table_would(text: str) -> None:
    table = {code: letters for code, letters in zip(range(0xFB00, 0xFB07), ("ff", "fi", "fl", "ffi", "ffl", "st", "st"), strict=True)}
    assert expand_ligatures(text) == text.translate(table)


def test_text_without_ligatures_comes_back_uncopied() -> None:
    ascii_text = "plain ASCII line"
    other = "caf\u00e9 \u05e9\u05dc\u05d5\u05dd"
    assert expand_ligatures(ascii_text) is ascii_text
    assert expand_ligatures(other) is other
    assert expand_ligatures("") == ""


# --- normalize_arabic_forms ------------------------------------------------------------------

@pytest.mark.parametrize(
    ("form", "base"),
    [
        ("\ufea3", "\u062d"),  # hah initial → hah
        ("\ufe92", "\u0628"),  # beh medial → beh
        ("\ufef2", "\u064a"),  # yeh final → yeh
        ("\ufb8b", "\u0698"),  # jeh final (presentation forms A, Persian) → jeh
        ("\ufefb", "\u0644\u0627"),  # lam-alef isolated → lam, alef
        ("\ufefc", "\u0644\u0627"),  # lam-alef final
        ("\ufef5", "\u0644\u0622"),  # lam-alef with madda: NFKC keeps alef-madda composed
        ("\ufef7", "\u0644\u0623"),  # lam-alef with hamza above
        ("\ufdf2", "\u0627\u0644\u0644\u0647"),  # the Allah ligature
        ("\ufe70", "\u064b"),  # fathatan isolated: SPACE + mark, the space dropped
        ("\ufe72", "\u064c"),  # dammatan isolated
        ("\ufc5e", "\u064c\u0651"),  # shadda with dammatan isolated: two marks, no space
        ("\ufe71", "\u0640\u064b"),  # tatweel with fathatan: the tatweel is a letter, kept
    ],
)
def test_arabic_presentation_forms_become_base_letters(form: str, base: str) -> None:
    assert normalize_arabic_forms(form) == base


def test_arabic_forms_normalize_in_context_and_other_characters_stay() -> None:
    text = "x \ufe8d\ufedf\ufecc\ufeae\ufe91\ufef4\ufe94 \ufb01 \u0628 \ufeff"
    assert normalize_arabic_forms(text) == "x \u0627\u0644\u0639\u0631\u0628\u064a\u0629 \ufb01 \u0628 \ufeff"


def test_the_byte_order_mark_and_ornaments_are_left_alone() -> None:
    for char in ("\ufeff", "\ufdfd", "\ufd3e", "\ufd3f"):
        assert normalize_arabic_forms(char) == char


@given(st.text())
def test_characters_outside_the_presentation_blocks_are_never_touched(text: str) -> None:
    kept = "".join(c for c in text if not (0xFB50 <= ord(c) <= 0xFDFF or 0xFE70 <= ord(c) <= 0xFEFE))
    assert normalize_arabic_forms(kept) == kept


def test_every_form_becomes_its_nfkc_decomposition() -> None:
    for code in [*range(0xFB50, 0xFE00), *range(0xFE70, 0xFEFF)]:
        char = chr(code)
        expected = unicodedata.normalize("NFKC", char)
        if expected.startswith(" ") and len(expected) > 1:
            expected = expected[1:]
        assert normalize_arabic_forms(char) == expected, hex(code)


def test_text_without_forms_comes_back_uncopied() -> None:
    base = "\u0627\u0644\u0639\u0631\u0628\u064a\u0629"
    assert normalize_arabic_forms(base) is base
    assert normalize_arabic_forms("") == ""


# --- has_rtl ---------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "text",
    ["\u05e9\u05dc\u05d5\u05dd", "abc \u0639\u0631\u0628\u064a", "\u0710", "\u0780", "\u07ca", "\ufefb",
     "\ufb1d", "\u200f", "x\U00010900"],  # Hebrew, Arabic, Syriac, Thaana, NKo, forms, RLM, Phoenician
)
def test_right_to_left_letters_are_found(text: str) -> None:
    assert has_rtl(text)


@pytest.mark.parametrize("text", ["", "plain", "caf\u00e9 \u4e2d\u6587", "\u0661\u0662\u0663", "\u05b0", "\ufeff"])
def test_no_right_to_left_letter_no_rtl(text: str) -> None:
    # Arabic-Indic digits are class AN and a Hebrew point NSM: neither is a strong RTL character.
    assert not has_rtl(text)


def test_has_rtl_is_exactly_bidi_class_r_or_al_over_all_of_unicode() -> None:
    # Also proves that the blocks the pattern is built from hold every such character.
    for code in range(0x110000):
        char = chr(code)
        assert has_rtl(char) == (unicodedata.bidirectional(char) in ("R", "AL")), hex(code)


def test_the_blocks_hold_every_arabic_number_too() -> None:
    from glyphweave.layout.scripts import _NEEDS_BIDI, _class_pattern

    needs_bidi = _class_pattern(_NEEDS_BIDI)
    for code in range(0x110000):
        char = chr(code)
        expected = unicodedata.bidirectional(char) in ("R", "AL", "AN")
        assert (needs_bidi.search(char) is not None) == expected, hex(code)


# --- logical_order ---------------------------------------------------------------------------

def test_empty_lines() -> None:
    assert logical_order([]) == ""
    assert logical_order([""]) == ""
    assert logical_order([], paragraph_rtl=True) == ""


def test_a_pure_left_to_right_line_is_joined_unchanged() -> None:
    units = ["H", "e", "l", "l", "o", " ", "(", "w", "o", "r", "\ufb01", ")", " ", "1", "2", "%"]
    assert logical_order(units) == "Hello (wor\ufb01) 12%"  # ligatures are expand_ligatures' business


def test_a_hebrew_word_is_reversed() -> None:
    assert logical_order(visual("\u05e9\u05dc\u05d5\u05dd")) == "\u05e9\u05dc\u05d5\u05dd"


def test_a_hebrew_sentence_keeps_its_word_order() -> None:
    sentence = "\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd"  # "shalom olam"
    assert logical_order(visual(sentence)) == sentence


def test_an_arabic_word_painted_in_presentation_forms_comes_out_logical_with_base_letters() -> None:
    # حبيبي: hah initial, beh medial, yeh medial, beh medial, yeh final, painted right to left.
    painted = ["\ufef2", "\ufe92", "\ufef4", "\ufe92", "\ufea3"]
    assert logical_order(painted) == "\u062d\u0628\u064a\u0628\u064a"


def test_a_lam_alef_glyph_is_one_unit_never_reversed_inside() -> None:
    # سلام: seen initial, lam-alef final (one glyph), meem isolated, painted right to left.
    assert logical_order(["\ufee1", "\ufefc", "\ufeb3"]) == "\u0633\u0644\u0627\u0645"


def test_a_multi_character_unit_keeps_its_own_order() -> None:
    # A glyph whose ToUnicode gives two Hebrew letters, already logical: לא then ה → לאה.
    assert logical_order(["\u05d4", "\u05dc\u05d0"]) == "\u05dc\u05d0\u05d4"
    # A Latin ligature unit inside a right-to-left line moves with its word, intact.
    units = ["o", "ffi", "c", "e", " ", *visual("\u05e9\u05dc\u05d5\u05dd")]
    assert logical_order(units) == "\u05e9\u05dc\u05d5\u05dd office"


def test_a_mixed_line_keeps_latin_words_and_numbers_left_to_right() -> None:
    # Logical "שלום 123 abc" in a right-to-left paragraph is painted "abc 123 םולש".
    shalom = "\u05e9\u05dc\u05d5\u05dd"
    assert logical_order(list(f"abc 123 {shalom[::-1]}")) == f"{shalom} 123 abc"


def test_a_latin_line_with_arabic_words_around_a_number() -> None:
    # Logical "Total: العدد 25 كلمة items" in a left-to-right paragraph: the number after Arabic
    # letters is an Arabic number (W2) inside their right-to-left run, itself left to right.
    first, second = "\u0627\u0644\u0639\u062f\u062f", "\u0643\u0644\u0645\u0629"
    painted = f"Total: {second[::-1]} 25 {first[::-1]} items"
    assert logical_order(list(painted)) == f"Total: {first} 25 {second} items"


def test_a_number_between_latin_and_arabic_is_read_with_the_paragraph() -> None:
    # "Total: 25 ددعلا items" is painted alike for "Total: 25 العدد" and "Total: العدد 25" (the
    # number closing the Arabic run): the visual order cannot tell, we give the first reading.
    word = "\u0627\u0644\u0639\u062f\u062f"
    assert logical_order(list(f"Total: 25 {word[::-1]} items")) == f"Total: 25 {word} items"


def test_arabic_with_european_digits_keeps_the_number_left_to_right() -> None:
    word = "\u0627\u0644\u0639\u062f\u062f"
    assert logical_order(list(f"2024 {word[::-1]}")) == f"{word} 2024"


def test_brackets_in_a_right_to_left_run_are_mirrored_back() -> None:
    # Logical "(שלום)" displays as "(םולש)": reversed, then each bracket painted mirrored.
    assert logical_order(list("(\u05dd\u05d5\u05dc\u05e9)")) == "(\u05e9\u05dc\u05d5\u05dd)"
    # Logical "«אב»" is painted "«בא»": the same guillemets, each one the other's mirror.
    assert logical_order(list("\u00ab\u05d1\u05d0\u00bb")) == "\u00ab\u05d0\u05d1\u00bb"


def test_the_paragraph_direction_can_be_given() -> None:
    # "abc םולש" is an LTR line ending in Hebrew or an RTL line ending in Latin: more strong
    # characters are Hebrew, so the guess is right-to-left; a caller who knows says so.
    painted = list("abc \u05dd\u05d5\u05dc\u05e9")
    assert logical_order(painted) == "\u05e9\u05dc\u05d5\u05dd abc"
    assert logical_order(painted, paragraph_rtl=False) == "abc \u05e9\u05dc\u05d5\u05dd"


def test_the_ends_decide_the_paragraph_when_they_agree() -> None:
    # Leftmost and rightmost strong characters both Latin: only a left-to-right paragraph fits,
    # however much Hebrew sits in between.
    painted = list("a \u05d0\u05d1\u05d2\u05d3\u05d4\u05d5 b")
    assert logical_order(painted) == "a \u05d5\u05d4\u05d3\u05d2\u05d1\u05d0 b"


def test_arabic_digits_in_a_latin_line_follow_the_bidi_algorithm() -> None:
    # No letter is right-to-left, but Arabic-Indic digits around a neutral are (UAX #9 I2).
    assert logical_order(list("\u0661 \u0662")) == "\u0662 \u0661"


def test_a_haraka_glyph_travels_with_its_letter() -> None:
    # بَ then ت (logical): painted right to left, the fatha glyph left of its beh.
    assert logical_order(["\u062a", "\u064e", "\u0628"]) == "\u0628\u064e\u062a"


# --- properties ------------------------------------------------------------------------------

no_bidi_text = st.text(
    st.characters().filter(
        lambda c: unicodedata.bidirectional(c) not in ("R", "AL", "AN")),
    max_size=3,
)


@given(st.lists(no_bidi_text, max_size=20))
def test_lines_without_right_to_left_text_are_joined_unchanged(units: list[str]) -> None:
    assert logical_order(units) == "".join(units)
    # The fast path and the full algorithm agree there (every level is 0).
    assert "".join(_logical_units(units, None)) == "".join(units)


@given(st.text(HEBREW_LETTERS + " ", min_size=1).filter(lambda s: s.strip()))
def test_a_right_to_left_line_painted_reversed_reads_back(logical: str) -> None:
    assert logical_order(visual(logical)) == logical


def _canonical(text: str) -> Counter[str]:
    """Characters counted with each mirrored pair as one character: L4 may swap them."""
    return Counter(min(c, _MIRROR.get(ord(c), c)) for c in text)


@given(st.lists(st.text(max_size=3), max_size=20), st.sampled_from([None, True, False]))
def test_no_character_is_lost_or_invented(units: list[str], rtl: bool | None) -> None:
    expected = _canonical("".join(normalize_arabic_forms(unit) for unit in units))
    assert _canonical(logical_order(units, paragraph_rtl=rtl)) == expected


@given(st.lists(st.tuples(st.integers(0, 3), st.text(max_size=2)), max_size=20))
def test_the_reordering_is_its_own_inverse(pairs: list[tuple[int, str]]) -> None:
    levels = [level for level, _ in pairs]
    units = [f"{i}:{unit}" for i, (_, unit) in enumerate(pairs)]
    once = _reorder(units, levels)
    moved_levels = [levels[int(unit.split(":")[0])] for unit in once]
    assert _reorder(once, moved_levels) == units


def test_the_mirror_table_holds_only_bidi_mirrored_pairs() -> None:
    for code, partner in _MIRROR.items():
        assert unicodedata.mirrored(chr(code)) and unicodedata.mirrored(partner)
        assert _MIRROR[ord(partner)] == chr(code)



_EDGES = "aé\u058f\u0590\u05d0\u08ff\u0900\u093f\u0915\u0b7f\u0b80\u200e\u200f\u2010\u201c\u210d\u210e\u210f" \
         "\ufaff\ufb00\ufb01\ufb06\ufb07\ufb1c\ufb1d\ufdff\ufe6f\ufe70\ufefe\ufeff\U000107ff\U00010800" \
         "\U00010fff\U00011000\U0001d3ff\U0001d400\U0001d7ff\U0001d800\U0001e7ff\U0001e800\U0001efff\U0001f000" \
         "\ud800\udc00 \n"


@settings(max_examples=500, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(_EDGES), max_size=12))
def test_a_text_found_script_free_is_left_as_it_is_by_the_script_rules(text):
    from glyphweave.layout.indic import has_drawn_order
    from glyphweave.layout.mathletters import fold_math_letters
    from glyphweave.layout.scripts import has_rtl, script_free

    touched = has_rtl(text) or has_drawn_order(text) or fold_math_letters(text) != text
    if script_free(text):
        assert not touched
        assert script_free(text)  # asked again (the kept answer)


def test_script_free_keeps_only_a_free_text():
    from glyphweave.layout import scripts

    page = "A page \u201cquoted\u201d \u2013 of\ufb01ce, plain."
    assert scripts.script_free(page) and scripts._LAST_FREE[0] is page
    assert not scripts.script_free("\u05d0 \u201c") and scripts._LAST_FREE[0] is page
    assert not scripts.script_free("x \U0001d400 \u201c")  # beyond the BMP, found by the second look
    assert scripts.script_free("x \U0001f600 \u201c")  # an emoji is no script rule's
