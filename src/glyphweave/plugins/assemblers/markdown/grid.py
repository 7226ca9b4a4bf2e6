"""Tables on untagged pages: rows of cells that line up in columns (a consistent column grid).

A table is at least ``min_rows`` rows in a row down the page, each cut by wide gaps into the
same number (two or more) of cells, where every column lines up (the cells' left edges, right
edges or centres within a glyph advance of each other, so left-aligned text and right-aligned
numbers both count), the columns do not overlap, and the cells are narrow (a median below
``min_width`` typical advances, the geometric order's own test between table cells and
columns of text: two columns of prose side by side are not a table). Rows are baselines: the
pieces of every line on one baseline, whatever order they were painted in. Anything less
regular is left as text: no table is better than a wrong one.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence

from glyphweave.layout import Line

__all__ = ["find_grids"]

MARKER = re.compile(r"[•◦▪▫‣⁃●○■□◆◇❖►▶➢➤→⇒✓✔✗☐☑☒·*\-–]|\(?(?:\d{1,3}|[a-zA-Z]|[ivxlcIVXLC]{1,6})[.)]")
"""A list item's marker: a first column of these alone is a list, not a table."""
CELL_GAP = 2.0
"""A gap along a line of at least this many typical advances separates two cells."""
ROW_STEP = 2.5
"""Two rows of one table are at most this many line heights apart."""


def find_grids(lines: Sequence[Line], advance: float, *, min_rows: int, min_width: float) -> list[list[list[Line]]]:
    """The tables among ``lines``: each its rows top-down, each row its cells (line pieces)
    left to right."""
    if advance <= 0:
        return []
    rows = _rows([ln for ln in lines if ln.uy == 0.0 and ln.ux > 0.0], CELL_GAP * advance)
    tables: list[list[list[Line]]] = []
    run: list[list[Line]] = []
    for row in rows:
        if run and _continues(run, row, advance):
            run.append(row)
            continue
        _keep(run, tables, advance, min_rows, min_width)
        run = [row] if len(row) >= 2 else []
    _keep(run, tables, advance, min_rows, min_width)
    return tables


def _rows(lines: Sequence[Line], gap: float) -> list[list[Line]]:
    """The pieces of ``lines`` grouped by baseline (within half a line height), top-down,
    each row's pieces left to right."""
    out: list[list[Line]] = []
    heads: list[Line] = []
    for line in sorted(lines, key=lambda ln: (-ln.across, ln.start)):
        pieces = line.split(gap)
        if heads and abs(heads[-1].across - line.across) <= 0.5 * max(heads[-1].height, line.height):
            out[-1].extend(pieces)
            continue
        heads.append(line)
        out.append(list(pieces))
    for row in out:
        row.sort(key=lambda piece: piece.start)
    return out


def _continues(run: list[list[Line]], row: list[Line], advance: float) -> bool:
    last = run[-1]
    if len(row) != len(last) or len(row) < 2:
        return False
    step = last[0].across - row[0].across
    height = max(piece.height for piece in (*last, *row))
    return 0 < step <= ROW_STEP * height


def _keep(run: list[list[Line]], tables: list[list[list[Line]]], advance: float, min_rows: int,
          min_width: float) -> None:
    if len(run) < min_rows:
        return
    columns = list(zip(*run, strict=True))
    tolerance = max(advance, 1.0)
    for column in columns:
        starts = [cell.start for cell in column]
        ends = [cell.end for cell in column]
        centres = [(cell.start + cell.end) / 2 for cell in column]
        if min(max(v) - min(v) for v in (starts, ends, centres)) > tolerance:
            return
    for left, right in zip(columns, columns[1:], strict=False):
        if max(cell.end for cell in left) >= min(cell.start for cell in right):
            return
    if all(MARKER.fullmatch(cell.text.strip()) for cell in columns[0]):
        return  # bullets or numbers set apart from their text: a list
    widths = [cell.end - cell.start for row in run for cell in row]
    if statistics.median(widths) >= min_width * advance:
        return
    tables.append(run)
