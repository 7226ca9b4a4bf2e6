"""The public glyph record (rules: the glyph record).

Records are built lazily from a page's :class:`~glyphweave.core.glyphtable.GlyphTable`;
the interpreter and the stages never create one per glyph in their hot paths.
"""

from __future__ import annotations

from typing import Any

import attrs

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]


@attrs.frozen(kw_only=True)
class FontRef:
    """Which font painted a glyph: resource key as used on the page, and base font name."""

    resource: str
    base_font: str
    subset_prefix: str = ""
    subtype: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "resource": self.resource,
            "base_font": self.base_font,
            "subset_prefix": self.subset_prefix,
            "subtype": self.subtype,
        }


@attrs.frozen(kw_only=True)
class AnnotationRef:
    """Which annotation painted a glyph (glyphs of the page's own content have none):
    its ``/Subtype`` (``Widget``, ``FreeText``, ``Stamp``, ...) and, for a form field's
    widget, the field's fully qualified name (``a.b.c``; "" for other annotations).
    ``value`` is True when the glyphs were laid out from the field's value, because the
    widget had no usable appearance, rather than painted from its appearance stream."""

    subtype: str
    field: str = ""
    value: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"subtype": self.subtype, "field": self.field, "value": self.value}


@attrs.frozen(kw_only=True)
class Glyph:
    """One painted glyph, in paint order.

    ``quad`` is (baseline start, baseline end, top end, top start) in page user space:
    the first two points lie on the descent line, the last two on the ascent line, so
    that a rotated or vertical glyph keeps an honest box.
    """

    text: str
    unresolved: bool
    code: bytes
    cid: int | None
    font: FontRef
    font_size: float
    """The ``Tf`` operand (text-space units), not the size on the page."""
    page_size: float
    """The size on the page, in points: ``font_size`` scaled by the text matrix and CTM."""
    origin: Point
    glyph_end: Point
    pen_end: Point
    quad: Quad
    box_height: float
    writing_mode: int = attrs.field(validator=attrs.validators.in_((0, 1)))
    mcid: int | None = None
    tag: str | None = None
    actual_text: str | None = None
    token_index: int = -1
    paint_order: int = 0
    render_mode: int = 0
    decoded_by: str | None = None
    annotation: AnnotationRef | None = None
    """The annotation whose appearance (or field value) painted the glyph; None for the
    page's own content."""
    fill_color: tuple[float, float, float] | None = None
    """The fill colour it was painted in, RGB from 0 to 1 (None: not convertible, see
    ``Run.fill``)."""
    stroke_color: tuple[float, float, float] | None = None
    """The stroke colour, likewise (render modes 1, 2, 5 and 6 outline the glyph with it)."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping (bytes as hex)."""
        return {
            "text": self.text,
            "unresolved": self.unresolved,
            "code": self.code.hex(),
            "cid": self.cid,
            "font": self.font.to_dict(),
            "font_size": self.font_size,
            "page_size": self.page_size,
            "origin": list(self.origin),
            "glyph_end": list(self.glyph_end),
            "pen_end": list(self.pen_end),
            "quad": [list(p) for p in self.quad],
            "box_height": self.box_height,
            "writing_mode": self.writing_mode,
            "mcid": self.mcid,
            "tag": self.tag,
            "actual_text": self.actual_text,
            "token_index": self.token_index,
            "paint_order": self.paint_order,
            "render_mode": self.render_mode,
            "decoded_by": self.decoded_by,
            "annotation": None if self.annotation is None else self.annotation.to_dict(),
            "fill_color": None if self.fill_color is None else list(self.fill_color),
            "stroke_color": None if self.stroke_color is None else list(self.stroke_color),
        }
