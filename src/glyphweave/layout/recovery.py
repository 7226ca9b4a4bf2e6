"""Order recovery: where paint order contradicts the geometry badly, the region is read in
geometric order, and everywhere else paint order stands (rules: assembly, reading).

Three contradictions are recognised, each on lines consecutive in paint order:

* **words painted backwards**: lines on one baseline (within half a line height) whose
  extents follow each other against the writing direction, a word space apart or, for a
  list marker painted after its item (a bullet, a symbol-font glyph, ``1.``), a list's
  indent apart. They become one row, read along the direction, so the marker comes first
  (a row with right-to-left script is then put in logical order as a whole: Word paints
  the Latin words of an Arabic line apart from it);
* **lines jumping up mid-column**: a stretch of lines of one column (each overlapping the
  stretch's extent along the direction by half its length) that are dense once sorted
  (no baseline step above :data:`DENSE_STEP` line heights) but painted out of order. The
  stretch is read top down;
* **columns interleaved line by line**: a stretch of at least :data:`MIN_INTERLEAVED`
  lines that split at a common wide gap, extended by the lines painted around them that
  lie wholly on one side of it, where the geometric order (:func:`~.order.geometric_rows`)
  finds columns. The region is read column by column.

Then the page's **bands** (blocks separated by clear space across the page: running heads,
footers, footnote areas) are read top to bottom where paint order has them otherwise
(:mod:`.bands`).

Everything is linear in the number of lines, apart from the geometric order of a stretch
that needs it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Sequence
from typing import Final, NamedTuple

from .bands import read_bands
from .blocks import same_direction
from .lines import Line
from .order import geometric_rows

DENSE_STEP: Final = 2.5
"""Largest baseline step, in line heights, between neighbours of a recovered column
stretch: one blank line of leading, not a separate region such as a footnote area."""

BACKWARDS_GAP: Final = 0.8
"""Largest gap, in line heights, between two pieces of a baseline painted backwards that
recovery joins: a word space (a quarter to half an em), not the margin between a margin
note and the body text beside it."""

MARKER_GAP: Final = 4.0
"""Largest gap, in line heights, between a list marker painted after its item and the item
(a list's indent: a bullet sits one to three ems left of its text), where recovery puts the
marker first on the item's line."""

MIN_INTERLEAVED: Final = 2
"""Lines in a row that must split at a common wide gap before interleaved columns are
considered; the region then takes in the lines painted around them that lie on one side
of that gap, and the columns must pass the geometric order's test (text on both sides)."""


class Recovery(NamedTuple):
    """The rows of a page after recovery, and what was recovered."""

    rows: list[list[Line]]
    fixes: dict[str, int]
    """How many regions of each kind (``backwards``, ``jumps``, ``interleaved``) were
    reordered."""


def recover(lines: Sequence[Line], *, gap: float, min_width: float, min_lines: int,
            late: Collection[int] = ()) -> Recovery:
    """The rows of ``lines`` (in paint order) with contradicted regions reordered.

    ``late`` holds the ids of lines painted after the page's content whose paint order
    says nothing of where they are read (annotations, which viewers paint over the page:
    form field values, notes): they are placed by position (:func:`_place`)."""
    fixes = {"backwards": 0, "jumps": 0, "interleaved": 0}
    placed = [line for line in lines if id(line) in late] if late else []
    if placed:
        lines = [line for line in lines if id(line) not in late]
    rows = _interleaved(list(lines), gap, min_width, min_lines, fixes)
    rows = _backwards(rows, fixes)
    rows = _jumps(rows, fixes)
    if placed:
        rows = _place(rows, placed)
        fixes["placed"] = len(placed)
    rows, fixes["bands"] = read_bands(rows)
    return Recovery(rows, {k: v for k, v in fixes.items() if v})


def _interleaved(lines: list[Line], gap: float, min_width: float, min_lines: int,
                 fixes: dict[str, int]) -> list[list[Line]]:
    rows: list[list[Line]] = []  # one row per line of lines[:len(rows)] until a region is recovered
    floor = 0  # lines before this index belong to a recovered region: never taken back
    i = 0
    n = len(lines)
    while i < n:
        j = i
        while j < n and lines[j].wide and len(lines[j].split(gap)) > 1 and same_direction(lines[i], lines[j]):
            j += 1
        if j - i >= MIN_INTERLEAVED:
            gutter = _common_gap(lines[i:j], gap)
            if gutter is not None:
                # The region: the interleaved lines and the neighbours painted with them that
                # lie wholly on one side of the gutter or split across it (the rest of the
                # two columns).
                a, b = i, j
                while a > floor and _fits(lines[a - 1], lines[i], gutter, gap):
                    a -= 1
                while b < n and _fits(lines[b], lines[i], gutter, gap):
                    b += 1
                gutters: list[tuple[float, float]] = []
                ordered = geometric_rows(lines[a:b], gap=gap, min_width=min_width, min_lines=min_lines,
                                         gutters=gutters)
                if gutters:  # columns were found: the pieces leave their lines
                    del rows[len(rows) - (i - a):]
                    rows.extend(ordered)
                    fixes["interleaved"] += 1
                    i = floor = b
                    continue
        if j == i:
            rows.append([lines[i]])
            i += 1
        else:
            rows.extend([line] for line in lines[i:j])
            i = j
    return rows


def _common_gap(stretch: list[Line], gap: float) -> tuple[float, float] | None:
    """An interval along the direction that is a gap of at least ``gap`` in every line of
    ``stretch`` (the gutter the interleaved lines share), or None."""
    common: list[tuple[float, float]] | None = None
    for line in stretch:
        pieces = line.split(gap)
        gaps = [(p.end, q.start) for p, q in zip(pieces, pieces[1:], strict=False) if q.start > p.end]
        if common is None:
            common = gaps
        else:
            common = [(max(c0, g0), min(c1, g1)) for c0, c1 in common for g0, g1 in gaps
                      if min(c1, g1) > max(c0, g0)]
        if not common:
            return None
    return max(common, key=lambda c: c[1] - c[0]) if common else None


def _fits(line: Line, first: Line, gutter: tuple[float, float], gap: float) -> bool:
    """Whether ``line`` belongs to the interleaved region of ``gutter``: it reads like
    ``first`` and lies on one side of the gutter's middle, or splits at a gap across it."""
    if not same_direction(line, first):
        return False
    g0, g1 = gutter
    middle = (g0 + g1) / 2  # a ragged line end (trailing spaces) may reach into the gutter
    if line.end <= middle or line.start >= middle:
        return True
    if not line.wide:
        return False
    pieces = line.split(gap)
    return any(min(q.start, g1) > max(p.end, g0) for p, q in zip(pieces, pieces[1:], strict=False))


MAX_PLACED: Final = 4000
"""Late lines beyond which they keep their paint order (placing one is a pass over the rows)."""


def _place(rows: list[list[Line]], placed: list[Line]) -> list[list[Line]]:
    """``rows`` with each of ``placed`` put where it sits: into the row whose baseline it
    shares (a field's value beside its label), else as a row of its own after the last row
    above it that it lies under (after the last row above it, when none)."""
    if len(placed) > MAX_PLACED:
        return [*rows, *([line] for line in placed)]
    rows = [list(row) for row in rows]
    for line in sorted(placed, key=lambda ln: -ln.across):
        shared = None
        after = above = -1
        for r, row in enumerate(rows):
            head = row[0]
            if not same_direction(head, line):
                continue
            if any(abs(piece.across - line.across) <= 0.5 * max(piece.height, line.height) for piece in row):
                shared = r
                break
            if head.across > line.across:
                above = r
                if min(row[-1].end, line.end) > max(head.start, line.start):
                    after = r
        if shared is not None:
            rows[shared] = sorted([*rows[shared], line], key=lambda ln: ln.start)
        else:
            rows.insert((after if after >= 0 else above) + 1, [line])
    return rows


def join_backwards(lines: Sequence[Line]) -> list[list[Line]]:
    """The rows of ``lines`` (in reading order) with pieces of one baseline painted
    backwards joined, and nothing else moved: for an order that is right apart from that
    (the structure tree's, where a Latin word inside an Arabic line is a span of its own)."""
    return _backwards([[line] for line in lines], {"backwards": 0})


def _baseline(row: list[Line]) -> float:
    return row[0].across


def _backwards(rows: list[list[Line]], fixes: dict[str, int]) -> list[list[Line]]:
    out: list[list[Line]] = []
    for row in rows:
        if out and len(row) == 1:
            prev = out[-1]
            a, b = prev[0], row[0]  # the row is sorted along the line: its first piece is the last painted
            h = max(a.height, b.height)
            reach = MARKER_GAP if is_list_marker(b.text) else BACKWARDS_GAP
            if (len(prev) == 1 or prev[0].across == prev[-1].across) and same_direction(a, b) and (
                    abs(a.across - b.across) <= 0.5 * h and b.end <= a.start + 0.5 * h
                    and b.end >= a.start - reach * h):
                if len(prev) == 1:
                    fixes["backwards"] += 1
                out[-1] = sorted([*prev, b], key=lambda ln: ln.start)
                continue
        out.append(row)
    return out


_ENUMERATOR: Final = re.compile(r"\(?(?:\d{1,3}|[A-Za-z]|[ivxlcIVXLC]{2,6})[.)]")


def is_list_marker(text: str) -> bool:
    """Whether ``text`` (a line's) is a list marker: a bullet or other symbol (one or two
    symbol or punctuation characters: ``•``, ``■``, ``❖``, ``→``, ``–``) or an enumerator
    (``1.``, ``a)``, ``(iv)``)."""
    text = text.strip()
    if not text or len(text) > 6:
        return False
    if len(text) <= 2 and all(unicodedata.category(ch) in _MARKER_CATEGORIES for ch in text):
        return True
    return _ENUMERATOR.fullmatch(text) is not None


_MARKER_CATEGORIES: Final = frozenset({"So", "Sm", "Po", "Pd"})


def _jumps(rows: list[list[Line]], fixes: dict[str, int]) -> list[list[Line]]:
    out: list[list[Line]] = []
    i = 0
    n = len(rows)
    while i < n:
        first = rows[i][0]
        lo, hi = first.start, rows[i][-1].end
        j = i + 1
        while j < n:
            line = rows[j][0]
            end = rows[j][-1].end
            if not same_direction(first, line):
                break
            overlap = min(hi, end) - max(lo, line.start)
            if overlap < 0.5 * min(hi - lo, end - line.start):
                break
            j += 1
        stretch = rows[i:j]
        if len(stretch) > 2:
            ordered = sorted(stretch, key=lambda row: -_baseline(row))
            if ordered != stretch and _dense(ordered):
                out.extend(ordered)
                fixes["jumps"] += 1
                i = j
                continue
        out.extend(stretch)
        i = j
    return out


def _dense(rows: list[list[Line]]) -> bool:
    for a, b in zip(rows, rows[1:], strict=False):
        h = max(a[0].height, b[0].height)
        if _baseline(a) - _baseline(b) > DENSE_STEP * h:
            return False
    return True
