"""The compiled build's sweep for the ``dedup`` filter (``_coverprint``) gives what the
reference (:func:`glyphweave.plugins.filters.overprint.suspects`) gives: the same glyphs, the
same give-up, the same looks at the clock, the same errors.

Skipped where the C module is not built (a pure install); the ``mypyc`` tox environment
builds it, and compares both builds' text on every shared PDF besides.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphweave.core.glyphtable import GlyphTable
from glyphweave.plugins.filters import overprint
from glyphweave.testing.factories import add_text

native = pytest.importorskip("glyphweave.plugins.filters._coverprint",
                             reason="the C sweep is not built (a pure install)")


def _both(table: GlyphTable, *arguments: Any, **options: Any) -> Any:
    """Both sweeps' answers (a set, or ``range`` when they give up) and the clock's looks,
    asserted equal; the reference's answer."""
    answers = []
    for suspects in (overprint.suspects, native.suspects):
        looks: list[int] = []

        def look(seen: list[int] = looks) -> None:
            seen.append(1)

        try:
            found = suspects(table, *arguments, check_time=look, **options)
        except Exception as exc:  # noqa: BLE001 (both must raise alike)
            found = (type(exc), str(exc))
        answers.append((found if not isinstance(found, set) else ("set", sorted(found)), len(looks)))
    assert answers[1] == answers[0]
    return answers[0][0]


_TEXTS = st.sampled_from(["a", "ab", "a b", "Hello", "ff", "x"])
_SIZES = st.sampled_from([0.0, 4.0, 7.9, 8.0, 8.2, 16.0, 16.5, 32.0])
_ANGLES = st.sampled_from([0.0, 0.0, 0.0, 3.0, 45.0, 90.0, 180.0, 270.0])


@st.composite
def _pages(draw: Any) -> GlyphTable:
    """Runs near each other (so that many pairs are compared), some on one line, some
    rotated, some of no height, some painted with no advance (pens standing still)."""
    table = GlyphTable()
    for _ in range(draw(st.integers(0, 60))):
        add_text(table, draw(_TEXTS), 100 + draw(st.floats(-20, 20)), 500 + draw(st.floats(-20, 20)),
                 size=draw(_SIZES), angle=draw(_ANGLES), advance=draw(st.sampled_from([0.5, 0.0, 0.6])),
                 wmode=draw(st.sampled_from([0, 0, 0, 1])))
    return table


@settings(max_examples=300, deadline=None)
@given(_pages(), st.sampled_from([(0.1, 0.2, 0.05), (0.3, 0.5, 0.2), (0.0, 0.0, 0.0), (1.0, 0.1, 0.5)]),
       st.sampled_from([overprint.COMPARISONS_PER_RUN, 1, 0, -3, 10**9]),
       st.sampled_from([overprint.PAIRS_PER_RUN, 0, 10**9]))
def test_the_same_suspects_on_generated_pages(table, options, comparisons, pairs):
    along, across, tolerance = options
    _both(table, along, across, tolerance, 0.99, comparisons, pairs_per_run=pairs)


def test_the_same_on_a_stack_of_copies_and_its_clock():
    # 2,000 runs on one spot: the clock is looked at every 65,536 comparisons, the pairs
    # kept past their budget give up, an unbounded budget pairs every copy.
    table = GlyphTable()
    for _ in range(2000):
        add_text(table, "Hello", 100, 500)
    add_text(table, "far", 400, 100)
    assert _both(table, 0.1, 0.2, 0.05, 0.99) == range(len(table))
    assert _both(table, 0.1, 0.2, 0.05, 0.99, 10**9, pairs_per_run=10**9) == ("set", list(range(len(table) - 3)))


def test_defaults_and_errors_alike():
    table = GlyphTable()
    add_text(table, "Hello", 100, 500)
    add_text(table, "Hello", 100.2, 500)
    assert native.suspects(table, 0.1, 0.2, 0.05, 0.99) == overprint.suspects(table, 0.1, 0.2, 0.05, 0.99)
    _both(table, 0.1, 0.2, 1.0, 0.99)  # a tolerance of 1 divides by zero in both
    _both(table, 0.1, 0.2, 0.05, 0.99, 2.5)  # a budget that is not an integer: the reference's
    _both(table, 0.1, 0.2, 0.05, 0.99, 1 << 70)  # past a machine integer: the reference's
    _both(table, 3, 0, 0.05, 0.99)  # integer options


@pytest.mark.parametrize("y", [math.inf, -math.inf, math.nan, 1e308])
def test_runs_off_the_number_line_go_to_the_reference(y):
    # A span's bottom of NaN (inf - inf) cannot be sorted as Python sorts it: the
    # reference answers; infinite and huge origins are swept in C, as the reference does.
    table = GlyphTable()
    add_text(table, "Hello", 100, 500)
    add_text(table, "Hello", 100.2, 500)
    add_text(table, "Hello", 100, y)
    add_text(table, "Hello", 100, 500.1, size=10.2)
    _both(table, 0.1, 0.2, 0.05, 0.99)
    _both(table, math.inf, 0.2, 0.05, 0.99)


def test_a_common_page_is_swept_in_c(monkeypatch):
    # Fake bold, a shadow and plain lines: none of it is handed to the reference.
    table = GlyphTable()
    for row in range(20):
        add_text(table, "plain words", 36, 700 - 12 * row)
    add_text(table, "Bold", 36, 400)
    add_text(table, "Bold", 36.3, 400)
    expected = overprint.suspects(table, 0.1, 0.2, 0.05, 0.99)

    def reference(*arguments: Any, **options: Any) -> Any:
        raise AssertionError("handed to the reference")

    monkeypatch.setattr(overprint, "suspects", reference)
    assert native.suspects(table, 0.1, 0.2, 0.05, 0.99) == expected != set()
