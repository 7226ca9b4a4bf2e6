"""Hostile PDFs built on demand (never stored): each attacks one resource limit."""

from __future__ import annotations

import functools
import io
import zlib

import pikepdf
from pikepdf import Array, Dictionary, Name

from glyphweave.testing.pdfs import helvetica, make_pdf, type0_identity


def deflate_bomb(inflated_mb: int, *, head: bytes = b"BT /F1 12 Tf 72 700 Td (Before the bomb) Tj ET\n",
                 filler: bytes = b" ", form: str = "flate") -> bytes:
    """A one-page PDF whose content stream is ``head`` then ``inflated_mb`` MB of ``filler``,
    FlateDecode-compressed (about 1 KB per MB). ``form`` is how: ``flate``, ``double`` (a
    FlateDecode of a FlateDecode, a few hundred bytes for a gigabyte) or ``predictor``
    (FlateDecode with /DecodeParms << /Predictor 1 >>, which predicts nothing)."""
    encoded = _deflated(inflated_mb, head, filler)
    if form == "double":
        return _with_raw_content(zlib.compress(encoded, 9), Array([Name.FlateDecode, Name.FlateDecode]))
    if form == "predictor":
        return _with_raw_content(encoded, Name.FlateDecode, Dictionary(Predictor=1))
    return _with_raw_content(encoded, Name.FlateDecode)


@functools.cache
def _deflated(inflated_mb: int, head: bytes, filler: bytes) -> bytes:
    """The bomb's content, compressed once per test process (a gigabyte takes seconds)."""
    packer = zlib.compressobj(9)
    chunk = filler * ((1 << 20) // len(filler))
    parts = [packer.compress(head)]
    parts.extend(packer.compress(chunk) for _ in range(inflated_mb))
    parts.append(packer.compress(b"\nBT /F1 12 Tf 72 600 Td (After the bomb) Tj ET\n"))
    parts.append(packer.flush())
    return b"".join(parts)


def _with_raw_content(encoded: bytes, filter_name: Name | Array, params: Dictionary | None = None) -> bytes:
    pdf = pikepdf.open(io.BytesIO(make_pdf(b"", fonts={"F1": helvetica(widths=True)})))
    page = pdf.pages[0]
    stream = pikepdf.Stream(pdf, b"")
    stream.write(encoded, filter=filter_name, decode_parms=params)
    page.obj.Contents = stream
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def nested_q(depth: int) -> bytes:
    """``depth`` nested ``q`` around one line of text."""
    return make_pdf(b"q " * depth + b"BT /F1 12 Tf 72 700 Td (Deep) Tj ET " + b"Q " * depth)


def nested_marked_content(depth: int) -> bytes:
    return make_pdf(b"/P BMC " * depth + b"BT /F1 12 Tf 72 700 Td (Marked) Tj ET " + b"EMC " * depth)


def form_bomb(copies: int, form_mb: int) -> bytes:
    """A page that paints the same form, whose content inflates to ``form_mb`` MB, ``copies``
    times: each painting decodes it again."""
    pdf = pikepdf.open(io.BytesIO(make_pdf(b"", fonts={"F1": helvetica(widths=True)})))
    page = pdf.pages[0]
    packer = zlib.compressobj(9)
    body = packer.compress(b"BT /F1 12 Tf 72 700 Td (Form) Tj ET\n")
    body += b"".join(packer.compress(b" " * (1 << 20)) for _ in range(form_mb)) + packer.flush()
    form = pikepdf.Stream(pdf, b"")
    form.write(body, filter=Name.FlateDecode)
    form.Type, form.Subtype, form.BBox = Name.XObject, Name.Form, Array([0, 0, 612, 792])
    form.Resources = page.obj.Resources
    page.obj.Resources.XObject = Dictionary(Fm=form)
    page.obj.Contents = pikepdf.Stream(pdf, b"/Fm Do " * copies)
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def many_glyphs(count: int) -> bytes:
    """One page showing ``count`` glyphs (in strings of 1,000)."""
    line = b"(" + b"x" * 1000 + b") Tj "
    return make_pdf(b"BT /F1 1 Tf 0 0 Td " + line * (count // 1000) + b"ET")


def tounicode_bomb(inflated_mb: int) -> bytes:
    """Helvetica with a /ToUnicode stream that inflates to ``inflated_mb`` MB of white-space."""
    pdf = pikepdf.open(io.BytesIO(make_pdf(b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET",
                                           fonts={"F1": helvetica(widths=True)})))
    font = pdf.pages[0].obj.Resources.Font.F1
    packer = zlib.compressobj(9)
    body = b"".join(packer.compress(b" " * (1 << 20)) for _ in range(inflated_mb)) + packer.flush()
    stream = pikepdf.Stream(pdf, b"")
    stream.write(body, filter=Name.FlateDecode)
    font.ToUnicode = stream
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def wide_w_array(items: int = 100_000) -> bytes:
    """A CID font whose /W gives ``items`` widths in one array, showing "AB"."""
    w = [0, [500] * items]
    return make_pdf(b"BT /F1 12 Tf 72 700 Td <00410042> Tj ET",
                    fonts={"F1": type0_identity(w=w, mapping={0x41: "A", 0x42: "B"})})


def bfrange_bomb() -> bytes:
    """A line in Helvetica, then "Hello" in a Helvetica whose /ToUnicode maps the whole 4-byte
    code space with one bfrange and one cidrange (4 billion codes, if expanded)."""
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
            b"1 begincodespacerange <00000000> <FFFFFFFF> endcodespacerange\n"
            b"1 beginbfrange <00000000> <FFFFFFFF> <0041> endbfrange\n"
            b"1 begincidrange <00000000> <FFFFFFFF> 1 endcidrange\nendcmap end end\n")
    pdf = pikepdf.open(io.BytesIO(make_pdf(b"BT /F1 12 Tf 72 700 Td (Before the map) Tj ET "
                                           b"BT /F2 12 Tf 72 680 Td (Hello) Tj ET",
                                           fonts={"F1": helvetica(widths=True), "F2": helvetica(widths=True)})))
    pdf.pages[0].obj.Resources.Font.F2.ToUnicode = pdf.make_stream(cmap)
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()
