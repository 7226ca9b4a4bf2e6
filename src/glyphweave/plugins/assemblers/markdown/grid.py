"""Tables on untagged pages: rows of cells that line up in columns (a consistent column grid).

A row is a baseline: the pieces of every line on it, cut into cells where a gap along it (a
pen move, or a run of painted spaces, as groff's tbl pads its cells) is at least
:data:`CELL_GAP` typical advances wide. A table is at least ``min_rows`` consecutive rows down
the page, each of two cells or more, whose cells fall into columns:

* the columns are the page's cells merged where they overlap along the line, and there are
  at least two;
* no row has two cells in one column (a cell that spans two columns breaks the grid), while
  a row may leave a column empty (a total row, a blank cell);
* every column lines up: its cells' left edges, right edges or centres within a glyph advance,
  so left-aligned text and right-aligned numbers both count;
* the cells are narrow: a median below ``min_width`` typical advances (the geometric order's
  own test between table cells and columns of text), so two columns of prose are no table;
* its first column is not all bullets or numbers set apart from their text (a list).

Anything less regular is left as text: no table is better than a wrong one.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence

from glyphweave.layout import Line

__all__ = ["BULLETS", "MARKER", "find_grids"]

BULLETS = r"•◦▪▫‣⁃●○■□◆◇❖►▶➢➤→⇒✓✔✗☐☑☒·*\-–"
"""The bullets a list item may start with (the inside of a regex character class)."""
MARKER = re.compile(rf"[{BULLETS}]|\(?(?:\d{{1,3}}|[a-zA-Z]|[ivxlcIVXLC]{{1,6}})[.)]")
"""A list item's marker: a first column of these alone is a list, not a table."""
CELL_GAP = 2.0
"""A gap along a line of at least this many typical advances separates two cells."""
ROW_STEP = 2.5
"""Two rows of one table are at most this many line heights apart."""

Grid = list[list[Line | None]]
"""A table's rows top-down, each its cells by column (None: an empty cell)."""


def find_grids(lines: Sequence[Line], advance: float, *, min_rows: int, min_width: float) -> list[Grid]:
    """The tables among ``lines`` (see the module docstring)."""
    if advance <= 0:
        return []
    gap = CELL_GAP * advance
    rows = _rows([ln for ln in lines if ln.uy == 0.0 and ln.ux > 0.0], gap)
    tables: list[Grid] = []
    run: list[list[Line]] = []
    for row in rows:
        if len(row) >= 2 and run and _follows(run[-1], row):
            run.append(row)
            continue
        _keep(run, tables, advance, min_rows, min_width)
        run = [row] if len(row) >= 2 else []
    _keep(run, tables, advance, min_rows, min_width)
    return tables


def _rows(lines: Sequence[Line], gap: float) -> list[list[Line]]:
    """The cells of ``lines`` grouped by baseline (within half a line height), top-down,
    each row's cells left to right."""
    out: list[list[Line]] = []
    heads: list[Line] = []
    for line in sorted(lines, key=lambda ln: (-ln.across, ln.start)):
        cells = [cell for piece in line.split(gap) for cell in _cut_at_spaces(piece, gap)]
        if heads and abs(heads[-1].across - line.across) <= 0.5 * max(heads[-1].height, line.height):
            out[-1].extend(cells)
            continue
        heads.append(line)
        out.append(cells)
    for row in out:
        row.sort(key=lambda cell: cell.start)
    return out


def _cut_at_spaces(line: Line, gap: float) -> list[Line]:
    """``line`` cut where a run of painted spaces spans at least ``gap`` along it."""
    glyphs, pieces = line.glyphs, line.pieces
    if not any(piece.isspace() for piece in pieces):
        return [line]
    builder = line.geometry
    ux, uy = line.ux, line.uy
    out: list[Line] = []
    first = 0
    k = 0
    n = len(glyphs)
    while k < n:
        if not pieces[k].isspace() or k == first:
            k += 1
            continue
        end = k
        while end < n and pieces[end].isspace():
            end += 1
        if end < n:
            _box, _ox, _oy, pex, pey = builder.glyph_box(glyphs[k - 1])
            _box, nox, noy, _ex, _ey = builder.glyph_box(glyphs[end])
            if (nox - pex) * ux + (noy - pey) * uy >= gap:
                out.append(_piece(line, first, k))
                first = end
        k = end
    if not out:
        return [line]
    out.append(_piece(line, first, n))
    return out


def _piece(line: Line, a: int, b: int) -> Line:
    pieces = line.pieces[a:b]
    pieces[0] = pieces[0].lstrip(" ")
    return line.geometry.line(line.glyphs[a:b], pieces, [])


def _follows(above: list[Line], row: list[Line]) -> bool:
    step = above[0].across - row[0].across
    height = max(cell.height for cell in (*above, *row))
    return 0 < step <= ROW_STEP * height


def _keep(run: list[list[Line]], tables: list[Grid], advance: float, min_rows: int, min_width: float) -> None:
    """Keep the grid of ``run``; failing that, of ``run`` without its last row, or its first
    one or two, or both (a title, a header whose cells run together, a total row: rows set
    apart from the columns below them)."""
    for first, last in ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)):
        rows = run[first:len(run) - last]
        if len(rows) >= min_rows:
            grid = _grid(rows, advance, min_width)
            if grid is not None:
                tables.append(grid)
                return


def _grid(run: list[list[Line]], advance: float, min_width: float) -> Grid | None:
    """The grid of ``run``'s cells, or None when they do not make one (the module docstring)."""
    columns = _columns([cell for row in run for cell in row])
    if len(columns) < 2:
        return None
    grid: Grid = []
    for row in run:
        placed: list[Line | None] = [None] * len(columns)
        for cell in row:
            k = next((i for i, (lo, hi) in enumerate(columns) if lo <= cell.start <= hi), None)
            if k is None or placed[k] is not None:
                return None  # two cells in one column: a cell spans columns, or the grid is not one
            placed[k] = cell
        grid.append(placed)
    tolerance = max(advance, 1.0)
    for k in range(len(columns)):
        cells = [member for row in grid if (member := row[k]) is not None]
        spreads = [max(v) - min(v) for v in ([c.start for c in cells], [c.end for c in cells],
                                              [(c.start + c.end) / 2 for c in cells])]
        if min(spreads) > tolerance:
            return None
    first = [row[0] for row in grid if row[0] is not None]
    if first and all(MARKER.fullmatch(cell.text.strip()) for cell in first):
        return None  # bullets or numbers set apart from their text: a list
    widths = [cell.end - cell.start for row in run for cell in row]
    if statistics.median(widths) >= min_width * advance:
        return None
    return grid


def _columns(cells: list[Line]) -> list[tuple[float, float]]:
    """The extents along the line of the columns: the cells' extents merged where they overlap."""
    merged: list[tuple[float, float]] = []
    for cell in sorted(cells, key=lambda c: c.start):
        if merged and cell.start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], cell.end))
        else:
            merged.append((cell.start, cell.end))
    return merged
