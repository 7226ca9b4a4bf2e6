"""``columns``: multi-column pages read column by column (SPEC §5).

Built on the shared page geometry as any assembler can be: the lines of the reading rules
are cut at wide gaps, and the pieces are put in geometric reading order
(``geometric_rows``): gutters are found from whitespace, not assumed; a gutter counts only
between two columns of text (narrow table cells are read across, row by row); titles,
spanning captions and footers that cross a gutter keep their place between the bands of
columns; vertical writing reads its columns right to left; text in other directions
follows the main text, one direction at a time.
"""

from __future__ import annotations

from collections.abc import Sequence

from glyphweave.plugin import Assembler, Option, PageContext, geometric_rows, hookimpl

# The options shared by the geometric assemblers: the reading rules that make the lines,
# and the thresholds of the geometric order.
GEOMETRY_OPTIONS = {
    "word_gap": Option(
        default=0.15, minimum=0.0, maximum=100.0,
        doc="A gap wider than this many box heights (after tracking is taken out) is a word space.",
    ),
    "line_gap": Option(
        default=0.5, minimum=0.0, maximum=100.0,
        doc="A move across the writing direction larger than this many box heights is a new line.",
    ),
    "back_jump": Option(
        default=3.0, minimum=0.0, maximum=100.0,
        doc="A jump backwards along the writing direction larger than this many box heights is a new line.",
    ),
    "ligatures": Option(
        default=False,
        doc="Keep the Latin ligature forms U+FB00-FB06 (\"ﬁ\") instead of expanding them to their letters.",
    ),
    "gap": Option(
        default=3.0, minimum=0.0, maximum=1000.0,
        doc="A gap along a line of at least this many typical glyph advances cuts it into pieces that may "
        "belong to different columns (0: lines are never cut).",
    ),
    "min_width": Option(
        default=12.0, minimum=0.0, maximum=10000.0,
        doc="A column must have a median piece length of at least this many typical advances on each side "
        "of its gutter: narrower pieces are table cells, read across.",
    ),
    "min_lines": Option(
        default=2, minimum=1, maximum=10000,
        doc="A column must have at least this many pieces on each side of its gutter.",
    ),
}


class ColumnsAssembler(Assembler):
    """Geometric reading order: columns found from whitespace, read one after the other."""

    NAME = "columns"
    OPTIONS = GEOMETRY_OPTIONS

    word_gap: float
    line_gap: float
    back_jump: float
    ligatures: bool
    gap: float
    min_width: float
    min_lines: int

    def assemble(self, page: PageContext, indices: Sequence[int]) -> str:
        if not len(indices):
            return ""
        geometry = page.geometry(indices, word_gap=self.word_gap, line_gap=self.line_gap,
                                 back_jump=self.back_jump, ligatures=self.ligatures)
        advance = geometry.advance
        rows = geometric_rows(geometry.lines, gap=self.gap * advance, min_width=self.min_width * advance,
                              min_lines=self.min_lines)
        return geometry.text_of_rows(rows)


@hookimpl
def glyphweave_register_assemblers() -> list[type[Assembler]]:
    return [ColumnsAssembler]
