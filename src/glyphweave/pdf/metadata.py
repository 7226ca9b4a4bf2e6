"""A document's metadata (ISO 32000-1 §14.3): the document information dictionary and the
XMP metadata stream, read into one record.

The Info dictionary (§14.3.3) is what most tools show (pdfinfo, PyMuPDF's
``doc.metadata``), so its values come first; the XMP packet (§14.3.2), which PDF 2.0 makes
the only place, fills whatever Info lacks. Dates become :class:`~datetime.datetime`
(aware when the file gives a time zone, naive when it does not), or None when they cannot
be read as a date.

Both are untrusted input. A text is cut at :data:`TEXT_MAX` characters; an XMP packet larger
than :data:`XMP_BYTES_MAX`, or one that declares a document type or entities (the way
an XML bomb expands), is not parsed; an unreadable one is skipped with a warning.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any

import attrs
import pikepdf

from glyphweave.pdf.interpreter import _text_string
from glyphweave.pdf.streams import read_bounded

__all__ = ["Metadata", "parse_pdf_date", "read_metadata"]

TEXT_MAX = 10_000
"""Characters kept of one metadata text (a title of a megabyte is an attack, not a title)."""
XMP_BYTES_MAX = 4 * 1024 * 1024
"""Decoded bytes of an XMP packet that are parsed at most (real packets are a few KB)."""

Warn = Callable[[str], None]


@attrs.frozen
class Metadata:
    """What a document says about itself. Every field is None when the file does not say."""

    title: str | None = None
    author: str | None = None
    subject: str | None = None
    keywords: str | None = None
    creator: str | None = None
    """The application that made the original document (Info /Creator, xmp:CreatorTool)."""
    producer: str | None = None
    """The application that wrote the PDF (Info /Producer, pdf:Producer)."""
    created: datetime | None = None
    modified: datetime | None = None


_INFO_TEXTS = {"title": "/Title", "author": "/Author", "subject": "/Subject", "keywords": "/Keywords",
               "creator": "/Creator", "producer": "/Producer"}
_INFO_DATES = {"created": "/CreationDate", "modified": "/ModDate"}


def read_metadata(pdf: pikepdf.Pdf, warn: Warn) -> Metadata:
    """``pdf``'s metadata: the Info dictionary's values, then the XMP packet's where Info has
    none. Never raises on a malformed file: what cannot be read is None (and warned of)."""
    found: dict[str, Any] = {}
    try:
        info = pdf.trailer.get("/Info")
    except pikepdf.PdfError:
        info = None
    if isinstance(info, pikepdf.Dictionary):
        for field, key in _INFO_TEXTS.items():
            found[field] = _text(info.get(key))
        for field, key in _INFO_DATES.items():
            text = _text(info.get(key))
            found[field] = parse_pdf_date(text) if text else None
    xmp = _xmp_values(pdf, warn)
    for field, value in xmp.items():
        if found.get(field) is None:
            found[field] = value
    return Metadata(**{k: v for k, v in found.items() if v is not None})


def _text(value: Any) -> str | None:
    """A metadata text as Unicode (PDFDocEncoding or UTF-16, as pikepdf decodes strings),
    stripped and cut; None when it is empty or not a string."""
    value = str(value)[1:] if isinstance(value, pikepdf.Name) else _text_string(value)
    if value is None:
        return None
    value = value.replace("\x00", "").strip()
    return value[:TEXT_MAX] or None


_PDF_DATE = re.compile(
    r"\s*(?:D:)?(?P<Y>\d{4})(?P<m>\d{2})?(?P<d>\d{2})?(?P<H>\d{2})?(?P<M>\d{2})?(?P<S>\d{2})?"
    r"(?:(?P<z>[Zz])|(?P<sign>[+-])(?P<oh>\d{2})'?(?:(?P<om>\d{2})'?)?)?",
    re.ASCII,
)


def parse_pdf_date(text: str) -> datetime | None:
    """A PDF date (§7.9.4, ``D:YYYYMMDDHHmmSSOHH'mm'``, every part after the year optional)
    as a datetime: aware when it gives a zone (``Z`` or an offset), naive when it does not.
    None when it is not such a date or names no real day or time."""
    match = _PDF_DATE.match(text)
    if match is None:
        return None
    parts = [int(match[k]) if match[k] else default for k, default in
             (("Y", 0), ("m", 1), ("d", 1), ("H", 0), ("M", 0), ("S", 0))]
    zone: timezone | None = None
    if match["z"]:
        zone = timezone.utc
    elif match["sign"]:
        minutes = int(match["oh"]) * 60 + int(match["om"] or 0)
        if minutes >= 24 * 60:
            return None
        zone = timezone(timedelta(minutes=-minutes if match["sign"] == "-" else minutes))
    try:
        year, month, day, hour, minute, second = parts
        return datetime(year, month, day, hour, minute, second, tzinfo=zone)
    except ValueError:  # month 13, day 31 of a short month, hour 24...
        return None


# ----------------------------------------------------------------------------------- XMP
_NS = {
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "dc": "http://purl.org/dc/elements/1.1/",
    "pdf": "http://ns.adobe.com/pdf/1.3/",
    "xmp": "http://ns.adobe.com/xap/1.0/",
}
# field: (namespace, property, how the value is held)
_XMP_FIELDS = {
    "title": ("dc", "title", "alt"),
    "author": ("dc", "creator", "seq"),
    "subject": ("dc", "description", "alt"),
    "keywords": ("pdf", "Keywords", "text"),
    "creator": ("xmp", "CreatorTool", "text"),
    "producer": ("pdf", "Producer", "text"),
    "created": ("xmp", "CreateDate", "date"),
    "modified": ("xmp", "ModifyDate", "date"),
}
_DECLARATION = re.compile(rb"<!\s*(?:DOCTYPE|ENTITY)", re.IGNORECASE)


def _xmp_values(pdf: pikepdf.Pdf, warn: Warn) -> dict[str, Any]:
    """The fields the XMP packet gives (none when there is no packet or it cannot be read)."""
    try:
        stream = pdf.Root.get("/Metadata")
    except pikepdf.PdfError:
        return {}
    if not isinstance(stream, pikepdf.Stream):
        return {}
    try:
        data, cut, damage = read_bounded(stream, XMP_BYTES_MAX, limit="document_content_mb")
    except Exception as exc:  # any filter error: the packet is unreadable, the file is not
        warn(f"XMP metadata unreadable ({type(exc).__name__}); the Info dictionary alone is read")
        return {}
    if cut:
        warn(f"XMP metadata larger than {XMP_BYTES_MAX // (1024 * 1024)} MB; not read")
        return {}
    if damage is not None or _DECLARATION.search(data):
        warn("XMP metadata damaged or declaring entities; not read")
        return {}
    try:
        root = ET.fromstring(data)
    except ET.ParseError:
        warn("XMP metadata is not well-formed XML; not read")
        return {}
    out: dict[str, Any] = {}
    for field, (ns, name, kind) in _XMP_FIELDS.items():
        value = _xmp_property(root, _NS[ns], name, kind)
        if value is not None:
            out[field] = value
    return out


def _xmp_property(root: ET.Element, ns: str, name: str, kind: str) -> Any:
    """One property of any rdf:Description: as an attribute (the short form) or an element
    holding text, an rdf:Alt (the x-default item first), an rdf:Seq or rdf:Bag (joined)."""
    tag = f"{{{ns}}}{name}"
    for description in root.iter(f"{{{_NS['rdf']}}}Description"):
        value = description.get(tag)
        if value is None:
            element = description.find(tag)
            if element is None:
                continue
            value = _element_text(element, kind)
        value = value.strip()[:TEXT_MAX] if value else None
        if not value:
            continue
        if kind == "date":
            return _xmp_date(value)
        return value
    return None


def _element_text(element: ET.Element, kind: str) -> str | None:
    items = list(element.iter(f"{{{_NS['rdf']}}}li"))
    if not items:
        return "".join(element.itertext())
    if kind == "alt":
        default = next((li for li in items if li.get("{http://www.w3.org/XML/1998/namespace}lang") == "x-default"),
                       items[0])
        return "".join(default.itertext())
    return "; ".join(text for li in items if (text := "".join(li.itertext()).strip()))


def _xmp_date(text: str) -> datetime | None:
    """An XMP date (ISO 8601: ``2024-05-01``, ``2024-05-01T10:20:30+02:00``, ``...Z``)."""
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    if len(text) == 4 and text.isdigit():
        text += "-01-01"
    elif len(text) == 7:
        text += "-01"
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None
