"""The page as shown: where a point of PDF user space lands on the page a viewer displays.

A viewer shows a page's CropBox turned clockwise by its /Rotate, and people measure on that
picture, from its top-left corner, y down: pdfplumber's and PyMuPDF's boxes, pdftotext's
``-x -y -W -H`` and ``-bbox -cropbox``. Glyph records stay in user space (origin at the
bottom left of the MediaBox, y up, before /Rotate); a crop box and the boxes of words are
measured as shown, and this is the one map between the two.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["shown_box", "shown_size", "shown_transform"]

Box = tuple[float, float, float, float]


def shown_transform(cropbox: Box, rotate: int) -> Callable[[float, float], tuple[float, float]]:
    """The map from page user space to the page as shown (points, origin at the top left,
    y down): the CropBox's corner that /Rotate (clockwise, a multiple of 90) brings to the
    top left becomes the origin."""
    cx0, cy0, cx1, cy1 = cropbox
    turn = rotate % 360
    if turn == 90:
        return lambda x, y: (y - cy0, x - cx0)
    if turn == 180:
        return lambda x, y: (cx1 - x, y - cy0)
    if turn == 270:
        return lambda x, y: (cy1 - y, cx1 - x)
    return lambda x, y: (x - cx0, cy1 - y)


def shown_box(to_shown: Callable[[float, float], tuple[float, float]], box: Box) -> Box:
    """The bounds, as shown (``(x0, top, x1, bottom)``), of the user-space ``box``
    (``(x0, y0, x1, y1)``): its corners mapped by ``to_shown`` (a :func:`shown_transform`)."""
    x0, y0, x1, y1 = box
    corners = [to_shown(x, y) for x in (x0, x1) for y in (y0, y1)]
    xs = [c[0] for c in corners]
    ys = [c[1] for c in corners]
    return min(xs), min(ys), max(xs), max(ys)


def shown_size(cropbox: Box, rotate: int) -> tuple[float, float]:
    """The width and height of the page as shown: its CropBox's, swapped by a quarter turn."""
    x0, y0, x1, y1 = cropbox
    width, height = abs(x1 - x0), abs(y1 - y0)
    return (width, height) if rotate % 180 == 0 else (height, width)
