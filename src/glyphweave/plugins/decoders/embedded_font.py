"""``embedded-font``: text from the embedded font program itself (rules: decoders).

Runs after ``tounicode`` and ``encoding`` (and before ``standard-fallback``): it answers
the cases those cannot, reading the font program with fontTools, once per font per
document (cached in ``font.memo["embedded-font"]``; a broken program is cached as
unusable and never raises). fontTools' own log lines while it parses go to the debug log,
never to standard error (:func:`glyphweave.tables.sfnt.fonttools_log_to_debug`); the PDF
engine may drop a parsed program to keep a document's parsed programs within their budget,
and it is then parsed again on its next need ("Resource limits" in docs/design.rst).

Simple fonts (one-byte codes):

- Type1 (FontFile): the built-in encoding, read from the cleartext part only
  (``dup 65 /A put``, or ``/Encoding StandardEncoding def``): code → glyph name → AGL.
  Never the full Type1 parse (see "Embedded fonts" in docs/design.rst).
- CFF (FontFile3/Type1C): the built-in encoding of the CFF (standard, expert or custom):
  code → glyph name → AGL.
  Both are used only where a viewer uses the built-in encoding: when the font names no
  base encoding, or it is symbolic (flag or Symbol/Dingbats/Wingdings/Webdings by name).
- TrueType (FontFile2, FontFile3/OpenType): for a symbolic font (flag or name), or one
  without a Unicode cmap, code → glyph through the (3,0) subtable at U+F000+code (also
  U+F100, U+F200 and the bare code), then the (1,0) subtable, then (symbolic fonts
  with only a Unicode cmap) the code itself in that subtable; the glyph → text by
  inverting the Unicode cmap (a non-PUA code preferred), else its 'post' name → AGL
  (generated names such as ``glyph12`` or ``gid7`` say nothing and are skipped). A
  non-symbolic font with a Unicode cmap reads its codes through /Encoding, which the
  ``encoding`` and ``standard-fallback`` decoders already do: nothing to add here.
- A code in /Differences whose name the AGL cannot read (or reads as PUA): if the
  TrueType/OpenType font has a glyph of that name, the Unicode cmap's code for it.

Composite fonts (by CID):

- CIDFontType2 (TrueType): CID → GID through ``font.cid_to_gid_map()`` (the decoded
  /CIDToGIDMap stream, two bytes big-endian per CID; None for /Identity or absent, and
  then GID = CID, by far the commonest case); a CID past the map or the font's glyph
  count gives no answer. The GID → text step inverts the Unicode cmap, else reads the
  'post' name through the AGL.
- CIDFontType0 with CID-keyed CFF (FontFile3/CIDFontType0C): CID → GID through the CFF
  charset; a bare CFF has no glyph names or cmap, so only an OpenType wrapper with a
  Unicode cmap can answer. A CFF that is not CID-keyed: GID = CID, names from its charset.

A PUA answer is returned when it is all the font says; the core treats it as weak.
"""

from __future__ import annotations

import logging
import warnings
from typing import TYPE_CHECKING

from glyphweave.plugin import Decoder, FontInfo, hookimpl
from glyphweave.tables.encodings import BASE_ENCODING_NAMES, is_symbol_family
from glyphweave.tables.sfnt import fonttools_log_to_debug

if TYPE_CHECKING:
    # The program readers are imported by the first font that needs its program read
    # (most fonts carry a ToUnicode map and never do): 1-2 ms of every start-up otherwise.
    from glyphweave.plugins.decoders._fontprogram import FontProgram

log = logging.getLogger(__name__)

_MEMO_KEY = "embedded-font"
_UNUSABLE = "unusable"
_SFNT_KINDS = frozenset({"FontFile2", "OpenType"})
_BUILTIN_KINDS = frozenset({"FontFile", "Type1C"})


def load_program(font: FontInfo) -> FontProgram | None:
    """The font's parsed program, parsed on first call and cached in ``font.memo``.

    None when the font is not embedded, of a kind not read here, or broken.
    """
    cached = font.memo.get(_MEMO_KEY)
    if cached is not None:
        return None if cached is _UNUSABLE else cached
    from glyphweave.plugins.decoders._fontprogram import parse_font_program

    program: FontProgram | None = None
    try:
        data = font.font_file()
        if data:
            with warnings.catch_warnings(), fonttools_log_to_debug():
                warnings.simplefilter("ignore")
                program = parse_font_program(font.font_file_kind, data)
    except Exception as exc:  # a broken font program is common; never fatal
        log.debug("embedded font of %r unusable: %r", font.base_font, exc)
        program = None
    font.memo[_MEMO_KEY] = program if program is not None else _UNUSABLE
    return program


class EmbeddedFontDecoder(Decoder):
    """Text from the embedded font: TrueType cmaps and post names, CFF and Type1 encodings."""

    NAME = "embedded-font"

    @classmethod
    def resource_sources(cls) -> dict[str, str]:
        from glyphweave.tables.cff import cff_strings_source

        return {"cff-strings": cff_strings_source()}

    def decode(self, font: FontInfo, code: bytes, cid: int | None) -> str | None:
        if not font.embedded or font.font_file_kind is None:
            return None
        if font.composite:
            return self._composite(font, cid)
        if len(code) != 1:
            return None
        return self._simple(font, code[0])

    # -- simple fonts ----------------------------------------------------------------------
    @staticmethod
    def _simple(font: FontInfo, byte: int) -> str | None:
        kind = font.font_file_kind
        symbolic = font.symbolic or is_symbol_family(font.base_font)
        diff_name = font.differences.get(byte)
        if diff_name is not None:
            # The encoding decoder read the name; only a TrueType glyph of that name can say more.
            if kind not in _SFNT_KINDS:
                return None
            program = load_program(font)
            if program is None or not program.unicode_cmap or not program.has_glyph(diff_name):
                return None
            return program.text_for_glyph(diff_name)
        known_base = font.base_encoding in BASE_ENCODING_NAMES
        if known_base and not symbolic:
            return None  # /Encoding decides (encoding decoder); the built-in encoding is not used
        if kind in _BUILTIN_KINDS:
            program = load_program(font)
            if program is None or program.builtin is None:
                return None
            from glyphweave.plugins.decoders._fontprogram import name_to_text

            return name_to_text(program.builtin.get(byte))
        if kind in _SFNT_KINDS:
            program = load_program(font)
            if program is None:
                return None
            if not symbolic and program.unicode_cmap:
                return None  # non-symbolic with a Unicode cmap: codes go through an encoding
            return program.text_for_glyph(_truetype_glyph(program, byte, symbolic))
        return None

    # -- composite fonts -------------------------------------------------------------------
    @staticmethod
    def _composite(font: FontInfo, cid: int | None) -> str | None:
        if cid is None or cid < 0:
            return None
        program = load_program(font)
        if program is None:
            return None
        if program.cid_to_gid is not None:
            gid = program.cid_to_gid.get(cid)
            if gid is None:
                return None
        elif font.font_file_kind == "FontFile2":
            gid = _truetype_gid(font, cid)
            if gid is None:
                return None
        else:
            gid = cid  # CFF that is not CID-keyed: GID = CID by definition (OpenType: Identity)
        name = program.glyph_name(gid)
        if name is None:
            return None
        if program.cid_to_gid is not None and not program.unicode_cmap:
            return None  # bare CID-keyed CFF: names are cidNNNNN, nothing to read
        return program.text_for_glyph(name)


def _truetype_gid(font: FontInfo, cid: int) -> int | None:
    """CIDFontType2: the GID of ``cid`` through the /CIDToGIDMap.

    The map is ``font.cid_to_gid_map()`` (decoded stream bytes, two bytes big-endian per
    CID); None (/Identity or absent) means GID = CID, by far the commonest case.
    """
    try:
        mapping = font.cid_to_gid_map()
    except Exception:  # an unreadable map: no answer rather than a guess
        return None
    if not mapping:
        return cid
    end = 2 * cid + 2
    if end > len(mapping):
        return None
    return int.from_bytes(mapping[end - 2 : end], "big") or None


def _truetype_glyph(program: FontProgram, byte: int, symbolic: bool) -> str | None:
    """The glyph a viewer paints for ``byte`` of a symbolic (or cmap-less) TrueType font."""
    table = program.symbol_cmap
    if table:
        for candidate in (0xF000 + byte, 0xF100 + byte, 0xF200 + byte, byte):
            name = table.get(candidate)
            if name is not None:
                return name
    table = program.mac_cmap
    if table and byte in table:
        return table[byte]
    table = program.unicode_cmap
    if symbolic and table:
        return table.get(byte) or table.get(0xF000 + byte)
    return None


@hookimpl
def glyphweave_register_decoders() -> list[type[Decoder]]:
    return [EmbeddedFontDecoder]
