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
- symbolic TrueType fonts when the ``symbolic_truetype`` option is off;
- an embedded font (or a Type3 font) whose own glyphs say the assumed encoding is wrong
  (option ``check_shapes``): a symbolic TrueType font read as WinAnsi is often a subset
  whose codes were renumbered in order of first use, and reading code 0x21 as "!" would
  print confident garbage; so may a Type1 or Type3 font that declares no encoding. The
  glyphs the encoding calls letters and digits are compared by shape with the references
  of letters and digits (:mod:`glyphweave.glyphmap.shapes`); when fewer than half look like
  what the encoding says, the font's codes are left unresolved (and counted) instead. The
  check is made once per font (:func:`_looks_right`).
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

        "check_shapes": Option(
            default=True,
            doc=(
                "Check an embedded font read by an assumed encoding (a symbolic TrueType font as "
                "WinAnsiEncoding, a Type1 or Type3 font that declares none as StandardEncoding) "
                "against the shapes of its letters and digits, and leave its codes unresolved when "
                "most of them disagree (a subset whose codes were renumbered)."
            ),
        ),
    }

    symbolic_truetype: bool
    check_shapes: bool

    def decode(self, font: FontInfo, code: bytes, cid: int | None) -> str | None:
        if font.composite or len(code) != 1:
            return None
        if font.base_encoding in BASE_ENCODING_NAMES or code[0] in font.differences:
            return None
        if is_symbol_family(font.base_font):
            return None
        if font.subtype in _STANDARD_SUBTYPES:
            if font.symbolic:
                return None
            if (font.embedded or font.subtype == "Type3") and self.check_shapes and not _looks_right(
                    font, "StandardEncoding"):
                return None
            return standard_text("StandardEncoding", code[0])
        if font.subtype == "TrueType":
            if font.symbolic and not self.symbolic_truetype:
                return None
            if font.symbolic and font.embedded and self.check_shapes and not _looks_right(font, "WinAnsiEncoding"):
                return None
            return standard_text("WinAnsiEncoding", code[0])
        return None


MIN_CHECKED = 5
"""Letters and digits the check must see to judge a font (fewer: WinAnsi is kept)."""
CHECKED = 10
"""Letters and digits the check looks at, at most (the first by code that the font draws)."""
_MEMO_KEY = "standard-fallback:looks-right"


def _looks_right(font: FontInfo, encoding: str) -> bool:
    """Whether an embedded font's glyphs agree with the ``encoding`` assumed for it, by
    shape: for the first :data:`CHECKED` codes the encoding gives a letter or digit (and the
    font draws), is the nearest letter or digit by shape that one (case aside: an em-only
    look cannot tell "o" from "O")? At least half must agree. Decided once per font, in a
    few milliseconds a glyph; a font the matcher cannot judge keeps the encoding.

    The look stops as soon as the rest cannot change the verdict: half of :data:`CHECKED`
    agreeing (the common case, a font read right) or more than half disagreeing. A glyph
    costs a few milliseconds, so a font read right is judged in half the time."""
    key = f"{_MEMO_KEY}:{encoding}"
    verdict = font.memo.get(key)
    if verdict is None:
        from glyphweave.glyphmap.fontshapes import nearest_letter

        agree = checked = 0
        for code in range(0x21, 0x100):
            if code in font.differences:
                continue
            expected = standard_text(encoding, code)
            if not expected or not expected.isalnum():
                continue
            found = nearest_letter(font, code, None)
            if found is None:
                continue
            checked += 1
            agree += found.casefold() == expected.casefold()
            if checked == CHECKED or 2 * agree >= CHECKED or 2 * (checked - agree) > CHECKED:
                break
        verdict = font.memo[key] = checked < MIN_CHECKED or 2 * agree >= checked
    return bool(verdict)


@hookimpl
def glyphweave_register_decoders() -> list[type[Decoder]]:
    return [StandardFallbackDecoder]
