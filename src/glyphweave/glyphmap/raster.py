"""A glyph's shape as the shape matcher compares it: a small bitmap and where the ink sits.

An outline (SVG path data in font units, y up, as :mod:`.outline` draws it, or a Type3
glyph's path) is flattened into line segments and filled with the nonzero winding rule,
as a rasteriser fills it, on a :data:`GRID` × :data:`GRID` bitmap. The bitmap holds the
ink's bounding box scaled by one factor on both axes and centred, so it records the
*shape* whatever the size (a bold "e" and a light one fill it alike; "l" stays a thin
bar, "-" a flat one). Where the ink sits, which the bitmap no longer says (the comma and
the apostrophe are one shape), is kept beside it as the ink's box and the advance in em.

Each pixel is filled when the outline covers at least :data:`COVER` of it: the outline is
sampled on :data:`SUB` scan lines per pixel row and its spans summed exactly across the
columns, so a hairline serif still leaves a mark and no stroke vanishes between samples.

The bitmap is a Python integer (bit ``row * GRID + column``, row 0 at the top), so the
distance between two shapes is a few integer operations and a ``bit_count``; see
:mod:`.shapes`.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

__all__ = ["GRID", "Shape", "flipped", "grow", "shape_of_path", "shape_of_polygons", "shape_of_bitmap"]

GRID = 24
"""Pixels on each side of the shape bitmap."""

SUB = 4
"""Scan lines per pixel row."""

COVER = 0.3
"""The share of a pixel the outline must cover for the pixel to count as ink."""

_CURVE_STEPS = 8
_TOKENS = re.compile(r"[MLQCZ]|-?\d+(?:\.\d+)?")
_FULL = (1 << (GRID * GRID)) - 1
_NOT_LEFT = sum(1 << (r * GRID) for r in range(GRID)) ^ _FULL  # every pixel but column 0
_NOT_RIGHT = sum(1 << (r * GRID + GRID - 1) for r in range(GRID)) ^ _FULL  # every pixel but the last column

Point = tuple[float, float]


@attrs.frozen
class Shape:
    """A glyph's ink: its bitmap and its box in em (y up, the baseline at 0)."""

    bits: int
    """The :data:`GRID` × :data:`GRID` bitmap (bit ``row * GRID + column``, row 0 at the top)."""
    box: tuple[float, float, float, float]
    """The ink's ``(x0, y0, x1, y1)`` in em."""
    advance: float
    """The glyph's advance width in em (0 when unknown)."""
    parts: int = 1
    """Pieces of ink (an "i" has two, a "%" three)."""
    holes: int = 0
    """Enclosed counters ("o" has one, "B" two, "8" two)."""

    @property
    def ink(self) -> int:
        """Pixels of ink."""
        return self.bits.bit_count()

    @property
    def aspect(self) -> float:
        """``log(width / height)`` of the ink (0 for a square)."""
        x0, y0, x1, y1 = self.box
        return math.log((x1 - x0 + 0.02) / (y1 - y0 + 0.02))


def flipped(shape: Shape, baseline: float = 0.0) -> Shape:
    """``shape`` upside down about the line ``y = baseline`` (em), then moved so that line
    is the baseline: a glyph designed for a text matrix that turns it over, as it is seen."""
    rows = [(shape.bits >> (row * GRID)) & ((1 << GRID) - 1) for row in range(GRID)]
    bits = 0
    for row, value in enumerate(reversed(rows)):
        bits |= value << (row * GRID)
    x0, y0, x1, y1 = shape.box
    return attrs.evolve(shape, bits=bits, box=(x0, baseline - y1, x1, baseline - y0))


def grow(bits: int) -> int:
    """``bits`` with every pixel's eight neighbours added (one pixel of tolerance)."""
    sideways = bits | ((bits << 1) & _NOT_LEFT) | ((bits >> 1) & _NOT_RIGHT)
    return (sideways | (sideways << GRID) | (sideways >> GRID)) & _FULL


def _flatten(path: str) -> list[list[Point]]:
    """The closed polygons of SVG path data (``M L Q C Z``, absolute), curves cut into
    :data:`_CURVE_STEPS` segments."""
    tokens = _TOKENS.findall(path)
    polygons: list[list[Point]] = []
    current: list[Point] = []
    command = ""
    i = 0
    n = len(tokens)
    x = y = 0.0
    while i < n:
        token = tokens[i]
        if token in ("M", "L", "Q", "C", "Z"):
            command = token
            i += 1
            if command == "Z":
                if len(current) > 2:
                    polygons.append(current)
                current = []
            continue
        if command == "M":
            if len(current) > 2:
                polygons.append(current)
            x, y = float(tokens[i]), float(tokens[i + 1])
            current = [(x, y)]
            i += 2
            command = "L"
        elif command == "L":
            x, y = float(tokens[i]), float(tokens[i + 1])
            current.append((x, y))
            i += 2
        elif command == "Q":
            cx, cy, ex, ey = (float(t) for t in tokens[i : i + 4])
            for step in range(1, _CURVE_STEPS + 1):
                t = step / _CURVE_STEPS
                u = 1 - t
                current.append((u * u * x + 2 * u * t * cx + t * t * ex, u * u * y + 2 * u * t * cy + t * t * ey))
            x, y = ex, ey
            i += 4
        elif command == "C":
            c1x, c1y, c2x, c2y, ex, ey = (float(t) for t in tokens[i : i + 6])
            for step in range(1, _CURVE_STEPS + 1):
                t = step / _CURVE_STEPS
                u = 1 - t
                a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
                current.append((a * x + b * c1x + c * c2x + d * ex, a * y + b * c1y + c * c2y + d * ey))
            x, y = ex, ey
            i += 6
        else:  # numbers with no command: malformed data, read no further
            break
    if len(current) > 2:
        polygons.append(current)
    return polygons


def shape_of_path(path: str, units_per_em: float, advance: float = 0.0) -> Shape | None:
    """The shape of SVG path data in font units; None for an empty or degenerate outline."""
    return shape_of_polygons(_flatten(path), units_per_em, advance)


def shape_of_polygons(polygons: Sequence[Sequence[Point]], units_per_em: float,
                      advance: float = 0.0) -> Shape | None:
    """The shape of closed polygons in font units (y up), filled by the nonzero rule."""
    if units_per_em <= 0 or not polygons:
        return None
    xs = [p[0] for poly in polygons for p in poly]
    ys = [p[1] for poly in polygons for p in poly]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    span = max(x1 - x0, y1 - y0)
    if span <= 0 or not all(map(math.isfinite, (x0, x1, y0, y1))):
        return None
    scale = GRID / span
    # grid coordinates: x right, y down (row 0 at the top), the ink centred
    off_x = (GRID - (x1 - x0) * scale) / 2
    off_y = (GRID - (y1 - y0) * scale) / 2
    edges: list[tuple[float, float, float, float, int]] = []
    for poly in polygons:
        count = len(poly)
        for k in range(count):
            ax, ay = poly[k]
            bx, by = poly[(k + 1) % count]
            gay = off_y + (y1 - ay) * scale
            gby = off_y + (y1 - by) * scale
            if gay == gby:
                continue
            gax = off_x + (ax - x0) * scale
            gbx = off_x + (bx - x0) * scale
            if gay < gby:
                edges.append((gay, gby, gax, (gbx - gax) / (gby - gay), 1))
            else:
                edges.append((gby, gay, gbx, (gax - gbx) / (gay - gby), -1))
    bits = _fill(edges)
    if not bits:
        return None
    em = float(units_per_em)
    parts, holes = _topology(polygons, (x1 - x0) * (y1 - y0))
    return Shape(bits=bits, box=(x0 / em, y0 / em, x1 / em, y1 / em), advance=advance / em,
                 parts=parts, holes=holes)


def _topology(polygons: Sequence[Sequence[Point]], box_area: float) -> tuple[int, int]:
    """Pieces and counters, from the contours' directions: font programs draw a piece's
    outer contour one way round and its counters the other (the direction of the largest
    contour tells which is which). Specks under 0.2% of the ink's box are not counted."""
    areas = []
    for poly in polygons:
        area = 0.0
        count = len(poly)
        for k in range(count):
            ax, ay = poly[k]
            bx, by = poly[(k + 1) % count]
            area += ax * by - bx * ay
        if abs(area) / 2 > 0.002 * box_area:
            areas.append(area)
    if not areas:
        return 1, 0
    outer = max(areas, key=abs) > 0
    parts = sum(1 for area in areas if (area > 0) == outer)
    return parts, len(areas) - parts


def _fill(edges: list[tuple[float, float, float, float, int]]) -> int:
    """The bitmap of the pixels the edges (top, bottom, x at the top, slope, direction; in
    grid units, y down) cover by at least :data:`COVER` under the nonzero rule. The compiled
    build fills in C (a glyph in a few microseconds, here a millisecond or two: a document
    whose fonts are checked by their shapes fills dozens); this is the reference."""
    native = _native_fill()
    if native is not None:
        bits = native(edges)
        if bits is not None:
            return bits
    return _fill_reference(edges)


def _native_fill() -> Callable[[list[tuple[float, float, float, float, int]]], int | None] | None:
    """The compiled build's fill (:func:`._cshapes.fill`), or None in a pure install."""
    native = native_module()
    return None if native is None else native.fill


@functools.cache
def native_module() -> Any:
    """The compiled build's :mod:`._cshapes` (the fill here, the shape references and their
    search of :mod:`.shapes`), or None in a pure install."""
    try:
        from glyphweave.glyphmap import _cshapes
    except ImportError:
        return None
    return _cshapes


def _fill_reference(edges: Iterable[tuple[float, float, float, float, int]]) -> int:
    edges = sorted(edges)
    cover = [0.0] * (GRID * GRID)
    weight = 1.0 / SUB
    for row in range(GRID):
        base = row * GRID
        for sub in range(SUB):
            y = row + (sub + 0.5) / SUB
            crossings = []
            for top, bottom, x_top, slope, direction in edges:
                if top > y:
                    break
                if y < bottom:
                    crossings.append((x_top + (y - top) * slope, direction))
            if len(crossings) < 2:
                continue
            crossings.sort()
            winding = 0
            for (xa, direction), (xb, _) in zip(crossings, crossings[1:], strict=False):
                winding += direction
                if winding and xb > xa:
                    _span(cover, base, max(xa, 0.0), min(xb, float(GRID)), weight)
    bits = 0
    for index, value in enumerate(cover):
        if value >= COVER:
            bits |= 1 << index
    return bits


def _span(cover: list[float], base: int, xa: float, xb: float, weight: float) -> None:
    """Add the span ``xa..xb`` of one scan line to the pixels it crosses."""
    if xb <= xa:
        return
    first = int(xa)
    last = min(int(xb), GRID - 1)
    if first == last:
        cover[base + first] += (xb - xa) * weight
        return
    cover[base + first] += (first + 1 - xa) * weight
    for column in range(first + 1, last):
        cover[base + column] += weight
    if last < GRID:
        cover[base + last] += (xb - last) * weight


def shape_of_bitmap(rows: Sequence[Sequence[bool]], box: tuple[float, float, float, float],
                    advance: float = 0.0) -> Shape | None:
    """The shape of a glyph painted as an image mask (a bitmap Type3 glyph): ``rows`` top
    to bottom, ``box`` where the image lands, in em. The ink's own extent (not the
    image's, which often has blank margins) is what is scaled onto the grid."""
    height = len(rows)
    width = max((len(r) for r in rows), default=0)
    inked = [(r, c) for r in range(height) for c in range(len(rows[r])) if rows[r][c]]
    if not inked:
        return None
    r0 = min(r for r, _ in inked)
    r1 = max(r for r, _ in inked) + 1
    c0 = min(c for _, c in inked)
    c1 = max(c for _, c in inked) + 1
    # each row's runs of ink as rectangles: polygons in image pixels, y up
    runs: list[list[tuple[int, int]]] = []
    for r, row in enumerate(rows):
        c = 0
        while c < len(row):
            if not row[c]:
                c += 1
                continue
            start = c
            while c < len(row) and row[c]:
                c += 1
            runs.append([(start, height - r), (c, height - r), (c, height - r - 1), (start, height - r - 1)])
    bx0, by0, bx1, by1 = box
    px = (bx1 - bx0) / width if width else 0.0
    py = (by1 - by0) / height if height else 0.0
    # the ink as drawn: pixels are not square when the image is stretched onto its box
    polygons = [[(x * px, y * py) for x, y in run] for run in runs]
    shape = shape_of_polygons(polygons, 1.0)
    if shape is None:
        return None
    ink_box = (bx0 + c0 * px, by0 + (height - r1) * py, bx0 + c1 * px, by0 + (height - r0) * py)
    parts, holes = _bitmap_topology(rows, len(inked))
    return attrs.evolve(shape, box=ink_box, advance=advance, parts=parts, holes=holes)


def _bitmap_topology(rows: Sequence[Sequence[bool]], ink: int) -> tuple[int, int]:
    """Pieces of ink (pixels touching at a corner join) and counters (blank regions that do
    not reach the border; pixels must share an edge), specks under 0.5% of the ink
    skipped."""
    height = len(rows)
    width = max(len(r) for r in rows)
    grid = [[bool(r[c]) if c < len(r) else False for c in range(width)] for r in rows]
    seen = [[False] * width for _ in range(height)]
    speck = max(2, ink // 200)
    parts = holes = 0
    for r0 in range(height):
        for c0 in range(width):
            if seen[r0][c0]:
                continue
            value = grid[r0][c0]
            seen[r0][c0] = True
            stack = [(r0, c0)]
            size = 0
            border = False
            steps = _EIGHT if value else _FOUR
            while stack:
                r, c = stack.pop()
                size += 1
                if r in (0, height - 1) or c in (0, width - 1):
                    border = True
                for dr, dc in steps:
                    rr, cc = r + dr, c + dc
                    if 0 <= rr < height and 0 <= cc < width and not seen[rr][cc] and grid[rr][cc] == value:
                        seen[rr][cc] = True
                        stack.append((rr, cc))
            if value and size >= speck:
                parts += 1
            elif not value and not border and size >= speck:
                holes += 1
    return max(parts, 1), holes


_FOUR = ((1, 0), (-1, 0), (0, 1), (0, -1))
_EIGHT = (*_FOUR, (1, 1), (1, -1), (-1, 1), (-1, -1))
