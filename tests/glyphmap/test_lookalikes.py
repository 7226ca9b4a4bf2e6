"""The look-alike rules (Ø/⌀/∅, µ/μ, Ω/Ω, ‐): one test per rule, its limits, idempotence."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from glyphweave.glyphmap.lookalikes import (
    CANDIDATES,
    RULES,
    apply_lookalikes,
    choose_lookalike,
    normalize_lookalikes,
)

O_STROKE, DIAMETER, EMPTY_SET = "\u00d8", "\u2300", "\u2205"
MICRO, MU = "\u00b5", "\u03bc"
OHM, OMEGA = "\u2126", "\u03a9"
HYPHEN = "\u2010"


@pytest.mark.parametrize("ch", [O_STROKE, DIAMETER, EMPTY_SET])
@pytest.mark.parametrize("text, expected", [
    ("S{}REN", "SØREN"),
    ("{}rsted", "Ørsted"),
    ("Bj{}rn", "BjØrn"),
])
def test_latin_word_is_the_letter(ch, text, expected):
    assert normalize_lookalikes(text.format(ch)) == expected


@pytest.mark.parametrize("ch", [O_STROKE, DIAMETER, EMPTY_SET])
@pytest.mark.parametrize("text", [
    "{} 6 mm", "{}6mm", "bore {} 12,5 mm deep", "{} 0.5 µm", "{} 0.5 μm", "{} 3 cm", "{} 2 m.",
    "{} 1/2\"", "{} 2 inch", "d = {} 6 mm",
])
def test_number_and_length_unit_make_a_diameter(ch, text):
    assert normalize_lookalikes(text.format(ch)) == text.format(DIAMETER).replace(MU, MICRO)


@pytest.mark.parametrize("text", ["{} 6 months", "{} 6 in the drawing", "{} 6", "{}6 H7", "{} 6 mmHg"])
def test_a_number_without_a_length_unit_decides_nothing(text):
    for ch in (O_STROKE, DIAMETER, EMPTY_SET):
        assert normalize_lookalikes(text.format(ch)) == text.format(ch)


@pytest.mark.parametrize("ch", [O_STROKE, DIAMETER, EMPTY_SET])
@pytest.mark.parametrize("text", ["{{{}}}", "{{ {} }}", "A ∩ B = {}", "A ∩ B = {}.", "f(x) ≠ {}, so", "$X = {}$"])
def test_set_braces_and_after_equals_make_the_empty_set(ch, text):
    assert normalize_lookalikes(text.format(ch)) == text.format(EMPTY_SET)


@pytest.mark.parametrize("text", ["= {} B", "{{{} a}}", "{}"])
def test_other_math_contexts_decide_nothing(text):
    for ch in (O_STROKE, DIAMETER, EMPTY_SET):
        assert normalize_lookalikes(text.format(ch)) == text.format(ch)


def test_a_danish_island_alone_stays_as_printed():
    assert normalize_lookalikes("the island Ø is small") == "the island Ø is small"


@pytest.mark.parametrize("ch", [MICRO, MU])
@pytest.mark.parametrize("text", ["5 {}m", "10{}F", "{}s", "2 {}g/l", "3 {}mol/l", "50 {}Hz", "(1 {}A)", "7 {}V", "4 {}" + OMEGA, "4 {}" + OHM])
def test_micro_before_a_unit_is_the_micro_sign(ch, text):
    assert normalize_lookalikes(text.format(ch)).startswith(text.format(MICRO).replace(OHM, OMEGA))


@pytest.mark.parametrize("ch", [MICRO, MU])
@pytest.mark.parametrize("text", ["α{}β", "ε{}", "{}ία", "Ο{}ηρος"])
def test_mu_inside_a_greek_word_is_the_greek_letter(ch, text):
    assert normalize_lookalikes(text.format(ch)) == text.format(MU)


@pytest.mark.parametrize("ch", [MICRO, MU])
@pytest.mark.parametrize("text", ["{}", "x{}m", "{}mx", "{}-law", "the {} of"])
def test_mu_elsewhere_stays(ch, text):
    assert normalize_lookalikes(text.format(ch)) == text.format(ch)


def test_ohm_sign_is_capital_omega_everywhere():
    assert normalize_lookalikes(f"10 k{OHM}, {OHM} alone") == f"10 k{OMEGA}, {OMEGA} alone"
    assert normalize_lookalikes(f"10 k{OMEGA}") == f"10 k{OMEGA}"  # U+03A9 is already right


@pytest.mark.parametrize("text, expected", [
    ("e‐mail", "e-mail"), ("12‐34", "12-34"), ("co‐\noperate", "co‐\noperate"), ("a ‐ b", "a ‐ b"), ("‐x", "‐x"),
])
def test_hyphen_between_characters_is_hyphen_minus(text, expected):
    assert normalize_lookalikes(text) == expected


@pytest.mark.parametrize("text", ["pages 5-10", "pages 5–10", "Smith–Jones", "2024-01-05", "5 - 3", "non‑breaking"])
def test_dashes_are_never_rewritten(text):
    assert normalize_lookalikes(text) == text


def test_choose_lookalike_reads_the_context_around_one_character():
    assert choose_lookalike("bore ", O_STROKE, " 6 mm") == DIAMETER
    assert choose_lookalike("S", DIAMETER, "REN") == O_STROKE
    assert choose_lookalike("A ∩ B = ", DIAMETER, "") == EMPTY_SET
    assert choose_lookalike("5 ", MU, "m") == MICRO
    assert choose_lookalike("", "x", "") == "x"
    assert choose_lookalike("", O_STROKE, "") == O_STROKE


def test_counts_name_the_rules():
    text, counts = apply_lookalikes(f"S{DIAMETER}REN drills {O_STROKE} 6 mm, 5 {MU}m, e{HYPHEN}mail, 1 k{OHM}; "
                                    f"A = {O_STROKE}.")
    assert text == f"S{O_STROKE}REN drills {DIAMETER} 6 mm, 5 {MICRO}m, e-mail, 1 k{OMEGA}; A = {EMPTY_SET}."
    assert dict(counts) == {"latin-word": 1, "diameter": 1, "micro-unit": 1, "hyphen": 1, "ohm-sign": 1,
                            "empty-set": 1}
    assert set(counts) <= set(RULES)


def test_text_without_candidates_is_returned_as_it_is():
    text = "plain text " * 100
    assert apply_lookalikes(text) == (text, {})
    assert normalize_lookalikes(text) is text


_ALPHABET = st.sampled_from(list(CANDIDATES) + list("aSR{}= 6.m\nαβ-–µgHzΩ\"x,"))


@given(st.text(alphabet=_ALPHABET, max_size=40))
def test_applying_the_rules_twice_changes_nothing(text):
    once = normalize_lookalikes(text)
    assert normalize_lookalikes(once) == once
