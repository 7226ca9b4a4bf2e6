"""What a page's annotations show on screen (ISO 32000-1 §12.5, §12.7): read, not painted.

A viewer paints the normal appearance of a page's annotations over its content. Those that
carry text are widgets (form fields), free-text notes and stamps, and a form field whose
value has no usable appearance is drawn by the viewer from its value. This module turns a
page's ``/Annots`` into what to paint, in order: :class:`Appearance` (a form XObject and
where Algorithm 8.1 puts it) or :class:`FieldText` (a field's value laid out in its
rectangle). The interpreter paints them after the page content with its own machinery
(forms, limits, budget); the rules and their reasons are in the design notes,
"Annotations and form fields".
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import attrs
import pikepdf

from glyphweave.core.glyph import AnnotationRef
from glyphweave.pdf.colours import BLACK, to_rgb
from glyphweave.tables.encodings import glyph_name_to_unicode
from glyphweave.tables.std14 import canonical_std14_name, std14_metrics

__all__ = ["Appearance", "FieldText", "FormDefaults", "page_annotations"]

Matrix = tuple[float, float, float, float, float, float]
Warn = Callable[[str], None]

PAINTED_SUBTYPES = frozenset({"/Widget", "/FreeText", "/Stamp"})
"""Standard subtypes whose appearance is painted: the ones that show text. The other
standard types draw icons, shapes and markup (a Text note's icon, a highlight), or are
shown only when opened (Popup); painting them would cost time and give no text."""
STANDARD_SUBTYPES = frozenset({
    "/Text", "/Link", "/FreeText", "/Line", "/Square", "/Circle", "/Polygon", "/PolyLine", "/Highlight",
    "/Underline", "/Squiggly", "/StrikeOut", "/Stamp", "/Caret", "/Ink", "/Popup", "/FileAttachment", "/Sound",
    "/Movie", "/Widget", "/Screen", "/PrinterMark", "/TrapNet", "/Watermark", "/3D", "/Redact", "/RichMedia",
    "/Projection",
})
"""The subtypes of PDF 1.7 and 2.0: an annotation of any other subtype is painted unless its
Invisible flag is set (§12.5.3: a viewer with no handler for it shows its appearance)."""

INVISIBLE, HIDDEN, NO_VIEW = 1, 2, 32
"""Annotation flags (§12.5.3, bits 1, 2 and 6)."""
MULTILINE, PASSWORD, PUSH_BUTTON, COMBO = 1 << 12, 1 << 13, 1 << 16, 1 << 17
"""Field flags (§12.7.4: text field bits 13 and 14, button bit 17, choice bit 18)."""
PADDING = 2.0
"""Space a viewer leaves between a field's border and its text, in points."""
DEFAULT_SIZE = 12.0
"""Font size of a multi-line field whose /DA asks for auto size (0)."""
FIELD_TEXT_MAX = 10_000
"""Characters of a field's value laid out at most: a viewer shows a few lines of it."""
PARENT_DEPTH = 64
"""Field tree levels walked at most (a /Parent chain may loop or be made deep on purpose)."""
FALLBACK_FONT = "Helvetica"
_DA_COLOUR = re.compile(rb"((?:[-+]?(?:\d+\.?\d*|\.\d+)\s+){1,4})(g|rg|k)\b")
"""A fill colour operator of a /DA with its operands."""
_DA_FONT = re.compile(rb"/([^\s/\[\]()<>{}%]*)\s+([-+]?(?:\d+\.?\d*|\.\d+))\s+Tf\b")


class Appearance(NamedTuple):
    """An appearance stream to paint as a form XObject with ``matrix`` as the CTM (Algorithm
    8.1's A: the form's own /Matrix is applied on top, as for any form)."""

    stream: pikepdf.Stream
    matrix: Matrix
    ref: AnnotationRef
    label: str
    """How warnings name it (``Widget annotation 3 (field a.b)``)."""


class FieldLine(NamedTuple):
    """One line of a field's value: its baseline start (page space), its text and each
    character's advance at the field's size."""

    x: float
    y: float
    text: str
    advances: tuple[float, ...]


class FieldText(NamedTuple):
    """A field's value laid out as a viewer draws it when the widget has no usable appearance."""

    ref: AnnotationRef
    font: str
    """The /DA font's resource name (``/Helv``), for the glyphs' font record."""
    base_font: str
    """The standard font whose metrics laid the text out."""
    size: float
    ascent: float
    descent: float
    """At ``size``, in points."""
    lines: tuple[FieldLine, ...]
    fill: tuple[float, float, float] | None = BLACK
    """The /DA's fill colour (its last ``g``, ``rg`` or ``k``), black when it sets none."""


@attrs.frozen
class FormDefaults:
    """What the document's /AcroForm gives every field: /NeedAppearances, the default /DA,
    the default resources /DR (their fonts name the /DA fonts)."""

    need_appearances: bool = False
    da: bytes = b""
    resources: Any = None

    @classmethod
    def read(cls, pdf: pikepdf.Pdf) -> FormDefaults:
        try:
            form = pdf.Root.get("/AcroForm")
        except (pikepdf.PdfError, AttributeError, ValueError):
            form = None
        if not isinstance(form, pikepdf.Dictionary):
            return cls()
        need = form.get("/NeedAppearances")
        resources = form.get("/DR")
        return cls(need_appearances=need is True, da=_bytes(form.get("/DA")),
                   resources=resources if isinstance(resources, pikepdf.Dictionary) else None)


def _bytes(value: Any) -> bytes:
    return bytes(value) if isinstance(value, pikepdf.String) else b""


def _text(value: Any) -> str | None:
    """A PDF text string as str (pikepdf decodes UTF-16BE, UTF-8 and PDFDocEncoding)."""
    if isinstance(value, pikepdf.String):
        return str(value)
    return None


def _name(value: Any) -> str:
    return str(value) if isinstance(value, pikepdf.Name) else ""


def _numbers(value: Any, count: int) -> tuple[float, ...] | None:
    """``count`` finite numbers from a PDF array, or None."""
    if not isinstance(value, pikepdf.Array) or len(value) != count:
        return None
    try:
        numbers = tuple(float(item) for item in value)
    except (TypeError, ValueError):
        return None
    return numbers if all(map(math.isfinite, numbers)) else None


def _rect(value: Any) -> tuple[float, float, float, float] | None:
    numbers = _numbers(value, 4)
    if numbers is None:
        return None
    x0, y0, x1, y1 = numbers
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def appearance_matrix(bbox: tuple[float, float, float, float], form_matrix: Matrix,
                      rect: tuple[float, float, float, float]) -> Matrix:
    """Algorithm 8.1's matrix A (§12.5.5): it maps the form's /BBox, transformed by its
    /Matrix (the bounding box of the four corners), onto the annotation's /Rect. A box with
    no width or height keeps that axis unscaled."""
    x0, y0, x1, y1 = bbox
    xs, ys = zip(*(_apply(form_matrix, x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))), strict=True)
    bx0, by0, bx1, by1 = min(xs), min(ys), max(xs), max(ys)
    rx0, ry0, rx1, ry1 = rect
    sx = (rx1 - rx0) / (bx1 - bx0) if bx1 > bx0 else 1.0
    sy = (ry1 - ry0) / (by1 - by0) if by1 > by0 else 1.0
    return (sx, 0.0, 0.0, sy, rx0 - bx0 * sx, ry0 - by0 * sy)


class _Field(NamedTuple):
    """A widget's field, with what it inherits through /Parent (§12.7.3.1)."""

    name: str
    kind: str
    flags: int
    value: Any
    da: bytes
    options: Any
    align: int


def _field(widget: pikepdf.Dictionary, warn: Warn) -> _Field | None:
    """The widget's field (the widget itself when merged with it), or None when no dictionary
    of its /Parent chain has /FT or /T (a widget that belongs to no field)."""
    found: dict[str, Any] = {}
    names: list[str] = []
    seen: set[tuple[int, int]] = set()
    node: Any = widget
    for _depth in range(PARENT_DEPTH):
        if not isinstance(node, pikepdf.Dictionary):
            break
        if node.is_indirect:
            objgen = node.objgen
            if objgen in seen:
                warn("form field tree loops (/Parent); walk stopped")
                break
            seen.add(objgen)
        partial_name = _text(node.get("/T"))
        if partial_name is not None:
            names.append(partial_name)
        for key in ("/FT", "/V", "/DA", "/Ff", "/Opt", "/Q"):
            if key not in found and key in node:
                found[key] = node.get(key)
        node = node.get("/Parent")
    else:
        warn(f"form field tree deeper than {PARENT_DEPTH} levels; walk stopped")
    if "/FT" not in found and not names:
        return None

    def integer(key: str) -> int:
        try:
            return int(found.get(key, 0))
        except (TypeError, ValueError):
            return 0

    return _Field(name=".".join(reversed(names)), kind=_name(found.get("/FT")), flags=integer("/Ff"),
                  value=found.get("/V"), da=_bytes(found.get("/DA")), options=found.get("/Opt"),
                  align=integer("/Q"))


def _normal_appearance(annot: pikepdf.Dictionary) -> pikepdf.Stream | None:
    """The normal appearance (/AP /N): the stream, or the state /AS names in a dictionary of
    states (the only state when there is one and no /AS)."""
    ap = annot.get("/AP")
    if not isinstance(ap, pikepdf.Dictionary):
        return None
    normal = ap.get("/N")
    if isinstance(normal, pikepdf.Stream):
        return normal
    if not isinstance(normal, pikepdf.Dictionary):
        return None
    state = annot.get("/AS")
    if isinstance(state, pikepdf.Name):
        chosen = normal.get(str(state))
        return chosen if isinstance(chosen, pikepdf.Stream) else None
    streams = [value for _key, value in normal.items() if isinstance(value, pikepdf.Stream)]
    return streams[0] if len(streams) == 1 else None


def _placed(stream: pikepdf.Stream, rect: tuple[float, float, float, float], ref: AnnotationRef,
            label: str, warn: Warn) -> Appearance | None:
    bbox = _rect(stream.get("/BBox"))
    if bbox is None:
        warn(f"{label}: appearance has no usable /BBox; skipped")
        return None
    matrix_obj = stream.get("/Matrix")
    form_matrix: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    if matrix_obj is not None:
        numbers = _numbers(matrix_obj, 6)
        if numbers is None:
            warn(f"{label}: appearance /Matrix is not six numbers; the identity is used")
        else:
            form_matrix = numbers  # type: ignore[assignment]
    return Appearance(stream, appearance_matrix(bbox, form_matrix, rect), ref, label)


def page_annotations(page_obj: Any, defaults: FormDefaults, warn: Warn) -> Iterator[Appearance | FieldText]:
    """What the page's annotations show on screen, in paint order (the order of /Annots).

    Malformed entries are skipped with a warning through ``warn``; nothing here raises on
    bad input. The caller bounds the time and the records spent on what is yielded.
    """
    annots = page_obj.get("/Annots")
    if annots is None:
        return
    if not isinstance(annots, pikepdf.Array):
        warn("page /Annots is not an array; annotations ignored")
        return
    bad_rects = 0
    for number, annot in enumerate(annots, 1):
        if not isinstance(annot, pikepdf.Dictionary):
            continue
        subtype = _name(annot.get("/Subtype"))
        painted = subtype in PAINTED_SUBTYPES
        if not painted and subtype in STANDARD_SUBTYPES:
            continue  # links above all, a book's hundreds of them: the flags are not read
        try:
            flags = int(annot.get("/F", 0))
        except (TypeError, ValueError):
            flags = 0
        if flags & (HIDDEN | NO_VIEW) or not painted and flags & INVISIBLE:
            continue
        rect = _rect(annot.get("/Rect"))
        if rect is None:
            bad_rects += 1
            if bad_rects == 1:
                warn(f"annotation {number} ({subtype or 'no subtype'}): /Rect is not four finite numbers; skipped")
            continue
        yield from _annotation(annot, subtype.lstrip("/"), number, rect, defaults, warn)
    if bad_rects > 1:
        warn(f"{bad_rects - 1:,} more annotations with an unusable /Rect skipped")


def _annotation(annot: pikepdf.Dictionary, subtype: str, number: int, rect: tuple[float, float, float, float],
                defaults: FormDefaults, warn: Warn) -> Iterator[Appearance | FieldText]:
    field = _field(annot, warn) if subtype == "Widget" else None
    label = f"{subtype or 'untyped'} annotation {number}" + (f" (field {field.name})" if field and field.name else "")
    ref = AnnotationRef(subtype=subtype, field=field.name if field is not None else "")
    appearance = _normal_appearance(annot)
    if field is not None:
        if field.kind == "/Btn" and not field.flags & PUSH_BUTTON:
            return  # a check box's or radio button's state mark is a drawing, not text
        if field.kind == "/Tx" and field.flags & PASSWORD:
            return  # never the value, nor an appearance that might spell it
        text = _field_value(field) if field.kind in ("/Tx", "/Ch") else None
        if text and (appearance is None or defaults.need_appearances):
            laid = _layout(field, text, rect, defaults, attrs.evolve(ref, value=True), label, warn)
            if laid is not None:
                yield laid
            return
    if appearance is not None:
        placed = _placed(appearance, rect, ref, label, warn)
        if placed is not None:
            yield placed


def _field_value(field: _Field) -> str | None:
    """The text a viewer shows for a text or choice field: its value, or for a choice field
    the display text of the selected options (an /Opt pair is [export value, display text])."""
    values = list(field.value) if isinstance(field.value, pikepdf.Array) else [field.value]
    texts = [text for text in map(_text, values) if text]
    if not texts:
        return None
    if field.kind == "/Ch" and isinstance(field.options, pikepdf.Array):
        shown: dict[str, str] = {}
        for option in field.options:
            if isinstance(option, pikepdf.Array) and len(option) >= 2:
                export, display = _text(option[0]), _text(option[1])
                if export is not None and display is not None:
                    shown.setdefault(export, display)
        texts = [shown.get(text, text) for text in texts]
    return "\n".join(texts)


@functools.cache
def _widths(base_font: str) -> tuple[dict[str, float], float, float, float]:
    """A standard font's advance per character (1/1000 em), its default width, ascent and descent."""
    metrics = std14_metrics(base_font)
    widths: dict[str, float] = {}
    for glyph, width in metrics.widths.items():
        char = glyph_name_to_unicode(glyph)
        if char is not None and len(char) == 1:
            widths.setdefault(char, width)
    return widths, metrics.default_width, metrics.ascent, metrics.descent


def _da_font(da: bytes, resources: Any) -> tuple[str, float | None, str]:
    """The /DA's font resource name, size (None when absent or unreadable) and the standard
    font whose metrics stand for it (the /DR font's when it is one of the standard 14)."""
    matches = _DA_FONT.findall(da)
    if not matches:
        return "/Helv", None, FALLBACK_FONT
    raw_name, raw_size = matches[-1]
    name = "/" + raw_name.decode("latin-1")
    size = float(raw_size)
    base = FALLBACK_FONT
    fonts = resources.get("/Font") if isinstance(resources, pikepdf.Dictionary) else None
    font = fonts.get(name) if isinstance(fonts, pikepdf.Dictionary) else None
    if isinstance(font, pikepdf.Dictionary):
        canonical = canonical_std14_name(_name(font.get("/BaseFont")).lstrip("/"))
        if canonical is not None and canonical not in ("Symbol", "ZapfDingbats"):
            base = canonical
    return name, size if math.isfinite(size) and size >= 0 else None, base


def _layout(field: _Field, text: str, rect: tuple[float, float, float, float], defaults: FormDefaults,
            ref: AnnotationRef, label: str, warn: Warn) -> FieldText | None:
    """A field's value as a viewer draws it: the /DA size (0: fit the box), left-aligned
    (or as /Q says) 2 pt in from the border, one line centred vertically, or (multi-line
    fields and multiple selections) one line per line break, from the top down."""
    if len(text) > FIELD_TEXT_MAX:
        warn(f"{label}: value of {len(text):,} characters; the first {FIELD_TEXT_MAX:,} laid out")
        text = text[:FIELD_TEXT_MAX]
    font, size, base = _da_font(field.da or defaults.da, defaults.resources)
    widths, default_width, ascent, descent = _widths(base)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    multiline = len(lines) > 1 or bool(field.flags & MULTILINE and field.kind == "/Tx")
    x0, y0, x1, y1 = rect
    em = (ascent - descent) / 1000.0
    if not size:  # auto: fill the box's height (one line), then shrink to the widest line
        size = DEFAULT_SIZE if multiline else max((y1 - y0 - 2 * PADDING) / em, 1.0)
        widest = max(sum(widths.get(c, default_width) for c in line) for line in lines) / 1000.0
        if widest * size > x1 - x0 - 2 * PADDING > 0:
            size = max((x1 - x0 - 2 * PADDING) / widest, 1.0)
    laid: list[FieldLine] = []
    y = y1 - PADDING - ascent / 1000.0 * size if multiline else (y0 + y1) / 2 - (ascent + descent) / 2000.0 * size
    for line in lines:
        advances = tuple(widths.get(c, default_width) * size / 1000.0 for c in line)
        width = sum(advances)
        x = x0 + PADDING
        if field.align == 1:
            x = (x0 + x1 - width) / 2
        elif field.align == 2:
            x = x1 - PADDING - width
        if line:
            laid.append(FieldLine(x, y, line, advances))
        y -= em * size
    if not laid:
        return None
    return FieldText(ref=ref, font=font, base_font=base, size=size, ascent=ascent / 1000.0 * size,
                     descent=descent / 1000.0 * size, lines=tuple(laid), fill=_da_fill(field.da or defaults.da))


def _da_fill(da: bytes) -> tuple[float, float, float] | None:
    """The fill colour a /DA sets (its last ``g``, ``rg`` or ``k``), black when none."""
    found = _DA_COLOUR.findall(da)
    if not found:
        return BLACK
    numbers, operator = found[-1]
    return to_rgb(numbers.split(), {b"g": 1, b"rg": 3, b"k": 4}[operator])
