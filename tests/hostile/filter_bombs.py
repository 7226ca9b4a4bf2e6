"""Hostile PDFs whose bombs hide behind filters other than a plain FlateDecode (built on
demand, never stored): qpdf would decode each whole before a budget could cut it."""

from __future__ import annotations

import base64
import functools
import io
import zlib

import pikepdf
from pikepdf import Array, Dictionary, Name

from glyphweave.testing.pdfs import helvetica, make_pdf

HEAD = b"BT /F1 12 Tf 72 700 Td (Before the bomb) Tj ET\n"
TAIL = b"\nBT /F1 12 Tf 72 600 Td (After the bomb) Tj ET\n"


@functools.cache
def deflated_spaces(inflated_mb: int, head: bytes = HEAD, tail: bytes = TAIL, row: int = 0) -> bytes:
    """``head``, ``inflated_mb`` MB of spaces and ``tail``, FlateDecode-compressed; with
    ``row``, as PNG-predicted rows of that many bytes, each of filter type None."""
    packer = zlib.compressobj(9)
    body = head + b" " * (-len(head) % row) if row else head
    parts = [packer.compress(_rows(body, row))]
    chunk = _rows(b" " * ((1 << 20) - (1 << 20) % row if row else 1 << 20), row)
    parts.extend(packer.compress(chunk) for _ in range(inflated_mb))
    parts.append(packer.compress(_rows(tail + b" " * (-len(tail) % row) if row else tail, row)))
    parts.append(packer.flush())
    return b"".join(parts)


def _rows(data: bytes, row: int) -> bytes:
    if not row:
        return data
    return b"".join(b"\x00" + data[i:i + row] for i in range(0, len(data), row))


def ascii85_flate_bomb(inflated_mb: int) -> bytes:
    """A page whose content is a Flate bomb, ASCII85-encoded: ``[/ASCII85Decode /FlateDecode]``."""
    encoded = base64.a85encode(deflated_spaces(inflated_mb), wrapcol=80) + b"~>"
    return with_content(encoded, Array([Name.ASCII85Decode, Name.FlateDecode]))


def predictor_bomb(inflated_mb: int, columns: int = 80) -> bytes:
    """A page whose content is a Flate bomb of PNG-predicted rows (``/Predictor 12``)."""
    return with_content(deflated_spaces(inflated_mb, row=columns), Name.FlateDecode,
                        Dictionary(Predictor=12, Columns=columns))


def lzw_bomb(inflated_mb: int) -> bytes:
    """A page whose content is an LZW bomb: after the text, each table is filled with ever
    longer runs of spaces (about 7 MB from 5.7 KB), then cleared and filled again."""
    codes = [256, *HEAD]
    per_table = []
    size = 0
    for code in range(258, 4094):  # each code is the one just being made: a space longer each time
        per_table.append(code)
        size += code - 256
    tables = max(1, (inflated_mb << 20) // size)
    for _ in range(tables):
        codes += [256, 32, *per_table]
    codes += [256, *TAIL, 257]
    return with_content(pack_lzw(codes), Name.LZWDecode)


def pack_lzw(codes: list[int], early: int = 1) -> bytes:
    """LZW ``codes`` packed at the widths a decoder reads them (9 to 12 bits)."""
    bits = bytearray()
    width = 9
    following = 258
    last = 256
    value = 0
    count = 0
    for code in codes:
        value = (value << width) | code
        count += width
        if code == 256:
            width, following, last = 9, 258, 256
            continue
        if last != 256:
            if following + early in (511, 1023, 2047):
                width += 1
            following += 1
        last = code
        while count >= 8:
            count -= 8
            bits.append((value >> count) & 255)
        value &= (1 << count) - 1
    if count:
        bits.append((value << (8 - count)) & 255)
    return bytes(bits)


def with_content(encoded: bytes, filters: Name | Array, parms: Dictionary | None = None) -> bytes:
    """A one-page PDF (font F1: Helvetica) whose content stream is ``encoded`` under ``filters``."""
    pdf = pikepdf.open(io.BytesIO(make_pdf(b"", fonts={"F1": helvetica(widths=True)})))
    stream = pikepdf.Stream(pdf, b"")
    stream.write(encoded, filter=filters, decode_parms=parms)
    pdf.pages[0].obj.Contents = stream
    return _saved(pdf)


def hex_flate_tounicode(inflated_mb: int) -> bytes:
    """A page showing "Hello" in Helvetica whose /ToUnicode stream inflates to ``inflated_mb``
    MB (the content bomb's data: never parsed, it is past the font stream limit), under
    ``[/ASCIIHexDecode /FlateDecode]``."""
    pdf = pikepdf.open(io.BytesIO(make_pdf(b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET",
                                           fonts={"F1": helvetica(widths=True)})))
    encoded = deflated_spaces(inflated_mb).hex().encode() + b">"
    stream = pikepdf.Stream(pdf, b"")
    stream.write(encoded, filter=Array([Name.ASCIIHexDecode, Name.FlateDecode]))
    pdf.pages[0].obj.Resources.Font.F1.ToUnicode = stream
    return _saved(pdf)


def damaged_hex_tounicode(cmap: bytes) -> bytes:
    """A page showing "Hello" whose /ToUnicode stream is ``cmap`` in ASCIIHex, then a
    character ASCIIHex does not have, then more of it."""
    pdf = pikepdf.open(io.BytesIO(make_pdf(b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET",
                                           fonts={"F1": helvetica(widths=True)})))
    stream = pikepdf.Stream(pdf, b"")
    stream.write(cmap.hex().encode() + b" zz 414243>", filter=Name.ASCIIHexDecode)
    pdf.pages[0].obj.Resources.Font.F1.ToUnicode = stream
    return _saved(pdf)


def _saved(pdf: pikepdf.Pdf) -> bytes:
    """The PDF as written, every stream as built: qpdf's default would decode each chain
    (bomb and all) and write it again as one FlateDecode."""
    out = io.BytesIO()
    pdf.save(out, stream_decode_level=pikepdf.StreamDecodeLevel.none, compress_streams=False)
    return out.getvalue()
