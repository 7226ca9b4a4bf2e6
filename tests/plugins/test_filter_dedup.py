from __future__ import annotations

import pytest

from glyphweave.core.errors import ProfileError
from glyphweave.core.glyphtable import GlyphTable
from glyphweave.plugins.filters import dedup, overprint
from glyphweave.plugins.filters.dedup import DedupFilter
from glyphweave.testing.factories import add_text, page_context


def run(table: GlyphTable, indices=None, **options) -> list[int]:
    f = DedupFilter(**DedupFilter.validate_options(options))
    return f.apply(page_context(table), range(len(table)) if indices is None else indices)


def kept_text(table: GlyphTable, kept: list[int]) -> str:
    return "".join(table.text[i] for i in kept)


def test_registration_and_options():
    assert dedup.glyphweave_register_filters() == [DedupFilter]
    assert DedupFilter.NAME == "dedup"
    assert DedupFilter.validate_options({}) == {"along": 0.1, "across": 0.2, "size_tolerance": 0.05,
                                               "shadow": 0.35}
    with pytest.raises(ProfileError):
        DedupFilter(size_tolerance=1.0)
    with pytest.raises(ProfileError):
        DedupFilter(along=-0.1)


def test_fake_bold_word_painted_twice():
    t = GlyphTable()
    add_text(t, "Bold", 100, 500)
    add_text(t, "Bold", 100.3, 500)
    assert run(t) == [0, 1, 2, 3]


def test_shadow_offset_dropped():
    # 12 pt text (box height 12): 0.5 pt right and down is well inside 1.2 / 2.4 pt.
    t = GlyphTable()
    add_text(t, "Title", 100, 500, size=12)
    add_text(t, "Title", 100.5, 499.5, size=12)
    assert kept_text(t, run(t)) == "Title"
    assert run(t) == [0, 1, 2, 3, 4]


def test_first_painted_wins_regardless_of_received_order():
    t = GlyphTable()
    add_text(t, "ab", 100, 500)
    add_text(t, "ab", 100.2, 500)
    assert run(t, indices=[3, 1, 2, 0]) == [1, 0]


def test_triple_strike_collapses_to_first():
    t = GlyphTable()
    for dx in (0.0, 0.3, 0.6):
        add_text(t, "x", 100 + dx, 500)
    assert run(t) == [0]


def test_drifting_chain_compared_against_survivor():
    # Each copy 0.08 × size from the previous: the second matches the first; the third is
    # 0.16 × size from the survivor (the dropped second does not relay the match).
    t = GlyphTable()
    for k in range(3):
        add_text(t, "x", 100 + 0.8 * k, 500)
    assert run(t) == [0, 2]


def test_along_and_across_bounds():
    t = GlyphTable()
    add_text(t, "a", 100, 500)
    add_text(t, "a", 100.9, 500)  # 0.09 along: same
    add_text(t, "b", 200, 500)
    add_text(t, "b", 201.1, 500)  # 0.11 along: different
    add_text(t, "c", 300, 500)
    add_text(t, "c", 300, 501.9)  # 0.19 across: same
    add_text(t, "d", 400, 500)
    add_text(t, "d", 400, 502.1)  # 0.21 across: different
    assert run(t) == [0, 2, 3, 4, 6, 7]


def test_options_change_tolerances():
    t = GlyphTable()
    add_text(t, "a", 100, 500)
    add_text(t, "a", 101.5, 500)
    assert run(t) == [0, 1]
    assert run(t, along=0.2) == [0]


def test_double_letters_kept():
    t = GlyphTable()
    add_text(t, "coffee", 100, 500, advance=[0.5, 0.556, 0.278, 0.278, 0.556, 0.556])
    add_text(t, "fill", 100, 480, advance=[0.278, 0.222, 0.222, 0.222])
    assert kept_text(t, run(t)) == "coffeefill"


def test_identical_table_cells_kept():
    t = GlyphTable()
    for x in (100, 200, 300):
        for y in (500, 488, 476):
            add_text(t, "0.00", x, y)
    assert len(run(t)) == len(t)


def test_spaces_never_candidates():
    t = GlyphTable()
    for ch in (" ", "\u00a0", "\u3000", "\t", "  "):
        add_text(t, ch, 100, 500)
        add_text(t, ch, 100, 500)
    assert len(run(t)) == len(t)


def test_unresolved_never_candidates():
    t = GlyphTable()
    add_text(t, "ab", 100, 500, unresolved=[0, 1])
    add_text(t, "ab", 100, 500, unresolved=[0, 1])
    assert t.decoded_by[0] is None and t.text[0] == ""
    assert run(t) == [0, 1, 2, 3]


def test_different_sizes_kept():
    t = GlyphTable()
    add_text(t, "S", 100, 500, size=10)
    add_text(t, "S", 100, 500, size=11)  # 9% larger
    add_text(t, "T", 200, 500, size=10)
    add_text(t, "T", 200, 500, size=10.4)  # 4% larger: same glyph
    assert run(t) == [0, 1, 2]


def test_size_is_box_height_not_tf():
    # Same Tf, but one copy squashed to half height (a different painted size).
    t = GlyphTable()
    add_text(t, "a", 100, 500)
    add_text(t, "a", 100, 500, ascent=0.375, descent=-0.125)
    assert run(t) == [0, 1]


def test_different_direction_kept():
    t = GlyphTable()
    add_text(t, "a", 100, 500)
    add_text(t, "a", 100, 500, angle=30)
    add_text(t, "b", 200, 500)
    add_text(t, "b", 200, 500, angle=5)  # within the direction tolerance
    assert run(t) == [0, 1, 2]


def test_rotated_90_offsets_measured_in_glyph_frame():
    # Baseline runs up: 1.5 pt up is 0.15 × size *along* (different glyphs), 1.5 pt
    # sideways is 0.15 × size *across* (same glyph). Unrotated it would be the reverse.
    t = GlyphTable()
    add_text(t, "a", 100, 500, angle=90)
    add_text(t, "a", 100, 501.5, angle=90)
    add_text(t, "b", 200, 500, angle=90)
    add_text(t, "b", 201.5, 500, angle=90)
    assert run(t) == [0, 1, 2]


def test_vertical_writing_mode_duplicates():
    t = GlyphTable()
    add_text(t, "字字", 100, 500, wmode=1)
    add_text(t, "字字", 100.4, 500, wmode=1)
    assert run(t) == [0, 1]  # the column's two real characters survive, the copies do not


def test_zero_height_never_candidates():
    t = GlyphTable()
    add_text(t, "a", 100, 500, ascent=0.0, descent=0.0)
    add_text(t, "a", 100, 500, ascent=0.0, descent=0.0)
    assert run(t) == [0, 1]


def test_filtered_subset_only():
    # A copy whose original an earlier filter removed is no longer a duplicate.
    t = GlyphTable()
    add_text(t, "a", 100, 500)
    add_text(t, "a", 100.2, 500)
    assert run(t, indices=[1]) == [1]


def test_mixed_heights_across_class_boundary():
    # Box heights 15.9 and 16.3 straddle a power of two; still within 5%.
    t = GlyphTable()
    add_text(t, "m", 100, 500, size=15.9)
    add_text(t, "m", 100.5, 500, size=16.3)
    add_text(t, "m", 300, 500, size=100)
    add_text(t, "m", 300, 500, size=9)
    assert run(t) == [0, 2, 3]


def test_large_page():
    # 400 lines of 100 glyphs from a two-letter alphabet, every line starting at the same
    # x (aligned columns of identical letters), plus 100 fake-bold lines: 50,000 glyphs.
    t = GlyphTable()
    line = "aabbab" * 16 + "bbaa"
    for row in range(400):
        add_text(t, line, 36, 20 + 12 * row, size=10, advance=0.5)
    for row in range(0, 400, 4):
        add_text(t, line, 36.3, 20.1 + 12 * row, size=10, advance=0.5)
    assert len(t) == 50_000
    kept = run(t)
    assert kept == list(range(40_000))


def _brute_force(t: GlyphTable, along=0.1, across=0.2, tol=0.05) -> list[int]:
    """The rule as written, O(n²): each glyph against every kept earlier glyph."""
    kept: list[int] = []
    for j in range(len(t)):
        text = t.text[j]
        candidate = t.decoded_by[j] is not None and text.strip(" \t\u00a0\u3000") != ""
        for k in kept if candidate else ():
            hj, hk = t.height[j], t.height[k]
            if t.text[k] != text or abs(hj - hk) > tol * max(hj, hk):
                continue
            if t.dx[j] * t.dx[k] + t.dy[j] * t.dy[k] <= 0.99:
                continue
            vx, vy = t.ox[j] - t.ox[k], t.oy[j] - t.oy[k]
            a = vx * t.dx[k] + vy * t.dy[k]
            c = vy * t.dx[k] - vx * t.dy[k]
            if abs(a) <= along * hk and abs(c) <= across * hk:
                break
        else:
            kept.append(j)
    return kept


@pytest.mark.parametrize("budget", [overprint.COMPARISONS_PER_RUN, 10**9])
@pytest.mark.parametrize("seed", range(5))
def test_matches_brute_force_on_random_overprint(seed, budget, monkeypatch):
    # 300 runs within a few points of each other: past the sweep's default budget, so
    # both the sweep's pairs and its give-up (every glyph a suspect) are checked.
    import random

    monkeypatch.setattr(dedup, "COMPARISONS_PER_RUN", budget)
    rng = random.Random(seed)
    t = GlyphTable()
    for _ in range(300):
        add_text(
            t,
            rng.choice(["a", "b", "ab", "a b"]),
            100 + rng.uniform(-3, 3),
            500 + rng.uniform(-3, 3),
            size=rng.choice([7.9, 8.0, 8.2, 8.5, 15.8, 16.0, 16.5, 32.0]),
            angle=rng.choice([0.0, 0.0, 3.0, 90.0, 180.0, 45.0]),
        )
    expected = _brute_force(t)
    assert 0 < len(expected) < len(t)  # the page exercises both outcomes
    assert run(t) == expected


def _stack(copies: int) -> GlyphTable:
    """``copies`` runs of one word painted on one spot, and a word far from them."""
    t = GlyphTable()
    for _ in range(copies):
        add_text(t, "Hello", 100, 500)
    add_text(t, "far", 400, 100)
    return t


def test_a_stack_of_copies_keeps_the_first_and_the_sweep_gives_up_on_it():
    t = _stack(3000)  # 4.5 million pairs of runs for a sweep that did not give up
    kept = run(t)
    assert kept_text(t, kept) == "Hellofar"
    assert kept == [0, 1, 2, 3, 4, *range(len(t) - 3, len(t))]
    # Given up, every glyph is a suspect, the far word too; with the budget lifted the
    # sweep pairs the copies only, and the filter's answer is the same.
    small = _stack(200)
    given_up = overprint.suspects(small, 0.1, 0.2, 0.05, 0.99)
    swept = overprint.suspects(small, 0.1, 0.2, 0.05, 0.99, comparisons_per_run=10**9, pairs_per_run=10**9)
    assert given_up == range(len(small))
    assert swept == set(range(len(small) - 3))
    assert run(small) == [0, 1, 2, 3, 4, *range(len(small) - 3, len(small))]


# --------------------------------------------------------------------------- shadows: a string painted again
def _poster(dx: float, dy: float, second: str = "Friday 19 September", size: float = 17.0) -> GlyphTable:
    """A grey copy first, then the string itself ``dx``, ``dy`` away (fpdf2 and cairo draw
    text shadows so), beyond the tight per-glyph reach along the line."""
    t = GlyphTable()
    add_text(t, "Friday 19 September", 112.37, 545.39, size=17.0)
    add_text(t, second, 112.37 + dx, 545.39 + dy, size=size)
    return t


def test_a_shadow_copy_of_a_string_is_one_text():
    t = _poster(-2.27, 1.70)  # 0.17 em: 0.13 em along the line, past the tight test's 0.1
    assert kept_text(t, run(t, shadow=0.0)) == "Friday 19 SeptemberFriday 19 September"
    assert kept_text(t, run(t)) == "Friday 19 September"
    assert run(t) == list(range(len("Friday 19 September")))  # the first painted copy wins


@pytest.mark.parametrize("dx, dy", [(5.0, 0.0), (0.0, -5.0), (-4.2, -4.2)])
def test_a_shadow_in_any_direction_within_reach(dx, dy):
    t = _poster(dx, dy)  # about 0.3 em
    assert kept_text(t, run(t)) == "Friday 19 September"


def test_a_shadow_found_whether_codes_are_tuples_or_lists():
    # The interpreter records codes as tuples (found at C speed); a run built by hand may
    # hold a list, which cannot be hashed as it is.
    t = _poster(-2.27, 1.70)
    tupled = GlyphTable()
    tupled.extend([run._replace(codes=tuple(run.codes)) for run in t.raw_runs()])
    assert kept_text(tupled, run(tupled)) == kept_text(t, run(t)) == "Friday 19 September"


def test_a_page_with_no_string_painted_twice_is_left_alone():
    t = GlyphTable()
    add_text(t, "Friday 19 September", 112.37, 545.39)
    add_text(t, "Saturday 20 September", 112.37, 520.0)
    assert run(t) == list(range(len(t)))


def test_copies_farther_than_the_reach_stay():
    t = _poster(8.0, 0.0)  # 0.47 em: a second line of text would sit about that far only across
    assert len(run(t)) == 2 * len("Friday 19 September")


def test_a_copy_needs_three_glyphs_besides_spaces():
    t = GlyphTable()
    add_text(t, "11", 100, 500)
    add_text(t, "11", 102.5, 500)  # a quarter em: two table cells' digits do sit so
    assert len(run(t)) == 4
    t = GlyphTable()
    add_text(t, "1 1", 100, 500)  # a space is no third glyph
    add_text(t, "1 1", 102.5, 500)
    assert len(run(t)) == 6
    t = GlyphTable()
    add_text(t, "111", 100, 500)
    add_text(t, "111", 102.5, 500)  # three at one offset: a shadow
    assert len(run(t)) == 3


def test_a_copy_must_keep_one_offset_and_one_size():
    t = _poster(-2.27, 1.70, second="Friday 19 September", size=15.0)
    assert len(run(t)) == 2 * len("Friday 19 September")
    t = GlyphTable()
    add_text(t, "Friday", 100, 500, size=17.0)
    add_text(t, "Friday", 100, 504, size=17.0, advance=0.6)  # spaced otherwise: not one shifted copy
    assert len(run(t)) == 12


def test_a_copy_of_a_string_another_filter_removed_stays():
    t = _poster(-2.27, 1.70)
    n = len("Friday 19 September")
    assert run(t, indices=range(n, 2 * n)) == list(range(n, 2 * n))
