"""The ``embedded-font`` decoder: text from TrueType cmaps/post names, CFF and Type1 encodings."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib.tables._c_m_a_p import CmapSubtable

from glyphweave.core.fontinfo import FLAG_NONSYMBOLIC, FLAG_SYMBOLIC, FontInfo
from glyphweave.core.stages import Decoder
from glyphweave.plugins.decoders import embedded_font
from glyphweave.plugins.decoders._fontprogram import (
    FontProgram,
    _cff_encoding,
    parse_font_program,
    type1_builtin_encoding,
)
from glyphweave.plugins.decoders.embedded_font import EmbeddedFontDecoder, load_program

# -- building fonts ---------------------------------------------------------------------------


def truetype(glyphs: list[str], subtables: dict[tuple[int, int], dict[int, str]], *,
             post_names: bool = True) -> bytes:
    """A small TrueType font with the given cmap subtables ((platform, encoding) → map)."""
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(glyphs)
    pen = TTGlyphPen(None)
    pen.moveTo((0, 0))
    pen.lineTo((0, 100))
    pen.lineTo((100, 0))
    pen.closePath()
    glyph = pen.glyph()
    fb.setupGlyf({name: glyph for name in glyphs})
    fb.setupHorizontalMetrics({name: (500, 0) for name in glyphs})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupCharacterMap({})
    tables = []
    for (platform, encoding), mapping in subtables.items():
        table = CmapSubtable.newSubtable(6 if platform == 1 else 4)
        table.platformID, table.platEncID, table.language = platform, encoding, 0
        table.cmap = dict(mapping)
        tables.append(table)
    fb.font["cmap"].tables = tables
    fb.setupMaxp()
    fb.setupPost(keepGlyphNames=post_names)
    out = io.BytesIO()
    fb.save(out)
    return out.getvalue()


def bare_cff(glyphs: list[str], encoding: list[str] | None = None) -> bytes:
    """A bare CFF (as in FontFile3/Type1C), StandardEncoding unless ``encoding`` is given."""
    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder(glyphs)
    pen = T2CharStringPen(500, None)
    pen.moveTo((0, 0))
    pen.lineTo((0, 100))
    pen.closePath()
    charstring = pen.getCharString()
    fb.setupCFF("Test", {"FullName": "Test"}, {name: charstring for name in glyphs}, {})
    top = fb.font["CFF "].cff.topDictIndex[0]
    if encoding is not None:
        top.Encoding = encoding
    return fb.font["CFF "].compile(fb.font)


def font(data: bytes | None, *, kind: str, calls: list[int] | None = None, **fields) -> FontInfo:
    fields.setdefault("base_font", "Test")
    fields.setdefault("subtype", "TrueType")

    def load() -> bytes | None:
        if calls is not None:
            calls.append(1)
        return data

    return FontInfo(key=(1, 0), embedded=data is not None, font_file_kind=kind, font_file_loader=load, **fields)


def decode(info: FontInfo, code: bytes, cid: int | None = None) -> str | None:
    return EmbeddedFontDecoder().decode(info, code, cid)


# -- TrueType, simple ---------------------------------------------------------------------------


def test_symbolic_truetype_reads_the_30_cmap_at_f000_and_post_names():
    data = truetype([".notdef", "bullet", "glyph2", "copyright"],
                    {(3, 0): {0xF041: "bullet", 0xF042: "glyph2", 0x43: "copyright"}})
    info = font(data, kind="FontFile2", flags=FLAG_SYMBOLIC)
    assert decode(info, b"A") == "\u2022"
    assert decode(info, b"B") is None  # a generated name says nothing
    assert decode(info, b"C") == "\u00a9"  # the bare code is tried too
    assert decode(info, b"D") is None


def test_symbolic_truetype_prefers_the_unicode_cmap_over_names():
    data = truetype([".notdef", "g1", "heart"],
                    {(3, 0): {0xF061: "g1", 0xF062: "heart"},
                     (3, 1): {0x263A: "g1", 0xF061: "g1", 0x2665: "heart"}})
    info = font(data, kind="FontFile2", flags=FLAG_SYMBOLIC)
    assert decode(info, b"a") == "\u263a"  # the non-PUA code of the glyph, not U+F061
    assert decode(info, b"b") == "\u2665"


def test_mac_cmap_without_post_names():
    data = truetype([".notdef", "A", "B"], {(1, 0): {0x41: "A", 0x42: "B"}}, post_names=False)
    info = font(data, kind="FontFile2", flags=FLAG_SYMBOLIC)
    assert decode(info, b"A") is None  # post format 3: no names, no Unicode cmap
    named = font(truetype([".notdef", "A", "Euro"], {(1, 0): {0x41: "A", 0xDB: "Euro"}}),
                 kind="FontFile2", flags=FLAG_SYMBOLIC)
    assert decode(named, b"\xdb") == "\u20ac"


def test_nonsymbolic_truetype_is_left_to_the_encoding():
    data = truetype([".notdef", "A"], {(3, 1): {0x41: "A"}})
    calls: list[int] = []
    info = font(data, kind="FontFile2", flags=FLAG_NONSYMBOLIC, base_encoding="WinAnsiEncoding", calls=calls)
    assert decode(info, b"A") is None
    assert calls == []  # decided without reading the program
    no_encoding = font(data, kind="FontFile2", flags=FLAG_NONSYMBOLIC)
    assert decode(no_encoding, b"A") is None  # standard-fallback's job


def test_symbol_family_by_name_counts_as_symbolic():
    data = truetype([".notdef", "a1"], {(3, 0): {0xF021: "a1"}, (3, 1): {0x2701: "a1"}})
    info = font(data, kind="FontFile2", base_font="Wingdings-Regular", base_encoding="WinAnsiEncoding")
    assert decode(info, b"!") == "\u2701"


def test_unknown_differences_name_found_in_the_truetype_font():
    data = truetype([".notdef", "g7", "sigma1"], {(3, 1): {0x3C2: "g7"}})
    info = font(data, kind="FontFile2", differences={0x80: "g7", 0x81: "nosuch", 0x82: "sigma1"})
    assert decode(info, b"\x80") == "\u03c2"
    assert decode(info, b"\x81") is None
    assert decode(info, b"\x82") == "\u03c2"  # the AGL agrees


# -- TrueType, composite (CIDFontType2, identity CIDToGIDMap) ---------------------------------


def test_cidfonttype2_gid_is_cid():
    data = truetype([".notdef", "g1", "uni0416", "glyph3"], {(3, 1): {0x263A: "g1", 0xE001: "g1"}})
    info = font(data, kind="FontFile2", subtype="Type0", composite=True, descendant_subtype="CIDFontType2")
    assert decode(info, b"\x00\x01", 1) == "\u263a"
    assert decode(info, b"\x00\x02", 2) == "\u0416"  # post name through the AGL
    assert decode(info, b"\x00\x03", 3) is None
    assert decode(info, b"\x00\x09", 9) is None  # past the glyph count
    assert decode(info, b"\x00\x01", None) is None


class MappedFont(FontInfo):
    """A FontInfo whose core passes a stream /CIDToGIDMap (the interface the decoder expects)."""

    def cid_to_gid_map(self) -> bytes | None:
        return self.memo.get("test-cid-to-gid")


def test_cidfonttype2_with_a_cid_to_gid_map_stream():
    data = truetype([".notdef", "g1", "uni0416"], {(3, 1): {0x263A: "g1"}})
    info = MappedFont(key=(2, 0), base_font="T", subtype="Type0", composite=True, embedded=True,
                      descendant_subtype="CIDFontType2", font_file_kind="FontFile2",
                      font_file_loader=lambda: data)
    info.memo["test-cid-to-gid"] = bytes([0, 0, 0, 2, 0, 1, 0, 0])  # CID 1 → GID 2, CID 2 → GID 1
    assert decode(info, b"\x00\x01", 1) == "\u0416"
    assert decode(info, b"\x00\x02", 2) == "\u263a"
    assert decode(info, b"\x00\x03", 3) is None  # mapped to GID 0
    assert decode(info, b"\x00\x04", 4) is None  # past the map


# -- CFF --------------------------------------------------------------------------------------


def test_simple_cff_standard_encoding():
    data = bare_cff([".notdef", "A", "quoteright", "fi"])
    info = font(data, kind="Type1C", subtype="Type1", flags=FLAG_SYMBOLIC)
    assert decode(info, b"A") == "A"
    assert decode(info, b"\x27") == "\u2019"
    assert decode(info, b"\xae") == "\ufb01"
    assert decode(info, b"\x80") is None


def test_simple_cff_custom_encoding():
    encoding = [".notdef"] * 256
    encoding[0x41], encoding[0x42] = "Aring", "ffi"
    data = bare_cff([".notdef", "Aring", "ffi"], encoding)
    info = font(data, kind="Type1C", subtype="Type1")
    assert decode(info, b"A") == "\u00c5"
    assert decode(info, b"B") == "\ufb03"
    assert decode(info, b"C") is None
    with_base = font(data, kind="Type1C", subtype="Type1", base_encoding="WinAnsiEncoding")
    assert decode(with_base, b"A") is None  # a base encoding replaces the built-in one


def test_cff_encoding_reader_keeps_code_zero_and_supplements():
    names = [".notdef", "minus", "bar", "A"]
    strings = {34: "B"}  # SID 34 is "B" among the standard strings
    fmt0 = bytes([0x80, 3, 0x00, 0x6A, 0x41, 1, 0x42, 0, 34])
    assert _cff_encoding(fmt0, 0, names, strings.__getitem__) == {0: "minus", 0x6A: "bar", 0x41: "A", 0x42: "B"}
    fmt1 = bytes([1, 1, 0x00, 2])  # one range: codes 0-2 → GIDs 1-3
    assert _cff_encoding(fmt1, 0, names, strings.__getitem__) == {0: "minus", 1: "bar", 2: "A"}


def test_composite_with_non_cid_keyed_cff_uses_the_charset():
    data = bare_cff([".notdef", "A", "uni4E00"])
    info = font(data, kind="Type1C", subtype="Type0", composite=True, descendant_subtype="CIDFontType0")
    assert decode(info, b"\x00\x02", 2) == "\u4e00"
    assert decode(info, b"\x00\x01", 1) == "A"


def test_cid_keyed_cff_needs_a_unicode_cmap():
    info = font(b"unused", kind="CIDFontType0C", subtype="Type0", composite=True,
                descendant_subtype="CIDFontType0")
    info.memo["embedded-font"] = FontProgram(glyph_names=[".notdef", "cid00005"], cid_to_gid={0: 0, 5: 1})
    assert decode(info, b"\x00\x05", 5) is None  # bare CID-keyed CFF: names only say cid00005
    wrapped = font(b"unused", kind="OpenType", subtype="Type0", composite=True,
                   descendant_subtype="CIDFontType0")
    wrapped.memo["embedded-font"] = FontProgram(
        glyph_names=[".notdef", "cid00005"], cid_to_gid={0: 0, 5: 1}, unicode_cmap={0x3042: "cid00005"}
    )
    assert decode(wrapped, b"\x00\x05", 5) == "\u3042"
    assert decode(wrapped, b"\x00\x06", 6) is None


# -- Type1 ------------------------------------------------------------------------------------

TYPE1_HEADER = b"""%!PS-AdobeFont-1.0: CMSY10 003.002
/FontName /CMSY10 def
/Encoding 256 array
0 1 255 {1 index exch /.notdef put} for
dup 0 /minus put
dup 8#141 /Aring put
dup 65 /A put
dup 66 /nosuchglyphname put
readonly def
currentdict end
currentfile eexec
"""


def test_type1_builtin_encoding_from_the_cleartext():
    data = TYPE1_HEADER + b"\xd9\xd6\x6f\x63 binary junk dup 67 /C put"
    assert type1_builtin_encoding(data) == {0: "minus", 0o141: "Aring", 65: "A", 66: "nosuchglyphname"}
    info = font(data, kind="FontFile", subtype="Type1", base_font="CMSY10", flags=FLAG_SYMBOLIC)
    assert decode(info, b"\x00") == "\u2212"
    assert decode(info, b"a") == "\u00c5"
    assert decode(info, b"B") is None
    assert decode(info, b"C") is None  # after eexec: never read


def test_type1_standard_encoding_and_pfb_header():
    clear = b"%!FontType1\n/Encoding StandardEncoding def\ncurrentfile eexec\n"
    pfb = b"\x80\x01" + len(clear).to_bytes(4, "little") + clear + b"\x80\x02garbage"
    info = font(pfb, kind="FontFile", subtype="Type1")
    assert decode(info, b"\x27") == "\u2019"
    assert decode(info, b"\xe1") == "\u00c6"


def test_type1_differences_are_not_overridden():
    info = font(TYPE1_HEADER, kind="FontFile", subtype="Type1", differences={65: "g12"})
    assert decode(info, b"A") is None


# -- robustness, caching, registration ---------------------------------------------------------


@pytest.mark.parametrize("kind", ["FontFile", "FontFile2", "OpenType", "Type1C"])
def test_broken_program_gives_none_and_is_parsed_once(kind):
    calls: list[int] = []
    info = font(b"\x00\x01\x00\x00garbage" * 3, kind=kind, calls=calls, flags=FLAG_SYMBOLIC, subtype="Type1")
    assert decode(info, b"A") is None
    assert decode(info, b"B") is None
    assert calls == [1]
    assert info.memo["embedded-font"] == "unusable"


@pytest.mark.parametrize("kind", ["FontFile2", "OpenType", "Type1C", "CIDFontType0C"])
def test_broken_composite_program_gives_none(kind):
    calls: list[int] = []
    composite = font(b"\x01\x00\x04\x01junk", kind=kind, calls=calls, subtype="Type0", composite=True)
    assert decode(composite, b"\x00\x01", 1) is None
    assert decode(composite, b"\x00\x02", 2) is None
    assert calls == [1]


def test_not_embedded_or_unknown_kind():
    assert decode(font(None, kind="FontFile2", flags=FLAG_SYMBOLIC), b"A") is None
    info = font(b"data", kind="Type1X", flags=FLAG_SYMBOLIC)
    assert decode(info, b"A") is None


def test_program_cached_in_memo():
    data = truetype([".notdef", "bullet"], {(3, 0): {0xF041: "bullet"}})
    calls: list[int] = []
    info = font(data, kind="FontFile2", flags=FLAG_SYMBOLIC, calls=calls)
    program = load_program(info)
    assert program is not None and load_program(info) is program
    assert decode(info, b"A") == "\u2022"
    assert calls == [1]


def test_a_cmap_subtable_past_its_bound_is_left_unread_and_the_others_answer(monkeypatch):
    from glyphweave.tables import sfnt

    data = truetype([".notdef", "g1", "g2"],
                    {(3, 0): {0xF041: "g1"}, (3, 1): {0x2022: "g1", 0x2665: "g2", 0x2666: "g2"}})
    monkeypatch.setattr(sfnt, "MAX_SUBTABLE_CODES", 3)  # (3,0) declares 2 codes, (3,1) 4 with 0xFFFF
    info = font(data, kind="FontFile2", flags=FLAG_SYMBOLIC)
    program = load_program(info)
    assert program is not None and program.symbol_cmap == {0xF041: "g1"} and program.unicode_cmap is None
    assert decode(info, b"A") is None  # a generated name says nothing without the Unicode cmap
    monkeypatch.setattr(sfnt, "MAX_SUBTABLE_CODES", 4)
    assert decode(font(data, kind="FontFile2", flags=FLAG_SYMBOLIC), b"A") == "\u2022"


def test_the_estimated_size_counts_the_tables_and_names():
    small = FontProgram(glyph_names=[".notdef", "A"], unicode_cmap={0x41: "A"})
    names = [f"g{n}" for n in range(1000)]
    large = FontProgram(glyph_names=names, unicode_cmap={n: names[n] for n in range(1000)},
                        symbol_cmap={0xF000 + n: names[n] for n in range(1000)})
    assert small.estimated_bytes < large.estimated_bytes
    assert large.estimated_bytes - small.estimated_bytes >= 1000 * 3 * 100 + 1000 * 2 * 50


def test_registration():
    classes = embedded_font.glyphweave_register_decoders()
    assert classes == [EmbeddedFontDecoder]
    assert issubclass(EmbeddedFontDecoder, Decoder)
    assert EmbeddedFontDecoder.NAME == "embedded-font"
    assert EmbeddedFontDecoder.summary()


# -- real files ---------------------------------------------------------------------------------

CORPUS = Path("/work/shared/corpus")
PROFILE = """
[profile]
name = "embedded-font-check"
description = "test"
unresolved = "space"
decoders = [{decoders}]
filters = ["visible-box", "dedup"]
assembler = "reading"
"""


@pytest.mark.skipif(not CORPUS.is_dir(), reason="shared corpus not available")
@pytest.mark.parametrize("name", ["tex-layout-parser-paper.pdf", "tex-arxiv-math-astral.pdf"])
def test_real_files_resolve_more(tmp_path, name):
    import glyphweave
    from glyphweave.components.manager import create_plugin_manager

    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"{name} not in the corpus")
    counts = []
    for decoders in (["tounicode", "encoding", "standard-fallback"],
                     ["tounicode", "encoding", "embedded-font", "standard-fallback"]):
        profile = tmp_path / f"p{len(decoders)}.toml"
        profile.write_text(PROFILE.format(decoders=", ".join(f'"{d}"' for d in decoders)))
        pm = create_plugin_manager(blocked=["embedded-font"], plugins=[embedded_font])
        with glyphweave.open(path, profile=str(profile), plugin_manager=pm) as doc:
            text = doc.text()
            counts.append(doc.stats.unresolved)
    assert counts[1] < counts[0] / 2
    assert not any(0xE000 <= ord(ch) <= 0xF8FF for ch in text)


def _cyclic_garbage_of(parse: Any) -> list[str]:
    """The kinds of object ``parse()`` leaves in reference cycles (found with the collector off)."""
    import gc

    parse()  # once first: what a first use imports is not the parse's
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        parse()
        gc.collect()
        return sorted({type(found).__qualname__ for found in gc.garbage})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
        gc.collect()


def test_parsing_a_truetype_program_leaves_no_reference_cycle():
    # The console script freezes what outlives a page; a cycle then stays to the end.
    data = truetype([".notdef", "A", "bullet"], {(3, 0): {0xF041: "A", 0xF042: "bullet"}})
    assert _cyclic_garbage_of(lambda: parse_font_program("FontFile2", data)) == []
