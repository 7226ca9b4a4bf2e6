"""``encoding``: a simple font's /Encoding (ISO 32000-1 §9.6.6).

A code's glyph name comes from /Differences when it lists the code, else from the
/BaseEncoding (StandardEncoding, WinAnsiEncoding, MacRomanEncoding, MacExpertEncoding,
PDFDocEncoding); the name becomes text through the Adobe Glyph List rules
(:func:`glyphweave.tables.encodings.glyph_name_to_unicode`).

What this decoder deliberately does not answer:

- composite (Type0) fonts: their codes go through CMaps, not /Encoding;
- a code listed in /Differences whose name the AGL does not know (Type3 fonts name
  glyphs ``a1``, ``g13``, ``C0032``): the painted glyph is *that* glyph, so falling back
  to the base encoding's letter would be a guess;
- a code not in /Differences when there is no /BaseEncoding: the differences then apply
  on top of the font's built-in encoding, which is not known here (``standard-fallback``
  or a decoder reading the embedded font answers later);
- the base encoding of a Symbol, ZapfDingbats, Wingdings or Webdings font (by name,
  rules: decoders): some writers label those WinAnsiEncoding, and a Latin letter would be wrong.
"""

from __future__ import annotations

from glyphweave.plugin import Decoder, FontInfo, hookimpl
from glyphweave.tables.encodings import (
    BASE_ENCODING_NAMES,
    glyph_name_to_unicode,
    is_symbol_family,
    standard_text,
)


class EncodingDecoder(Decoder):
    """Text from a simple font's /Encoding: /Differences, then the base encoding.

    Base encodings: Standard, WinAnsi, MacRoman, MacExpert and PDFDoc. Glyph names go
    through the Adobe Glyph List rules (``uniXXXX``, ``uXXXX``, suffixes, ligatures).
    """

    NAME = "encoding"

    def decode(self, font: FontInfo, code: bytes, cid: int | None) -> str | None:
        if font.composite or len(code) != 1:
            return None
        byte = code[0]
        name = font.differences.get(byte)
        if name is not None:
            return glyph_name_to_unicode(name)
        base = font.base_encoding
        if base not in BASE_ENCODING_NAMES or is_symbol_family(font.base_font):
            return None
        return standard_text(base, byte)


@hookimpl
def glyphweave_register_decoders() -> list[type[Decoder]]:
    return [EncodingDecoder]
