"""A page's tables as records: rows of cells with their text and boxes, from what the Markdown
assembler found (a tagged page's Table elements, or an untagged page's column grid).

pdfplumber's ``extract_tables()`` and PyMuPDF's ``find_tables()`` are the anchors: a table is
its rows top to bottom, each its cells left to right, the first row its header. Boxes are
measured on the page as shown, as words are (:mod:`glyphweave.pagewords`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from glyphweave.pagespace import shown_box, shown_transform

__all__ = ["Table", "TableCell", "tables_of"]


@attrs.frozen(kw_only=True)
class TableCell:
    """One cell: its text on one line, and its box (all zero for a cell with no glyph)."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        return self.x0, self.top, self.x1, self.bottom


@attrs.frozen(kw_only=True)
class Table:
    """One table: its rows of cells (the first row its header) and the box around them."""

    rows: tuple[tuple[TableCell, ...], ...]
    x0: float
    top: float
    x1: float
    bottom: float

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        return self.x0, self.top, self.x1, self.bottom

    def to_list(self) -> list[list[str]]:
        """The cells' texts, row by row (pdfplumber's ``extract_tables()`` shape)."""
        return [[cell.text for cell in row] for row in self.rows]


def tables_of(data: Any, cropbox: Sequence[float], rotate: int) -> list[Table]:
    """The tables in an assembler's data (``{"tables": [{"rows": [[{"text", "bbox"}]]}]}``,
    boxes in user space), with boxes as shown; [] when it has none."""
    if not isinstance(data, dict) or not isinstance(data.get("tables"), list):
        return []
    x0, y0, x1, y1 = (float(v) for v in cropbox)
    to_shown = shown_transform((x0, y0, x1, y1), rotate)
    out = []
    for table in data["tables"]:
        rows = []
        for row in table.get("rows", []):
            cells = []
            for cell in row:
                box = cell.get("bbox") or []
                if len(box) == 4:
                    shown = shown_box(to_shown, (box[0], box[1], box[2], box[3]))
                else:
                    shown = (0.0, 0.0, 0.0, 0.0)
                cells.append(TableCell(text=str(cell.get("text", "")), x0=shown[0], top=shown[1], x1=shown[2],
                                       bottom=shown[3]))
            rows.append(tuple(cells))
        boxed = [cell for row in rows for cell in row if cell.bbox != (0.0, 0.0, 0.0, 0.0)]
        if boxed:
            bounds = (min(c.x0 for c in boxed), min(c.top for c in boxed), max(c.x1 for c in boxed),
                      max(c.bottom for c in boxed))
        else:
            bounds = (0.0, 0.0, 0.0, 0.0)
        out.append(Table(rows=tuple(rows), x0=bounds[0], top=bounds[1], x1=bounds[2], bottom=bounds[3]))
    return out
