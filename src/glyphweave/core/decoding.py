"""The decoder chain: asks decoders in profile order, once per (font, code) per document.

The first *confident* answer wins. An answer in the Private Use Area (U+E000-U+F8FF),
U+FFFD or a control character is weak (SPEC §3.1): MS Word, for one, writes ToUnicode
maps to U+F0xx for Symbol and Wingdings. A weak answer never reaches the text: when no
later decoder does better, the glyph is unresolved and counted (SPEC §3.7).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from glyphweave.core.fonts import DecodeTable, FontState
from glyphweave.core.stages import Decoder

log = logging.getLogger(__name__)

UNRESOLVED: tuple[str, None] = ("", None)


def is_weak(text: str) -> bool:
    """True when ``text`` cannot stand as a decoding on its own."""
    for ch in text:
        o = ord(ch)
        if 0xE000 <= o <= 0xF8FF or o == 0xFFFD or o < 0x20 or 0x7F <= o < 0xA0:
            return True
        if o >= 0xF0000:  # supplementary private use planes
            return True
    return False


class DecoderChain:
    """The profile's decoders, in order; builds each font's decode cache."""

    def __init__(self, decoders: Sequence[Decoder]) -> None:
        self.decoders = tuple(decoders)
        self.errors: list[str] = []

    def table_for(self, state: FontState) -> DecodeTable:
        info = state.info
        decoders = self.decoders
        errors = self.errors

        if state.simple:
            def resolve(code: Any) -> tuple[str, str | None]:
                return self._resolve(info, bytes((code,)), None, decoders, errors)
        else:
            cmap = state.cmap

            def resolve(code: Any) -> tuple[str, str | None]:
                cid = cmap.to_cid(code) if cmap is not None else None
                return self._resolve(info, code, cid, decoders, errors)

        return DecodeTable(resolve)

    @staticmethod
    def _resolve(info: Any, code: bytes, cid: int | None, decoders: Sequence[Decoder],
                 errors: list[str]) -> tuple[str, str | None]:
        for decoder in decoders:
            try:
                text = decoder.decode(info, code, cid)
            except Exception as exc:  # a broken plugin must not stop extraction
                if len(errors) < 20:
                    errors.append(f"decoder {decoder.NAME!r} failed on font {info.base_font!r}: {exc!r}")
                    log.debug(errors[-1])
                continue
            if text and not is_weak(text):
                return text, decoder.NAME
        return UNRESOLVED
