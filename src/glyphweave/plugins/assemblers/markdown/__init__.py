"""``markdown``: the page as Markdown, for language models and search indexes (rules: assembly).

A tagged page (the structure tree usable, as the ``structure`` assembler judges it) is written
from the tree: the author's headings at their levels, paragraphs, lists with their labels
(numbered where the label is a number), tables as pipe tables with their header row (the TH or
THead row, else the first), figures' /Alt as image descriptions, links with their URI, and
emphasis from bold and italic fonts. Artifacts (running heads, page numbers) are left out by
default; content outside the tree follows, read as an untagged page is.

An untagged page is read in the ``auto`` assembler's order, block by block (the layout
engine's blocks): a block set larger than the page's body text is a heading (the largest size
level 1, the next 2, ...), a short bold line alone at the body size a heading below those, a
block whose lines start with bullets or numbers a list, and rows whose cells line up in a
consistent column grid a table; the rest are paragraphs, with bold and italic runs marked.
Paragraphs are one line each, dehyphenated as the text is. No table is better than a wrong one:
the grid must be regular (see ``min_rows``).

The tables found are also data: ``Assembled.data`` is ``{"tables": [{"rows": [[{"text",
"bbox"}, ...], ...]}]}`` (boxes in user space), what :meth:`glyphweave.Page.tables` returns.
"""

from __future__ import annotations

from collections.abc import Sequence

from glyphweave.plugin import Assembled, Assembler, Option, PageContext, hookimpl

from .._shared import GEOMETRY_OPTIONS, rules_geometry
from ..structure import STRUCTURE_OPTIONS, StructureOptions

__all__ = ["MarkdownAssembler", "glyphweave_register_assemblers"]


class MarkdownAssembler(Assembler, StructureOptions):
    """Markdown: headings, lists, tables, emphasis and links, from the structure tree or the page's geometry."""

    NAME = "markdown"
    OPTIONS = {
        **GEOMETRY_OPTIONS,
        **STRUCTURE_OPTIONS,
        "artifacts": Option(
            default="drop", choices=("keep", "append", "drop"),
            doc="Artifacts of a tagged page (running heads, page numbers): drop them, or keep or append them "
            "after the content as paragraphs.",
        ),
        "alt": Option(default=True, doc="Write a figure's /Alt as a Markdown image's description."),
        "structure": Option(default=True, doc="Write tagged pages from their structure tree where it is usable."),
        "recover": Option(default=True, doc="On untagged pages read in paint order: order recovery, as auto's."),
        "headings": Option(default=True, doc="On untagged pages: blocks set larger than the body text are headings."),
        "heading_ratio": Option(
            default=1.15, minimum=1.0, maximum=10.0,
            doc="A block is a heading when its font size is at least this many times the body text's.",
        ),
        "bold_headings": Option(
            default=True,
            doc="On untagged pages: a short bold line alone at the body size is a heading (below the sized ones).",
        ),
        "tables": Option(default=True, doc="On untagged pages: rows whose cells line up in columns are a table."),
        "min_rows": Option(default=3, minimum=2, maximum=1000,
                           doc="The fewest rows (header included) an untagged table has."),
        "emphasis": Option(default=True, doc="Mark bold and italic runs as Markdown emphasis, from the fonts' names "
                           "and flags."),
    }

    structure: bool
    recover: bool
    headings: bool
    heading_ratio: float
    bold_headings: bool
    tables: bool
    min_rows: int
    emphasis: bool

    def assemble(self, page: PageContext, indices: Sequence[int]) -> Assembled:
        # Loaded on first use: every installed assembler is imported when plugins register,
        # and a run that never writes Markdown should not pay for these.
        from .blocks import MdBlock, render, table_data
        from .inline import Styles
        from .tagged import tagged_blocks
        from .untagged import geometric_blocks

        page.note("assembler", self.NAME)
        if not len(indices):
            return Assembled(text="", order=[])
        styles = Styles(page.table)
        blocks: list[MdBlock] = []
        rest: Sequence[int] = indices
        if self.structure:
            tagged = tagged_blocks(self, page, indices, styles)
            if tagged is not None:
                blocks, rest = tagged
        page.check_time()
        blocks.extend(geometric_blocks(self, page, rest, styles))
        order = [g for block in blocks for g in block.reading_order()]
        builder = rules_geometry(self, page, indices).builder  # boxes a run at a time; no walk

        def box(glyphs: Sequence[int]) -> list[float]:
            return [round(v, 3) for v in builder.box(sorted(glyphs))] if glyphs else []

        tables = [table_data(block, box) for block in blocks if block.kind == "table"]
        return Assembled(text=render(blocks), data={"tables": tables} if tables else None, order=order)


@hookimpl
def glyphweave_register_assemblers() -> list[type[Assembler]]:
    return [MarkdownAssembler]
