"""``columns``: multi-column pages read column by column (rules: assembly).

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

from glyphweave.plugin import Assembled, Assembler, PageContext, hookimpl

from ._shared import (
    GEOMETRY_OPTIONS,
    GeometryOptions,
    finished_read,
    ordered_rows,
    rows_order,
    rules_geometry,
)


class ColumnsAssembler(Assembler, GeometryOptions):
    """Geometric reading order: columns found from whitespace, read one after the other."""

    NAME = "columns"
    OPTIONS = GEOMETRY_OPTIONS

    def assemble(self, page: PageContext, indices: Sequence[int]) -> str | Assembled:
        if not len(indices):
            return ""
        geometry = rules_geometry(self, page, indices)
        page.check_time()  # the lines and their order cost more than the cheapest text
        lines = geometry.lines
        page.check_time()
        rows = ordered_rows(self, geometry, lines)
        return finished_read(self, (geometry.text_of_rows(rows), rows_order(rows)))


@hookimpl
def glyphweave_register_assemblers() -> list[type[Assembler]]:
    return [ColumnsAssembler]
