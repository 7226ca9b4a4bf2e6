"""The ``reading`` assembler works a run at a time (``assemble_runs``); these tests pin
that walk to the glyph-by-glyph reference walk (``assemble_glyphs``),
on runs built the way the interpreter builds them: a whole ``TJ`` operand is one run, its
numbers shift the following glyphs' starts but not the pen ends before them."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from itertools import accumulate

import pytest

from glyphweave.core.glyphtable import GlyphTable
from glyphweave.layout.glyphwalk import walk_glyphs
from glyphweave.layout.rules import Rules
from glyphweave.layout.runwalk import walk_runs
from glyphweave.plugins.assemblers.reading import ReadingAssembler
from glyphweave.testing.factories import TEST_FONT, add_text, page_context, text_of


def add_tj(
    table: GlyphTable,
    items: Sequence[str | float],
    x: float,
    y: float,
    *,
    size: float = 10.0,
    advance: float = 0.5,
    tc: float = 0.0,
    tw: float = 0.0,
    angle: float = 0.0,
    wmode: int = 0,
    rise: float = 0.0,
    unresolved: Sequence[int] = (),
    matrix: tuple[float, float, float, float] | None = None,
    extent: bool = True,
) -> GlyphTable:
    """One run from a TJ operand: strings (one glyph per character) and numbers
    (thousandths of an em; positive moves the pen back), recorded as the interpreter
    records them. ``tc``/``tw`` are in text-space units; writing mode 1 runs down.
    ``matrix`` (a, b, c, d) replaces the rotation by ``angle``. Like the interpreter, the
    run gets its extent when it only moves forward (unless ``extent`` is false)."""
    text = "".join(item for item in items if isinstance(item, str))
    n = len(text)
    shifts: list[tuple[int, float]] = []
    count = 0
    for item in items:
        if isinstance(item, str):
            count += len(item)
        else:
            shifts.append((count, -item / 1000.0 * size))
    if wmode == 0:
        own = [advance * size] * n
        lo, hi = -0.25 * size, 0.75 * size
    else:
        own = [-size] * n
        lo, hi = -size / 2, size / 2
    steps = [o + tc + (tw if ch == " " else 0.0) for o, ch in zip(own, text, strict=True)]
    pen = 0.0
    moves = list(steps)
    for k, shift in shifts:
        if k == 0:
            pen += shift
        elif k <= n:
            moves[k - 1] += shift
    positions = list(accumulate(moves, initial=pen))
    starts = positions[:-1]
    pens = positions[1:]
    for k, shift in shifts:
        if 0 < k <= n:
            pens[k - 1] -= shift
    known = None
    if extent and wmode == 0 and min(moves) > 0 and min(own) >= 0:
        known = (starts[0], max(pens[-1], starts[-1] + own[-1]), min(moves[:-1]) if n > 1 else math.inf)
    rad = math.radians(angle)
    a, b, c, d = matrix or (math.cos(rad), math.sin(rad), -math.sin(rad), math.cos(rad))
    table.add_run(
        font=table.font_index(TEST_FONT), size=size, matrix=(a, b, c, d, x, y), rise=rise, wmode=wmode,
        codes=[ord(ch) & 0xFF for ch in text], cids=None,
        decoded=[("", None) if i in unresolved else (ch, "test") for i, ch in enumerate(text)],
        starts=starts, advances=own, pens=pens, lo=lo, hi=hi, render=0, mcid=None, tag=None,
        actual_text=None, token=0, extent=known,
    )
    return table


def both(table: GlyphTable, indices: Sequence[int] | None = None, placeholder: str = " ", **options) -> str:
    """The text of both walks, which must agree; the run walk must not give up."""
    page = page_context(table, placeholder=placeholder)
    options.setdefault("recover", False)  # paint order as the walks give it
    assembler = ReadingAssembler(**ReadingAssembler.validate_options(options))
    chosen = ReadingAssembler.validate_options(options)
    rules = Rules(chosen["word_gap"], chosen["line_gap"], chosen["back_jump"])
    indices = range(len(table)) if indices is None else indices
    reference = assemble_glyphs(table, indices, placeholder, rules)
    fast = assemble_runs(table, indices, placeholder, rules)
    assert fast == reference
    assert text_of(assembler.assemble(page, indices)) == reference
    return reference


def assemble_glyphs(table: GlyphTable, indices: Sequence[int], placeholder: str, rules: Rules) -> str:
    """The reference walk's reading text."""
    return walk_glyphs(table, indices, placeholder, rules).text()


def assemble_runs(table: GlyphTable, indices: Sequence[int], placeholder: str, rules: Rules) -> str | None:
    """The run walk's reading text, None when it leaves the selection to the reference walk."""
    walk = walk_runs(table, indices, placeholder, rules)
    return None if walk is None else walk.text()


# -- TJ runs ---------------------------------------------------------------------------------

def test_word_gaps_inside_one_tj_run():
    # pdfTeX: one TJ per line, the word gaps are TJ numbers.
    t = add_tj(GlyphTable(), ["Most", -666, "wall", -700, "clocks"], 72, 700)
    assert both(t) == "Most wall clocks\n"


def test_kerning_inside_one_tj_run():
    t = add_tj(GlyphTable(), ["A", 80, "V", -20, "A", 111, "TAR", -10, "S"], 72, 700)
    assert both(t) == "AVATARS\n"


def test_tj_gap_at_the_threshold_is_decided_exactly():
    # A gap of exactly 0.15 box heights is no space; a hair more is one.
    t = add_tj(GlyphTable(), ["ab", -150, "cd"], 72, 700)
    add_tj(t, ["ab", -150.001, "cd"], 72, 680)
    assert both(t) == "abcd\nab cd\n"


def test_tj_letter_spacing_joined_with_word_break():
    # Every glyph placed 0.3 em after the last, the word break 0.3 em more.
    items = ["S", -300, "P", -300, "A", -300, "C", -300, "E", -300, "D", -600, "O", -300, "U", -300, "T"]
    t = add_tj(GlyphTable(), items, 72, 700)
    assert both(t) == "SPACED OUT\n"


def test_tj_with_tc_keeps_only_word_breaks():
    t = add_tj(GlyphTable(), ["Two", -330, "Words"], 72, 700, size=12, tc=4.0)
    assert both(t) == "Two Words\n"


def test_tj_space_glyph_then_gap_is_one_space():
    t = add_tj(GlyphTable(), ["and ", -400, "more"], 72, 700, tw=3.0)
    assert both(t) == "and more\n"


def test_cjk_tj_gap_is_no_space():
    t = add_tj(GlyphTable(), ["日本", -500, "語", -500, "PDF"], 72, 700, advance=1.0)
    assert both(t) == "日本語 PDF\n"


def test_back_jump_inside_a_run_breaks_the_line():
    # A TJ number that moves the pen back over 3 box heights, and a hugely negative Tc.
    t = add_tj(GlyphTable(), ["left", 5000, "right"], 72, 700)
    add_text(t, "abc", 72, 680, char_spacing=-40)
    assert both(t) == "left\nright\na\nb\nc\n"


def test_rotated_and_vertical_tj_runs():
    t = add_tj(GlyphTable(), ["up", -600, "hill"], 300, 300, angle=30)
    add_tj(t, ["縦", -300, "書き"], 500, 700, wmode=1)
    add_tj(t, ["side", -600, "ways"], 100, 100, angle=90)
    assert both(t) == "up hill\n縦書き\nside ways\n"


def test_unresolved_and_empty_glyphs_in_tj_runs():
    t = add_tj(GlyphTable(), ["ab", -400, "cd", -400, "ef"], 72, 700, unresolved=[1, 2])
    for placeholder in (" ", "", "\ufffd"):
        both(t, placeholder=placeholder)
    assert both(t, placeholder="") == "a d ef\n"


def test_partial_selection_of_tj_runs():
    t = add_tj(GlyphTable(), ["keep", -400, "drop", -400, "keep"], 72, 700)
    add_tj(t, ["next", -400, "line"], 72, 680)
    kept = [i for i in range(len(t)) if not 4 <= i <= 7]
    assert both(t, kept) == "keep keep\nnext line\n"
    assert both(t, list(range(12, 20))) == "next line\n"
    assert both(t, [0, 1, 9, 13]) == "ke e\ne\n"  # a gap over left-out glyphs is a gap


def test_indices_out_of_order_use_the_reference_walk():
    t = add_tj(GlyphTable(), ["ab", -400, "cd"], 72, 700)
    page = page_context(t)
    assembler = ReadingAssembler(**ReadingAssembler.validate_options({}))
    rules = Rules(0.15, 0.5, 3.0)
    for indices in ([2, 0, 1], [0, 0, 1], [0, 1, 1], [-1, 0, 1]):
        assert assemble_runs(t, indices, " ", rules) is None
        assert text_of(assembler.assemble(page, indices)) == assemble_glyphs(t, indices, " ", rules)
    assert assemble_runs(t, [0, 1, 9], " ", rules) is None
    with pytest.raises(IndexError):
        assembler.assemble(page, [0, 1, 9])


def test_axis_parallel_runs_that_are_not_upright():
    # Exact matrices: upside down, slanted (c != 0), writing mode 1 down the page.
    t = add_tj(GlyphTable(), ["down", -600, "side"], 400, 500, matrix=(-1.0, 0.0, 0.0, -1.0))
    add_tj(t, ["u"], 300, 500, matrix=(-1.0, 0.0, 0.0, -1.0))
    add_tj(t, ["slanted", -600, "text"], 72, 300, matrix=(1.0, 0.0, 0.3, 1.0))
    add_tj(t, ["縦", -300, "書"], 500, 700, wmode=1, matrix=(1.0, 0.0, 0.0, 1.0))
    add_tj(t, ["X"], 480, 700, wmode=1, matrix=(1.0, 0.0, 0.0, 1.0))
    assert both(t) == "down side u\nslanted text\n縦書\nX\n"


@pytest.mark.parametrize("options", [{"word_gap": 0.0}, {"line_gap": 0.0, "back_jump": 0.0}, {"word_gap": 2.0}])
def test_options_at_their_limits(options):
    t = add_tj(GlyphTable(), ["Most", -666, "wall", 20, "clocks"], 72, 700)
    add_text(t, "next", 72, 690)
    add_tj(t, ["x", -250, "y"], 100, 690, rise=4.0)
    both(t, **options)


def test_non_finite_offsets_use_the_reference_walk():
    t = add_tj(GlyphTable(), ["ab", -400, "cd"], 72, 700)
    add_tj(t, ["ef", float("inf"), "gh"], 72, 680)
    add_tj(t, ["ij", float("nan"), "kl"], 72, 660)
    both(t)


# -- against the reference walk --------------------------------------------------------------

_ALPHABET = "abcdefghij  .,日本語"


def _random_page(rng: random.Random) -> GlyphTable:
    t = GlyphTable()
    x, y = 72.0, 700.0
    for _ in range(rng.randint(1, 12)):
        size = rng.choice([10.0, 10.0, 8.0, 14.0])
        angle = rng.choice([0.0] * 6 + [90.0, 180.0, 30.0, 0.5, -90.0])
        wmode = 1 if rng.random() < 0.1 else 0
        items: list[str | float] = []
        for _ in range(rng.randint(1, 5)):
            if items and rng.random() < 0.7:
                items.append(rng.choice([-333.0, -150.0, -150.001, -600.0, 20.0, 80.0, -40.0, 400.0, 4000.0]))
            items.append("".join(rng.choice(_ALPHABET) for _ in range(rng.randint(1, 6))))
        n = sum(len(i) for i in items if isinstance(i, str))
        unresolved = [i for i in range(n) if rng.random() < 0.05]
        add_tj(t, items, x, y, size=size, angle=angle, wmode=wmode, unresolved=unresolved, extent=rng.random() < 0.7,
               tc=rng.choice([0.0] * 5 + [2.0, -1.0, -45.0]), tw=rng.choice([0.0, 0.0, 3.0]),
               rise=rng.choice([0.0] * 5 + [4.0, -3.0]), advance=rng.choice([0.5, 0.5, 1.0]))
        move = rng.random()
        if move < 0.5:
            x += rng.choice([5.0, 20.0, 40.0, 1.5, 0.0])  # same baseline, somewhere along it
        elif move < 0.8:
            x, y = 72.0, y - rng.choice([12.0, 14.0, 6.0, 3.0, 20.0])
        else:
            x, y = rng.uniform(0, 600), rng.uniform(0, 800)
    return t


def test_random_pages_agree_with_the_reference_walk():
    rng = random.Random(20240611)
    for _ in range(300):
        t = _random_page(rng)
        total = len(t)
        selections: list[Sequence[int]] = [range(total)]
        selections.append([i for i in range(total) if rng.random() < 0.8])
        runs = t.runs()
        dropped = {k for k in range(len(runs)) if rng.random() < 0.3}
        selections.append([i for k, g in enumerate(runs) if k not in dropped for i in range(g.start, g.end)])
        options = rng.choice([{}, {}, {"word_gap": 0.0}, {"line_gap": 0.2}, {"back_jump": 0.5}])
        placeholder = rng.choice([" ", "", "\ufffd"])
        for indices in selections:
            if len(indices):
                both(t, indices, placeholder=placeholder, **options)
