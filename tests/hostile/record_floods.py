"""Hostile pages that are cheap to store and dear to record (built on demand, never stored):
a few KB of content that paints hundreds of thousands of glyphs, runs or form paintings."""

from __future__ import annotations

import io
import zlib

import pikepdf
from pikepdf import Array, Dictionary, Name

from glyphweave.testing.pdfs import helvetica, make_pdf

from .filter_bombs import with_content

BEFORE = b"BT /F1 12 Tf 72 760 Td (Before the flood) Tj ET\n"
"""The line every flood starts with: the text before the attack, which must be kept."""


def flate_page(content: bytes) -> bytes:
    """A one-page PDF (font F1: Helvetica) whose content is ``content``, FlateDecode-compressed."""
    return with_content(zlib.compress(content, 9), Name.FlateDecode)


def one_spot(copies: int = 500_000) -> bytes:
    """``copies`` runs of one word, each placed on the same spot with its own ``Tm``: every run
    is a record, and dedup sees them all overlap."""
    return flate_page(BEFORE + b"BT /F1 12 Tf " + b"1 0 0 1 72 700 Tm (word) Tj " * copies + b"ET")


def ocr_objects(count: int = 1_200_000) -> bytes:
    """``count`` text objects of one glyph each, laid on a grid as an OCR layer writes them
    (80 to a line, 700 lines, then over again)."""
    period = 80 * 700
    objects = [b"BT /F1 8 Tf 1 0 0 1 %d %d Tm (a) Tj ET\n" % (20 + (i % 80) * 7, 740 - i // 80)
               for i in range(min(count, period))]
    grid = b"".join(objects)
    whole, rest = divmod(count, period)
    return flate_page(BEFORE + grid * whole + b"".join(objects[:rest]))


def stacked(content_mb: float) -> bytes:
    """About ``content_mb`` MB of two-glyph runs stacked on one spot, each moved there and back
    with ``Td``."""
    unit = b"72 700 Td (ab) Tj -72 -700 Td "
    count = int(content_mb * (1 << 20)) // len(unit)
    return flate_page(BEFORE + b"BT /F1 12 Tf " + unit * count + b"ET")


def form_tree(levels: int = 9, fanout: int = 10) -> bytes:
    """A page painting a form that paints the next form ``fanout`` times, ``levels`` deep:
    ``fanout ** (levels - 1)`` paintings of the leaf's word from a file of under 3 KB."""
    pdf = pikepdf.open(io.BytesIO(make_pdf(b"", fonts={"F1": helvetica(widths=True)})))
    page = pdf.pages[0]
    below: pikepdf.Stream | None = None
    for _ in range(levels):
        if below is None:
            body = b"BT /F1 12 Tf 72 700 Td (Leaf) Tj ET"
        else:
            body = b"".join(b"q 1 0 0 1 %d 0 cm /X Do Q " % i for i in range(fanout))
        form = pikepdf.Stream(pdf, body)
        form.Type, form.Subtype, form.BBox = Name.XObject, Name.Form, Array([0, 0, 612, 792])
        form.Resources = Dictionary(Font=page.obj.Resources.Font,
                                    XObject=Dictionary(X=below) if below is not None else Dictionary())
        below = form
    page.obj.Resources.XObject = Dictionary(Top=below)
    page.obj.Contents = pikepdf.Stream(pdf, BEFORE + b"/Top Do")
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()
