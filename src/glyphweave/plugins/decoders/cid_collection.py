"""``cid-collection``: composite fonts of the Adobe CJK collections (rules: decoders).

For a Type0 font whose /CIDSystemInfo /Ordering is ``GB1``, ``CNS1``, ``Japan1`` or
``Korea1``, the CID the encoding CMap gave (a predefined CMap such as ``90ms-RKSJ-H`` or
``UniGB-UCS2-H``, Identity-H, or an embedded one) is looked up in Adobe's CID → Unicode table
of that collection (:func:`glyphweave.tables.cjk.cid_to_unicode`).

When the font's encoding CMap is a Unicode CMap (``Uni*-UCS2-*``, ``Uni*-UTF16-*``,
``Uni*-UTF8-*``, ``Uni*-UTF32-*``) and the CID route gives nothing (another collection, an
unmapped CID, or no mirror: see :func:`glyphweave.tables.cjk.cjk_source`), the code
bytes are read as that encoding: the code *is* the text.

Answers go through :func:`glyphweave.tables.cjk.canonical_cjk`: Kangxi radicals,
compatibility ideographs and vertical presentation forms become the unified ideograph or
horizontal character the author typed, variation selectors are dropped, and a Private Use
Area or U+FFFD answer is no answer. Control characters are never answered.
"""

from __future__ import annotations

import codecs

from glyphweave.plugin import Decoder, FontInfo, hookimpl
from glyphweave.tables.cjk import (
    ORDERINGS,
    canonical_cjk,
    cid_to_unicode,
    cjk_source,
    unicode_cmap_codec,
)

_ORDERINGS = frozenset(ORDERINGS)


class CidCollectionDecoder(Decoder):
    """Text of a CJK composite font from Adobe's CID → Unicode tables, or from a Unicode CMap's codes."""

    NAME = "cid-collection"


    @classmethod
    def resource_sources(cls) -> dict[str, str]:
        return {"cjk-tables": cjk_source()}

    def decode(self, font: FontInfo, code: bytes, cid: int | None) -> str | None:
        if not font.composite:
            return None
        csi = font.cid_system_info
        if cid is not None and csi is not None and csi[1] in _ORDERINGS:
            text = _clean(cid_to_unicode(csi[1], cid))
            if text is not None:
                return text
        codec = unicode_cmap_codec(font.encoding_cmap_name)
        if codec is not None:
            try:
                text = codecs.decode(code, codec)
            except UnicodeDecodeError:
                return None
            return _clean(text)
        return None


def _clean(text: str | None) -> str | None:
    text = canonical_cjk(text)
    if text is None:
        return None
    # A printable text holds no control character (Cc): the look at each character is
    # for the rest (spaces and format characters are not printable either).
    if not text.isprintable() and any(ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 for ch in text):
        return None
    return text


@hookimpl
def glyphweave_register_decoders() -> list[type[Decoder]]:
    return [CidCollectionDecoder]
