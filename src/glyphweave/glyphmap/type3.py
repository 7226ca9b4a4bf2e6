"""A Type3 glyph's shape, from what its glyph procedure paints (rules: fonts with no mapping).

The PDF engine reads the procedure (``FontInfo.charproc``, :mod:`glyphweave.pdf.charprocs`:
filled and stroked paths, image masks, in em through the font's /FontMatrix); this module
makes a shape of it. A procedure that paints nothing is a blank glyph (a space); one that
cannot be read gives no shape, never an error.
"""

from __future__ import annotations

from glyphweave.core.fontinfo import FontInfo
from glyphweave.tables.encodings import simple_code_name

from .raster import Shape, shape_of_bitmap, shape_of_polygons

__all__ = ["type3_blank", "type3_glyph_name", "type3_path", "type3_shape"]

Point = tuple[float, float]


def type3_glyph_name(info: FontInfo, code: int | bytes) -> str | None:
    """The glyph procedure a code paints (:func:`~glyphweave.tables.encodings.simple_code_name`),
    when the font has it."""
    if isinstance(code, (bytes, bytearray)):
        if len(code) != 1:
            return None
        code = code[0]
    name = simple_code_name(info, code)
    return name if name is not None and name in info.type3_glyphs else None


def _painted(info: FontInfo, name: str) -> tuple[list[list[Point]], list[tuple[list[list[bool]], tuple]]] | None:
    """The filled polygons and the image masks (rows, box) the procedure paints, in em;
    None when it has none or cannot be read (the font loader keeps it)."""
    painted = info.charproc(name) if info.charproc is not None else None
    return painted if isinstance(painted, tuple) else None


def type3_blank(info: FontInfo, name: str) -> bool:
    """Whether the glyph procedure ``name`` paints nothing (a space)."""
    painted = _painted(info, name)
    return painted is not None and not painted[0] and not painted[1]


def type3_shape(info: FontInfo, name: str) -> Shape | None:
    """The shape of the Type3 glyph ``name``; None when it paints nothing or is unreadable."""
    painted = _painted(info, name)
    if painted is None:
        return None
    polygons, images = painted
    if polygons:
        return shape_of_polygons(polygons, 1.0)
    if images:
        rows, box = max(images, key=lambda image: len(image[0]) * len(image[0][0]))
        return shape_of_bitmap(rows, box)
    return None


MAX_PATH_RUNS = 4000
"""Runs of ink a bitmap glyph's drawing may hold (a larger bitmap is drawn coarser)."""


def type3_path(info: FontInfo, name: str) -> str:
    """SVG path data of what the Type3 glyph ``name`` paints, in thousandths of an em, y up,
    as :mod:`.outline` writes outlines (``M L Z``, integers): its filled polygons, or the
    runs of ink of its image mask as rectangles. "" when it paints nothing or is unreadable.
    Its hash is the glyph's identity in the registry (:func:`.outline.draw_glyph`)."""
    painted = _painted(info, name)
    if painted is None:
        return ""
    polygons, images = painted
    if not polygons and images:
        rows, (x0, y0, x1, y1) = max(images, key=lambda image: len(image[0]) * len(image[0][0]))
        height, width = len(rows), max(len(row) for row in rows)
        step = 1
        while sum(1 for row in rows[::step] for c in range(0, len(row), step)
                  if row[c] and (c < step or not row[c - step])) > MAX_PATH_RUNS:
            step += 1
        px, py = (x1 - x0) / width, (y1 - y0) / height
        polygons = []
        for r in range(0, height, step):
            row = rows[r]
            c = 0
            while c < len(row):
                if not row[c]:
                    c += step
                    continue
                start = c
                while c < len(row) and row[c]:
                    c += step
                top, bottom = y1 - r * py, y1 - min(r + step, height) * py
                polygons.append([(x0 + start * px, bottom), (x0 + c * px, bottom), (x0 + c * px, top),
                                 (x0 + start * px, top)])
    parts = []
    for polygon in polygons:
        if len(polygon) < 3:
            continue
        points = [f"{round(x * 1000)} {round(y * 1000)}" for x, y in polygon]
        parts.append("M" + points[0] + "".join("L" + p for p in points[1:]) + "Z")
    return "".join(parts)
