"""Mathematical letters fold to plain letters and digits (glyphweave.layout.mathletters)."""

from __future__ import annotations

from glyphweave.layout import fold_math_letters


def test_math_italic_bold_greek_and_digits_fold():
    assert fold_math_letters("\U0001d465 = \U0001d44f\u2212\U0001d450") == "x = b\u2212c"
    assert fold_math_letters("\U0001d400\U0001d7ce\U0001d70b\U0001d6fc") == "A0\u03c0\u03b1"
    assert fold_math_letters("\u210e\u03bd") == "h\u03bd"  # PLANCK CONSTANT is the math italic h


def test_other_characters_stay():
    text = "plain x, \u211d and \u2115, emoji \U0001f600, \u2211 \u221a"
    assert fold_math_letters(text) == text
    assert fold_math_letters("ascii") == "ascii"


def test_unassigned_code_point_stays():
    assert fold_math_letters("\U0001d455") == "\U0001d455"


def test_a_negation_drawn_before_its_relation_is_the_negated_relation():
    from glyphweave.layout.mathletters import composed_negations

    assert composed_negations("sin(2)π \u0338 = 0") == "sin(2)π \u2260 0"  # TeX's \not= : ≠
    assert composed_negations("a \u0338\u2208 B, x \u0338< y") == "a \u2209 B, x \u226e y"  # ∉, ≮
    assert composed_negations("\u0338 q") == "\u0338 q"  # nothing composes with q: kept as drawn
    assert composed_negations("plain") == "plain"
