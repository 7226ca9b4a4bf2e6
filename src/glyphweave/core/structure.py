"""A page's logical structure (tagged PDF, §14.7-14.8) as the structure assembler plays it.

The engine walks the document's structure tree once and hands each page the content its
elements reference, in the author's order, as :class:`StructItem` records: which marked
content (MCID, and the stream it lives in), under which block, table row and cell, with
what replacement text. This module holds the records; how much of a page the tree
covers, and so whether the structure is usable at all, is the layout layer's measure
(:mod:`glyphweave.layout.coverage`).
"""

from __future__ import annotations

from typing import Any

import attrs

ContentKey = tuple[Any, int]
"""(the stream the marked content is in: None for the page's content, else the form
XObject's object number and generation; the MCID)."""


@attrs.frozen(slots=True)
class StructItem:
    """One piece of a page's content in the author's order."""

    keys: tuple[ContentKey, ...]
    """The marked content it stands for: one MCID, or all of an element's content when
    the element's ``text`` replaces it."""
    kind: str
    """The standard structure type of the element that holds it (role map applied)."""
    block: int
    """Identity of the nearest block-level element around it (P, H1, LI, TD, ...): where it
    changes, a line ends."""
    row: int | None = None
    """Identity of the table row (TR) around it: the cells of a row stay on one line."""
    cell: int | None = None
    """Identity of the table cell (TD, TH) around it."""
    text: str | None = None
    """The element's /ActualText, which replaces the content of ``keys``."""
    alt: str | None = None
    """A figure's /Alt (alternate description), used when the assembler is asked to."""
    note: int | None = None
    """Identity of the Note or FENote element around it (a footnote or endnote), or None."""
    block_kind: str = "Document"
    """The standard type of the block element of :attr:`block` (``P``, ``H2``, ``LI``, ``TD``, ...)."""
    table: int | None = None
    """Identity of the Table element around it, or None."""
    header: bool = False
    """In a header cell (TH) or a table's header rows (THead)."""
    lists: int = 0
    """How many lists (L elements) it is inside: 1 in a list, 2 in a list inside a list item, ..."""
    link: str | None = None
    """The URI of the Link element around it, when its annotation's action is a URI."""


@attrs.frozen(slots=True)
class PageStructure:
    """What the structure tree says about one page."""

    items: tuple[StructItem, ...]
    """The page's content in the author's order."""
    in_tree: bool
    """The page has /StructParents (the tree knows it has marked content) or the tree
    references content on it."""
    warnings: tuple[str, ...] = ()
    """What was wrong with the tree (cycles, depth, bad references): the walk went on."""
    row_cells: dict[int, tuple[int, ...]] = attrs.field(factory=dict, eq=False)
    """The cells (TD, TH identities) of each table row on the page, in the tree's order, the
    empty ones too: an empty cell has no item, and a table without it would shift its columns."""
