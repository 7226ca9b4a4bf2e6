"""Word spaces in mathematics (rules: assembly): the spaces math sets around operators
always stand (a formula is not a letter-spaced line), and a large operator takes no space
before its operand."""

from __future__ import annotations

import pytest

from glyphweave.core.glyphtable import GlyphTable
from glyphweave.layout.rules import operator_space
from glyphweave.plugins.assemblers.reading import ReadingAssembler
from glyphweave.testing.factories import add_text, page_context, text_of


def assemble(table: GlyphTable) -> str:
    assembler = ReadingAssembler(**ReadingAssembler.validate_options({}))
    return text_of(assembler.assemble(page_context(table), range(len(table))))


def formula(pieces: list[tuple[str, float]], size: float = 10.0) -> GlyphTable:
    """Pieces painted one after another on one baseline, each after a gap (in ems) from the
    end of the one before: as TeX and typst set mathematics."""
    table = GlyphTable()
    x = 100.0
    for text, gap in pieces:
        x += gap * size
        add_text(table, text, x, 500.0, size=size)
        x += 0.5 * size * len(text)
    return table


def test_spaces_around_operators_are_not_taken_for_letter_spacing():
    # x = −b ± √b2 − 4ac: six of the line's eleven gaps are operator spaces (0.22-0.28 em), a
    # majority, which made the line look letter-spaced and lose them all.
    pieces = [("x", 0.0), ("=", 0.28), ("\u2212b", 0.28), ("\u00b1", 0.22), ("\u221ab2", 0.22), ("\u2212", 0.22),
              ("4ac", 0.22)]
    assert assemble(formula(pieces)) == "x = \u2212b \u00b1 \u221ab2 \u2212 4ac\n"


def test_a_letter_spaced_line_still_loses_its_letter_spacing():
    assert assemble(formula([(ch, 0.3 if k else 0.0) for k, ch in enumerate("TRACKED")])) == "TRACKED\n"


@pytest.mark.parametrize(("gap", "expected"), [(0.17, "\u2211xi\n"), (0.6, "\u2211 xi\n")])
def test_a_large_operator_takes_its_operand_without_a_space(gap, expected):
    assert assemble(formula([("\u2211", 0.0), ("xi", gap)])) == expected


def test_what_an_operator_space_is():
    assert operator_space("x", "=") and operator_space("\u00b1", "b") and operator_space("", "\u2212")
    assert not operator_space("word", "next") and not operator_space("", "") and not operator_space("a", "-")
