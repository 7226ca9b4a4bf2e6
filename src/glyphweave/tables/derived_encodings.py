"""Four of the five base encodings (ISO 32000-1 Annex D), derived from installed packages.

StandardEncoding and MacRomanEncoding come from fontTools, WinAnsiEncoding from Python's
``cp1252`` codec and PDFDocEncoding from pikepdf's ``pdfdoc`` codec, each character named
through the Adobe Glyph List, then adjusted by the Annex D footnotes. The shipped table
(``resources/encodings``) is generated from these by ``tools/gen_encodings.py``, which
adds MacExpertEncoding from Ghostscript; when that table is missing, these serve as the
fallback (without MacExpert).
"""

from __future__ import annotations

import codecs
import functools

Table = list[str | None]

# Annex D, footnote 6 of table D.2: in Mac OS Roman, absent from PDF's MacRomanEncoding.
MAC_OS_ONLY = frozenset(
    {
        "notequal", "infinity", "lessequal", "greaterequal", "partialdiff", "summation", "product",
        "pi", "integral", "Omega", "radical", "approxequal", "Delta", "lozenge", "apple",
    }
)  # fmt: skip


class EncodingDerivationError(RuntimeError):
    """An installed package no longer gives the table Annex D describes."""


@functools.cache
def _agl_names() -> dict[int, list[str]]:
    from fontTools.agl import LEGACY_AGL2UV

    names: dict[int, list[str]] = {}
    for agl_name, uvs in LEGACY_AGL2UV.items():
        for uv in uvs:
            names.setdefault(uv, []).append(agl_name)
    return names


def glyph_name_for(char: str) -> str:
    """The AGL name of ``char``: the AGL for New Fonts first, else the full AGL's only name.

    (The AGLFN leaves out some Latin-1 names Annex D uses: twosuperior, fi, ...)
    """
    from fontTools.agl import UV2AGL

    name = UV2AGL.get(ord(char))
    if name is not None:
        return name
    candidates = _agl_names().get(ord(char), [])
    if len(candidates) != 1:
        raise EncodingDerivationError(f"no single glyph name for U+{ord(char):04X}: {candidates}")
    return candidates[0]


def standard() -> Table:
    from fontTools.encodings.StandardEncoding import StandardEncoding

    return [None if n == ".notdef" else n for n in StandardEncoding]


def winansi() -> Table:
    table: Table = [None] * 256
    for code in range(0x20, 256):
        if code in (0xA0, 0xAD):
            continue  # named below
        try:
            char = bytes([code]).decode("cp1252")
        except UnicodeDecodeError:
            table[code] = "bullet"  # unused code: Annex D, table D.2, footnote 3
            continue
        table[code] = "bullet" if code == 0x7F else glyph_name_for(char)
    table[0xA0] = "space"  # footnote 1
    table[0xAD] = "hyphen"  # footnote 2
    return table


def macroman() -> Table:
    from fontTools.encodings.MacRoman import MacRoman

    table: Table = [None] * 256
    for code in range(0x20, 0x7F):
        table[code] = MacRoman[code]
    for code in range(0x80, 256):
        name = MacRoman[code]
        table[code] = None if name in MAC_OS_ONLY else name
    table[0xCA] = "space"  # footnote 1 (Mac OS Roman: nbspace)
    if table[0xDB] != "currency":
        raise EncodingDerivationError("fontTools MacRoman changed at 0xDB; expected currency")
    return table


def pdfdoc() -> Table:
    """PDFDocEncoding, from the ``pdfdoc`` codec that pikepdf registers when it is imported.

    The tables do not import the PDF library themselves; at run time the engine has always
    loaded it before a table is read, and ``tools/gen_encodings.py`` imports it."""
    try:
        codecs.lookup("pdfdoc")
    except LookupError:
        raise EncodingDerivationError("the pdfdoc codec is missing: import pikepdf first") from None
    table: Table = [None] * 256
    for code in range(0x18, 256):
        try:
            char = bytes([code]).decode("pdfdoc")
        except UnicodeDecodeError:
            continue
        if len(char) == 1 and (ord(char) < 0x20 or 0x7F <= ord(char) < 0xA0):
            continue
        table[code] = glyph_name_for(char)
    return table


def derived_tables() -> dict[str, Table]:
    """Standard, WinAnsi, MacRoman and PDFDoc encodings; MacExpert is not derivable."""
    return {
        "StandardEncoding": standard(),
        "WinAnsiEncoding": winansi(),
        "MacRomanEncoding": macroman(),
        "PDFDocEncoding": pdfdoc(),
    }
