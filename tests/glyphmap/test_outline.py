"""Glyph drawings from embedded font programs (glyphmap.outline).

Fonts are built in the test with fontTools (FontBuilder, the subsetter, a Type1 program
written and encrypted here), embedded in PDFs made with pikepdf, and read back through
``glyphweave.open`` so the FontInfo is the engine's own. The corpus part runs only where
the shared corpus is present.
"""

from __future__ import annotations

import io
import logging
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs
import pikepdf
import pytest
from fontTools.fontBuilder import FontBuilder
from fontTools.misc import eexec
from fontTools.misc.psCharStrings import T1CharString
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.subset import Options, Subsetter
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables._c_m_a_p import cmap_format_4
from fontTools.ttLib.tables.DefaultTable import DefaultTable
from pikepdf import Array, Dictionary, Name

from glyphweave.core.fontinfo import FontInfo
from glyphweave.glyphmap.outline import MEMO_KEY, Drawing, draw_glyph, outline_hash, svg_document
from glyphweave.testing.pdfs import helvetica, make_pdf, open_pdf, text_at, truetype, type3

PATH_SYNTAX = re.compile(r"^(?:[MLQC]-?\d+ -?\d+(?: -?\d+ -?\d+)*|Z)+$")
SQUARE = "M100 0L100 500L600 500L600 0Z"


# -- fonts -----------------------------------------------------------------------------------
def _square(pen: Any) -> None:
    pen.moveTo((100, 0))
    pen.lineTo((100, 500))
    pen.lineTo((600, 500))
    pen.lineTo((600, 0))
    pen.closePath()


def _ring(pen: Any) -> None:
    """Quadratic: one contour with implied on-curve points at half units, one all off-curve."""
    pen.moveTo((351, 0))
    pen.qCurveTo((601, 0), (601, 251), (351, 501))
    pen.lineTo((101, 251))
    pen.closePath()
    pen.qCurveTo((201, 201), (301, 201), (301, 301), (201, 301), None)
    pen.closePath()


def _bowl(pen: Any) -> None:
    """Cubic, for CFF and Type1."""
    pen.moveTo((100, 0))
    pen.curveTo((100, 300), (500, 300), (500, 0))
    pen.closePath()


def truetype_program(glyphs: Mapping[str, Any], cmap: Mapping[int, str], *, symbol: bool = False,
                     upem: int = 1000, names: bool = True) -> bytes:
    """A TrueType font: ``glyphs`` name → draw(pen) or a list of (component, dx, dy).

    ``symbol``: the cmap is a (3,0) subtable (codes as given, e.g. U+F041) instead of Unicode.
    """
    order = [".notdef", "space", *glyphs]
    built: dict[str, Any] = {}
    for name in order:
        pen = TTGlyphPen(built)
        spec = glyphs.get(name)
        if isinstance(spec, list):
            for component, dx, dy in spec:
                pen.addComponent(component, (1, 0, 0, 1, dx, dy))
        elif spec is not None:
            spec(pen)
        built[name] = pen.glyph()
    fb = FontBuilder(upem, isTTF=True)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap({} if symbol else {0x20: "space", **cmap})
    fb.setupGlyf(built)
    glyf = fb.font["glyf"]
    for name in order:
        glyf[name].recalcBounds(glyf)
    # the left side bearing is the glyph's xMin, as in every real font
    fb.setupHorizontalMetrics({name: (700 if name in glyphs else 250, getattr(glyf[name], "xMin", 0))
                               for name in order})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Test", "styleName": "Regular"})
    fb.setupOS2()
    fb.setupPost(keepGlyphNames=names)
    if symbol:
        table = cmap_format_4(4)
        table.platformID, table.platEncID, table.language = 3, 0, 0
        table.cmap = {0xF020: "space", **cmap}
        fb.font["cmap"].tables = [table]
    out = io.BytesIO()
    fb.save(out)
    return out.getvalue()


def cff_font(glyphs: Mapping[str, Callable[[Any], None]], cmap: Mapping[int, str]) -> bytes:
    """An OpenType (CFF) font with ``glyphs`` (each 700 units wide)."""
    order = [".notdef", "space", *glyphs]
    charstrings = {}
    for name in order:
        pen = T2CharStringPen(700 if name in glyphs else 250, None)
        draw = glyphs.get(name)
        if draw is not None:
            draw(pen)
        charstrings[name] = pen.getCharString()
    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap({0x20: "space", **cmap})
    fb.setupCFF("TestCFF", {"FullName": "TestCFF"}, charstrings, {})
    fb.setupHorizontalMetrics({name: (700 if name in glyphs else 250, 0) for name in order})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "TestCFF", "styleName": "Regular"})
    fb.setupOS2()
    fb.setupPost()
    out = io.BytesIO()
    fb.save(out)
    return out.getvalue()


def bare_cff(otf: bytes) -> bytes:
    """The 'CFF ' table of an OpenType font: what FontFile3/Type1C holds."""
    return bytes(TTFont(io.BytesIO(otf)).reader["CFF "])


def type1_program(glyphs: Mapping[str, list[Any]], encoding: Mapping[int, str], *, hexadecimal: bool = False) -> bytes:
    """A Type1 font program: ``glyphs`` name → Type1 charstring program; built-in ``encoding``."""

    def charstring(program: list[Any]) -> bytes:
        cs = T1CharString(program=program)
        cs.compile()
        return bytes(eexec.encrypt(b"\0\0\0\0" + cs.bytecode, 4330)[0])

    clear = "\n".join([
        "%!FontType1-1.0: TestOne 001.000",
        "11 dict begin",
        "/FontName /TestOne def",
        "/Encoding 256 array 0 1 255 {1 index exch /.notdef put} for",
        *(f"dup {code} /{name} put" for code, name in encoding.items()),
        "readonly def",
        "/PaintType 0 def",
        "/FontType 1 def",
        "/FontMatrix [0.001 0 0 0.001 0 0] readonly def",
        "/FontBBox {0 0 1000 1000} readonly def",
        "currentdict end",
        "currentfile eexec",
        "",
    ]).encode()
    private = [
        b"dup /Private 6 dict dup begin",
        b"/RD {string currentfile exch readstring pop} executeonly def",
        b"/ND {noaccess def} executeonly def",
        b"/NP {noaccess put} executeonly def",
        b"/lenIV 4 def",
        b"/BlueValues [] def",
        f"2 index /CharStrings {len(glyphs)} dict dup begin".encode(),
    ]
    for name, program in glyphs.items():
        data = charstring(program)
        private.append(f"/{name} {len(data)} RD ".encode() + data + b" ND")
    private += [b"end", b"end", b"readonly put", b"noaccess put", b"dup /FontName get exch definefont pop",
                b"mark currentfile closefile", b""]
    encrypted = bytes(eexec.encrypt(b"\0\0\0\0" + b"\n".join(private), 55665)[0])
    if hexadecimal:
        encrypted = b"\n".join(encrypted.hex().encode()[i : i + 64] for i in range(0, 2 * len(encrypted), 64))
    return clear + encrypted + b"\n" + (b"0" * 64 + b"\n") * 8 + b"cleartomark\n"


T1_SQUARE = [100, 700, "hsbw", 0, 0, "rmoveto", 0, 500, "rlineto", 500, 0, "rlineto", 0, -500, "rlineto",
             "closepath", "endchar"]
T1_NOTDEF = [0, 500, "hsbw", "endchar"]


# -- PDF fonts -------------------------------------------------------------------------------
def _descriptor(pdf: pikepdf.Pdf, base_font: str, flags: int, file_key: str | None, program: bytes | None,
                file_subtype: str | None) -> pikepdf.Object:
    descriptor = Dictionary(Type=Name.FontDescriptor, FontName=Name("/" + base_font), Flags=flags,
                            FontBBox=Array([0, -200, 1000, 800]), ItalicAngle=0, Ascent=800, Descent=-200,
                            CapHeight=700, StemV=80)
    if file_key is not None and program is not None:
        stream = pdf.make_stream(program)
        if file_subtype is not None:
            stream.Subtype = Name("/" + file_subtype)
        descriptor[Name("/" + file_key)] = stream
    return pdf.make_indirect(descriptor)


def simple_font(program: bytes | None, *, subtype: str = "TrueType", file_key: str = "FontFile2",
                file_subtype: str | None = None, base_font: str = "ABCDEF+Test", flags: int = 4,
                encoding: str | None = None, differences: Mapping[int, str] | None = None) -> Any:
    def build(pdf: pikepdf.Pdf) -> pikepdf.Object:
        font = Dictionary(Type=Name.Font, Subtype=Name("/" + subtype), BaseFont=Name("/" + base_font),
                          FirstChar=0, LastChar=255, Widths=Array([700] * 256),
                          FontDescriptor=_descriptor(pdf, base_font, flags, file_key, program, file_subtype))
        if differences:
            items: list[Any] = []
            for code, name in sorted(differences.items()):
                items += [code, Name("/" + name)]
            enc = Dictionary(Type=Name.Encoding, Differences=Array(items))
            if encoding:
                enc.BaseEncoding = Name("/" + encoding)
            font.Encoding = enc
        elif encoding:
            font.Encoding = Name("/" + encoding)
        return pdf.make_indirect(font)

    return build


def type0_font(program: bytes, *, cid_subtype: str = "CIDFontType2", file_key: str = "FontFile2",
               file_subtype: str | None = None, base_font: str = "ABCDEF+TestCID",
               cid_to_gid: Mapping[int, int] | None = None) -> Any:
    def build(pdf: pikepdf.Pdf) -> pikepdf.Object:
        cid = Dictionary(Type=Name.Font, Subtype=Name("/" + cid_subtype), BaseFont=Name("/" + base_font),
                         CIDSystemInfo=Dictionary(Registry=pikepdf.String("Adobe"),
                                                  Ordering=pikepdf.String("Identity"), Supplement=0),
                         FontDescriptor=_descriptor(pdf, base_font, 4, file_key, program, file_subtype), DW=1000)
        if cid_subtype == "CIDFontType2":
            if cid_to_gid is None:
                cid.CIDToGIDMap = Name.Identity
            else:
                table = bytearray(2 * (max(cid_to_gid) + 1))
                for c, gid in cid_to_gid.items():
                    table[2 * c : 2 * c + 2] = gid.to_bytes(2, "big")
                cid.CIDToGIDMap = pdf.make_stream(bytes(table))
        font = Dictionary(Type=Name.Font, Subtype=Name.Type0, BaseFont=Name("/" + base_font),
                          Encoding=Name("/Identity-H"), DescendantFonts=Array([pdf.make_indirect(cid)]))
        return pdf.make_indirect(font)

    return build


@contextmanager
def loaded(**fonts: Any) -> Iterator[dict[str, FontInfo]]:
    """The FontInfo of each font (by resource name), as the engine loads it for page 1;
    its program and CIDToGIDMap are read while the document is open."""
    content = b"\n".join(text_at("A", font=name) for name in fonts)
    with open_pdf(make_pdf(content, fonts=fonts)) as doc:
        page = doc.pages[0]
        page.glyphs(raw=True)
        by_key = {state.info.key: state.info for state in doc._fonts._fonts.values()}
        resources = page._obj.Resources.Font
        infos = {name: by_key[resources[Name("/" + name)].objgen] for name in fonts}
        for info in infos.values():
            info.font_file()
            info.cid_to_gid_map()
        yield infos


def check_path(drawing: Drawing | None) -> Drawing:
    assert drawing is not None
    assert PATH_SYNTAX.match(drawing.path), drawing.path
    assert drawing.hash == outline_hash(drawing.path) and re.fullmatch(r"[0-9a-f]{16}", drawing.hash)
    return drawing


# -- TrueType --------------------------------------------------------------------------------
def test_symbolic_truetype_square_through_the_symbol_cmap() -> None:
    program = truetype_program({"square": _square}, {0xF041: "square"}, symbol=True, upem=2048)
    with loaded(F1=simple_font(program, base_font="ABCDEF+Dings", encoding="WinAnsiEncoding")) as fonts:
        info = fonts["F1"]
        drawing = check_path(draw_glyph(info, 0x41, None))
        assert drawing.path == SQUARE
        assert (drawing.advance, drawing.units_per_em) == (700, 2048)
        assert draw_glyph(info, b"A", None) is drawing  # bytes code; drawn once, cached
        assert info.memo[MEMO_KEY] != "unusable"
        assert draw_glyph(info, 0x20, None) is None  # a space: nothing drawn
        assert draw_glyph(info, 0x42, None) is None  # not in the font
        assert draw_glyph(info, b"AB", None) is None


def test_nonsymbolic_truetype_reads_its_encoding_and_differences() -> None:
    program = truetype_program({"A": _ring, "square": _square}, {0x41: "A"})
    spec = simple_font(program, base_font="ABCDEF+Plain", flags=32, encoding="WinAnsiEncoding",
                       differences={0x80: "square", 0x81: "uni0041"})
    with loaded(F1=spec) as fonts:
        info = fonts["F1"]
        ring = check_path(draw_glyph(info, 0x41, None))
        assert "Q" in ring.path and ring.path.count("Z") == 2
        assert check_path(draw_glyph(info, 0x80, None)).path == SQUARE  # a 'post' name
        assert draw_glyph(info, 0x81, None) == ring  # a name read as U+0041, through the cmap
        assert draw_glyph(info, 0x42, None) is None


def test_quadratic_outline_rounds_implied_points() -> None:
    program = truetype_program({"ring": _ring}, {0xF061: "ring"}, symbol=True)
    with loaded(F1=simple_font(program)) as fonts:
        drawing = check_path(draw_glyph(fonts["F1"], 0x61, None))
        # the implied on-curve point between (601 0) and (601 251) is at y 125.5: rounded half up;
        # the all-off-curve contour starts at an implied point
        assert drawing.path == ("M351 0Q601 0 601 126Q601 251 351 501L101 251Z"
                                "M201 251Q201 201 251 201Q301 201 301 251Q301 301 251 301Q201 301 201 251Z")
        assert set(re.sub(r"[-\d ]", "", drawing.path)) <= set("MLQCZ")


def test_same_glyph_in_two_subsets_has_one_hash() -> None:
    """Different glyph orders, names, GIDs and codes; components too: one outline, one hash."""
    first = truetype_program({"square": _square, "ring": _ring,
                              "combo": [("square", 0, 0), ("ring", 700, 0)]},
                             {0xF041: "combo", 0xF042: "square"}, symbol=True)
    second = truetype_program({"g1": _ring, "g2": _square, "g3": [("g2", 0, 0), ("g1", 700, 0)]},
                              {0xF05A: "g3"}, symbol=True, names=False)
    with loaded(F1=simple_font(first, base_font="AAAAAA+Dings"),
                F2=simple_font(second, base_font="BBBBBB+Dings2")) as fonts:
        one = check_path(draw_glyph(fonts["F1"], 0x41, None))
        two = check_path(draw_glyph(fonts["F2"], 0x5A, None))
        assert one.hash == two.hash and one.path == two.path
        assert one.path.count("M") == 3  # decomposed: the square and the ring's two contours
        assert one.hash != check_path(draw_glyph(fonts["F1"], 0x42, None)).hash


def _subset(program: bytes, glyphs: list[str]) -> tuple[bytes, dict[str, int]]:
    font = TTFont(io.BytesIO(program))
    options = Options()
    options.glyph_names = False
    options.notdef_outline = True
    subsetter = Subsetter(options)
    subsetter.populate(glyphs=glyphs)
    subsetter.subset(font)
    out = io.BytesIO()
    font.save(out)
    gids = {name: gid for gid, name in enumerate(font.getGlyphOrder())}
    return out.getvalue(), gids


def test_cid_truetype_subsets_share_hashes_and_follow_cid_to_gid_map() -> None:
    full = truetype_program({"extra": _square, "bowl": _ring, "square": _square,
                             "combo": [("square", 0, 0), ("bowl", 700, 0)]},
                            {0x40: "extra", 0x41: "bowl", 0x42: "square", 0x43: "combo"})
    one, gids_one = _subset(full, ["extra", "combo"])
    two, gids_two = _subset(full, ["combo"])
    assert gids_one["combo"] != gids_two["combo"]
    with loaded(F1=type0_font(one, base_font="AAAAAA+Cid"),
                F2=type0_font(two, base_font="BBBBBB+Cid", cid_to_gid={7: gids_two["combo"],
                                                                       9: gids_two["square"]})) as fonts:
        a = check_path(draw_glyph(fonts["F1"], b"\x00\x01", gids_one["combo"]))
        b = check_path(draw_glyph(fonts["F2"], b"\x00\x07", 7))
        assert a.hash == b.hash
        assert check_path(draw_glyph(fonts["F2"], b"\x00\x09", 9)).path == SQUARE
        assert draw_glyph(fonts["F2"], b"\x00\x08", 8) is None  # mapped to GID 0
        assert draw_glyph(fonts["F2"], b"\x00\x63", 99) is None  # past the map
        assert draw_glyph(fonts["F1"], b"\x00\x00", 0) is None  # .notdef
        assert draw_glyph(fonts["F1"], b"\x01\x00", 256) is None  # past the glyphs
        assert draw_glyph(fonts["F1"], b"\x00\x01", None) is None  # no CID


# -- CFF and Type1 -----------------------------------------------------------------------------
def test_cff_simple_font_builtin_encoding_and_differences() -> None:
    cff = bare_cff(cff_font({"A": _bowl, "square": _square}, {0x41: "A"}))
    spec = simple_font(cff, subtype="Type1", file_key="FontFile3", file_subtype="Type1C",
                       differences={0x80: "square"})
    with loaded(F1=spec) as fonts:
        info = fonts["F1"]
        bowl = check_path(draw_glyph(info, 0x41, None))  # StandardEncoding, the CFF's own
        assert bowl.path == "M100 0C100 300 500 300 500 0Z"
        assert (bowl.advance, bowl.units_per_em) == (700, 1000)
        assert check_path(draw_glyph(info, 0x80, None)).path == "M100 0L100 500L600 500L600 0Z"
        assert draw_glyph(info, 0x42, None) is None


def test_cff_as_cid_font_and_opentype() -> None:
    otf = cff_font({"A": _bowl, "square": _square}, {0x41: "A", 0x42: "square"})
    with loaded(F1=type0_font(bare_cff(otf), cid_subtype="CIDFontType0", file_key="FontFile3",
                              file_subtype="CIDFontType0C"),
                F2=simple_font(otf, file_key="FontFile3", file_subtype="OpenType", base_font="ABCDEF+Otf",
                               flags=32, encoding="WinAnsiEncoding")) as fonts:
        # a CFF that is not CID-keyed: GID = CID
        assert check_path(draw_glyph(fonts["F1"], b"\x00\x03", 3)).path == SQUARE
        assert draw_glyph(fonts["F1"], b"\x00\x09", 9) is None
        assert check_path(draw_glyph(fonts["F2"], 0x41, None)).path == "M100 0C100 300 500 300 500 0Z"
        assert check_path(draw_glyph(fonts["F2"], 0x42, None)).path == SQUARE


@pytest.mark.parametrize("form", ["binary", "hex", "pfb"])
def test_type1_program(form: str) -> None:
    program = type1_program({".notdef": T1_NOTDEF, "square": T1_SQUARE, "box": T1_SQUARE}, {65: "square"},
                            hexadecimal=form == "hex")
    if form == "pfb":
        cut = program.index(b"eexec") + 6
        program = (b"\x80\x01" + len(program[:cut]).to_bytes(4, "little") + program[:cut]
                   + b"\x80\x02" + len(program[cut:]).to_bytes(4, "little") + program[cut:] + b"\x80\x03")
    spec = simple_font(program, subtype="Type1", file_key="FontFile", differences={66: "box"})
    with loaded(F1=spec) as fonts:
        info = fonts["F1"]
        square = check_path(draw_glyph(info, 65, None))  # the built-in encoding
        assert square.path == "M100 0L100 500L600 500L600 0Z"
        assert (square.advance, square.units_per_em) == (700, 1000)
        assert draw_glyph(info, 66, None) == square  # /Differences; same outline, same hash
        assert draw_glyph(info, 67, None) is None


# -- no outline ------------------------------------------------------------------------------
def test_fonts_without_a_program_draw_nothing() -> None:
    with loaded(F2=truetype(), F3=helvetica(widths=True)) as fonts:
        for info in fonts.values():
            assert draw_glyph(info, 0x61, None) is None
            assert draw_glyph(info, 0x41, None) is None


def test_a_type3_glyph_is_drawn_from_its_procedure_and_keyed_by_that_drawing() -> None:
    """What the glyph procedure paints, in thousandths of an em: two unnamed Type3 fonts share
    a key only where they paint the same drawing, never for sharing a code."""
    with loaded(F1=type3(widths=(50, 70)), F2=type3(widths=(70,))) as fonts:
        square = check_path(draw_glyph(fonts["F1"], 0x61, None))
        assert (square.path, square.units_per_em) == ("M0 0L500 0L500 500L0 500Z", 1000)
        assert draw_glyph(fonts["F1"], 0x62, None).hash == draw_glyph(fonts["F2"], 0x61, None).hash
        assert draw_glyph(fonts["F2"], 0x61, None).hash != square.hash
        assert draw_glyph(fonts["F1"], 0x63, None) is None  # no procedure for the code


def test_a_glyph_without_a_drawing_says_why() -> None:
    from glyphweave.glyphmap.outline import why_undrawn
    from glyphweave.glyphmap.registry import UNDRAWN

    with loaded(F1=type3(widths=(50,)), F2=helvetica(widths=True)) as fonts:
        assert why_undrawn(fonts["F1"], 0x62, None) == "no such glyph"
        assert why_undrawn(fonts["F2"], 0x41, None) == "not embedded"
        blank = attrs.evolve(fonts["F1"], charproc=lambda name: ([], []))
        assert why_undrawn(blank, 0x61, None) == "draws nothing"
        broken = attrs.evolve(fonts["F1"], charproc=lambda name: None)
        assert why_undrawn(broken, 0x61, None) == "unreadable glyph"
        assert {why_undrawn(fonts["F1"], 0x62, None), why_undrawn(fonts["F2"], 0x41, None)} <= set(UNDRAWN)


@pytest.mark.parametrize(("subtype", "file_key", "file_subtype", "program"), [
    ("TrueType", "FontFile2", None, b"\x00\x01\x00\x00garbage that is no font"),
    ("TrueType", "FontFile2", None, "truncated"),
    ("Type1", "FontFile3", "Type1C", b"\x01\x00\x04\x02" + b"\xff" * 40),
    ("Type1", "FontFile", None, b"%!FontType1-1.0: Broken\n/FontName /Broken def\ncurrentfile eexec\n\x01\x02"),
    ("Type1", "FontFile", None, b""),
    ("TrueType", "FontFile3", "NotAFormat", b"whatever"),
])
def test_broken_programs_draw_nothing_quietly(subtype: str, file_key: str, file_subtype: str | None,
                                              program: Any, caplog: pytest.LogCaptureFixture) -> None:
    if program == "truncated":
        program = truetype_program({"square": _square}, {0xF041: "square"}, symbol=True)[:300]
    caplog.set_level(logging.DEBUG)
    spec = simple_font(program, subtype=subtype, file_key=file_key, file_subtype=file_subtype)
    with loaded(F1=spec) as fonts:
        info = fonts["F1"]
        assert draw_glyph(info, 0x41, None) is None
        assert draw_glyph(info, 0x41, None) is None
        if info.embedded and program:
            assert info.memo[MEMO_KEY] == "unusable"
    assert not [r for r in caplog.records if r.name.startswith("fontTools") and r.levelno >= logging.WARNING]


def test_truncated_metrics_still_draw() -> None:
    """Office subsets often cut 'hmtx' short, and fontTools then refuses the glyph set:
    outlines still come, advances as far as the table goes."""
    program = truetype_program({"square": _square, "ring": _ring}, {0xF041: "square", 0xF042: "ring"},
                               symbol=True)
    font = TTFont(io.BytesIO(program), recalcBBoxes=False)
    raw = font.getTableData("hmtx")
    short = DefaultTable("hmtx")
    short.data = raw[:12]  # .notdef, space and square: ring's metrics are missing
    font["hmtx"] = short
    out = io.BytesIO()
    font.save(out)
    with loaded(F1=simple_font(out.getvalue())) as fonts:
        drawing = check_path(draw_glyph(fonts["F1"], 0x41, None))
        assert (drawing.path, drawing.advance) == (SQUARE, 700)
        ring = check_path(draw_glyph(fonts["F1"], 0x42, None))
        assert ring.path.count("Z") == 2 and ring.advance == 700  # the last advance repeats


# -- SVG -------------------------------------------------------------------------------------
def test_svg_document_is_standalone_and_upright() -> None:
    drawing = Drawing.from_path(SQUARE, advance=700, units_per_em=1000)
    assert drawing.hash == outline_hash(SQUARE)
    svg = svg_document(drawing, size=48)
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert (root.get("width"), root.get("height")) == ("48", "48")
    x, y, w, h = (float(v) for v in root.get("viewBox", "").split())
    assert x <= 0 and x + w >= 700 and y <= -1000 and y + h >= 250  # the em, flipped
    path = root.find("{http://www.w3.org/2000/svg}path")
    assert path is not None and path.get("d") == SQUARE and path.get("transform") == "scale(1,-1)"
    wide = svg_document(Drawing.from_path("M-300 -400L2000 1500L0 0Z", advance=0, units_per_em=1000))
    x, y, w, h = (float(v) for v in ET.fromstring(wide).get("viewBox", "").split())
    assert x <= -300 and x + w >= 2000 and y <= -1500 and y + h >= 400


# -- real files ------------------------------------------------------------------------------
SHARED = Path(os.environ.get("GLYPHWEAVE_SHARED") or Path(__file__).resolve().parents[2].parent / "shared")
CORPUS = SHARED / "corpus"
REAL = sorted(p for pattern in ("*wingdings*", "*symbol*", "*webdings*", "*dingbats*")
              for p in CORPUS.glob(pattern + ".pdf")) if CORPUS.is_dir() else []


@pytest.mark.skipif(not REAL, reason=f"shared corpus not found at {CORPUS}")
@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_real_files_draw_every_glyph(path: Path) -> None:
    try:
        doc = open_pdf(path.read_bytes())
    except Exception:
        pytest.skip("cannot be opened without a password")
    drawn = embedded = 0
    with doc:
        for page in list(doc.pages)[:3]:
            states: dict[tuple[str, str, str], list[FontInfo]] = {}
            glyphs = page.glyphs(raw=True)
            for state in doc._fonts._fonts.values():
                info = state.info
                states.setdefault((info.base_font, info.subset_prefix, info.subtype), []).append(info)
            for glyph in glyphs:
                for info in states.get((glyph.font.base_font, glyph.font.subset_prefix, glyph.font.subtype), []):
                    drawing = draw_glyph(info, glyph.code, glyph.cid)
                    embedded += info.embedded and info.subtype != "Type3"
                    if drawing is not None:
                        drawn += 1
                        assert PATH_SYNTAX.match(drawing.path)
                        ET.fromstring(svg_document(drawing))
                    elif not info.embedded:
                        assert drawing is None
    if embedded:
        assert drawn, "embedded fonts but no glyph drawn"
