"""PDFs whose page tree qpdf refuses or repairs, written byte by byte (pikepdf will not build
a loop): a tree with a loop, a page whose dictionary holds a number no parser can hold."""

from __future__ import annotations

FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def raw_pdf(objects: list[bytes]) -> bytes:
    """A PDF of ``objects`` (object 1 the catalog), with a correct cross-reference table."""
    parts = [b"%PDF-1.4\n"]
    size = len(parts[0])
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(size)
        chunk = b"%d 0 obj\n%s\nendobj\n" % (number, body)
        parts.append(chunk)
        size += len(chunk)
    parts.append(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    parts.extend(b"%010d 00000 n \n" % offset for offset in offsets)
    parts.append(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, size))
    return b"".join(parts)


def _stream(data: bytes) -> bytes:
    return b"<< /Length %d >>\nstream\n%s\nendstream" % (len(data), data)


def _page(parent: int, content: int, mediabox: bytes = b"[0 0 612 792]", inherit: bool = False) -> bytes:
    box = b"" if inherit else b"/MediaBox " + mediabox + b" "
    resources = b"" if inherit else b"/Resources << /Font << /F1 7 0 R >> >> "
    return b"<< /Type /Page /Parent %d 0 R %s%s/Contents %d 0 R >>" % (parent, box, resources, content)


def page_tree_loop() -> bytes:
    """Two pages, the second under a /Pages node whose /Kids lead back to the root; the second
    page inherits its /MediaBox and /Resources from that node."""
    return raw_pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
        _page(2, 5),
        b"<< /Type /Pages /Parent 2 0 R /Kids [6 0 R 2 0 R] /Count 1 /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 7 0 R >> >> >>",
        _stream(b"BT /F1 12 Tf 72 700 Td (First page) Tj ET"),
        _page(4, 8, inherit=True),
        FONT,
        _stream(b"BT /F1 12 Tf 72 700 Td (Second page) Tj ET"),
    ])


def page_box_overflow() -> bytes:
    """Two pages; the second's /MediaBox holds a 400-digit number, which qpdf cannot parse:
    it reads the whole page dictionary as null and drops the page."""
    return raw_pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
        _page(2, 5),
        _page(2, 6, mediabox=b"[0 0 " + b"1" * 400 + b" 792]"),
        _stream(b"BT /F1 12 Tf 72 700 Td (First page) Tj ET"),
        _stream(b"BT /F1 12 Tf 72 700 Td (Second page) Tj ET"),
        FONT,
    ])


def repeated_repairs(pages: int = 3) -> bytes:
    """``pages`` pages whose content streams each start with a lone carriage return after the
    ``stream`` keyword: one repair qpdf makes, and reports, once per stream."""
    kids = b" ".join(b"%d 0 R" % (3 + 2 * i) for i in range(pages))
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, pages)]
    font = 3 + 2 * pages
    for i in range(pages):
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
                       b"/Resources << /Font << /F1 %d 0 R >> >> >>" % (4 + 2 * i, font))
        data = b"BT /F1 12 Tf 72 700 Td (Page %d) Tj ET" % (i + 1)
        objects.append(b"<< /Length %d >>\nstream\r%s\nendstream" % (len(data), data))
    objects.append(FONT)
    return raw_pdf(objects)


def deep_page_tree(levels: int = 100_000) -> bytes:
    """Two pages: the first under ``levels`` nested /Pages nodes, the second a kid of the root
    (qpdf's recursive walk gives up on the depth)."""
    chain = 4  # objects 4 .. 3 + levels are the chain of nodes; the deepest holds the first page
    deep = chain + levels
    font = deep + 3
    resources = b"/MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R >> >>" % font
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%d 0 R 3 0 R] /Count 2 >>" % chain,
        b"<< /Type /Page /Parent 2 0 R %s /Contents %d 0 R >>" % (resources, deep + 2),
    ]
    for number in range(chain, deep):
        parent = 2 if number == chain else number - 1
        objects.append(b"<< /Type /Pages /Parent %d 0 R /Kids [%d 0 R] /Count 1 >>" % (parent, number + 1))
    objects.append(b"<< /Type /Page /Parent %d 0 R %s /Contents %d 0 R >>" % (deep - 1, resources, deep + 1))
    objects.append(_stream(b"BT /F1 12 Tf 72 700 Td (Deep page) Tj ET"))
    objects.append(_stream(b"BT /F1 12 Tf 72 700 Td (Shallow page) Tj ET"))
    objects.append(FONT)
    return raw_pdf(objects)
