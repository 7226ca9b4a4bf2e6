"""The symbol-font tables: Symbol glyph-name overrides, Adobe's Zapf Dingbats list, Wingdings.

Read from ``tables/resources/symbols`` (written by ``tools/make_symbol_tables.py``; sources in
its ``PROVENANCE.tsv``) on first use and cached per process. Without the mirror, a small
built-in fallback serves the most common glyphs (bullets, © ® ™, check marks and a few shapes)
and :func:`table_source` says ``"fallback"``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

import attrs

from glyphweave.tables import loader
from glyphweave.tables.loader import Source
from glyphweave.tables.std14 import std14_metrics

_TABLE = "symbols"


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
    return loader.read_text(_TABLE, name)


def _rows(text: str, header: str) -> list[list[str]]:
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    if not lines or lines[0].split("\t")[: len(header.split("\t"))] != header.split("\t"):
        raise ValueError(f"glyphweave resource symbols: expected header {header!r}, got {lines[:1]!r}")
    return [line.split("\t") for line in lines[1:]]


def _hex_text(value: str) -> str:
    return "".join(chr(int(part, 16)) for part in value.split())


@functools.cache
def symbol_tables() -> SymbolTables:
    """The tables, from the mirror when it is there, else the built-in fallback."""
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
    return symbol_tables().source


@functools.cache
def builtin_encoding(canonical: str) -> Mapping[int, str]:
    """The built-in encoding (code → glyph name) of ``Symbol`` or ``ZapfDingbats``: the AFM's,
    or a few common codes when the metrics mirror is missing too."""
    encoding = std14_metrics(canonical).builtin_encoding
    if encoding:
        return encoding
    return _FALLBACK_SYMBOL_CODES if canonical == "Symbol" else _FALLBACK_ZAPF_CODES


def clear_caches() -> None:
    """Forget the loaded tables (tests that swap the mirror out use this)."""
    symbol_tables.cache_clear()
    builtin_encoding.cache_clear()
