"""List markers painted after their items (order recovery): a bullet, a symbol or a number
left of its item, on its baseline or within half a line of it, comes first on the item's line."""

from __future__ import annotations

import pytest

from glyphweave.core.glyphtable import GlyphTable
from glyphweave.layout.recovery import is_list_marker
from glyphweave.plugins.assemblers.auto import AutoAssembler
from glyphweave.plugins.assemblers.reading import ReadingAssembler
from glyphweave.testing.factories import add_text, page_context, text_of

ITEMS = ["Telescopes open from nine", "Talk on the rings of Saturn", "Hot soup in the centre"]


def assemble(cls, table: GlyphTable, **options) -> str:
    assembler = cls(**cls.validate_options(options))
    return text_of(assembler.assemble(page_context(table), range(len(table))))


def listed(markers: list[str], *, x: float = 125.0, dy: float = 0.0) -> GlyphTable:
    """Each item painted, then its marker ``x`` (its left edge) and ``dy`` off its baseline."""
    table = GlyphTable()
    for k, (item, marker) in enumerate(zip(ITEMS, markers, strict=True)):
        y = 700.0 - 20.0 * k
        add_text(table, item, 150.0, y, size=12.0)
        add_text(table, marker, x, y + dy, size=12.0)
    return table


@pytest.mark.parametrize("cls", [ReadingAssembler, AutoAssembler])
@pytest.mark.parametrize("dy", [0.0, -2.0, 3.0])
@pytest.mark.parametrize("markers", [["\u2022"] * 3, ["\u25a0", "\u2756", "\u2192"], ["1.", "2.", "3."]])
def test_a_marker_painted_after_its_item_comes_first(cls, dy, markers):
    text = assemble(cls, listed(markers, dy=dy))
    assert text.splitlines() == [f"{m} {item}" for m, item in zip(markers, ITEMS, strict=True)]


def test_a_word_painted_after_a_line_stays_apart_at_a_list_indent():
    # A margin word, not a marker: an indent's distance is not a word space.
    text = assemble(ReadingAssembler, listed(["Note"] * 3, x=100.0))  # two line heights left
    assert text.splitlines()[:2] == [ITEMS[0], "Note"]


def test_a_marker_far_from_its_item_stays_apart():
    text = assemble(ReadingAssembler, listed(["\u2022"] * 3, x=40.0))  # eight line heights away
    assert text.splitlines()[:2] == [ITEMS[0], "\u2022"]


@pytest.mark.parametrize(("text", "marker"), [
    ("\u2022", True), ("\u25aa", True), ("\u2756 ", True), ("\u2192", True), ("\u2013", True), ("1.", True),
    ("12)", True), ("a)", True), ("(iv)", True), ("iv.", True), ("word", False), ("1", False), ("Note:", False),
    ("", False), ("\u2022\u2022\u2022", False),
])
def test_what_a_list_marker_is(text, marker):
    assert is_list_marker(text) is marker
