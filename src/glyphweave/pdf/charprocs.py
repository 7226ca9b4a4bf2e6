"""What a Type3 glyph procedure paints (ISO 32000-1 §9.6.5), for reading the glyph's shape.

A Type3 font draws each glyph with a content stream: paths that are filled or stroked, or
an image mask (the bitmap fonts of pdfTeX, dvips and Ghostscript, AFP and PDFlib).
:func:`glyph_paint` reads that stream far enough to know what it paints, in em (through the
font's /FontMatrix):

* paths (``m l c v y h re``) under the current transformation (``q Q cm``), kept when
  filled (``f F f* B B* b b*``) and, when stroked (``S s``), each segment widened to the
  line width (``w``) as a quadrilateral;
* image masks painted inline (``BI ... ID ... EI`` with ``/IM true``, or a 1-bit image),
  their samples read with the /Decode array (``[1 0]`` inverts), filtered ones through
  pikepdf's image decoding (Ghostscript's CCITT fax);
* everything else (colour, text, clipping, XObjects) is ignored: a glyph's shape is its ink.

The font loader (:mod:`.fonts`) hands this to the glyph registry through
``FontInfo.charproc``; :mod:`glyphweave.glyphmap.type3` makes the shape of it.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pikepdf

from glyphweave.tables.encodings import simple_code_name

__all__ = ["CARRIER", "Painted", "glyph_paint", "split_advances"]

log = logging.getLogger(__name__)

_CURVE_STEPS = 8
_MAX_IMAGE_SAMPLES = 1 << 20  # a glyph's image mask larger than a megapixel is not a glyph

Point = tuple[float, float]
Matrix = tuple[float, float, float, float, float, float]
Painted = tuple[list[list[Point]], list[tuple[list[list[bool]], tuple[float, float, float, float]]]]
"""The filled polygons, and the image masks as (rows of ink top to bottom, box), in em."""


def _multiply(m: Matrix, n: Matrix) -> Matrix:
    """``m`` then ``n`` (PDF's row-vector convention: the point times m times n)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2,
            e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def _apply(m: Matrix, x: float, y: float) -> Point:
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def _numbers(operands: Sequence[Any], count: int) -> list[float] | None:
    if len(operands) < count:
        return None
    try:
        values = [float(v) for v in operands[-count:]]
    except (TypeError, ValueError):
        return None
    return values if all(map(math.isfinite, values)) else None


def glyph_paint(data: bytes, font_matrix: Matrix = (0.001, 0.0, 0.0, 0.001, 0.0, 0.0)) -> Painted:
    """What the glyph procedure ``data`` (a decoded content stream) paints, in text space
    (em): glyph space is taken through ``font_matrix``, the font's /FontMatrix.

    :raises Exception: the stream cannot be parsed (the caller reads that as no shape).
    """
    pdf = pikepdf.new()
    instructions = pikepdf.parse_content_stream(pikepdf.Stream(pdf, data))
    ctm: Matrix = font_matrix
    stack: list[tuple[Matrix, float]] = []
    line_width = 1.0
    subpaths: list[list[Point]] = []
    current: list[Point] = []
    filled: list[list[Point]] = []
    images: list[tuple[list[list[bool]], tuple[float, float, float, float]]] = []

    def close() -> None:
        nonlocal current
        if len(current) > 1:
            subpaths.append(current)
        current = []

    for item in instructions:
        if isinstance(item, pikepdf.ContentStreamInlineImage):
            image = _image_mask(item.iimage, ctm)
            if image is not None:
                images.append(image)
            continue
        op = str(item.operator)
        operands = list(item.operands)
        if op == "q":
            stack.append((ctm, line_width))
        elif op == "Q":
            if stack:
                ctm, line_width = stack.pop()
        elif op == "cm":
            values = _numbers(operands, 6)
            if values is not None:
                ctm = _multiply(tuple(values), ctm)  # type: ignore[arg-type]
        elif op == "w":
            values = _numbers(operands, 1)
            if values is not None:
                line_width = abs(values[0])
        elif op == "m":
            values = _numbers(operands, 2)
            if values is not None:
                close()
                current = [_apply(ctm, *values)]
        elif op == "l":
            values = _numbers(operands, 2)
            if values is not None and current:
                current.append(_apply(ctm, *values))
        elif op in ("c", "v", "y"):
            count = 6 if op == "c" else 4
            values = _numbers(operands, count)
            if values is not None and current:
                start = current[-1]
                if op == "c":
                    p1, p2, p3 = _apply(ctm, *values[0:2]), _apply(ctm, *values[2:4]), _apply(ctm, *values[4:6])
                elif op == "v":
                    p1, p2, p3 = start, _apply(ctm, *values[0:2]), _apply(ctm, *values[2:4])
                else:
                    p1, p2 = _apply(ctm, *values[0:2]), _apply(ctm, *values[2:4])
                    p3 = p2
                current.extend(_bezier(start, p1, p2, p3))
        elif op == "h":
            if current:
                first = current[0]
                close()
                current = [first]
        elif op == "re":
            values = _numbers(operands, 4)
            if values is not None:
                close()
                x, y, w, h = values
                subpaths.append([_apply(ctm, x, y), _apply(ctm, x + w, y), _apply(ctm, x + w, y + h),
                                 _apply(ctm, x, y + h)])
        elif op in ("f", "F", "f*", "B", "B*", "b", "b*", "S", "s"):
            if op in ("b", "b*", "s") and current:
                current.append(current[0])
            close()
            if op in ("S", "s"):
                filled.extend(_widened(subpaths, line_width * _scale(ctm)))
            else:
                filled.extend(path for path in subpaths if len(path) > 2)
            subpaths = []
        elif op == "n":
            current = []
            subpaths = []
    return filled, images


CARRIER = -1.0
"""In :func:`split_advances`: a glyph that paints nothing and only carries an advance."""
MIN_SPLIT = 8
"""Glyphs with no advance that paint a font needs before it counts as one of split advances."""


def split_advances(info: Any, widths: Sequence[float], procedures: Mapping[str, Callable[[], bytes | None]],
                   font_matrix: Sequence[float]) -> tuple[list[float | None], float, float] | None:
    """For a Type3 font that splits each character in two, as Ghostscript's bitmap fonts do
    (a glyph that paints the letter with no advance, then a glyph that paints nothing and
    carries the advance and any space after it): per code, the right edge (em) of a painting
    glyph with no advance, :data:`CARRIER` for a glyph that paints nothing and advances,
    None for any other; with it, the lowest and highest ink of the glyphs (em): such fonts'
    /FontBBox is in units no sanity check of an em accepts. None when the font does not
    split: fewer than :data:`MIN_SPLIT` painting glyphs with no advance, more painting
    glyphs with an advance than without, or no carrier.

    Read from each procedure's ``d1`` bounding box (its first operator, §9.6.5), never by
    interpreting the procedure: this runs in every profile, and a procedure may be large.
    A font whose procedures start with ``d0`` (no box) is not split. ``widths``: the font's
    256 advances; ``procedures``: the glyph procedures' loaders by name."""
    xscale, yscale = font_matrix[0], font_matrix[3]
    table: list[float | None] = [None] * 256
    zero = wide = carriers = 0
    low, high = math.inf, -math.inf
    for code in range(256):
        name = simple_code_name(info, code)
        load = procedures.get(name) if name is not None else None
        data = load() if load is not None else None
        match = _D1.match(data[:_HEAD]) if data else None
        if match is None:
            continue
        wx, llx, lly, urx, ury = (float(v) for v in match.group(1, 3, 4, 5, 6))
        if urx > llx and ury > lly:
            y0, y1 = sorted((lly * yscale, ury * yscale))
            low, high = min(low, y0), max(high, y1)
            if widths[code] == 0 and wx == 0:
                table[code] = max(urx * xscale, llx * xscale)
                zero += 1
            else:
                wide += 1
        elif widths[code] > 0:
            table[code] = CARRIER
            carriers += 1
    return (table, low, high) if zero >= MIN_SPLIT and zero >= wide and carriers and high > low else None


_HEAD = 256
_NUMBER = rb"([-+]?(?:\d+\.?\d*|\.\d+))"
_D1 = re.compile(rb"\s*" + rb"\s+".join([_NUMBER] * 6) + rb"\s+d1\b")


def _scale(m: Matrix) -> float:
    return math.sqrt(abs(m[0] * m[3] - m[1] * m[2])) or 1.0


def _bezier(p0: Point, p1: Point, p2: Point, p3: Point) -> list[Point]:
    out = []
    for step in range(1, _CURVE_STEPS + 1):
        t = step / _CURVE_STEPS
        u = 1 - t
        a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
        out.append((a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0], a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]))
    return out


def _widened(subpaths: list[list[Point]], width: float) -> list[list[Point]]:
    """Each segment of stroked subpaths as a quadrilateral ``width`` wide."""
    half = max(width, 1e-6) / 2
    quads = []
    for path in subpaths:
        for (ax, ay), (bx, by) in zip(path, path[1:], strict=False):
            dx, dy = bx - ax, by - ay
            length = math.hypot(dx, dy)
            if length == 0:
                continue
            nx, ny = -dy / length * half, dx / length * half
            quads.append([(ax + nx, ay + ny), (bx + nx, by + ny), (bx - nx, by - ny), (ax - nx, ay - ny)])
    return quads


def _image_mask(image: Any, ctm: Matrix) -> tuple[list[list[bool]], tuple[float, float, float, float]] | None:
    """The ink of an inline image mask (rows top to bottom) and its box in glyph space."""
    width, height = int(image.width), int(image.height)
    if width <= 0 or height <= 0 or width * height > _MAX_IMAGE_SAMPLES:
        return None
    if not image.image_mask and int(image.bits_per_component) != 1:
        return None
    decode_array = image.obj.get("/Decode")
    decode = [float(v) for v in decode_array] if decode_array is not None else []
    inverted = len(decode) >= 2 and decode[0] > decode[1]
    stride = (width + 7) // 8
    # an image mask paints where a sample is 0 (§8.9.6.2), where it is 1 when /Decode is [1 0];
    # a 1-bit image drawn as a glyph: its dark samples (0) are its ink
    paint = 1 if inverted else 0
    if image.filters:
        pixels = _decoded(image)
        if pixels is None:
            return None
        # pikepdf hands CCITT data to Pillow as WhiteIsZero: a sample of 0 is a white (255) pixel
        rows = [[(pixels[c, r] == 0) == bool(paint) for c in range(width)] for r in range(height)]
    else:
        raw = _raw_bytes(image)
        if len(raw) < stride * height:
            return None
        rows = [[(raw[r * stride + c // 8] >> (7 - c % 8) & 1) == paint for c in range(width)] for r in range(height)]
    corners = [_apply(ctm, x, y) for x, y in ((0, 0), (1, 0), (0, 1), (1, 1))]
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    top_row_up = _apply(ctm, 0, 1)[1] >= _apply(ctm, 0, 0)[1]  # image space row 0 maps to y = 1
    if not top_row_up:
        rows = rows[::-1]
    return rows, (min(xs), min(ys), max(xs), max(ys))


def _raw_bytes(image: Any) -> bytes:
    """An inline image's data as the content stream holds it (still filtered).

    Recent pikepdf releases have ``read_raw_bytes`` (10.18 does); older ones (10.13, the
    release pip picks for Python 3.10 here) keep the same bytes behind the image's data object.
    """
    reader = getattr(image, "read_raw_bytes", None)
    if reader is not None:
        return bytes(reader())
    return bytes(image._data._inline_image_raw_bytes())


def _decoded(image: Any) -> Any:
    """The samples of a filtered inline image (Ghostscript's CCITT fax glyphs), decoded by
    pikepdf as an image XObject with the same dictionary: a Pillow pixel access object
    (black or white); None when the image cannot be decoded."""
    try:
        pdf = pikepdf.new()
        stream = pikepdf.Stream(pdf, _raw_bytes(image))
        for key, value in image.obj.items():
            stream[key] = value
        stream.Type = pikepdf.Name.XObject
        stream.Subtype = pikepdf.Name.Image
        picture = pikepdf.PdfImage(stream).as_pil_image()
        if picture.size != (int(image.width), int(image.height)):
            return None
        return picture.convert("L").point(lambda v: 255 if v >= 128 else 0).load()
    except Exception as exc:  # an undecodable image: no shape
        log.debug("Type3 glyph image not decoded: %r", exc)
        return None
