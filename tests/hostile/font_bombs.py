"""Hostile embedded fonts built on demand (never stored): tiny programs that declare huge maps."""

from __future__ import annotations

import io
import struct

import pikepdf
from pikepdf import Array, Dictionary, Name

from glyphweave.testing.pdfs import helvetica, make_pdf

FULL_RANGE = 0xFFFFFF
"""The last code of the bomb's format 12 group: 16,777,216 codes from code 0."""


def truetype_with_cmap(fmt: int = 12, *, glyphs: tuple[str, ...] = (".notdef", "A"), mapping: dict[int, str] | None = None,
                       platform: tuple[int, int] = (3, 10), extra: dict[tuple[int, int], dict[int, str]] | None = None,
                       post_names: bool = False) -> bytes:
    """A minimal TrueType (no 'name' or 'OS/2') with one cmap subtable of format ``fmt`` at
    ``platform`` holding ``mapping`` (default: 'A' → glyph 1), and ``extra`` format 4
    subtables; 'post' format 3 (no names) unless ``post_names``."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib.tables._c_m_a_p import CmapSubtable

    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(list(glyphs))
    pen = TTGlyphPen(None)
    pen.moveTo((0, 0))
    pen.lineTo((0, 100))
    pen.lineTo((100, 0))
    pen.closePath()
    glyph = pen.glyph()  # the pen is reset by glyph(): one outline, shared
    fb.setupGlyf({name: glyph for name in glyphs})
    fb.setupHorizontalMetrics({name: (500, 0) for name in glyphs})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupCharacterMap({})
    tables = []
    for (platform_id, encoding_id), table_fmt, table_map in [
            (platform, fmt, mapping if mapping is not None else {0x41: glyphs[1]}),
            *(((key, 4, value) for key, value in (extra or {}).items()))]:
        table = CmapSubtable.newSubtable(table_fmt)
        table.platformID, table.platEncID, table.language = platform_id, encoding_id, 0
        table.cmap = dict(table_map)
        tables.append(table)
    fb.font["cmap"].tables = tables
    fb.setupMaxp()
    fb.setupPost(keepGlyphNames=post_names)
    out = io.BytesIO()
    fb.save(out)
    return out.getvalue()


def cmap_bomb(last: int = FULL_RANGE, **kwargs: object) -> bytes:
    """A TrueType of a few hundred bytes whose format 12 subtable has one group over
    ``0..last`` (fontTools expands it to one entry per code: 426 MB for the full range)."""
    data = bytearray(truetype_with_cmap(12, **kwargs))  # type: ignore[arg-type]
    group = _first_group(bytes(data))
    data[group : group + 8] = struct.pack(">LL", 0, last)
    return bytes(data)


def _first_group(data: bytes) -> int:
    """The file offset of the first sequential map group of the first format 12 subtable."""
    count = struct.unpack(">H", data[4:6])[0]
    for index in range(count):
        tag, _checksum, offset, _length = struct.unpack(">4sLLL", data[12 + 16 * index : 28 + 16 * index])
        if tag == b"cmap":
            records = struct.unpack(">H", data[offset + 2 : offset + 4])[0]
            for record in range(records):
                sub = offset + struct.unpack(">L", data[offset + 8 + 8 * record : offset + 12 + 8 * record])[0]
                if struct.unpack(">H", data[sub : sub + 2])[0] == 12:
                    return sub + 16
    raise ValueError("no format 12 subtable")


def embedded_truetype(program: bytes, *, base_font: str = "BOMBAA+Bomb", flags: int = 4):
    """A simple TrueType font spec for ``make_pdf`` embedding ``program`` (FontFile2),
    symbolic and without /Encoding or /ToUnicode, so only the program can decode it."""

    def build(pdf: pikepdf.Pdf) -> pikepdf.Object:
        descriptor = Dictionary(
            Type=Name.FontDescriptor, FontName=Name("/" + base_font), Flags=flags,
            FontBBox=Array([0, -200, 1000, 800]), ItalicAngle=0, Ascent=800, Descent=-200,
            CapHeight=700, StemV=80, FontFile2=pdf.make_stream(program),
        )
        font = Dictionary(
            Type=Name.Font, Subtype=Name.TrueType, BaseFont=Name("/" + base_font),
            FirstChar=32, LastChar=126, Widths=Array([500] * 95),
            FontDescriptor=pdf.make_indirect(descriptor),
        )
        return pdf.make_indirect(font)

    return build


def page_of_bombs(count: int = 8, program: bytes | None = None) -> bytes:
    """One page: a line in Helvetica, then ``count`` distinct fonts each embedding ``program``
    (default: :func:`cmap_bomb`), each showing 'A', then a last line in Helvetica."""
    program = program if program is not None else cmap_bomb()
    fonts = {"F1": helvetica(widths=True)}
    content = [b"BT /F1 12 Tf 72 720 Td (Before the fonts) Tj ET"]
    for index in range(count):
        name = f"B{index}"
        fonts[name] = embedded_truetype(program, base_font=f"BOMB{chr(65 + index % 26)}A+Bomb{index}")
        content.append(b"BT /%s 12 Tf %d 680 Td (A) Tj ET" % (name.encode(), 72 + 20 * index))
    content.append(b"BT /F1 12 Tf 72 640 Td (After the fonts) Tj ET")
    return make_pdf(b"\n".join(content), fonts=fonts)
