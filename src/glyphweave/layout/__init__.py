"""The layout engine: words, lines and blocks as the word-gap and line-break rules (rules:
assembly) define them, reading order, order recovery and the bidi and ligature rules,
computed once per page and shared by every assembler.

This is the second, **provisional** contract for plugin authors (``docs/plugins.rst``):
the names below may change in a minor API version
(:data:`glyphweave.plugin.API_VERSION`), because every improvement to reading order
changes them. A component that needs only the stable contract imports from
:mod:`glyphweave.plugin`. The layout layer imports core only; the assemblers stand on it.

An assembler asks for a page's geometry with :func:`~.page.page_geometry`, which keeps it
on the page (:meth:`PageContext.memo <glyphweave.core.stages.PageContext.memo>`); the
modules:

* :mod:`.rules`: the word-gap and line-break rules between two glyphs;
* :mod:`.runwalk` and :mod:`.glyphwalk`: the two walks that apply them in paint order
  (a run at a time, and the glyph-by-glyph reference), giving a :class:`~.walk.Walk`;
* :mod:`.lines`: lines and words with their direction, baseline, extent and box;
* :mod:`.blocks`: lines grouped into blocks;
* :mod:`.order`: geometric reading order (columns, rows, full-width blocks, directions);
* :mod:`.recovery`: order recovery, where paint order contradicts the geometry badly;
* :mod:`.scripts`: Latin ligatures, Arabic presentation forms, visual to logical order;
* :mod:`.indic`: Indic vowel signs drawn before their consonant put after it, as typed;
* :mod:`.visual`: a line's glyphs in visual order with the word spaces between neighbours on
  the page, what the visual-to-logical order reads;
* :mod:`.mathletters`: mathematical letters folded to plain letters and digits;
* :mod:`.hyphens`: dehyphenation of a page's lines (soft hyphens, words split at line ends);
* :mod:`.page`: :class:`~.page.PageGeometry`, the per-page object that holds them;
* :mod:`.coverage`: how much of a page a tagged PDF's structure tree covers (the
  structure records themselves, :class:`PageStructure` and :class:`StructItem`, are core's:
  the PDF engine fills them).
"""

from __future__ import annotations

from glyphweave.core.structure import ContentKey, PageStructure, StructItem

from .bands import read_bands
from .blocks import Block, build_blocks
from .coverage import Coverage, content_keys, coverage
from .hyphens import WordList, dehyphenate
from .lines import Box, Line, Word
from .mathletters import fold_math_letters
from .order import direction_groups, geometric_rows
from .page import PageGeometry, page_geometry, paint_order_text
from .recovery import Recovery, join_backwards, recover
from .rules import WIDE_GAP, Decision, Rules, Side, Verdict, finish_text, is_cjk
from .scripts import expand_ligatures, has_rtl, logical_order, normalize_arabic_forms
from .walk import Walk

__all__ = [
    "WIDE_GAP", "Block", "Box", "ContentKey", "Coverage", "Decision", "Line", "PageGeometry", "PageStructure",
    "Recovery", "Rules", "Side", "StructItem", "Verdict", "Walk", "Word", "WordList", "build_blocks",
    "content_keys", "coverage", "dehyphenate", "direction_groups", "expand_ligatures", "finish_text",
    "fold_math_letters", "geometric_rows", "has_rtl", "is_cjk", "join_backwards", "logical_order", "normalize_arabic_forms", "page_geometry", "paint_order_text",
    "read_bands", "recover",
]
