"""``standard-fallback``: the implicit encoding of a font that declares none (rules: decoders).

Last in a profile. A Type1, MMType1 or Type3 font that is not symbolic and names no
base encoding reads as StandardEncoding (ISO 32000-1 §9.6.6.2, the built-in encoding of
the standard Latin fonts); a TrueType font as WinAnsiEncoding, which is what viewers do
for a TrueType font with no /Encoding.

It never answers for:

- composite fonts, or a code longer than one byte;
- fonts of the Symbol, ZapfDingbats, Wingdings and Webdings families (by name): their
  codes are not Latin letters, and an unresolved glyph is better than a wrong one;
- a font whose /Encoding names a known base encoding: the ``encoding`` decoder answers
  from that table, and an undefined code there is not StandardEncoding's either;
- a code listed in /Differences: that glyph has its own name (``encoding`` decodes it,
  or nothing does);
- symbolic Type1/Type3 fonts: their built-in encoding is their own;
- symbolic TrueType fonts when the ``symbolic_truetype`` option is off.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from glyphweave.plugin import Decoder, FontInfo, Option, hookimpl
from glyphweave.tables.encodings import BASE_ENCODING_NAMES, is_symbol_family, standard_text

if TYPE_CHECKING:
    from collections.abc import Mapping

_STANDARD_SUBTYPES = frozenset({"Type1", "MMType1", "Type3"})


class StandardFallbackDecoder(Decoder):
    """Last resort: StandardEncoding for Type1/Type3, WinAnsiEncoding for TrueType.

    For a simple font that declares no encoding: StandardEncoding for a non-symbolic Type 1
    or Type 3 font, WinAnsiEncoding for a TrueType font. Never for composite fonts, codes
    listed in /Differences, or the Symbol, ZapfDingbats, Wingdings and Webdings families
    (an unresolved glyph is better than a wrong one).
    """

    NAME = "standard-fallback"
    OPTIONS: ClassVar[Mapping[str, Option]] = {
        "symbolic_truetype": Option(
            default=True,
            doc=(
                "Read a symbolic TrueType font with no /Encoding as WinAnsiEncoding too. Most "
                "fonts flagged symbolic by Word and similar writers are Latin subsets. Never "
                "applies to the Symbol, ZapfDingbats, Wingdings or Webdings families."
            ),
        ),
    }

    symbolic_truetype: bool

    def decode(self, font: FontInfo, code: bytes, cid: int | None) -> str | None:
        if font.composite or len(code) != 1:
            return None
        if font.base_encoding in BASE_ENCODING_NAMES or code[0] in font.differences:
            return None
        if is_symbol_family(font.base_font):
            return None
        if font.subtype in _STANDARD_SUBTYPES:
            return None if font.symbolic else standard_text("StandardEncoding", code[0])
        if font.subtype == "TrueType":
            if font.symbolic and not self.symbolic_truetype:
                return None
            return standard_text("WinAnsiEncoding", code[0])
        return None


@hookimpl
def glyphweave_register_decoders() -> list[type[Decoder]]:
    return [StandardFallbackDecoder]
