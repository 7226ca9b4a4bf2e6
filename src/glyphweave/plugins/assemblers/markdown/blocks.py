"""The Markdown assembler's records: a page as headings, paragraphs, list items, tables and
images, and how they are written as Markdown (CommonMark, with GitHub's pipe tables)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import attrs

__all__ = ["Cell", "MdBlock", "render"]

_LEADING_MARKUP = re.compile(r"^(?:#{1,6}(?:\s|$)|[-+*](?:\s|$)|\d{1,9}[.)](?:\s|$)|>|=+\s*$|-{3,}\s*$)")
"""A paragraph that starts like this would be read as other markup: its first character is escaped."""


@attrs.frozen(kw_only=True)
class Cell:
    """One table cell: its inline text and its glyphs (table indices)."""

    text: str
    glyphs: tuple[int, ...]


@attrs.frozen(kw_only=True)
class MdBlock:
    """One block of the page, in reading order."""

    kind: str
    """``heading``, ``paragraph``, ``item`` (of a list), ``table`` or ``image``."""
    text: str = ""
    """Inline Markdown (emphasis, links); for an image, its alternate description."""
    level: int = 1
    """A heading's level (1-6), or a list item's depth (1 in a list, 2 in a list inside an item)."""
    marker: str = "-"
    """A list item's marker: ``-``, or an ordered item's number and ``.``."""
    rows: tuple[tuple[Cell, ...], ...] = ()
    """A table's rows, the first its header."""
    glyphs: tuple[int, ...] = ()
    """Its glyphs, in the order its text reads them."""

    def reading_order(self) -> list[int]:
        if self.kind == "table":
            return [g for row in self.rows for cell in row for g in cell.glyphs]
        return list(self.glyphs)


def render(blocks: Sequence[MdBlock]) -> str:
    """``blocks`` as Markdown: a blank line between blocks, none between the items of a list;
    ends with a line end when there is anything."""
    out: list[str] = []
    previous: MdBlock | None = None
    for block in blocks:
        text = _render(block)
        if not text:
            continue
        if previous is not None:
            out.append("\n" if previous.kind == "item" and block.kind == "item" else "\n\n")
        out.append(text)
        previous = block
    return "".join(out) + "\n" if out else ""


def _render(block: MdBlock) -> str:
    if block.kind == "heading":
        return f"{'#' * min(max(block.level, 1), 6)} {block.text}" if block.text else ""
    if block.kind == "item":
        return f"{'  ' * (block.level - 1)}{block.marker} {block.text}".rstrip()
    if block.kind == "table":
        return _table(block.rows)
    if block.kind == "image":
        return f"![{_bracketed(block.text)}]()"
    return escape_start(block.text)


def escape_start(text: str) -> str:
    """``text`` as a paragraph: a start that reads as markup (``# ``, ``- ``, ``1. ``) escaped."""
    if _LEADING_MARKUP.match(text):
        return "\\" + text
    return text


def _bracketed(text: str) -> str:
    return " ".join(text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]").split())


def _table(rows: Sequence[Sequence[Cell]]) -> str:
    if not rows:
        return ""
    width = max(len(row) for row in rows)
    lines = []
    for n, row in enumerate(rows):
        cells = [_cell(cell.text) for cell in row] + [""] * (width - len(row))
        lines.append("| " + " | ".join(cells) + " |")
        if n == 0:
            lines.append("|" + "|".join([" --- "] * width) + "|")
    return "\n".join(lines)


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split())


def table_data(block: MdBlock, box: Any) -> dict[str, Any]:
    """A table block as JSON-friendly data: its rows of cells, each with its text and the
    box ``box(glyphs)`` gives (user space), the first row its header."""
    return {"rows": [[{"text": " ".join(cell.text.split()), "bbox": box(cell.glyphs)} for cell in row]
                     for row in block.rows]}
