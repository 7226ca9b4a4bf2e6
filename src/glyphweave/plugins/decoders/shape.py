"""``shape``: the character a glyph's outline draws, for glyphs no table could read (rules:
fonts with no mapping).

A font with neither /ToUnicode, nor glyph names a table knows, nor a usable encoding
still draws its glyphs. This decoder compares the outline the embedded program draws with
reference shapes (:mod:`glyphweave.glyphmap.shapes`: the distance, the font's x-height and
the confidence are documented there) and answers the character it reads when its
confidence reaches ``min_confidence``. A glyph that the program has but that draws
nothing, and advances, is a space.

A font whose /ToUnicode map reads its codes is left alone: its producer said what its
text is, and a glyph the map leaves out is there on purpose (a shaping part of a
Devanagari cluster, which no Latin shape describes). A map that reads none of a simple
font's codes says nothing, and the font is read by shape.

It is a guess, so the default profile does not run it: the built-in ``shapes`` profile
puts it last, after every decoder that reads a real mapping, so it answers only glyphs no
other decoder could and never replaces a real mapping. Its answers are counted apart
(``decoded_by: shape`` in the statistics). Type3 glyphs are read from their glyph
procedures (paths, or the image masks of bitmap fonts); fonts that embed no program have
no outline to read and stay unresolved.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from glyphweave.plugin import Decoder, FontInfo, Option, hookimpl, is_weak


class ShapeDecoder(Decoder):
    """Reads a glyph by the shape of its outline; answers only above ``min_confidence``."""

    NAME = "shape"
    OPTIONS: ClassVar[Mapping[str, Option]] = {
        "min_confidence": Option(
            default=0.1, minimum=0.0, maximum=1.0,
            doc=("The confidence a reading needs to be answered, 0 to 1 (1: nothing else comes near "
                 "the glyph's shape; 0: a tie). Below it the glyph stays unresolved."),
        ),
    }

    min_confidence: float

    def decode(self, font: FontInfo, code: bytes, cid: int | None) -> str | None:
        if (not font.embedded and font.subtype != "Type3") or _map_reads_the_font(font):
            return None
        from glyphweave.glyphmap.fontshapes import blank_glyph, shape_reading

        reading = shape_reading(font, code, cid)
        if reading is None:
            return " " if blank_glyph(font, code, cid) else None
        if reading.confidence < self.min_confidence:
            return None
        return reading.char


_MEMO_KEY = "shape:tounicode-reads"


def _map_reads_the_font(font: FontInfo) -> bool:
    """Whether the font's /ToUnicode map reads any of its codes (a simple font's 256, probed
    once; a composite font's map is taken at its word). A map that reads none (TraceMonkey's
    Calibri figure labels: a /ToUnicode with no entry for the codes used) says nothing."""
    tounicode = font.to_unicode
    if tounicode is None:
        return False
    if font.composite:
        return True
    found = font.memo.get(_MEMO_KEY)
    if found is None:
        found = font.memo[_MEMO_KEY] = any(
            (text := tounicode.to_unicode(bytes((code,)))) and not is_weak(text) for code in range(256))
    return bool(found)


@hookimpl
def glyphweave_register_decoders() -> list[type[Decoder]]:
    return [ShapeDecoder]

