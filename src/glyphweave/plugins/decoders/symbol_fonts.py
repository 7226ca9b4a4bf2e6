"""``symbol``, ``zapfdingbats``, ``wingdings``: symbol fonts recognised by name (SPEC §3.3).

Each decoder answers only for fonts of its own family, chosen by the font's name
(:func:`symbol_family`: subset prefix, ``MT``/``PS``/``Std`` decorations and ``,Bold``-style
styles ignored), never by the code alone: U+F0FB is a cross in Wingdings, not in Symbol.

- ``symbol`` (Symbol, SymbolMT, StandardSymL, StandardSymbolsPS, ...): code → glyph name (the
  font's /Differences first, else the Symbol AFM's built-in encoding from
  :mod:`glyphweave.core.std14`) → Unicode through the Adobe Glyph List, with the overrides in
  ``resources/symbols/symbol_overrides.tsv`` where the AGL answers a Private Use code
  (copyrightsans → ©, registerserif → ®, trademarksans → ™, the bracket pieces → U+239B-U+23AD).
- ``zapfdingbats`` (ZapfDingbats, ITC Zapf Dingbats, Dingbats, D050000L): code → a-name
  (/Differences, else the AFM's built-in encoding) → Unicode through Adobe's Zapf Dingbats glyph
  list (``resources/symbols/zapfdingbats.tsv``).
- ``wingdings`` (Wingdings, not Wingdings 2 or 3): a direct code → Unicode table
  (``resources/symbols/wingdings.tsv``); a /Differences name is first turned into its code
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

The tables are read on first use through importlib.resources and cached per process. If they
are missing, a small built-in fallback serves (bullets, © ® ™, check marks and a few shapes)
and :func:`table_source` says ``"fallback"``. Provenance: ``resources/symbols/PROVENANCE.tsv``,
written by ``tools/make_symbol_tables.py``.
"""

from __future__ import annotations

import functools
import importlib.resources
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal

import attrs

from glyphweave.core.encodings import glyph_name_to_unicode
from glyphweave.core.stages import Decoder
from glyphweave.registry.markers import hookimpl

if TYPE_CHECKING:
    from glyphweave.core.fontinfo import FontInfo

Family = Literal["symbol", "zapfdingbats", "wingdings", "webdings"]
Source = Literal["mirror", "fallback"]

_RESOURCE_DIR = ("resources", "symbols")

# ------------------------------------------------------------------------------------------ names

_SUBSET_PREFIX = re.compile(r"^[A-Z]{6}\+")
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
    name = _SUBSET_PREFIX.sub("", base_font.strip()).split(",", 1)[0]
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


@attrs.frozen(kw_only=True)
class SymbolTables:
    """The three tables the decoders use."""

    symbol_overrides: Mapping[str, str]
    """Symbol glyph name → text, where the AGL answers Private Use."""
    zapf_names: Mapping[str, str]
    """Zapf Dingbats a-name → text."""
    wingdings: Mapping[int, str]
    """Wingdings code → text."""
    wingdings_names: Mapping[str, int]
    """Wingdings glyph name (the font's own post names: ``checkbld``, ``onesansinv``) → code."""
    source: Source


# The built-in fallback: only the most common glyphs, used when the mirror is missing.
_FALLBACK = SymbolTables(
    symbol_overrides={
        "copyrightserif": "\u00a9",
        "copyrightsans": "\u00a9",
        "registerserif": "\u00ae",
        "registersans": "\u00ae",
        "trademarkserif": "\u2122",
        "trademarksans": "\u2122",
    },
    zapf_names={
        "a19": "\u2713",  # check mark
        "a20": "\u2714",  # heavy check mark
        "a21": "\u2715",  # multiplication x
        "a22": "\u2716",
        "a23": "\u2717",  # ballot x
        "a24": "\u2718",
        "a71": "\u25cf",  # black circle
        "a73": "\u25a0",  # black square
        "a160": "\u2794",
    },
    wingdings={
        0x6C: "\u25cf",  # black circle
        0x6E: "\u25a0",  # black square
        0x71: "\u2751",
        0x76: "\u2756",
        0x9F: "\u2022",  # bullet
        0xA7: "\u25aa",  # small black square
        0xA8: "\u25fb",
        0xD8: "\u2b9a",  # arrowhead bullet
        0xFB: "\U0001f5f6",  # ballot bold script x
        0xFC: "\u2714",  # heavy check mark
        0xFE: "\U0001f5f9",  # ballot box with bold check
    },
    wingdings_names={"circle6": 0x6C, "square6": 0x6E, "circle4": 0x9F, "square4": 0xA7, "checkbld": 0xFC},
    source="fallback",
)

# In the fallback the std14 mirror may be missing too: the Symbol codes Word and others use most.
_FALLBACK_SYMBOL_CODES = {
    0xB7: "bullet",
    0xD2: "registerserif",
    0xD3: "copyrightserif",
    0xD4: "trademarkserif",
    0xE2: "registersans",
    0xE3: "copyrightsans",
    0xE4: "trademarksans",
}
_FALLBACK_ZAPF_CODES = {0x33: "a19", 0x34: "a20", 0x35: "a21", 0x37: "a23", 0x38: "a24", 0x6C: "a71"}


def _read(name: str) -> str | None:
    resource = importlib.resources.files("glyphweave")
    for part in (*_RESOURCE_DIR, name):
        resource = resource / part
    try:
        if not resource.is_file():
            return None
        return resource.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return None


def _rows(text: str, header: str) -> list[list[str]]:
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    if not lines or lines[0].split("\t")[: len(header.split("\t"))] != header.split("\t"):
        raise ValueError(f"glyphweave resource symbols: expected header {header!r}, got {lines[:1]!r}")
    return [line.split("\t") for line in lines[1:]]


def _hex_text(value: str) -> str:
    return "".join(chr(int(part, 16)) for part in value.split())


@functools.cache
def _tables() -> SymbolTables:
    texts = [_read(name) for name in ("symbol_overrides.tsv", "zapfdingbats.tsv", "wingdings.tsv")]
    if any(text is None for text in texts):
        return _FALLBACK
    overrides_text, zapf_text, wing_text = texts
    assert overrides_text is not None and zapf_text is not None and wing_text is not None
    wing_rows = _rows(wing_text, "code\tunicode\tname")
    return SymbolTables(
        symbol_overrides={row[0]: _hex_text(row[1]) for row in _rows(overrides_text, "name\tunicode")},
        zapf_names={row[0]: _hex_text(row[1]) for row in _rows(zapf_text, "name\tunicode")},
        wingdings={int(row[0], 16): _hex_text(row[1]) for row in wing_rows},
        wingdings_names={row[2]: int(row[0], 16) for row in wing_rows},
        source="mirror",
    )


def table_source() -> Source:
    """Which tables serve in this process: ``"mirror"`` (the shipped files) or ``"fallback"``."""
    return _tables().source


@functools.cache
def _builtin_encoding(canonical: str) -> Mapping[int, str]:
    from glyphweave.core.std14 import std14_metrics

    encoding = std14_metrics(canonical).builtin_encoding
    if encoding:
        return encoding
    return _FALLBACK_SYMBOL_CODES if canonical == "Symbol" else _FALLBACK_ZAPF_CODES


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
    if any(0xE000 <= ord(ch) <= 0xF8FF or ord(ch) >= 0xF0000 for ch in text):
        return None
    return text


_MEMO_KEY = "symbol-fonts:family"


class _FamilyDecoder(Decoder):
    """Shared part of the three decoders: the family check and the code byte."""

    FAMILY: Family


    @classmethod
    def resource_sources(cls) -> dict[str, str]:
        return {"symbol-tables": table_source()}

    def decode(self, font: FontInfo, code: bytes, cid: int | None) -> str | None:
        family = font.memo.get(_MEMO_KEY, "")
        if family == "":
            family = font.memo[_MEMO_KEY] = symbol_family(font.base_font)
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
        name = name if name is not None else _builtin_encoding("Symbol").get(byte)
        if name is None:
            return None
        override = _tables().symbol_overrides.get(name)
        return override if override is not None else glyph_name_to_unicode(name)


class ZapfDingbatsDecoder(_FamilyDecoder):
    """ZapfDingbats / Dingbats by name: code → a-name (AFM) → Adobe's Zapf Dingbats glyph list."""

    NAME = "zapfdingbats"
    FAMILY = "zapfdingbats"

    def lookup(self, byte: int, name: str | None) -> str | None:
        name = name if name is not None else _builtin_encoding("ZapfDingbats").get(byte)
        if name is None:
            return None
        text = _tables().zapf_names.get(name)
        return text if text is not None else glyph_name_to_unicode(name)


class WingdingsDecoder(_FamilyDecoder):
    """Wingdings by name: a direct code → Unicode table (Unicode 7.0 correspondence)."""

    NAME = "wingdings"
    FAMILY = "wingdings"

    def lookup(self, byte: int, name: str | None) -> str | None:
        tables = _tables()
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
