"""A glyph's drawing from the embedded font program: an SVG path and its hash (rules: the glyph registry).

:func:`draw_glyph` finds the glyph a viewer paints for a character code (simple fonts) or
a CID (composite fonts) and draws it with a fontTools pen into SVG path data:

* font units, y up as in the font, coordinates rounded to integers (half up);
* only the commands ``M L Q C Z``, absolute, numbers separated by one space
  (``M0 0L500 0L500 700Z``): written here rather than by fontTools' ``SVGPathPen``
  (which shortens lines to ``H``/``V``), so the text, and its hash, does not change with
  the fontTools version;
* composite glyphs (TrueType components, Type1 and CFF ``seac`` accents) decomposed, so
  no glyph name or glyph number is part of it.

The *hash* (the first 16 hex digits of the path's SHA-256) is the outline's identity
across documents: two subsets of one font that give a glyph different codes, glyph
numbers or names still draw the same path (:mod:`.keys`).

How a code reaches a glyph, by font program (as viewers and the ``embedded-font`` decoder
read it; the first candidate glyph the font has wins):

* TrueType and OpenType (FontFile2, FontFile3/OpenType), simple fonts: a /Differences
  name (a glyph of that name, else the Unicode cmap at the name's character); then, when
  the font has a (3,0) symbol subtable, that subtable at U+F000+code (also U+F100, U+F200
  and the bare code) and the (1,0) subtable; then the base encoding (/Encoding, else
  WinAnsi) read as characters through the Unicode cmap or as 'post' names; last the
  (1,0) subtable and the Unicode cmap at the bare code or U+F000+code. A program whose
  'cmap' is unreadable (truncated subsets are common) takes GID = code, as viewers do.
* CFF (FontFile3/Type1C) and Type1 (FontFile), simple fonts: the /Differences name, then
  the base encoding's name (when /Encoding names one), then the program's built-in
  encoding (the CFF's standard or custom encoding; the Type1 ``/Encoding`` array, read
  by fontTools' Type1 interpreter, which decrypts the program).
* CIDFontType2: CID → GID through the /CIDToGIDMap (GID = CID when it is /Identity or
  absent); GID 0 (.notdef) or past the font's glyphs: no glyph.
* CIDFontType0: a CID-keyed CFF maps CID → GID through its charset; a CFF that is not
  CID-keyed: GID = CID.
* Type3 fonts draw with content streams, not an outline program: their drawing is what the
  glyph procedure paints (:mod:`.type3`), in thousandths of an em.

Damaged programs are read as far as they go: a truncated 'hmtx' (fontTools then refuses
the glyph set) still draws, with the advances the table holds; unreadable glyph names
give numbered glyphs; a CFF without a charset gets the ISOAdobe one; a Type1 program
without /Subrs, in hexadecimal or in PFB segments is read.

A font without an embedded program, a glyph the font lacks, an empty glyph (a space) and
a broken program all give None, never an exception (a debug log says why). A program is
parsed once per font per document, cached in ``info.memo["glyphmap-outline"]`` (a broken
one cached as unusable), and each glyph is drawn once. A TrueType/OpenType program's
character-map subtables that declare more codes than any real font are left unread
(:func:`glyphweave.tables.sfnt.bounded_cmaps`): fontTools would expand them whatever their size.
"""

from __future__ import annotations

import contextlib
import hashlib
import html
import io
import logging
import math
import re
import warnings
from collections.abc import Iterator, Mapping
from typing import Any

import attrs
from fontTools.pens.basePen import BasePen

from glyphweave.core.fontinfo import FontInfo
from glyphweave.tables.encodings import BASE_ENCODING_NAMES, base_encoding, standard_text
from glyphweave.tables.sfnt import bounded_cmaps

__all__ = ["Drawing", "draw_glyph", "why_undrawn", "drawing_of", "glyph_name", "glyph_names", "glyph_path", "is_blank",
           "outline_hash", "svg_document"]

log = logging.getLogger(__name__)

MEMO_KEY = "glyphmap-outline"
_UNUSABLE = "unusable"
_DEFAULT_UPEM = 1000
_SFNT_MAGIC = (b"\x00\x01\x00\x00", b"OTTO", b"true", b"ttcf")
_PATH_NUMBERS = re.compile(r"-?\d+")
_HEX_RUN = re.compile(rb"[0-9a-fA-F\s]+")
_ZEROS = re.compile(rb"(?:0\s*){64,}")


# -- the record ----------------------------------------------------------------------------


def outline_hash(path: str) -> str:
    """The identity of an outline: the first 16 hex digits of the SHA-256 of its path."""
    return hashlib.sha256(path.encode("ascii", "replace")).hexdigest()[:16]


@attrs.frozen(kw_only=True)
class Drawing:
    """A glyph's outline as SVG path data (font units, y up) with its identity."""

    path: str
    """SVG path data: absolute ``M L Q C Z`` commands, integer coordinates."""
    hash: str
    """:func:`outline_hash` of :attr:`path`: the same glyph in any subset has the same hash."""
    advance: int
    """The glyph's advance width, in font units."""
    units_per_em: int
    """Font units per em (the TrueType 'head' value; from the FontMatrix for Type1 and CFF,
    1000 as a rule)."""

    @classmethod
    def from_path(cls, path: str, *, advance: int = 0, units_per_em: int = _DEFAULT_UPEM) -> Drawing:
        """A drawing from a stored path (a registry's ``svg`` column), its hash recomputed."""
        return cls(path=path, hash=outline_hash(path), advance=advance, units_per_em=units_per_em)


# -- the pen -------------------------------------------------------------------------------


def _round(value: float) -> int:
    """Round half up (fontTools' ``otRound``): the same integer on every platform."""
    return math.floor(value + 0.5)


class _PathPen(BasePen):
    """Writes SVG path data with integer coordinates; components are decomposed through
    the glyph set (a missing component is skipped)."""

    def __init__(self, glyph_set: Mapping[str, Any] | None) -> None:
        super().__init__(glyph_set)
        self.parts: list[str] = []
        self.painted = False

    def _point(self, command: str, *points: tuple[float, float]) -> None:
        self.parts.append(command + " ".join(f"{_round(x)} {_round(y)}" for x, y in points))

    def _moveTo(self, pt: tuple[float, float]) -> None:
        self._point("M", pt)

    def _lineTo(self, pt: tuple[float, float]) -> None:
        self.painted = True
        self._point("L", pt)

    def _curveToOne(self, pt1: tuple[float, float], pt2: tuple[float, float], pt3: tuple[float, float]) -> None:
        self.painted = True
        self._point("C", pt1, pt2, pt3)

    def _qCurveToOne(self, pt1: tuple[float, float], pt2: tuple[float, float]) -> None:
        self.painted = True
        self._point("Q", pt1, pt2)

    def _closePath(self) -> None:
        self.parts.append("Z")

    def _endPath(self) -> None:
        pass

    def path(self) -> str:
        return "".join(self.parts) if self.painted else ""


# -- quiet fontTools ---------------------------------------------------------------------


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """fontTools' warnings and log messages about a damaged font stay inside."""
    logger = logging.getLogger("fontTools")
    level = logger.level
    logger.setLevel(logging.CRITICAL + 1)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        logger.setLevel(level)


# -- base encodings (character or glyph name per code) --------------------------------------


def _base_encoding_name(encoding: str | None, code: int) -> str | None:
    """The glyph name a named base encoding gives ``code`` (the PDF's base encodings, from
    the package's tables: the same the decoders read)."""
    if encoding not in BASE_ENCODING_NAMES or not 0 <= code < 256:
        return None
    return base_encoding(encoding)[code]


def _base_encoding_char(encoding: str | None, code: int) -> str | None:
    """The character a base encoding gives ``code``."""
    if encoding not in BASE_ENCODING_NAMES:
        return None
    text = standard_text(encoding, code)
    return text if text and len(text) == 1 and text >= " " else None


def _name_char(name: str) -> str | None:
    from fontTools.agl import toUnicode

    text = toUnicode(name)
    return text if len(text) == 1 else None


# -- font programs -------------------------------------------------------------------------


class _Program:
    """A parsed font program: glyph lookup by name and drawing, each glyph drawn once."""

    units_per_em = _DEFAULT_UPEM

    def __init__(self) -> None:
        self._drawn: dict[str, Drawing | None] = {}

    def has_glyph(self, name: str) -> bool:
        raise NotImplementedError

    def glyph_names(self) -> list[str]:
        """The program's glyphs, in its own order (``.notdef`` left out)."""
        raise NotImplementedError

    def glyph_for_code(self, info: FontInfo, code: int) -> str | None:
        raise NotImplementedError

    def glyph_for_cid(self, info: FontInfo, cid: int) -> str | None:
        raise NotImplementedError

    def _draw(self, name: str) -> tuple[str, float]:
        """The path and advance of glyph ``name`` (raises when it cannot be drawn)."""
        raise NotImplementedError

    def drawing(self, name: str) -> Drawing | None:
        if name in self._drawn:
            return self._drawn[name]
        result: Drawing | None = None
        try:
            with _quiet():
                path, advance = self._draw(name)
            if path:
                result = Drawing(path=path, hash=outline_hash(path), advance=_round(advance),
                                 units_per_em=self.units_per_em)
        except Exception as exc:  # one damaged glyph: no drawing for it
            log.debug("glyph %r cannot be drawn: %r", name, exc)
        self._drawn[name] = result
        return result


def _upem_from_matrix(matrix: Any) -> int:
    """Units per em from a Type1/CFF FontMatrix (``[0.001 0 0 0.001 0 0]`` → 1000)."""
    try:
        scale = float(matrix[0])
    except (TypeError, ValueError, IndexError):
        return _DEFAULT_UPEM
    if scale <= 0:
        return _DEFAULT_UPEM
    upem = _round(1 / scale)
    return upem if 16 <= upem <= 16384 else _DEFAULT_UPEM


def glyph_path(glyph: Any, glyph_set: Mapping[str, Any] | None) -> tuple[str, float]:
    """The SVG path data and advance of a fontTools glyph (anything with ``draw(pen)``), as
    :func:`draw_glyph` writes them; components are decomposed through ``glyph_set``."""
    return _outline(glyph, glyph_set)


def _outline(glyph: Any, glyph_set: Mapping[str, Any] | None) -> tuple[str, float]:
    pen = _PathPen(glyph_set)
    glyph.draw(pen)
    return pen.path(), float(getattr(glyph, "width", 0) or 0)


class _Sfnt(_Program):
    """TrueType or OpenType (glyf or CFF outlines) through ``TTFont.getGlyphSet``."""

    def __init__(self, data: bytes) -> None:
        super().__init__()
        from fontTools.ttLib import TTFont

        data, dropped = bounded_cmaps(data)  # fontTools would expand a huge one whatever its size
        if dropped:
            log.debug("character-map subtables past their bound left unread: %s",
                      "; ".join(item.describe() for item in dropped))
        self.font = TTFont(io.BytesIO(data), lazy=True, recalcBBoxes=False, recalcTimestamp=False, fontNumber=0)
        try:
            self.order = list(self.font.getGlyphOrder())
        except Exception as exc:  # names from a damaged 'post' or 'cmap': numbered glyphs instead
            log.debug("glyph names of a font program unreadable (%r): numbered instead", exc)
            self.order = [".notdef", *(f"glyph{gid:05d}" for gid in range(1, int(self.font["maxp"].numGlyphs)))]
            self.font.setGlyphOrder(self.order)
        self.names = frozenset(self.order)
        self.glyph_set: Mapping[str, Any]
        try:
            self.glyph_set = self.font.getGlyphSet()
        except Exception as exc:  # a damaged 'hmtx' (subsets cut short) or 'hhea'
            log.debug("glyph set of a font program unreadable (%r): outlines without it", exc)
            self.glyph_set = _RawGlyphs(self.font, self.order)
        upem = int(getattr(self.font["head"], "unitsPerEm", 0) or 0) if "head" in self.font else 0
        self.units_per_em = upem if 16 <= upem <= 16384 else _DEFAULT_UPEM
        self.symbol_cmap: dict[int, str] = {}
        self.mac_cmap: dict[int, str] = {}
        self.unicode_cmap: dict[int, str] = {}
        self.has_cmap = False
        try:
            if "cmap" in self.font:
                tables = {(t.platformID, t.platEncID): t for t in self.font["cmap"].tables}
                self.symbol_cmap = _cmap(tables.get((3, 0)))
                self.mac_cmap = _cmap(tables.get((1, 0)))
                for key in ((3, 10), (0, 6), (0, 4), (3, 1), (0, 3), (0, 2), (0, 1), (0, 0)):
                    self.unicode_cmap = _cmap(tables.get(key))
                    if self.unicode_cmap:
                        break
                self.has_cmap = bool(self.symbol_cmap or self.mac_cmap or self.unicode_cmap)
        except Exception as exc:  # a truncated 'cmap': glyphs by name, or by code as below
            log.debug("cmap of a font program unreadable: %r", exc)
        self.cid_glyphs: dict[int, str] | None = None
        if "CFF " in self.font:
            cff = self.font["CFF "].cff
            if hasattr(cff[cff.fontNames[0]], "ROS"):
                self.cid_glyphs = _cid_glyphs(self.order)

    def has_glyph(self, name: str) -> bool:
        return name in self.names and name != ".notdef"

    def glyph_names(self) -> list[str]:
        return [name for name in self.order if name != ".notdef"]

    def _pick(self, name: str | None) -> str | None:
        return name if name is not None and self.has_glyph(name) else None

    def _by_char(self, char: str | None) -> str | None:
        return self._pick(self.unicode_cmap.get(ord(char))) if char else None

    def _symbol(self, code: int) -> str | None:
        for candidate in (0xF000 + code, 0xF100 + code, 0xF200 + code, code):
            name = self._pick(self.symbol_cmap.get(candidate))
            if name:
                return name
        return self._pick(self.mac_cmap.get(code))

    def _encoded(self, info: FontInfo, code: int) -> str | None:
        encoding = info.base_encoding or "WinAnsiEncoding"
        by_char = self._by_char(_base_encoding_char(encoding, code))
        if by_char:
            return by_char
        return self._pick(_base_encoding_name(encoding, code))

    def glyph_for_code(self, info: FontInfo, code: int) -> str | None:
        name = info.differences.get(code)
        if name is not None:
            found = self._pick(name) or self._by_char(_name_char(name))
            if found:
                return found
        if self.symbol_cmap:
            found = self._symbol(code)
            if found:
                return found
        found = (self._encoded(info, code) or self._pick(self.mac_cmap.get(code))
                 or self._pick(self.unicode_cmap.get(code)) or self._pick(self.unicode_cmap.get(0xF000 + code)))
        if found is None and not self.has_cmap and 0 < code < len(self.order):
            found = self._pick(self.order[code])  # no cmap at all: GID = code, as viewers do
        return found

    def glyph_for_cid(self, info: FontInfo, cid: int) -> str | None:
        if self.cid_glyphs is not None:
            return self._pick(self.cid_glyphs.get(cid))
        gid: int | None = cid
        if info.font_file_kind == "FontFile2" or info.descendant_subtype == "CIDFontType2":
            gid = _mapped_gid(info, cid)
        if gid is None or not 0 < gid < len(self.order):
            return None
        return self._pick(self.order[gid])

    def _draw(self, name: str) -> tuple[str, float]:
        return _outline(self.glyph_set[name], self.glyph_set)


class _RawGlyph:
    """One glyph of :class:`_RawGlyphs`: draws itself; ``width`` as far as 'hmtx' says."""

    def __init__(self, draw: Any, width: float) -> None:
        self._draw = draw
        self.width = width

    def draw(self, pen: Any) -> None:
        self._draw(pen)


class _RawGlyphs(Mapping[str, Any]):
    """The outlines of a font whose glyph set fontTools refuses (a truncated 'hmtx' is
    common in subsets): 'glyf' or 'CFF ' drawn directly, advances read from what there is
    of 'hmtx' (0 past its end)."""

    def __init__(self, font: Any, order: list[str]) -> None:
        self.order = order
        self.gids = {name: gid for gid, name in enumerate(order)}
        self.glyf = font.get("glyf")
        self.charstrings = None
        if self.glyf is None:
            cff = font["CFF "].cff
            self.charstrings = cff[cff.fontNames[0]].CharStrings
        self.advances = _partial_advances(font)

    def __getitem__(self, name: str) -> _RawGlyph:
        gid = self.gids[name]
        width = float(self.advances[min(gid, len(self.advances) - 1)]) if self.advances else 0.0
        if self.glyf is not None:
            glyph, table = self.glyf[name], self.glyf
            return _RawGlyph(lambda pen: glyph.draw(pen, table), width)
        assert self.charstrings is not None
        return _RawGlyph(self.charstrings[name].draw, width)

    def __iter__(self) -> Iterator[str]:
        return iter(self.order)

    def __len__(self) -> int:
        return len(self.order)


def _partial_advances(font: Any) -> list[int]:
    """Advance widths by GID from the raw 'hmtx' (4 bytes per long metric), as many as it
    holds; the last one repeats past the long metrics, as the table intends."""
    try:
        raw = font.reader["hmtx"]
        count = int(font["hhea"].numberOfHMetrics)
    except Exception:
        return []
    count = min(count, len(raw) // 4)
    return [int.from_bytes(raw[4 * i : 4 * i + 2], "big") for i in range(count)]


def _cmap(table: Any) -> dict[int, str]:
    mapping = getattr(table, "cmap", None) if table is not None else None
    return dict(mapping) if mapping else {}


def _cid_glyphs(names: list[str]) -> dict[int, str]:
    """CID-keyed CFF: fontTools names the glyph of CID n ``cidNNNNN`` (from the charset)."""
    return {int(name[3:]): name for name in names if name.startswith("cid") and name[3:].isdigit()}


def _mapped_gid(info: FontInfo, cid: int) -> int | None:
    """CIDFontType2: the GID of ``cid`` through /CIDToGIDMap (2 bytes big-endian per CID);
    GID = CID when the map is /Identity or absent."""
    mapping = info.cid_to_gid_map()
    if not mapping:
        return cid
    end = 2 * cid + 2
    if end > len(mapping):
        return None
    return int.from_bytes(mapping[end - 2 : end], "big")


class _NamedProgram(_Program):
    """Type1 and bare CFF: glyphs by name in a CharStrings dictionary, a built-in encoding."""

    def __init__(self, charstrings: Any, builtin: list[str] | None, units_per_em: int) -> None:
        super().__init__()
        self.charstrings = charstrings
        self.builtin = builtin
        self.units_per_em = units_per_em

    def has_glyph(self, name: str) -> bool:
        return name != ".notdef" and name in self.charstrings

    def glyph_names(self) -> list[str]:
        return [name for name in self.charstrings.keys() if name != ".notdef"]  # noqa: SIM118 - its iterator is not its names; keys-order: fontTools, the font's glyph order

    def glyph_for_code(self, info: FontInfo, code: int) -> str | None:
        candidates = (
            info.differences.get(code),
            _base_encoding_name(info.base_encoding, code),
            self.builtin[code] if self.builtin is not None and 0 <= code < len(self.builtin) else None,
        )
        for name in candidates:
            if name is not None and self.has_glyph(name):
                return name
        return None

    def glyph_for_cid(self, info: FontInfo, cid: int) -> str | None:
        return None

    def _draw(self, name: str) -> tuple[str, float]:
        return _outline(self.charstrings[name], self.charstrings)


class _Cff(_NamedProgram):
    """A bare CFF (FontFile3/Type1C or CIDFontType0C) through ``cffLib.CFFFontSet``."""

    def __init__(self, data: bytes) -> None:
        from fontTools.cffLib import CFFFontSet
        from fontTools.encodings.StandardEncoding import StandardEncoding

        cff = CFFFontSet()
        cff.decompile(io.BytesIO(data), otFont=None)
        top = cff[cff.fontNames[0]]
        top.rawDict.setdefault("charset", 0)  # absent: the ISOAdobe charset (CFF spec §9)
        self.order = list(top.charset)
        self.cid_glyphs = _cid_glyphs(self.order) if hasattr(top, "ROS") else None
        builtin: list[str] | None = None
        if self.cid_glyphs is None:
            encoding = getattr(top, "Encoding", "StandardEncoding")
            if encoding == "StandardEncoding":
                builtin = list(StandardEncoding)
            elif isinstance(encoding, list):
                builtin = encoding
        super().__init__(top.CharStrings, builtin, _upem_from_matrix(getattr(top, "FontMatrix", None)))

    def glyph_for_cid(self, info: FontInfo, cid: int) -> str | None:
        if self.cid_glyphs is not None:
            name = self.cid_glyphs.get(cid)
        else:
            name = self.order[cid] if 0 < cid < len(self.order) else None
        return name if name is not None and self.has_glyph(name) else None


class _Type1(_NamedProgram):
    """A Type1 program (FontFile), interpreted and decrypted by fontTools' PostScript
    reader (what ``t1Lib.T1Font.parse`` does, which reads files only and requires /Subrs,
    often absent from subsets)."""

    def __init__(self, data: bytes) -> None:
        from fontTools.misc import eexec, psCharStrings, psLib

        font = psLib.suckfont(_type1_bytes(data), "ascii")
        private = font["Private"]
        length_iv = int(private.get("lenIV", 4))
        if length_iv < 0:
            raise ValueError("negative lenIV")
        subrs = list(private.get("Subrs", []))
        charstrings = font["CharStrings"]
        for name, code in charstrings.items():
            plain, _ = eexec.decrypt(code, 4330)
            charstrings[name] = psCharStrings.T1CharString(plain[length_iv:], subrs=subrs)
        for index, code in enumerate(subrs):
            plain, _ = eexec.decrypt(code, 4330)
            subrs[index] = psCharStrings.T1CharString(plain[length_iv:], subrs=subrs)
        encoding = font.get("Encoding")
        builtin = list(encoding) if isinstance(encoding, list) else None
        super().__init__(charstrings, builtin, _upem_from_matrix(font.get("FontMatrix")))


def _type1_bytes(data: bytes) -> bytes:
    """A Type1 program as fontTools' interpreter reads it: PFB segment headers removed,
    a hexadecimal encrypted part turned binary."""
    if data[:2] == b"\x80\x01":
        parts = []
        pos = 0
        while data[pos : pos + 1] == b"\x80" and data[pos + 1 : pos + 2] in (b"\x01", b"\x02"):
            length = int.from_bytes(data[pos + 2 : pos + 6], "little")
            parts.append(data[pos + 6 : pos + 6 + length])
            pos += 6 + length
        data = b"".join(parts)
    begin = data.find(b"eexec")
    if begin < 0:
        raise ValueError("no eexec part in the Type1 program")
    start = begin + len(b"eexec")
    while data[start : start + 1] in (b" ", b"\t", b"\r", b"\n"):
        start += 1
    run = _HEX_RUN.match(data, start)
    if run is not None:  # hexadecimal (Type1 spec §7.2: the first four bytes are hex digits)
        trailer = _ZEROS.search(data, start, run.end())  # the 512 zeros before cleartomark
        end = trailer.start() if trailer is not None else run.end()
        digits = re.sub(rb"\s", b"", data[start:end])
        if len(digits) >= 64:
            data = data[:start] + bytes.fromhex(digits[: len(digits) // 2 * 2].decode("ascii")) + data[end:]
    return data


def _parse(kind: str | None, data: bytes) -> _Program:
    """The program in ``data`` (by its content first: producers mislabel FontFile3)."""
    if data[:4] in _SFNT_MAGIC:
        return _Sfnt(data)
    if data[:2] == b"\x80\x01" or data[:2] == b"%!" or kind == "FontFile":
        return _Type1(data)
    if data[:1] == b"\x01" and len(data) > 4:
        return _Cff(data)
    if kind in ("FontFile2", "OpenType"):
        return _Sfnt(data)
    if kind in ("Type1C", "CIDFontType0C"):
        return _Cff(data)
    raise ValueError(f"font program of kind {kind!r} not read")


def _program(info: FontInfo) -> _Program | None:
    cached = info.memo.get(MEMO_KEY)
    if cached is not None:
        return None if cached is _UNUSABLE else cached  # type: ignore[no-any-return]
    program: _Program | None = None
    try:
        data = info.font_file()
        if data:
            with _quiet():
                program = _parse(info.font_file_kind, data)
    except Exception as exc:  # a broken program is common; never fatal
        log.debug("embedded font of %r has no usable outlines: %r", info.base_font, exc)
        program = None
    info.memo[MEMO_KEY] = program if program is not None else _UNUSABLE
    return program


# -- the API -------------------------------------------------------------------------------


def program_unreadable(info: FontInfo) -> bool:
    """Whether ``info``'s font embeds a program that could not be read (as opposed to a
    font with no program at all): its glyphs get "no outline", and the scan warns."""
    return bool(info.embedded) and info.memo.get(MEMO_KEY) is _UNUSABLE


def _usable_program(info: FontInfo) -> _Program | None:
    if info.subtype == "Type3" or not info.embedded or info.font_file_kind is None:
        return None
    return _program(info)


def glyph_name(info: FontInfo, code: int | bytes, cid: int | None) -> str | None:
    """The name of the program's glyph a viewer paints for ``code`` (simple fonts: the
    byte) or ``cid`` (composite fonts) of ``info``'s font, as :func:`draw_glyph` finds it;
    None when there is no such glyph or no readable embedded program. Never raises."""
    try:
        program = _usable_program(info)
        if program is None:
            return None
        if info.composite:
            return program.glyph_for_cid(info, cid) if cid is not None and cid >= 0 else None
        if isinstance(code, (bytes, bytearray)):
            if len(code) != 1:
                return None
            code = code[0]
        return program.glyph_for_code(info, code)
    except Exception as exc:  # never fatal
        log.debug("no glyph for code %r / cid %r of %r: %r", code, cid, info.base_font, exc)
        return None


def glyph_names(info: FontInfo) -> list[str]:
    """The names of every glyph of ``info``'s embedded program (``.notdef`` left out);
    empty without a readable program. Never raises."""
    try:
        program = _usable_program(info)
        return program.glyph_names() if program is not None else []
    except Exception as exc:  # never fatal
        log.debug("glyph names of %r unreadable: %r", info.base_font, exc)
        return []


def drawing_of(info: FontInfo, name: str) -> Drawing | None:
    """The drawing of the glyph called ``name`` in ``info``'s embedded program; None when
    it is empty, missing or cannot be drawn. Never raises."""
    try:
        program = _usable_program(info)
        return program.drawing(name) if program is not None and program.has_glyph(name) else None
    except Exception as exc:  # never fatal
        log.debug("no drawing for glyph %r of %r: %r", name, info.base_font, exc)
        return None


def is_blank(info: FontInfo, name: str) -> bool:
    """Whether the glyph called ``name`` in ``info``'s embedded program draws nothing but
    advances (a space). False for a missing or broken glyph. Never raises."""
    try:
        program = _usable_program(info)
        if program is None or not program.has_glyph(name):
            return False
        with _quiet():
            path, advance = program._draw(name)
        return not path and advance > 0
    except Exception as exc:  # a broken glyph is not a blank one
        log.debug("glyph %r of %r cannot be drawn: %r", name, info.base_font, exc)
        return False


def draw_glyph(info: FontInfo, code: int | bytes, cid: int | None) -> Drawing | None:
    """The drawing of the glyph a viewer paints for ``code`` (simple fonts: the byte) or
    ``cid`` (composite fonts) of ``info``'s font; None when the font has no embedded
    program, the glyph cannot be found, it is empty (a space) or the program is broken.
    A Type3 font's drawing is what its glyph procedure paints (:func:`.type3.type3_path`,
    in thousandths of an em), so its hash identifies the glyph across documents as an
    outline's does. Never raises."""
    if info.subtype == "Type3":
        return _type3_drawing(info, code)
    name = glyph_name(info, code, cid)
    return drawing_of(info, name) if name is not None else None


def why_undrawn(info: FontInfo, code: int | bytes, cid: int | None) -> str:
    """Why :func:`draw_glyph` gives no drawing for this glyph, in the registry's words
    (:data:`~.registry.UNDRAWN`): ``not embedded``, ``unreadable program``, ``no such glyph``,
    ``draws nothing`` (a space) or ``unreadable glyph``. Never raises."""
    try:
        if info.subtype == "Type3":
            from .type3 import type3_blank, type3_glyph_name

            name = type3_glyph_name(info, code)
            if name is None:
                return "no such glyph"
            return "draws nothing" if type3_blank(info, name) else "unreadable glyph"
        if not info.embedded:
            return "not embedded"
        if _usable_program(info) is None:
            return "unreadable program"
        name = glyph_name(info, code, cid)
        if name is None:
            return "no such glyph"
        return "draws nothing" if is_blank(info, name) else "unreadable glyph"
    except Exception as exc:  # never fatal
        log.debug("glyph %r of %r: %r", code, info.base_font, exc)
        return "unreadable glyph"


def _type3_drawing(info: FontInfo, code: int | bytes) -> Drawing | None:
    from .type3 import type3_glyph_name, type3_path

    try:
        name = type3_glyph_name(info, code)
        path = type3_path(info, name) if name is not None else ""
    except Exception as exc:  # never fatal
        log.debug("no drawing for Type3 code %r of %r: %r", code, info.base_font, exc)
        return None
    return Drawing.from_path(path, units_per_em=1000) if path else None


def _bounds(path: str) -> tuple[int, int, int, int] | None:
    numbers = [int(n) for n in _PATH_NUMBERS.findall(path)]
    xs, ys = numbers[0::2], numbers[1::2]
    if not xs or not ys:
        return None
    return min(xs), min(ys), max(xs), max(ys)


def svg_document(drawing: Drawing, size: int = 64) -> str:
    """A standalone inline ``<svg>`` element showing ``drawing`` upright in a ``size`` px
    square: the view spans the advance and the em from 0.25 em below the baseline to 1 em
    above it (widened to the outline's bounds), a grey baseline and advance box behind."""
    upem = drawing.units_per_em if drawing.units_per_em > 0 else _DEFAULT_UPEM
    x0, x1 = 0, max(drawing.advance, 0)
    y0, y1 = -upem // 4, upem
    bounds = _bounds(drawing.path)
    if bounds is not None:
        x0, y0 = min(x0, bounds[0]), min(y0, bounds[1])
        x1, y1 = max(x1, bounds[2]), max(y1, bounds[3])
    if x1 - x0 < upem // 2:  # a narrow glyph: centre it in half an em
        pad = (upem // 2 - (x1 - x0)) // 2
        x0, x1 = x0 - pad, x1 + pad
    margin = max(upem // 40, 1)
    x0, y0, x1, y1 = x0 - margin, y0 - margin, x1 + margin, y1 + margin
    stroke = max(upem // 200, 1)
    guides = (f'<g fill="none" stroke="#bbb" stroke-width="{stroke}">'
              f'<line x1="{x0}" y1="0" x2="{x1}" y2="0"/>'
              f'<rect x="0" y="{-upem}" width="{max(drawing.advance, 0)}" height="{upem + upem // 4}"/></g>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
            f'viewBox="{x0} {-y1} {x1 - x0} {y1 - y0}" role="img">'
            f"{guides}"
            f'<path transform="scale(1,-1)" fill="currentColor" d="{html.escape(drawing.path, quote=True)}"/>'
            "</svg>")
