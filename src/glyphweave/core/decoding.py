"""The decoder chain: asks decoders in profile order, once per (font, code) per document.

The first *confident* answer wins. An answer in the Private Use Area (U+E000-U+F8FF),
U+FFFD or a control character is weak (SPEC §3.1): MS Word, for one, writes ToUnicode
maps to U+F0xx for Symbol and Wingdings. A weak answer never reaches the text: when no
later decoder does better, the glyph is unresolved and counted (SPEC §3.7).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from glyphweave.core.fontinfo import FontInfo
from glyphweave.core.stages import Decoder

log = logging.getLogger(__name__)

UNRESOLVED: tuple[str, None] = ("", None)


def is_private_use(cp: int) -> bool:
    """True for a Private Use Area code point: U+E000-U+F8FF or planes 15-16."""
    return 0xE000 <= cp <= 0xF8FF or cp >= 0xF0000


def has_private_use(text: str) -> bool:
    """True when ``text`` holds a Private Use Area character (see :func:`is_private_use`)."""
    return any(is_private_use(ord(ch)) for ch in text)


def is_weak_code_point(cp: int) -> bool:
    """True for a code point that cannot stand as a decoding: Private Use, U+FFFD, or a C0 or
    C1 control character."""
    return is_private_use(cp) or cp == 0xFFFD or cp < 0x20 or 0x7F <= cp < 0xA0


def is_weak(text: str) -> bool:
    """True when ``text`` cannot stand as a decoding on its own (SPEC §3.1): any of its
    characters is weak (see :func:`is_weak_code_point`)."""
    return any(is_weak_code_point(ord(ch)) for ch in text)


class DecodeTable(dict):  # type: ignore[type-arg]
    """code → (text, decoder name or None), filled on first use by the decoder chain."""

    __slots__ = ("_resolve",)

    def __init__(self, resolve: Callable[[Any], tuple[str, str | None]]) -> None:
        super().__init__()
        self._resolve = resolve

    def __missing__(self, code: Any) -> tuple[str, str | None]:
        value = self._resolve(code)
        self[code] = value
        return value


class DecoderChain:
    """The profile's decoders, in order; builds each font's decode cache."""

    def __init__(self, decoders: Sequence[Decoder]) -> None:
        self.decoders = tuple(decoders)
        self.errors: list[str] = []

    def table_for(self, info: FontInfo, to_cid: Callable[[bytes], int | None] | None = None) -> DecodeTable:
        """The decode cache of one font. Simple fonts (``info.composite`` false) are keyed by
        int codes; composite fonts by code bytes, with ``to_cid`` (the encoding CMap's lookup,
        None when the font has none) giving the CID decoders receive."""
        decoders = self.decoders
        errors = self.errors

        if not info.composite:
            def resolve(code: Any) -> tuple[str, str | None]:
                return self._resolve(info, bytes((code,)), None, decoders, errors)
        else:
            def resolve(code: Any) -> tuple[str, str | None]:
                cid = to_cid(code) if to_cid is not None else None
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
