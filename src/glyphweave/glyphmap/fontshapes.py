"""Reading an embedded font's glyphs by their shapes (rules: fonts with no mapping): the
outlines of its program (:mod:`.outline`), or a Type3 font's glyph procedures
(:mod:`.type3`).

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

import collections
import math
import statistics
from typing import Any

from glyphweave.core.fontinfo import FontInfo

from .outline import drawing_of, glyph_name, glyph_names, is_blank
from .raster import Shape, flipped, shape_of_path
from .shapes import FontReader, Reading, load_references, nearest, read_shapes
from .type3 import type3_blank, type3_glyph_name, type3_shape

__all__ = ["SAMPLE", "blank_glyph", "glyph_shape", "nearest_letter", "shape_reading"]

SAMPLE = 400
"""Glyphs a font is measured on, at most."""

_MEMO_READER = "shape-reader"
_MEMO_READINGS = "shape-readings"
_NO_READER = "none"


def _names(info: FontInfo) -> list[str]:
    return list(info.type3_glyphs) if info.subtype == "Type3" else glyph_names(info)


def _name(info: FontInfo, code: int | bytes, cid: int | None) -> str | None:
    return type3_glyph_name(info, code) if info.subtype == "Type3" else glyph_name(info, code, cid)


def glyph_shape(info: FontInfo, name: str) -> Shape | None:
    """The shape of the glyph called ``name`` in ``info``'s embedded program (a Type3
    font's glyph procedure)."""
    if info.subtype == "Type3":
        return type3_shape(info, name)
    drawing = drawing_of(info, name)
    if drawing is None:
        return None
    return shape_of_path(drawing.path, drawing.units_per_em, drawing.advance)


def _readings(info: FontInfo) -> tuple[FontReader | None, dict[str, Reading | None]]:
    """The font's reader and the readings made so far, by glyph name. A program of up to
    :data:`SAMPLE` glyphs is read whole, its glyphs together (:func:`~.shapes.read_shapes`),
    and needs no reader; a larger one is measured on a sample and its glyphs read one by one
    as they are met."""
    memo: dict[str, Any] = info.memo
    cached = memo.get(_MEMO_READER)
    if cached is not None:
        return (None if cached is _NO_READER else cached), memo[_MEMO_READINGS]
    reader: FontReader | None = None
    readings: dict[str, Reading | None] = {}
    names = _names(info)
    if len(names) <= SAMPLE:
        shapes = {name: shape for name, shape in ((n, glyph_shape(info, n)) for n in names) if shape is not None}
        if shapes:
            readings = dict.fromkeys(names)
            readings.update(_read_type3(shapes) if info.subtype == "Type3" else read_shapes(shapes))
    else:
        step = len(names) // SAMPLE + 1
        sample = [shape for shape in (glyph_shape(info, name) for name in names[::step]) if shape is not None]
        if sample:
            reader = FontReader.measure(sample)
    memo[_MEMO_READER] = reader if reader is not None else _NO_READER
    memo[_MEMO_READINGS] = readings
    return reader, readings


def _read_type3(shapes: dict[str, Shape]) -> dict[str, Reading]:
    """A Type3 font read upright or upside down, whichever reads better (the smaller mean
    distance). Some producers (Ghostscript's bitmap fonts) design glyphs upside down for a
    text matrix that turns them over, and hang them from their size's cap line: one font
    may hold bitmaps of several sizes (a title's and the body's), each with its own
    baseline. Turned, a glyph's baseline is that of its size (:func:`_hanging_baselines`),
    and the glyphs of each size are read together, each size measuring its own x-height;
    such a font is a bag of several fonts' glyphs (roman and italic too), so one character
    may have several glyphs in it."""
    upright = read_shapes(shapes)
    baselines = _hanging_baselines(shapes)
    sizes: dict[float, dict[str, Shape]] = {}
    for name, shape in shapes.items():
        sizes.setdefault(baselines[name], {})[name] = flipped(shape, baselines[name])
    if len(sizes) == 1:
        over = read_shapes(next(iter(sizes.values())))
    else:  # a bag of fonts: each glyph read on its own, on whichever baseline it reads best
        over = _read_bag(shapes, {baseline: FontReader.measure(size.values()) for baseline, size in sizes.items()})

    def mean(readings: dict[str, Reading]) -> float:
        return sum(r.distance for r in readings.values()) / len(readings) if readings else math.inf

    return over if mean(over) < mean(upright) else upright


def _read_bag(shapes: dict[str, Shape], readers: dict[float, FontReader]) -> dict[str, Reading]:
    """Each glyph of a font holding several sizes, read upside down on every baseline it
    reaches (its own size's, or a smaller size's for a descender: the tops of one size's
    descenders meet too, and may pass for another size's baseline), by that size's reader;
    the nearest reading wins. (A glyph that stands above its baseline, a hyphen or a quote,
    is read on a smaller size's: trying the baseline above it too read worse overall.)"""
    found: dict[str, Reading] = {}
    for name, shape in shapes.items():
        top = shape.box[3]
        best: Reading | None = None
        for baseline, reader in readers.items():
            if baseline > top and not _near_in_height(baseline, top):
                continue  # the glyph would float above this baseline
            reading = reader.read(flipped(shape, baseline))
            if reading is not None and (best is None or reading.distance < best.distance):
                best = reading
        if best is not None:
            found[name] = best
    return found


SIZE_SHARE = 0.05
"""The share of a font's glyphs (and at least 3) whose tops must meet at one height for it
to count as the baseline of one of the sizes the font holds (read upside down)."""


def _hanging_baselines(shapes: dict[str, Shape]) -> dict[str, float]:
    """The baseline of each glyph of a font drawn upside down: where the tops (the turned
    glyphs' bottoms) of many glyphs meet is the baseline of one size (the letters with no
    descender stand on it); a glyph whose top meets none reaches below a baseline (a
    descender), and takes the nearest above it. A font of one size gets one baseline; with
    no meeting height at all, the median top serves."""
    tops = [shape.box[3] for shape in shapes.values()]
    counts = collections.Counter(round(top, 3) for top in tops)
    near = _near_in_height
    heights: list[float] = []
    for value, _ in counts.most_common():
        if any(near(value, h) for h in heights):
            continue
        if sum(n for v, n in counts.items() if near(v, value)) >= max(3, SIZE_SHARE * len(tops)):
            heights.append(value)
    fallback = statistics.median(tops)
    found = {}
    for name, shape in shapes.items():
        top = shape.box[3]
        meets = next((h for h in heights if near(top, h)), None)
        if meets is None:
            below = [h for h in heights if h < top]
            meets = max(below) if below else fallback
        found[name] = meets
    return found


def _near_in_height(a: float, b: float) -> bool:
    """Two tops within 5% of each other (bitmaps round each glyph's box to their pixels)."""
    return abs(a - b) <= 0.05 * max(abs(a), abs(b))


def shape_reading(info: FontInfo, code: int | bytes, cid: int | None) -> Reading | None:
    """What the glyph ``code`` (simple fonts) or ``cid`` (composite fonts) paints reads as;
    None when the font embeds no readable outline of it (a damaged program reads as none:
    the outline module never raises)."""
    name = _name(info, code, cid)
    if name is None:
        return None
    reader, readings = _readings(info)
    if name in readings or reader is None:
        return readings.get(name)
    shape = glyph_shape(info, name)
    reading = reader.read(shape) if shape is not None else None
    readings[name] = reading
    return reading


def nearest_letter(info: FontInfo, code: int | bytes, cid: int | None) -> str | None:
    """The letter or digit the glyph of ``code`` looks most like, compared in em with the
    references of letters and digits only: a quick look (a few milliseconds, no reading of
    the whole font) for checking an assumed encoding. None without an outline."""
    name = _name(info, code, cid)
    shape = glyph_shape(info, name) if name is not None else None
    if shape is None:
        return None
    refs = load_references()
    ranked = nearest(shape, None, refs)
    return refs.chars[ranked[0][1]] if ranked else None


def blank_glyph(info: FontInfo, code: int | bytes, cid: int | None) -> bool:
    """Whether the glyph ``code`` or ``cid`` paints is in the font's program and draws
    nothing but advances: a space, whatever the font calls it."""
    name = _name(info, code, cid)
    if name is None:
        return False
    return type3_blank(info, name) if info.subtype == "Type3" else is_blank(info, name)
