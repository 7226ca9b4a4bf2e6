"""Reading an embedded font's glyphs by their shapes (rules: fonts with no mapping).

:func:`shape_reading` answers what the glyph a code paints looks like, for the ``shape``
decoder and ``scan --propose``. The font is measured once (:class:`~.shapes.FontReader`:
its x-height and script, from its own glyphs) and each glyph read once; both are kept in
the font's memo, so a document pays per font, not per page.

A program of up to :data:`SAMPLE` glyphs (a subset, as most embedded fonts are) is
measured on all of them; a larger one on :data:`SAMPLE` glyphs spread evenly over its
glyph order, so the cost is bounded whatever the font, and the answer for a glyph never
depends on which glyphs a page happened to use first.
"""

from __future__ import annotations

from typing import Any

from glyphweave.core.fontinfo import FontInfo

from .outline import drawing_of, glyph_name, glyph_names, is_blank
from .raster import Shape, shape_of_path
from .shapes import FontReader, Reading, read_shapes

__all__ = ["SAMPLE", "blank_glyph", "glyph_shape", "shape_reading"]

SAMPLE = 400
"""Glyphs a font is measured on, at most."""

_MEMO_READER = "shape-reader"
_MEMO_READINGS = "shape-readings"
_NO_READER = "none"


def glyph_shape(info: FontInfo, name: str) -> Shape | None:
    """The shape of the glyph called ``name`` in ``info``'s embedded program."""
    drawing = drawing_of(info, name)
    if drawing is None:
        return None
    return shape_of_path(drawing.path, drawing.units_per_em, drawing.advance)


def _readings(info: FontInfo) -> tuple[FontReader | None, dict[str, Reading | None]]:
    """The font's reader and the readings made so far, by glyph name. A program of up to
    :data:`SAMPLE` glyphs is read whole, its glyphs together (:func:`~.shapes.read_shapes`);
    a larger one is measured on a sample and its glyphs read one by one as they are met."""
    memo: dict[str, Any] = info.memo
    cached = memo.get(_MEMO_READER)
    if cached is not None:
        return (None if cached is _NO_READER else cached), memo[_MEMO_READINGS]
    reader: FontReader | None = None
    readings: dict[str, Reading | None] = {}
    names = glyph_names(info)
    if len(names) <= SAMPLE:
        shapes = {name: shape for name, shape in ((n, glyph_shape(info, n)) for n in names) if shape is not None}
        if shapes:
            readings = dict.fromkeys(names)
            readings.update(read_shapes(shapes))
            reader = FontReader.measure(())  # everything is read: no glyph asks the reader
    else:
        step = len(names) // SAMPLE + 1
        sample = [shape for shape in (glyph_shape(info, name) for name in names[::step]) if shape is not None]
        if sample:
            reader = FontReader.measure(sample)
    memo[_MEMO_READER] = reader if reader is not None else _NO_READER
    memo[_MEMO_READINGS] = readings
    return reader, readings


def shape_reading(info: FontInfo, code: int | bytes, cid: int | None) -> Reading | None:
    """What the glyph ``code`` (simple fonts) or ``cid`` (composite fonts) paints reads as;
    None when the font embeds no readable outline of it (a damaged program reads as none:
    the outline module never raises)."""
    name = glyph_name(info, code, cid)
    if name is None:
        return None
    reader, readings = _readings(info)
    if name in readings or reader is None:
        return readings.get(name)
    shape = glyph_shape(info, name)
    reading = reader.read(shape) if shape is not None else None
    readings[name] = reading
    return reading


def blank_glyph(info: FontInfo, code: int | bytes, cid: int | None) -> bool:
    """Whether the glyph ``code`` or ``cid`` paints is in the font's program and draws
    nothing but advances: a space, whatever the font calls it."""
    name = glyph_name(info, code, cid)
    return name is not None and is_blank(info, name)
