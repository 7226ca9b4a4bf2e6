"""The prose assemblers finish a page's text: math letters folded, split words joined
(synthetic glyph tables: lines painted by hand)."""

from __future__ import annotations

import pytest

from glyphweave.core.glyphtable import GlyphTable
from glyphweave.plugins.assemblers.auto import AutoAssembler
from glyphweave.plugins.assemblers.columns import ColumnsAssembler
from glyphweave.plugins.assemblers.layout import LayoutAssembler
from glyphweave.plugins.assemblers.reading import ReadingAssembler
from glyphweave.plugins.assemblers.structure import StructureAssembler
from glyphweave.testing.factories import add_text, page_context, text_of

PROSE = [ReadingAssembler, ColumnsAssembler, AutoAssembler, StructureAssembler]


def assemble(cls, table: GlyphTable, **options) -> str:
    assembler = cls(**cls.validate_options(options))
    return text_of(assembler.assemble(page_context(table), range(len(table))))


def lines(*texts: str) -> GlyphTable:
    """One line per text, 14 pt apart, left-aligned: a paragraph."""
    table = GlyphTable()
    for k, text in enumerate(texts):
        add_text(table, text, 72.0, 700.0 - 14.0 * k)
    return table


@pytest.mark.parametrize("cls", PROSE)
def test_split_words_join_and_compounds_stay(cls):
    table = lines("the old mu-", "nicipal park has a hand-", "held lamp and a sun\u00ad", "dial")
    assert assemble(cls, table, language="") == "the old municipal\npark has a handheld\nlamp and a sundial\n"
    # a page that writes the compound within a line keeps its hyphen at the line end, whole
    table = lines("a hand-held torch and a hand-", "held lamp")
    assert assemble(cls, table, language="") == "a hand-held torch and a hand-held\nlamp\n"


@pytest.mark.parametrize("cls", PROSE)
def test_dehyphenate_off_and_all(cls):
    table = lines("a well-known fact: twenty-", "four birds")
    assert assemble(cls, table, dehyphenate="off") == "a well-known fact: twenty-\nfour birds\n"
    assert assemble(cls, table, dehyphenate="all") == "a well-known fact: twentyfour\nbirds\n"


def test_word_list_keeps_a_compound_the_page_does_not_write():
    pytest.importorskip("wordfreq")
    table = lines("we counted twenty-", "four birds and mu-", "nicipal ducks")
    assert assemble(ReadingAssembler, table) == "we counted twenty-four\nbirds and municipal\nducks\n"


@pytest.mark.parametrize("cls", [*PROSE, LayoutAssembler])
def test_math_letters_fold_unless_kept(cls):
    table = lines("\U0001d438 = \U0001d45a\U0001d450")
    assert assemble(cls, table) == "E = mc\n"
    assert assemble(cls, table, math_letters=True) == "\U0001d438 = \U0001d45a\U0001d450\n"


def test_superscript_attaches_to_its_base():
    table = GlyphTable()
    add_text(table, "\U0001d438 = \U0001d45a\U0001d450", 72.0, 700.0)
    add_text(table, "2", 72.0 + 6 * 5.0, 700.0, size=7.0, rise=4.0)
    assert assemble(AutoAssembler, table) == "E = mc2\n"


def test_layout_grid_never_joins_lines():
    table = lines("the old mu-", "nicipal park and a sun\u00ad", "dial")
    assert assemble(LayoutAssembler, table) == "the old mu-\nnicipal park and a sun-\ndial\n"


def test_option_is_validated():
    from glyphweave.core.errors import ProfileError

    with pytest.raises(ProfileError, match="dehyphenate"):
        ReadingAssembler.validate_options({"dehyphenate": "sometimes"})
