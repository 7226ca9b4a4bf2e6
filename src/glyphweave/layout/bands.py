"""Bands: a page's text cut across at clear space, read top to bottom (rules: assembly,
order recovery).

Producers paint running heads, page numbers, footnotes and the blocks of a poster in
whatever order their layout engine finishes them: WeasyPrint paints its running headers
after the body, spreadsheets and some report writers the footer first, a footnote area
may come between two paragraphs of the body, a poster generator may paint from the
bottom of the page up. A reader reads such blocks from the top of the page down.

A *band* is a set of rows (of the page's main writing direction) with no clear space
across the whole page between them: the page is cut into bands wherever a strip of at
least :data:`BAND_GAP` line heights runs across it with no text in it. Bands are then
taken from the top of the page, each moved before the rest when paint order put it
later, as long as the next band is

* *contiguous* in the current order (its rows follow one another: moving it moves a
  whole block, and never pulls one column's lines out of a two-column body, whose bands
  interleave), and
* *not part of a column*: when the row painted next to it (after it, for a band moving
  up) runs under it along the line while another row lies wholly beside it, the band is
  the head of a column (a paragraph at the top of the second column, above where the
  first column's text begins), not the page's head, and stays where it is; a band that
  also runs over another column's rows (a title over several boxes) heads them all.

The same is done from the bottom of the page for what is left (footers last, and a
footnote area before them). On a one-column page every band qualifies and the bands end
up top to bottom; on a page of columns only the bands above and below the columns move.
A row of another direction (a rotated label) moves with the main-direction row painted
just before it, as the geometric order places it.
"""

from __future__ import annotations

from collections.abc import Sequence

from .blocks import same_direction
from .lines import Line

MAX_ROWS = 1500
"""Rows beyond which a page's bands are left as they are: finding a band out of place costs a
pass over the rows, so the whole costs up to rows x bands, and a page of that many rows is a
table or a listing, not a page of blocks in disorder."""

BAND_GAP = 0.8
"""Clear space across the page, in line heights (the smaller of the two rows' beside it),
that separates two bands: more than ordinary leading (a tenth to a third of a line), about
what a blank line or a header's separation leaves."""


class _Row:
    __slots__ = ("bottom", "end", "height", "index", "start", "top")

    def __init__(self, index: int, row: list[Line], ux: float, uy: float) -> None:
        self.index = index
        self.height = max(line.height for line in row) if len(row) > 1 else row[0].height
        if ux == 1.0 and uy == 0.0:  # upright text, the usual page: the boxes' own bounds
            boxes = [line.box for line in row] if len(row) > 1 else None
            if boxes is None:
                x0, y0, x1, y1 = row[0].box
                self.start, self.bottom, self.end, self.top = x0, y0, x1, y1
            else:
                self.start, self.bottom = min(b[0] for b in boxes), min(b[1] for b in boxes)
                self.end, self.top = max(b[2] for b in boxes), max(b[3] for b in boxes)
            return
        nx, ny = -uy, ux
        tops: list[float] = []
        bottoms: list[float] = []
        starts: list[float] = []
        ends: list[float] = []
        for line in row:
            x0, y0, x1, y1 = line.box
            across = (x0 * nx + y0 * ny, x0 * nx + y1 * ny, x1 * nx + y0 * ny, x1 * nx + y1 * ny)
            along = (x0 * ux + y0 * uy, x0 * ux + y1 * uy, x1 * ux + y0 * uy, x1 * ux + y1 * uy)
            tops.append(max(across))
            bottoms.append(min(across))
            starts.append(min(along))
            ends.append(max(along))
        self.top, self.bottom = max(tops), min(bottoms)
        self.start, self.end = min(starts), max(ends)


def read_bands(rows: Sequence[list[Line]]) -> tuple[list[list[Line]], int]:
    """``rows`` (in the order found so far) with the page's bands moved into reading order
    as the module docstring says, and how many bands moved."""
    if len(rows) < 2 or len(rows) > MAX_ROWS:
        return list(rows), 0
    first = max(rows, key=_glyph_count)[0]
    ux, uy = first.ux, first.uy
    main = [_Row(i, row, ux, uy) for i, row in enumerate(rows) if row and same_direction(row[0], first)]
    bands = _bands(main)
    if len(bands) < 2:
        return list(rows), 0
    by_index = {row.index: row for row in main}
    order = [row.index for row in main]  # the main rows in their current order
    moved = 0
    # From the top: each band, when it qualifies, goes before the rest.
    done = 0  # order[:done] is settled
    top = 0
    while top < len(bands):
        band = bands[top]
        place = _contiguous(order, done, band)
        if place is None:
            break
        if place != done:
            after = order[place + len(band)] if place + len(band) < len(order) else None
            if _confined(band, by_index, order[done:], after):
                break
            members = order[place:place + len(band)]
            del order[place:place + len(band)]
            order[done:done] = members
            moved += 1
        done += len(band)
        top += 1
    # From the bottom, for what the top left: each band, when it qualifies, goes after the rest.
    end = len(order)
    bottom = len(bands) - 1
    while bottom > top:
        band = bands[bottom]
        place = _contiguous(order, done, band, stop=end)
        if place is None:
            break
        if place + len(band) != end:
            before = order[place - 1] if place > done else None
            if _confined(band, by_index, order[done:end], before):
                break
            members = order[place:place + len(band)]
            del order[place:place + len(band)]
            order[end - len(band):end - len(band)] = members
            moved += 1
        end -= len(band)
        bottom -= 1
    if not moved:
        return list(rows), 0
    # A row of another direction goes with the main row painted before it (first, when none was).
    follows: dict[int, list[list[Line]]] = {}
    anchor = -1
    in_main = {row.index for row in main}
    for i, row in enumerate(rows):
        if i in in_main:
            anchor = i
        else:
            follows.setdefault(anchor, []).append(row)
    out = list(follows.get(-1, []))
    for i in order:
        out.append(rows[i])
        out.extend(follows.get(i, []))
    return out, moved


def _glyph_count(row: list[Line]) -> int:
    return len(row[0].glyphs) if len(row) == 1 else sum(len(line.glyphs) for line in row)


def _bands(main: list[_Row]) -> list[list[int]]:
    """The main rows' indices grouped into bands, top to bottom (each band's rows in any order)."""
    by_top = sorted(main, key=lambda row: -row.top)
    bands: list[list[int]] = []
    floor = 0.0  # the lowest bottom of the band being built
    last_height = 0.0
    for row in by_top:
        if bands and floor - row.top <= BAND_GAP * min(last_height, row.height):
            bands[-1].append(row.index)
            if row.bottom < floor:
                floor, last_height = row.bottom, row.height
            continue
        bands.append([row.index])
        floor, last_height = row.bottom, row.height
    return bands


def _contiguous(order: list[int], start: int, band: list[int], stop: int | None = None) -> int | None:
    """Where in ``order[start:stop]`` the rows of ``band`` stand one after the other (the
    index of the first), or None when they do not."""
    members = set(band)
    n = len(band)
    stop = len(order) if stop is None else stop
    if members.issuperset(order[start:start + n]):
        return start  # where it belongs already (the usual case): no scan of the rest
    if members.issuperset(order[stop - n:stop]):
        return stop - n
    places = [k for k in range(start, stop) if order[k] in members]
    if len(places) != len(band) or places[-1] - places[0] != len(band) - 1:
        return None
    return places[0]


def _confined(band: list[int], by_index: dict[int, _Row], rest: list[int], neighbour: int | None) -> bool:
    """Whether ``band`` belongs to one column of the rest rather than to the page: the row
    next to it in the current order (the one after it when it would move up, the one before
    it when it would move down) continues it, running under or over it along the
    direction, some row of the rest lies wholly beside it (another column), and every row
    the band runs over is of the neighbour's column (a slide's title over three boxes runs
    over all three)."""
    if neighbour is None:
        return False
    lo = min(by_index[i].start for i in band)
    hi = max(by_index[i].end for i in band)
    near = by_index[neighbour]
    if near.end <= lo or near.start >= hi:
        return False
    band_set = set(band)
    beside = False
    for i in rest:
        if i in band_set:
            continue
        row = by_index[i]
        if row.end <= lo or row.start >= hi:
            beside = True
        elif row.end <= near.start or row.start >= near.end:
            return False  # the band also runs over another column: it heads them all
    return beside
