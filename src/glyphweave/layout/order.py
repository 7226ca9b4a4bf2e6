"""Geometric reading order: columns found from whitespace, rows read across, full-width
blocks in their place.

The lines are first cut at wide gaps (at least ``gap`` user-space units: a column gutter
or the space between table cells), giving *pieces*. The pieces of the page's main writing
direction are ordered by a recursive cut:

1. Look for a *gutter*: an interval along the writing direction, at least ``gap`` wide,
   that no piece crosses, except a few *spanning* pieces (a title or caption across the
   columns, a centred page number), at most a quarter of the pieces.
2. A gutter counts only between two real columns: each side has ``min_lines`` pieces or
   more, their median length is ``min_width`` or more (text, not the narrow cells of a
   table, whose rows must be read across), and the two sides sit side by side. Narrow
   pieces still make columns, where a whole page is ordered, when they are text boxes:
   the gutters cut them into three parts or more, each painted in one stretch, not left to
   right (a slide's short lists side by side, painted in the order they were placed). A
   producer paints a table row by row, or a column at a time from the left.
3. With a gutter, the pieces are cut into bands at the spanning pieces (which keep their
   place between the bands), and each band into the columns left and right of the gutter;
   each part is ordered the same way, the columns in reading direction.
4. Without one, the pieces are read as rows: pieces of comparable height (within a factor
   of two) whose baselines are within half a line height form a row, read along the
   direction; rows follow the reading progression.

Text in other directions (a rotated label, a diagonal watermark) keeps its place in paint
order relative to the main text: each such line follows the row that ends the
main-direction line painted just before it (or comes first, when none was), one line per
row. It never interleaves with the main text, and a label painted beside a paragraph stays
next to it.

The result is a list of rows; a row is a list of pieces read along the line.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from typing import Final

from .blocks import same_direction
from .lines import Line, bounds4
from .median import median

BOXES_MIN: Final = 3
"""Text boxes side by side (:func:`_boxes`) are told from a table's columns only when there
are this many."""

MAX_DEPTH: Final = 64
"""Recursion depth of the cut beyond which a region is read as rows (a page of nested
gutters that deep is not text layout)."""

MAX_LIMITS: Final = 6
"""How many crossing counts (0, then the next fewest, ...) a gutter is looked for at: each
try is a pass over the region's pieces, and a gutter crossed by more distinct counts of
pieces than this is not a gutter anyway."""

SPANNING_SHARE: Final = 0.25
"""At most this share of a region's pieces may cross a gutter (as spanning pieces)."""

MAX_GUTTERS: Final = 16
"""How many gutter candidates are checked for columns at a time (the fewest crossed and the
widest first): each check is a pass over the region's pieces, so without a bound a row of
thousands of table cells, every gap between them a candidate, costs candidates x pieces.
A real gutter is among its region's widest gaps; past these, the region is read as rows."""


class _Item:
    __slots__ = ("c", "c0", "c1", "h", "line", "s0", "s1")

    def __init__(self, line: Line, ux: float, uy: float) -> None:
        self.line = line
        x0, y0, x1, y1 = line.box
        nx, ny = -uy, ux
        if line.ux == ux and line.uy == uy:
            self.s0, self.s1 = line.start, line.end
        else:
            self.s0, self.s1 = bounds4(x0 * ux + y0 * uy, x0 * ux + y1 * uy, x1 * ux + y0 * uy, x1 * ux + y1 * uy)
        self.c0, self.c1 = bounds4(x0 * nx + y0 * ny, x0 * nx + y1 * ny, x1 * nx + y0 * ny, x1 * nx + y1 * ny)
        self.c = line.across
        self.h = line.height


def direction_groups(lines: Sequence[Line]) -> list[list[Line]]:
    """``lines`` grouped by writing direction, the group with the most glyphs first (then
    in paint order of their first line)."""
    groups: list[list[Line]] = []
    for line in lines:
        for group in groups:
            if same_direction(group[0], line):
                group.append(line)
                break
        else:
            groups.append([line])
    groups.sort(key=lambda g: -sum(len(ln.glyphs) for ln in g))
    return groups


def geometric_rows(lines: Sequence[Line], *, gap: float, min_width: float, min_lines: int,
                   gutters: list[tuple[float, float]] | None = None, boxes: bool = False) -> list[list[Line]]:
    """The pieces of ``lines`` (in paint order) in geometric reading order, as rows (see
    the module docstring). ``gap`` and ``min_width`` are in user space units. The gutters
    found between columns (intervals along the main direction) are appended to
    ``gutters`` when given: none means the page was read as rows. ``boxes``: text boxes
    painted out of order are read as columns (a whole page's order; a region that order
    recovery reorders is read without)."""
    groups = direction_groups(lines)
    if not groups:
        return []
    main = groups[0]
    ux, uy = main[0].ux, main[0].uy
    pieces = [piece for line in main for piece in line.split(gap)] if gap > 0 else list(main)
    items = [_Item(piece, ux, uy) for piece in pieces]
    rows = [[item.line for item in row] for row in _order(items, gap, min_width, min_lines, 0,
                                                          [] if gutters is None else gutters,
                                                          False if boxes else None)]
    if len(groups) == 1:
        return rows
    return _attach_others(lines, main, rows)


def _attach_others(lines: Sequence[Line], main: list[Line], rows: list[list[Line]]) -> list[list[Line]]:
    """Put each line of another direction after the row that holds the end of the
    main-direction line painted just before it (first, when none was): where paint order
    put it relative to the main text, one row per line, never inside a main row."""
    in_main = {id(line) for line in main}
    row_of: dict[int, int] = {}  # first glyph of a main line's piece -> its row
    for r, row in enumerate(rows):
        for piece in row:
            row_of[piece.glyphs[-1]] = r
    after: dict[int, list[Line]] = {}  # row (-1: before all) -> other lines, in paint order
    anchor = -1
    for line in lines:
        if id(line) in in_main:
            anchor = row_of.get(line.glyphs[-1], anchor)
        else:
            after.setdefault(anchor, []).append(line)
    out = [[line] for line in after.get(-1, [])]
    for r, row in enumerate(rows):
        out.append(row)
        out.extend([line] for line in after.get(r, []))
    return out


def _order(items: list[_Item], gap: float, min_width: float, min_lines: int, depth: int,
           found: list[tuple[float, float]], boxes: bool | None = None) -> list[list[_Item]]:
    """``items`` as rows in reading order (module docstring). ``boxes``: True when these
    items are among text boxes painted out of reading order (:func:`_boxes`), so narrow
    sides painted one after the other are boxes too; False when such boxes may be looked
    for; None when they are not (narrow sides are never columns)."""
    if len(items) <= 1:
        return [items] if items else []
    if depth < MAX_DEPTH:
        gutter, boxes = _gutter(items, gap, min_width, min_lines, boxes)
        if gutter is not None:
            found.append(gutter)
            g0, g1 = gutter
            spanning = [it for it in items if it.s0 < g1 and it.s1 > g0]
            if spanning:
                out: list[list[_Item]] = []
                band: list[_Item] = []
                for it in sorted(items, key=lambda it: -(it.c0 + it.c1)):
                    if it.s0 < g1 and it.s1 > g0:
                        out.extend(_order(band, gap, min_width, min_lines, depth + 1, found, boxes))
                        band = []
                        out.append([it])
                    else:
                        band.append(it)
                out.extend(_order(band, gap, min_width, min_lines, depth + 1, found, boxes))
                return out
            left = [it for it in items if it.s1 <= g0]
            right = [it for it in items if it.s0 >= g1]
            return (_order(left, gap, min_width, min_lines, depth + 1, found, boxes)
                    + _order(right, gap, min_width, min_lines, depth + 1, found, boxes))
    return _rows(items)


def _gutter(items: list[_Item], gap: float, min_width: float, min_lines: int,
            boxes: bool | None = None) -> tuple[tuple[float, float] | None, bool | None]:
    """The best gutter of ``items`` (the interval along the direction), or None; and
    ``boxes``, or whether the gutters tried showed text boxes (:func:`_boxes`)."""
    n = len(items)
    if n < 2 * min_lines or gap <= 0:
        return None, boxes
    allowed = int(n * SPANNING_SHARE)
    lows, highs, crossed = _crossings(items)
    m = len(crossed)
    # The fewest crossings first: a clean gutter beats one that a few spanning pieces cross,
    # and the pieces that merely end a hair inside it (justified lines) do not widen it.
    for limit in sorted({c for c in crossed if c <= allowed})[:MAX_LIMITS]:
        candidates: list[tuple[float, float, float]] = []  # (-width, start, end)
        first = -1  # the first segment of the stretch crossed at most ``limit`` times, if in one
        for k in range(m + 1):
            if k < m and crossed[k] <= limit:
                if first < 0:
                    first = k
                continue
            if first >= 0:
                g0, g1 = lows[first], highs[k - 1]
                if g1 - g0 >= gap:
                    candidates.append((g0 - g1, g0, g1))
                first = -1
        tried = [(g0, g1) for _w, g0, g1 in sorted(candidates)[:MAX_GUTTERS]]
        if_boxes = None
        for g0, g1 in tried:
            verdict = _columns(items, g0, g1, min_width, min_lines, boxes)
            if verdict == _YES:
                return (g0, g1), boxes
            if verdict == _IF_BOXES and if_boxes is None:
                if_boxes = (g0, g1)
        if if_boxes is not None and boxes is False and _boxes(items, tried, min_lines):
            return if_boxes, True
    return None, boxes


def _crossings(items: list[_Item]) -> tuple[list[float], list[float], list[int]]:
    """The stretches between consecutive ends of the pieces along the direction (their
    ``s0`` and ``s1``), as three columns: each stretch's start, its end, and how many pieces
    cross it. The starts and the ends are sorted apart, as plain floats, and merged: a sort
    of (position, +1/-1) pairs cost three times as much on forms of thousands of pieces."""
    starts = sorted([it.s0 for it in items])
    ends = sorted([it.s1 for it in items])
    n = len(starts)
    positions: list[float] = []  # each position a piece starts or ends at, once, in order
    counts: list[int] = []  # the pieces over the stretch from there to the next position
    count = 0
    i = j = 0
    while i < n or j < n:
        # The next position, and every piece that starts or ends there.
        if j >= n or (i < n and starts[i] <= ends[j]):
            pos = starts[i]
            i += 1
            count += 1
        else:
            pos = ends[j]
            j += 1
            count -= 1
        while i < n and starts[i] == pos:
            i += 1
            count += 1
        while j < n and ends[j] == pos:
            j += 1
            count -= 1
        positions.append(pos)
        counts.append(count)
    return positions[:-1], positions[1:], counts[:-1]


_NO: Final = 0
_YES: Final = 1
_IF_BOXES: Final = 2
"""What :func:`_columns` says of a gutter: no columns, columns, or columns if the page's
narrow parts are text boxes (:func:`_boxes`)."""


def _columns(items: list[_Item], g0: float, g1: float, min_width: float, min_lines: int,
             boxes: bool | None = None) -> int:
    """Whether the gutter g0..g1 separates two columns of text, or of text boxes (see the
    module docstring and :func:`_order`): one of :data:`_NO`, :data:`_YES`, :data:`_IF_BOXES`."""
    left = [it for it in items if it.s1 <= g0]
    right = [it for it in items if it.s0 >= g1]
    if len(left) < min_lines or len(right) < min_lines:
        return _NO
    ltop, lbot = max(it.c1 for it in left), min(it.c0 for it in left)
    rtop, rbot = max(it.c1 for it in right), min(it.c0 for it in right)
    overlap = min(ltop, rtop) - max(lbot, rbot)
    if not overlap > 0.5 * min(ltop - lbot, rtop - rbot):
        return _NO
    if all(median(it.s1 - it.s0 for it in side) >= min_width for side in (left, right)):
        return _YES
    if not _painted_apart(left, right):
        return _NO
    return _YES if boxes else _IF_BOXES


def _boxes(items: list[_Item], gutters: list[tuple[float, float]], min_lines: int) -> bool:
    """Whether ``gutters`` cut ``items`` into text boxes painted out of reading order: at
    least :data:`BOXES_MIN` parts of ``min_lines`` pieces or more, each painted in one
    stretch, the parts not left to right. Presentation software paints a slide's boxes
    whole, in the order they were placed (three short lists side by side, the left one
    placed last); a table's producer paints it row by row, or a column at a time from the
    left. Two parts are not enough: a form's labels and values, painted values first, look
    the same as two boxes, and read across they are right."""
    starts = sorted(g1 for _g0, g1 in gutters)
    labelled = []
    for it in items:
        if any(it.s0 < g1 and it.s1 > g0 for g0, g1 in gutters):
            continue  # a piece across a gutter (a title) belongs to no part
        labelled.append((it.line.glyphs[0], bisect_right(starts, it.s0)))
    labelled.sort()
    parts = [part for k, (_first, part) in enumerate(labelled) if k == 0 or labelled[k - 1][1] != part]
    if len(parts) < BOXES_MIN or len(parts) != len(set(parts)) or parts == sorted(parts):
        return False
    sizes = Counter(part for _first, part in labelled)
    return all(size >= min_lines for size in sizes.values())


def _painted_apart(left: list[_Item], right: list[_Item]) -> bool:
    """Whether each side of a gutter was painted in one stretch, one before the other."""
    lefts = [it.line.glyphs[0] for it in left]
    rights = [it.line.glyphs[0] for it in right]
    return max(lefts) < min(rights) or max(rights) < min(lefts)


def _rows(items: list[_Item]) -> list[list[_Item]]:
    """Pieces read as rows: baselines within half a line height of the row's first piece
    make a row, read along the direction; rows in reading progression."""
    rows: list[list[_Item]] = []
    for it in sorted(items, key=lambda it: -it.c):
        if rows:
            first = rows[-1][0]
            if abs(first.c - it.c) <= 0.5 * max(first.h, it.h) and max(first.h, it.h) <= 2 * min(first.h, it.h):
                rows[-1].append(it)
                continue
        rows.append([it])
    for row in rows:
        row.sort(key=lambda it: it.s0)
    return rows
