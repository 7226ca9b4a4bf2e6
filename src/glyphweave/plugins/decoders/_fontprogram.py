"""Reading what an embedded font program knows about its glyphs (for ``embedded-font``).

One :class:`FontProgram` per font per document, parsed on first need and cached by the
decoder in ``font.memo``. Three readers, each as cheap as the question allows (see
"Embedded fonts" in docs/design.rst):

- TrueType and OpenType (FontFile2, FontFile3/OpenType): :class:`fontTools.ttLib.TTFont`
  with ``lazy=True``; only 'cmap', 'post'/'maxp' (glyph order) and, for CFF-flavoured
  OpenType, the CFF charset are ever decompiled.
- Bare CFF (FontFile3/Type1C, FontFile3/CIDFontType0C): :func:`._cff.read_bare_cff`, our own
  reader of the Top DICT, charset and String INDEX (the encoding is read below), never the
  charstrings: fontTools' ``cffLib`` reads them the same, but importing it costs ~20 ms.
- Type1 (FontFile): the built-in /Encoding is read from the cleartext part (before
  ``eexec``) with a regular expression. The encrypted part is never decrypted: fontTools'
  full Type1 parse costs ~36 ms a font.

Before fontTools sees a TrueType/OpenType program, :func:`glyphweave.tables.sfnt.bounded_cmaps`
takes out the character-map subtables that declare more codes than any real font has (fontTools
would expand them whatever their size); the PDF engine has already done so, with a warning,
for the programs it loads, so this only guards a :class:`FontInfo` built elsewhere.

Every reader raises on a broken program; the decoder turns that into "unusable".
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Callable
from typing import Any

from glyphweave.plugin import glyph_name_to_unicode, has_private_use, is_private_use
from glyphweave.tables.encodings import base_encoding
from glyphweave.tables.sfnt import bounded_cmaps

__all__ = ["FontProgram", "parse_font_program", "type1_builtin_encoding"]

log = logging.getLogger(__name__)

_MEANINGLESS_NAME = re.compile(r"^(?:\.notdef|\.null|nonmarkingreturn|(?:glyph|gid|cid|g|index|c)\d+)$", re.I)
"""Glyph names that say nothing about the character (generated or placeholder names)."""

PROGRAM_BYTES = 1024
"""Estimated bytes of a :class:`FontProgram` before its tables."""
ENTRY_BYTES = 120
"""Estimated bytes of one entry of a code → glyph table (a dictionary slot and an integer
key; the glyph names are shared with the glyph order): 100 to 110 measured with tracemalloc."""
NAME_BYTES = 70
"""Estimated bytes of one glyph name in the glyph order (a short string and a list slot)."""

_UNICODE_CMAPS = ((3, 10), (0, 6), (0, 4), (3, 1), (0, 3), (0, 2), (0, 1), (0, 0))
"""Unicode cmap subtables, most complete first (fontTools' ``getBestCmap`` order)."""


def name_to_text(name: str | None) -> str | None:
    """A glyph name's text by the AGL rules; None for generated names (``glyph12``, ``cid34``)."""
    if not name or _MEANINGLESS_NAME.match(name):
        return None
    return glyph_name_to_unicode(name)


class FontProgram:
    """What the decoder asks of a font program, whatever its format.

    ``glyph_names``: GID → glyph name (None when the format has no names, e.g. bare
    CID-keyed CFF). ``builtin``: the built-in encoding, code → glyph name (Type1 and
    simple CFF). ``symbol_cmap``/``mac_cmap``/``unicode_cmap``: the TrueType (3,0),
    (1,0) and best Unicode subtables, code → glyph name. ``cid_to_gid``: CID-keyed CFF
    only (from its charset).

    ``estimated_bytes``: what the program holds in memory, about (see :data:`ENTRY_BYTES`),
    by which the PDF engine bounds the parsed programs one document keeps.
    """

    def __init__(
        self,
        *,
        glyph_names: list[str] | None = None,
        builtin: dict[int, str] | None = None,
        symbol_cmap: dict[int, str] | None = None,
        mac_cmap: dict[int, str] | None = None,
        unicode_cmap: dict[int, str] | None = None,
        cid_to_gid: dict[int, int] | None = None,
    ) -> None:
        self.glyph_names = glyph_names
        self.builtin = builtin
        self.symbol_cmap = symbol_cmap
        self.mac_cmap = mac_cmap
        self.unicode_cmap = unicode_cmap
        self.cid_to_gid = cid_to_gid
        self._by_name: dict[str, str] | None = None
        self._names: frozenset[str] | None = None
        entries = sum(len(table) for table in (builtin, symbol_cmap, mac_cmap, unicode_cmap, cid_to_gid) if table)
        names = len(glyph_names) if glyph_names else 0
        # The Unicode cmap is inverted, and the names made a set, on first need: counted up front.
        self.estimated_bytes = PROGRAM_BYTES + ENTRY_BYTES * (entries + len(unicode_cmap or ())) + NAME_BYTES * 2 * names

    def glyph_name(self, gid: int) -> str | None:
        names = self.glyph_names
        if names is None or not 0 <= gid < len(names):
            return None
        return names[gid]

    def has_glyph(self, name: str) -> bool:
        if self.glyph_names is None:
            return False
        if self._names is None:
            self._names = frozenset(self.glyph_names)
        return name in self._names

    def text_for_glyph(self, name: str | None) -> str | None:
        """The best text for a glyph: the Unicode cmap's answer (inverted), else its name.

        A non-PUA answer is preferred; a PUA one is returned only when nothing better
        exists (the core treats it as weak).
        """
        if name is None:
            return None
        weak: str | None = None
        if self.unicode_cmap:
            text = self._inverse().get(name)
            if text is not None:
                if not has_private_use(text):
                    return text
                weak = text
        text = name_to_text(name)
        if text is not None:
            if not has_private_use(text):
                return text
            weak = weak or text
        return weak

    def _inverse(self) -> dict[str, str]:
        """Glyph name → text from the Unicode cmap; per glyph the lowest non-PUA code."""
        if self._by_name is None:
            best: dict[str, int] = {}
            for code, name in self.unicode_cmap.items() if self.unicode_cmap else ():
                previous = best.get(name)
                if previous is None or _rank(code) < _rank(previous):
                    best[name] = code
            self._by_name = {name: chr(code) for name, code in best.items()}
        return self._by_name


def _rank(code: int) -> tuple[bool, int]:
    return (is_private_use(code) or code < 0x20, code)


# -- parsing ---------------------------------------------------------------------------------


def parse_font_program(kind: str | None, data: bytes) -> FontProgram | None:
    """Parse ``data`` by its FontFile kind; None for kinds this module does not read.

    Raises on a broken program (the caller caches that as unusable).
    """
    if kind == "FontFile":
        return FontProgram(builtin=type1_builtin_encoding(data))
    if kind in ("Type1C", "CIDFontType0C"):
        if data[:4] in (b"OTTO", b"\x00\x01\x00\x00", b"true"):  # mislabelled OpenType
            return _parse_sfnt(data)
        return _parse_bare_cff(data)
    if kind in ("FontFile2", "OpenType"):
        if data[:1] == b"\x01" and data[2:3] == b"\x04":  # a bare CFF header labelled OpenType
            return _parse_bare_cff(data)
        return _parse_sfnt(data)
    return None


def _parse_sfnt(data: bytes) -> FontProgram:
    from fontTools.ttLib import TTFont

    data, dropped = bounded_cmaps(data)
    if dropped:
        log.debug("character-map subtables past their bound left unread: %s",
                  "; ".join(item.describe() for item in dropped))
    font = TTFont(io.BytesIO(data), lazy=True, recalcBBoxes=False, recalcTimestamp=False)
    try:
        return _read_sfnt(font)
    finally:
        # A lazily read table holds the font it came from: without this the font is a
        # reference cycle, which the console script keeps from the collector (gc.freeze).
        font.tables.clear()
        font.close()


def _read_sfnt(font: Any) -> FontProgram:
    symbol = mac = unicode = None
    if "cmap" in font:
        tables = {(t.platformID, t.platEncID): t for t in font["cmap"].tables}
        symbol = _cmap_dict(tables.get((3, 0)))
        mac = _cmap_dict(tables.get((1, 0)))
        for key in _UNICODE_CMAPS:
            unicode = _cmap_dict(tables.get(key))
            if unicode:
                break
    names = list(font.getGlyphOrder())
    cid_to_gid = None
    if "CFF " in font:
        cff = font["CFF "].cff
        top = cff[cff.fontNames[0]]
        if hasattr(top, "ROS"):
            cid_to_gid = _cid_map(names)
    return FontProgram(glyph_names=names, symbol_cmap=symbol, mac_cmap=mac, unicode_cmap=unicode,
                       cid_to_gid=cid_to_gid)


def _cmap_dict(table: Any) -> dict[int, str] | None:
    if table is None:
        return None
    mapping = getattr(table, "cmap", None)
    return dict(mapping) if mapping else None


def _parse_bare_cff(data: bytes) -> FontProgram:
    from ._cff import read_bare_cff

    cff = read_bare_cff(data)
    names = cff.names
    if cff.cid_keyed:
        return FontProgram(cid_to_gid=_cid_map(names))
    builtin: dict[int, str]
    if cff.encoding in (0, 1):
        table = base_encoding("MacExpertEncoding" if cff.encoding == 1 else "StandardEncoding")
        builtin = {code: name for code, name in enumerate(table) if name is not None}
    else:
        builtin = _cff_encoding(data, cff.encoding, names, cff.string)
    return FontProgram(glyph_names=names, builtin=builtin)


def _cff_encoding(data: bytes, offset: int, names: list[str], string: Callable[[int], str]) -> dict[int, str]:
    """A custom CFF encoding (CFF spec §12), code → glyph name; ``string`` gives the string
    of a string ID (the supplements name glyphs by string).

    Read here rather than by fontTools, which drops code 0 and the supplements.
    """
    fmt = data[offset]
    pos = offset + 1
    builtin: dict[int, str] = {}
    if fmt & 0x7F == 0:
        count = data[pos]
        pos += 1
        for gid in range(1, count + 1):
            if gid < len(names):
                builtin.setdefault(data[pos], names[gid])
            pos += 1
    elif fmt & 0x7F == 1:
        ranges = data[pos]
        pos += 1
        gid = 1
        for _ in range(ranges):
            first, left = data[pos], data[pos + 1]
            pos += 2
            for code in range(first, min(first + left + 1, 256)):
                if gid < len(names):
                    builtin.setdefault(code, names[gid])
                gid += 1
    else:
        raise ValueError(f"unknown CFF encoding format {fmt}")
    if fmt & 0x80:
        for _ in range(data[pos]):
            code, sid = data[pos + 1], int.from_bytes(data[pos + 2 : pos + 4], "big")
            builtin.setdefault(code, string(sid))
            pos += 3
    return {code: name for code, name in builtin.items() if name != ".notdef"}


def _cid_map(names: list[str]) -> dict[int, int]:
    """CID-keyed CFF: fontTools names glyph GID ``cidNNNNN`` after its CID."""
    mapping: dict[int, int] = {}
    for gid, name in enumerate(names):
        if name.startswith("cid") and name[3:].isdigit():
            mapping[int(name[3:])] = gid
        elif gid == 0:
            mapping[0] = 0
    return mapping


_EEXEC = re.compile(rb"\beexec\b")
_DUP = re.compile(rb"dup\s+(\d+#[0-9A-Za-z]+|\d+)\s*/([^\s/\[\]{}()<>%]+)\s+put")
_STANDARD = re.compile(rb"/Encoding\s+StandardEncoding\s+def")


def type1_builtin_encoding(data: bytes) -> dict[int, str]:
    """A Type1 program's built-in encoding (code → glyph name) from its cleartext part.

    ``/Encoding StandardEncoding def`` gives StandardEncoding; otherwise the
    ``dup <code> /<name> put`` entries of the encoding array. A PFB segment header is
    skipped. Only the bytes before ``eexec`` are read.
    """
    if data[:2] == b"\x80\x01":  # PFB: 6-byte segment header, then the cleartext
        length = int.from_bytes(data[2:6], "little")
        data = data[6 : 6 + length]
    match = _EEXEC.search(data)
    clear = data[: match.start()] if match else data[:65536]
    start = clear.find(b"/Encoding")
    if start < 0:
        raise ValueError("no /Encoding in the Type1 cleartext")
    if _STANDARD.match(clear, start):
        table = base_encoding("StandardEncoding")
        return {code: name for code, name in enumerate(table) if name is not None}
    builtin: dict[int, str] = {}
    for code_text, name in _DUP.findall(clear, start):
        if b"#" in code_text:
            radix, digits = code_text.split(b"#", 1)
            code = int(digits, int(radix))
        else:
            code = int(code_text)
        if 0 <= code < 256 and name != b".notdef":
            builtin[code] = name.decode("latin-1")
    return builtin
