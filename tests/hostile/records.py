"""Hostile PDFs that paint far more than they hold (built on demand, never stored): a few KB
of content recording hundreds of thousands of strings, which only the record limit
(``page_records_mb``) bounds."""

from __future__ import annotations

import zlib

from pikepdf import Name

from glyphweave.testing.pdfs import Page, form, make_pdf

from .filter_bombs import with_content

BEFORE = b"BT /F1 12 Tf 72 760 Td (Before) Tj ET\n"
AFTER = Page(b"BT /F1 12 Tf 72 700 Td (Next page) Tj ET")


def one_spot(copies: int) -> bytes:
    """One page showing "Before", then ``copies`` copies of "word" painted on one spot
    (each with its own ``Tm``), compressed: 500,000 copies are 35 KB."""
    content = BEFORE + b"BT /F1 12 Tf " + b"1 0 0 1 72 700 Tm (word) Tj " * copies + b"ET"
    return with_content(zlib.compress(content, 9), Name.FlateDecode)


def text_objects(count: int, *, next_page: bool = True) -> bytes:
    """An OCR layer gone wild: "Before", then ``count`` text objects of one glyph each, on a
    grid of 80 by 700 spots (stacked when there are more); with ``next_page``, a second
    page showing "Next page"."""
    parts = [BEFORE]
    for i in range(count):
        parts.append(b"BT /F1 8 Tf 1 0 0 1 %d %d Tm (a) Tj ET\n" % (20 + (i % 80) * 7, 740 - (i // 80) % 700))
    return make_pdf(b"".join(parts), extra_pages=[AFTER] if next_page else ())


def form_tree(levels: int, fanout: int = 10) -> bytes:
    """"Before", then a form that paints a form ``fanout`` times, nine levels deep by
    default: ``fanout ** (levels - 1)`` paintings of the leaf, a string, from a few KB."""
    forms = {"L0": form(b"BT /F1 12 Tf 72 700 Td (Leaf) Tj ET")}
    for level in range(1, levels):
        body = b"".join(b"q 1 0 0 1 %d 0 cm /X Do Q " % i for i in range(fanout))
        forms[f"L{level}"] = form(body, xobjects={"X": f"L{level - 1}"})
    return make_pdf(BEFORE + b"/L%d Do" % (levels - 1), xobjects=forms, extra_pages=[AFTER])
