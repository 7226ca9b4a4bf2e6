"""The page-geometry layer: words, lines and blocks as the word-gap and line-break rules
(rules: assembly) define them, computed once per page and shared by every assembler.

An assembler asks for it with :meth:`PageContext.geometry
<glyphweave.core.stages.PageContext.geometry>`; the modules:

* :mod:`.rules`: the word-gap and line-break rules between two glyphs;
* :mod:`.runwalk` and :mod:`.glyphwalk`: the two walks that apply them in paint order
  (a run at a time, and the glyph-by-glyph reference), giving a :class:`~.walk.Walk`;
* :mod:`.lines`: lines and words with their direction, baseline, extent and box;
* :mod:`.blocks`: lines grouped into blocks;
* :mod:`.order`: geometric reading order (columns, rows, full-width blocks, directions);
* :mod:`.page`: :class:`~.page.PageGeometry`, the per-page object that holds them.
"""

from __future__ import annotations

from .blocks import Block, build_blocks
from .lines import Box, Line, Word
from .order import direction_groups, geometric_rows
from .page import PageGeometry
from .rules import WIDE_GAP, Decision, Rules, Side, Verdict, finish_text, is_cjk
from .walk import Walk

__all__ = [
    "WIDE_GAP", "Block", "Box", "Decision", "Line", "PageGeometry", "Rules", "Side", "Verdict", "Walk", "Word",
    "build_blocks", "direction_groups", "finish_text", "geometric_rows", "is_cjk",
]
