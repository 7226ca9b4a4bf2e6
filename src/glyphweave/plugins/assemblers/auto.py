"""``auto``: per page, the assembler the geometry calls for (SPEC §5); the default profile's.

On each page the lines of the reading rules are put in geometric reading order
(``geometric_rows``, as the ``columns`` assembler does). The geometric order serves
(``columns``) where it differs from paint order and either found columns (a gutter
between two columns of text) or only moved whole lines (a stamp painted first and placed
last, lines painted out of order). Everywhere else the page is read as ``reading`` reads
it, with its order recovery: where the two orders differ only in how pieces of a
baseline are grouped (margin notes beside body text, table cells), paint order is the
safer guess. The page's statistics say which served and why
(``assembly``: ``served`` and ``reason``).

Tagged PDFs (their structure tree) are not read here yet: the structure assembler will
come first where the tree is usable.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

from glyphweave.plugin import Assembler, Option, PageContext, geometric_rows, hookimpl, recover

from .columns import GEOMETRY_OPTIONS


class AutoAssembler(Assembler):
    """Per page: geometric reading order where paint order contradicts it, else reading."""

    NAME = "auto"
    OPTIONS = {
        **GEOMETRY_OPTIONS,
        "recover": Option(
            default=True,
            doc="On pages served by reading: order recovery where paint order contradicts the geometry.",
        ),
    }

    word_gap: float
    line_gap: float
    back_jump: float
    ligatures: bool
    gap: float
    min_width: float
    min_lines: int
    recover: bool

    def assemble(self, page: PageContext, indices: Sequence[int]) -> str:
        page.note("assembler", "auto")
        if not len(indices):
            page.note("served", "reading")
            page.note("reason", "no glyphs")
            return ""
        geometry = page.geometry(indices, word_gap=self.word_gap, line_gap=self.line_gap,
                                 back_jump=self.back_jump, ligatures=self.ligatures)
        if not geometry.walk.breaks:
            page.note("served", "reading")
            page.note("reason", "one line")
            return geometry.reading_text()
        lines = geometry.lines
        advance = geometry.advance
        gutters: list[tuple[float, float]] = []
        rows = geometric_rows(lines, gap=self.gap * advance, min_width=self.min_width * advance,
                              min_lines=self.min_lines, gutters=gutters)
        painted = list(chain.from_iterable(line.glyphs for line in lines))
        ordered = list(chain.from_iterable(piece.glyphs for row in rows for piece in row))
        if ordered != painted:
            whole = {id(line) for line in lines}
            if gutters:
                page.note("served", "columns")
                page.note("reason", f"columns: {len(gutters)} gutter(s) found")
                return geometry.text_of_rows(rows)
            if all(len(row) == 1 and id(row[0]) in whole for row in rows):
                page.note("served", "columns")
                page.note("reason", "whole lines painted out of geometric order")
                return geometry.text_of_rows(rows)
            page.note("reason", "paint and geometric order differ only within rows: paint order kept")
        else:
            page.note("reason", "paint order agrees with geometric order")
        page.note("served", "reading")
        if self.recover:
            recovered = recover(lines, gap=self.gap * advance, min_width=self.min_width * advance,
                                min_lines=self.min_lines)
            if recovered.fixes:
                page.note("order", "recovered: " + ", ".join(f"{k} {n}" for k, n in sorted(recovered.fixes.items())))
                return geometry.text_of_rows(recovered.rows)
        return geometry.reading_text()


@hookimpl
def glyphweave_register_assemblers() -> list[type[Assembler]]:
    return [AutoAssembler]
