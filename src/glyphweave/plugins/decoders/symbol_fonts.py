"""``symbol``, ``zapfdingbats``, ``wingdings``: symbol fonts recognised by name (rules: decoders).

Each decoder answers only for fonts of its own family, chosen by the font's name
(:func:`symbol_family`: subset prefix, ``MT``/``PS``/``Std`` decorations and ``,Bold``-style
styles ignored), never by the code alone: U+F0FB is a cross in Wingdings, not in Symbol.

- ``symbol`` (Symbol, SymbolMT, StandardSymL, StandardSymbolsPS, ...): code → glyph name (the
  font's /Differences first, else the Symbol AFM's built-in encoding from
  :mod:`glyphweave.tables.std14`) → Unicode through the Adobe Glyph List, with the overrides in
  ``tables/resources/symbols/symbol_overrides.tsv`` where the AGL answers a Private Use code
  (copyrightsans → ©, registerserif → ®, trademarksans → ™, the bracket pieces → U+239B-U+23AD).
- ``zapfdingbats`` (ZapfDingbats, ITC Zapf Dingbats, Dingbats, D050000L): code → a-name
  (/Differences, else the AFM's built-in encoding) → Unicode through Adobe's Zapf Dingbats glyph
  list (``tables/resources/symbols/zapfdingbats.tsv``).
- ``wingdings`` (Wingdings, not Wingdings 2 or 3): a direct code → Unicode table
  (``tables/resources/symbols/wingdings.tsv``); a /Differences name is first turned into its code
  through the font's own glyph names (``checkbld`` → 0xFC). Webdings has no table yet (no
  trustworthy source was found): its glyphs stay unresolved.

They belong *after* ``tounicode`` in a profile: MS Word writes ToUnicode maps to U+F0xx for
these fonts, a weak answer the core lets later decoders replace. A simple font is looked up by
its code byte, except that a ToUnicode answer in U+F000-U+F0FF (the Microsoft symbol-cmap
convention) gives the code as its low byte: Word's subsets re-number glyphs (SymbolMT 0x01 →
U+F0B7). A composite font (Type0, Identity-H) is looked up by that low byte only; without it
(e.g. Identity-H with no ToUnicode: the embedded font's cmap would be needed) it gets no
answer here. A code no table resolves gives None (the glyph stays
unresolved and counted, never a silent PUA character).

The tables live in :mod:`glyphweave.tables.symbols` (read on first use, cached per process; a
small built-in fallback serves when the mirror is missing, and ``glyphweave plugins`` says so).
"""

from __future__ import annotations

import re
from typing import Literal

from glyphweave.plugin import (
    Decoder,
    FontInfo,
    glyph_name_to_unicode,
    has_private_use,
    hookimpl,
    strip_subset_prefix,
)
from glyphweave.tables.symbols import builtin_encoding, symbol_tables, table_source

Family = Literal["symbol", "zapfdingbats", "wingdings", "webdings"]

# ------------------------------------------------------------------------------------------ names

_STYLE_WORDS = (
    "bolditalic",
    "boldoblique",
    "regular",
    "roman",
    "normal",
    "medium",
    "italic",
    "oblique",
    "slanted",
    "slant",
    "bold",
    "plain",
    "book",
)
_DECORATIONS = ("mt", "ps", "std", "itc")
_TRAILING = (*_STYLE_WORDS, *_DECORATIONS)
_FAMILIES: dict[str, Family] = {
    "symbol": "symbol",
    "standardsyml": "symbol",
    "standardsymbols": "symbol",
    "zapfdingbats": "zapfdingbats",
    "itczapfdingbats": "zapfdingbats",
    "dingbats": "zapfdingbats",
    "d050000l": "zapfdingbats",
    "wingdings": "wingdings",
    "webdings": "webdings",
}


def normalize_font_name(base_font: str) -> str:
    """A /BaseFont reduced to its family key.

    The subset prefix (``ABCDEF+``) and a ``,Style`` suffix go; case, spaces, hyphens and
    underscores are ignored; trailing style words (Regular, Bold, Italic, Medium, ...) and the
    ``MT``/``PS``/``Std``/``ITC`` decorations are dropped, so ``SymbolMT``, ``Symbol,Bold``,
    ``ABCDEF+Wingdings-Regular`` and ``ZapfDingbatsITC`` give ``symbol``, ``symbol``,
    ``wingdings`` and ``zapfdingbats``. ``Wingdings 2`` stays ``wingdings2``.
    """
    name = strip_subset_prefix(base_font.strip()).split(",", 1)[0]
    key = re.sub(r"[\s\-_]", "", name).lower()
    while key not in _FAMILIES:
        word = next((w for w in _TRAILING if key.endswith(w) and len(key) > len(w)), None)
        if word is None:
            break
        key = key[: -len(word)]
    return key


def symbol_family(base_font: str) -> Family | None:
    """Which symbol family a /BaseFont names, or None for any other font."""
    return _FAMILIES.get(normalize_font_name(base_font))


# ------------------------------------------------------------------------------------------ tables


# ------------------------------------------------------------------------------------------ decoders

_MS_SYMBOL_LOW, _MS_SYMBOL_HIGH = 0xF000, 0xF0FF


def symbol_code_byte(font: FontInfo, code: bytes) -> tuple[int, bool] | None:
    """The one-byte symbol code a glyph stands for, and whether it is the font's own code.

    When the font's ToUnicode answers a single char in U+F000-U+F0FF (Word's and the
    Microsoft symbol cmap's convention), its low byte is the symbol code: ``(byte, False)``.
    Word's subset fonts re-number their glyphs (SymbolMT code 0x01 → U+F0B7), so this wins
    over the code itself. Otherwise a simple font gives its one-byte code, ``(code, True)``,
    and a composite font gives None.
    """
    cmap = font.to_unicode
    if cmap is not None:
        text = cmap.to_unicode(code)
        if text and len(text) == 1 and _MS_SYMBOL_LOW <= ord(text) <= _MS_SYMBOL_HIGH:
            return ord(text) & 0xFF, False
    if not font.composite and len(code) == 1:
        return code[0], True
    return None


def _strong(text: str | None) -> str | None:
    """``text`` unless it is empty or Private Use (a PUA answer is no answer here)."""
    if not text:
        return None
    if has_private_use(text):
        return None
    return text


_MEMO_KEY = "symbol-fonts:family"


class _FamilyDecoder(Decoder):
    """Shared part of the three decoders: the family check and the code byte."""

    FAMILY: Family


    @classmethod
    def resource_sources(cls) -> dict[str, str]:
        return {"symbol-tables": table_source()}

    _font: FontInfo | None = None
    _family: Family | None = None

    def decode(self, font: FontInfo, code: bytes, cid: int | None) -> str | None:
        # The core asks about a font's codes one after another, and each of the three
        # decoders asks the font's family: the last font's is kept here, where the memo's
        # look-up is a call into Python (the memo reports the uses of parsed programs).
        if font is self._font:
            family = self._family
        else:
            family = font.memo.get(_MEMO_KEY, "")
            if family == "":
                family = font.memo[_MEMO_KEY] = symbol_family(font.base_font)
            self._font, self._family = font, family
        if family != self.FAMILY:
            return None
        found = symbol_code_byte(font, code)
        if found is None:
            return None
        byte, own_code = found
        # /Differences name the glyphs of the font's own codes, not of a ToUnicode low byte.
        name = font.differences.get(byte) if own_code and not font.composite else None
        return _strong(self.lookup(byte, name))

    def lookup(self, byte: int, name: str | None) -> str | None:
        """Text of symbol code ``byte``; ``name`` is its /Differences glyph name, if any."""
        raise NotImplementedError


class SymbolDecoder(_FamilyDecoder):
    """Symbol fonts by name: code → glyph name (Symbol AFM) → AGL, with ©/®/™ overrides."""

    NAME = "symbol"
    FAMILY = "symbol"

    def lookup(self, byte: int, name: str | None) -> str | None:
        name = name if name is not None else builtin_encoding("Symbol").get(byte)
        if name is None:
            return None
        override = symbol_tables().symbol_overrides.get(name)
        return override if override is not None else glyph_name_to_unicode(name)


class ZapfDingbatsDecoder(_FamilyDecoder):
    """ZapfDingbats / Dingbats by name: code → a-name (AFM) → Adobe's Zapf Dingbats glyph list."""

    NAME = "zapfdingbats"
    FAMILY = "zapfdingbats"

    def lookup(self, byte: int, name: str | None) -> str | None:
        name = name if name is not None else builtin_encoding("ZapfDingbats").get(byte)
        if name is None:
            return None
        text = symbol_tables().zapf_names.get(name)
        return text if text is not None else glyph_name_to_unicode(name)


class WingdingsDecoder(_FamilyDecoder):
    """Wingdings by name: a direct code → Unicode table (Unicode 7.0 correspondence)."""

    NAME = "wingdings"
    FAMILY = "wingdings"

    def lookup(self, byte: int, name: str | None) -> str | None:
        tables = symbol_tables()
        if name is not None:
            # A re-encoded font (Ghostscript writes /Differences with Wingdings' own glyph names):
            # the name, not the code, says which glyph is painted.
            named = tables.wingdings_names.get(name)
            if named is None:
                match = re.fullmatch(r"uni(F0[0-9A-F]{2})|u(F0[0-9A-F]{2})", name)
                if match is None:
                    return glyph_name_to_unicode(name)
                named = int(match.group(1) or match.group(2), 16) & 0xFF
            byte = named
        return tables.wingdings.get(byte)


@hookimpl
def glyphweave_register_decoders() -> list[type[Decoder]]:
    return [SymbolDecoder, ZapfDingbatsDecoder, WingdingsDecoder]
