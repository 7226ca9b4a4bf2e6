"""The ``reading`` assembler's rules on hand-made glyph sides: every verdict of
:meth:`Rules.decide` and the letter-spacing limit, without a page around them.

Sides are horizontal unless said otherwise: a box height of 10 (so with the default
options a word space needs a gap above 1.5, a new line a move across of more than 5 or a
jump back of more than 30) and an own advance of 5.
"""

from __future__ import annotations

import math

import pytest

from glyphweave.layout.rules import JOIN, NEWLINE, Rules, Side, Verdict

RULES = Rules(word_gap=0.15, line_gap=0.5, back_jump=3.0)


def glyph(x: float, y: float, *, advance: float = 5.0, tracking: float = 0.0, h: float = 10.0,
          angle: float = 0.0) -> Side:
    """A glyph at (x, y) written at ``angle`` degrees, its pen moved ``tracking`` past its
    own advance (Tc)."""
    ux, uy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    if angle == 0.0:
        ux, uy = 1.0, 0.0
    ex, ey = x + advance * ux, y + advance * uy
    return Side(x, y, ex, ey, ex + tracking * ux, ey + tracking * uy, ux, uy, h)


def decide(prev: Side, cur: Side, before: str = "a", text: str = "b", rules: Rules = RULES):
    return rules.decide(prev, cur, before, text)


# -- same word ---------------------------------------------------------------------------------

def test_next_glyph_at_the_glyph_end_joins():
    assert decide(glyph(0, 0), glyph(5, 0)) is JOIN


def test_kerning_sized_gaps_join():
    assert decide(glyph(0, 0), glyph(6.4, 0)) is JOIN  # 0.14 box heights
    assert decide(glyph(0, 0), glyph(3.0, 0)) is JOIN  # pulled back (kerning)


# -- word spaces -------------------------------------------------------------------------------

def test_gap_over_the_threshold_is_a_space_with_its_width_in_box_heights():
    decision = decide(glyph(0, 0), glyph(6.6, 0))
    assert decision.verdict is Verdict.SPACE
    assert decision.gap == pytest.approx(0.16)


def test_gap_is_judged_at_the_larger_box_height():
    assert decide(glyph(0, 0), glyph(7.0, 0)).verdict is Verdict.SPACE
    assert decide(glyph(0, 0), glyph(7.0, 0, h=20.0)) is JOIN  # 2 < 0.15 * 20
    assert decide(glyph(0, 0, h=20.0), glyph(7.0, 0)) is JOIN


def test_positive_tracking_is_taken_out_of_the_gap():
    tracked = glyph(0, 0, tracking=4.0)
    assert decide(tracked, glyph(9.0, 0)) is JOIN  # at the pen end: letter spacing only
    assert decide(tracked, glyph(10.0, 0)) is JOIN  # 1 past the pen end
    decision = decide(tracked, glyph(11.0, 0))  # 2 past it
    assert decision.verdict is Verdict.SPACE
    assert decision.gap == pytest.approx(0.2)


def test_negative_tracking_does_not_widen_the_gap():
    decision = decide(glyph(0, 0, tracking=-1.0), glyph(6.6, 0))
    assert decision.verdict is Verdict.SPACE
    assert decision.gap == pytest.approx(0.16)


def test_no_space_next_to_whitespace_or_between_cjk():
    prev, cur = glyph(0, 0), glyph(10, 0)
    # A gap of half a box height cannot be a space here, but it is noted as wide (WIDE_GAP):
    # lines split at such gaps into the pieces of columns or table cells.
    # (verdict, gap in box heights, width along the line in user space)
    assert decide(prev, cur, " ", "b") == (Verdict.JOIN, 0.5, 5.0)
    assert decide(prev, cur, "a", " ") == (Verdict.JOIN, 0.5, 5.0)
    assert decide(prev, cur, "\n", "b") == (Verdict.JOIN, 0.5, 5.0)  # the start of a line is whitespace too
    assert decide(prev, cur, "日", "本") == (Verdict.JOIN, 0.5, 5.0)
    assert decide(prev, glyph(8, 0), " ", "b") is JOIN  # narrower than WIDE_GAP: nothing to note
    assert decide(prev, cur, "日", "A").verdict is Verdict.SPACE
    assert decide(prev, cur, "A", "本").verdict is Verdict.SPACE


def test_word_gap_option():
    wide = Rules(word_gap=1.0, line_gap=0.5, back_jump=3.0)
    assert decide(glyph(0, 0), glyph(14, 0), rules=wide) is JOIN
    assert decide(glyph(0, 0), glyph(16, 0), rules=wide).verdict is Verdict.SPACE


# -- new lines ---------------------------------------------------------------------------------

def test_move_across_the_baseline_breaks_the_line():
    assert decide(glyph(0, 0), glyph(5, -4)) is JOIN  # baseline jitter
    assert decide(glyph(0, 0), glyph(0, -12)) is NEWLINE
    assert decide(glyph(0, 0), glyph(5, -12)) is NEWLINE  # even where the last glyph ended


def test_script_step_stays_on_the_line():
    # Raised by more than line_gap but less than one box height, from the glyph end.
    assert decide(glyph(0, 0), glyph(5, 6)) is JOIN
    assert decide(glyph(0, 0), glyph(4, -6)) is JOIN
    assert decide(glyph(0, 0, h=10.0), glyph(5, 6, h=6.0)) is JOIN
    # The same rise far from the glyph end, or a full box height, is a new line.
    assert decide(glyph(0, 0), glyph(25, 6)) is NEWLINE
    assert decide(glyph(0, 0), glyph(5, 11)) is NEWLINE


def test_jump_back_along_the_baseline_breaks_the_line():
    assert decide(glyph(0, 0), glyph(-24, 0)) is JOIN  # 29 back from the glyph end
    assert decide(glyph(0, 0), glyph(-26, 0)) is NEWLINE  # 31 back
    assert decide(glyph(0, 0), glyph(-26, 0), rules=Rules(0.15, 0.5, 4.0)) is JOIN


def test_turn_of_the_writing_direction_breaks_the_line():
    assert decide(glyph(0, 0), glyph(5, 0, angle=10.0)) is JOIN  # text on a curve
    assert decide(glyph(0, 0), glyph(5, 0, angle=90.0)) is NEWLINE
    assert decide(glyph(0, 0), glyph(5, 0, angle=180.0)) is NEWLINE


def test_rotated_line_is_read_along_its_own_direction():
    prev = glyph(100, 100, angle=90.0)
    assert decide(prev, glyph(100, 105, angle=90.0)) is JOIN
    assert decide(prev, glyph(100, 107, angle=90.0)).verdict is Verdict.SPACE
    assert decide(prev, glyph(88, 100, angle=90.0)) is NEWLINE


def test_upright_cjk_stacked_below_continues_the_column():
    prev = glyph(0, 0, advance=10.0)
    assert decide(prev, glyph(0, -10, advance=10.0), "日", "本") is JOIN
    assert decide(prev, glyph(0, -10, advance=10.0), "a", "b") is NEWLINE
    assert decide(prev, glyph(-8, -10, advance=10.0), "日", "本") is NEWLINE  # below and aside
    assert decide(prev, glyph(0, -25, advance=10.0), "日", "本") is NEWLINE  # too far below


# -- letter spacing and options ----------------------------------------------------------------

def test_letter_spacing_limit_of_a_spaced_line():
    # Most gaps are spaces of ~0.3 box heights: that is the tracking, and a space must be
    # wider than it by word_gap.
    assert RULES.settle_limit([0.3, 0.3, 0.3, 0.6], pairs=5) == pytest.approx(0.45)
    assert RULES.settle_limit([0.3, 0.6, 0.3], pairs=3) == pytest.approx(0.45)


def test_no_letter_spacing_on_an_ordinary_line():
    assert RULES.settle_limit([0.3, 0.3], pairs=10) is None  # spaces are the minority
    assert RULES.settle_limit([0.3], pairs=1) is None  # one space proves nothing
    assert RULES.settle_limit([0.7, 0.7, 0.8], pairs=3) is None  # too wide for tracking


def test_options_in_range_for_the_run_walk():
    assert RULES.in_range()
    assert Rules(0.0, 0.0, 0.0).in_range()
    for bad in (-0.1, math.inf, math.nan):
        assert not Rules(bad, 0.5, 3.0).in_range()
        assert not Rules(0.15, bad, 3.0).in_range()
        assert not Rules(0.15, 0.5, bad).in_range()


def test_space_with_a_negative_gap_is_still_a_space():
    # A negative word_gap (out of the run walk's range) makes overlapping glyphs a space;
    # the old float answer read any negative gap as its "new line" sentinel.
    rules = Rules(word_gap=-0.1, line_gap=0.5, back_jump=3.0)
    decision = decide(glyph(0, 0), glyph(4.5, 0), rules=rules)
    assert decision.verdict is Verdict.SPACE
    assert decision.gap == pytest.approx(-0.05)


@pytest.mark.parametrize("option", ["word_gap", "line_gap", "back_jump"])
@pytest.mark.parametrize("value", [-0.1, float("nan")])
def test_a_profile_cannot_set_a_negative_or_nan_gap(option, value):
    from glyphweave.core.errors import ProfileError
    from glyphweave.plugins.assemblers.reading import ReadingAssembler

    with pytest.raises(ProfileError, match=f"option '{option}' of 'reading' must be"):
        ReadingAssembler.validate_options({option: value})
