"""``tounicode``: the font's /ToUnicode CMap (ISO 32000-1 §9.10.3).

The most direct source of text a PDF offers, and so normally first in a profile. The
CMap is parsed by :mod:`glyphweave.pdf.cmap` when a decoder first asks for it; this
decoder only looks codes up. Answers in the Private Use Area, U+FFFD or control chars
(MS Word maps Symbol and Wingdings to U+F0xx) are marked weak by the core, which then
lets later decoders improve on them.
"""

from __future__ import annotations

from glyphweave.plugin import Decoder, FontInfo, hookimpl


class ToUnicodeDecoder(Decoder):
    """Text from the font's /ToUnicode CMap.

    bfchar, bfrange, usecmap and codespace ranges; UTF-16 targets with surrogate pairs and
    ligatures. A code mapped to nothing is no answer.
    """

    NAME = "tounicode"

    def decode(self, font: FontInfo, code: bytes, cid: int | None) -> str | None:
        cmap = font.to_unicode
        if cmap is None:
            return None
        # A code mapped to an empty string gives no text: treated as no answer.
        return cmap.to_unicode(code) or None


@hookimpl
def glyphweave_register_decoders() -> list[type[Decoder]]:
    return [ToUnicodeDecoder]
