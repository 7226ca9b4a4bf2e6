"""The shape matcher and the ``shape`` decoder (rules: fonts with no mapping).

The fonts read here are subsets of two fonts the references are not drawn from (Noto
Serif Display Italic, Noto Sans Display Bold: ``data/``), embedded with every mapping
stripped as the hazard has it: glyphs renamed ``g1``, ``g2`` ..., no 'cmap' table, no
/ToUnicode, an /Encoding whose /Differences give those names. The default profile must
leave such a font unresolved; ``--profile shapes`` must read it.
"""

from __future__ import annotations

import collections
import io
import math
import os
import re
from pathlib import Path
from typing import Any

import attrs
import pikepdf
import pytest
from fontTools.pens.basePen import BasePen
from fontTools.ttLib import TTFont
from pikepdf import Array, Dictionary, Name

import glyphweave
from glyphweave.glyphmap import raster, shapes
from glyphweave.glyphmap.outline import Drawing
from glyphweave.testing.pdfs import make_pdf

SHARED = Path(os.environ.get("GLYPHWEAVE_SHARED") or Path(__file__).resolve().parents[2].parent / "shared")
DATA = Path(__file__).parent / "data"

TEXT = (
    "The quick brown fox jumps over the lazy dog.",
    "Pack my box with five dozen liquor jugs!",
    "Sphinx of black quartz, judge my vow (1984).",
    "Glyphs 0123456789 read well: 42 items, 7 lines; 3 faults?",
    "How vexingly quick daft zebras jump, said Quinn & Wolf.",
)


def rename_glyphs(font: TTFont) -> dict[str, str]:
    """Rename ``font``'s glyphs ``g1``, ``g2`` ... in glyph order, so that no name says a
    character; the old name → new name."""
    order = font.getGlyphOrder()
    renamed = {name: (name if name == ".notdef" else f"g{index}") for index, name in enumerate(order)}
    font.setGlyphOrder([renamed[name] for name in order])
    for table in ("glyf", "hmtx"):
        mapping = getattr(font[table], "glyphs" if table == "glyf" else "metrics")
        for old, new in renamed.items():
            if old != new and old in mapping:
                mapping[new] = mapping.pop(old)
    return renamed


def stripped_font(pdf: pikepdf.Pdf, path: Path, text: str) -> tuple[pikepdf.Object, dict[str, int]]:
    """``path``'s font embedded with every mapping stripped: the glyph names changed to
    ``gN``, no 'cmap', no /ToUnicode. Codes are given in order of first use from 33 (the
    space gets 32, as producers do), so no code says which character it is."""
    font = TTFont(str(path))
    cmap = font.getBestCmap()
    renamed = rename_glyphs(font)
    del font["cmap"]
    font["post"].formatType = 2.0
    font["post"].extraNames = []
    font["post"].mapping = {}
    buffer = io.BytesIO()
    font.save(buffer)
    codes: dict[str, int] = {" ": 32}
    for char in text:
        if char not in codes:
            codes[char] = 33 + len(codes) - 1
    upem = font["head"].unitsPerEm
    differences = []
    widths = {}
    for char, code in codes.items():
        name = renamed[cmap[ord(char)]]
        differences += [code, Name("/" + name)]
        widths[code] = round(font["hmtx"][name][0] * 1000 / upem)
    first, last = min(widths), max(widths)
    program = pdf.make_stream(buffer.getvalue())
    descriptor = Dictionary(Type=Name.FontDescriptor, FontName=Name("/ABCDEF+Stripped"), Flags=32,
                            FontBBox=Array([-200, -300, 1200, 1000]), ItalicAngle=0, Ascent=1000,
                            Descent=-300, CapHeight=700, StemV=80, FontFile2=program)
    font_dict = Dictionary(Type=Name.Font, Subtype=Name.TrueType, BaseFont=Name("/ABCDEF+Stripped"),
                           FirstChar=first, LastChar=last,
                           Widths=Array([widths.get(code, 0) for code in range(first, last + 1)]),
                           Encoding=Dictionary(Type=Name.Encoding, Differences=Array(differences)),
                           FontDescriptor=pdf.make_indirect(descriptor))
    return pdf.make_indirect(font_dict), codes


def symbolic_truetype_pdf(font_file: str, renumbered: bool, lines: tuple[str, ...] = TEXT) -> bytes:
    """``lines`` in an embedded TrueType subset flagged symbolic, with no /Encoding and no
    /ToUnicode, its glyphs reached through a (3,0) symbol cmap at U+F000 + code and named
    ``gN`` (no glyph name says a character). ``renumbered``: codes in order of first use from
    33, as subsetting writers give them; otherwise each character's own WinAnsi code."""
    from fontTools.ttLib.tables._c_m_a_p import CmapSubtable

    font = TTFont(str(DATA / font_file))
    cmap = font.getBestCmap()
    renamed = rename_glyphs(font)
    codes: dict[str, int] = {" ": 32}
    for char in "".join(lines):
        if char not in codes:
            codes[char] = 33 + len(codes) - 1 if renumbered else ord(char)
    symbol = CmapSubtable.newSubtable(4)
    symbol.platformID, symbol.platEncID, symbol.language = 3, 0, 0
    symbol.cmap = {0xF000 + code: renamed[cmap[ord(char)]] for char, code in codes.items()}
    font["cmap"].tables = [symbol]
    font["post"].formatType = 3.0
    buffer = io.BytesIO()
    font.save(buffer)
    upem = font["head"].unitsPerEm
    widths = {code: round(font["hmtx"][renamed[cmap[ord(char)]]][0] * 1000 / upem) for char, code in codes.items()}
    first, last = min(widths), max(widths)
    pdf = pikepdf.new()
    descriptor = Dictionary(Type=Name.FontDescriptor, FontName=Name("/ABCDEF+PlainSans"), Flags=4,
                            FontBBox=Array([-200, -300, 1200, 1000]), ItalicAngle=0, Ascent=1000, Descent=-300,
                            CapHeight=700, StemV=80, FontFile2=pdf.make_stream(buffer.getvalue()))
    truetype = Dictionary(Type=Name.Font, Subtype=Name.TrueType, BaseFont=Name("/ABCDEF+PlainSans"),
                          FirstChar=first, LastChar=last,
                          Widths=Array([widths.get(code, 0) for code in range(first, last + 1)]),
                          FontDescriptor=pdf.make_indirect(descriptor))
    content = "\n".join(f"BT /F1 14 Tf 72 {700 - 24 * n} Td <{bytes(codes[c] for c in line).hex()}> Tj ET"
                         for n, line in enumerate(lines))
    page = pdf.add_blank_page(page_size=(612, 792))
    page.Resources = Dictionary(Font=Dictionary(F1=pdf.make_indirect(truetype)))
    page.Contents = pdf.make_stream(content.encode())
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def stripped_pdf(font_file: str, lines: tuple[str, ...] = TEXT) -> bytes:
    text = "".join(lines)
    codes: dict[str, int] = {}

    def spec(pdf: pikepdf.Pdf) -> pikepdf.Object:
        font, found = stripped_font(pdf, DATA / font_file, text)
        codes.update(found)
        return font

    # the content is written after the font is built (the codes come from it)
    data = make_pdf(b"", fonts={"F1": spec})
    pdf = pikepdf.open(io.BytesIO(data))
    content = []
    for n, line in enumerate(lines):
        shown = bytes(codes[c] for c in line).hex()
        content.append(f"BT /F1 14 Tf 72 {700 - 24 * n} Td <{shown}> Tj ET")
    pdf.pages[0].Contents = pdf.make_stream("\n".join(content).encode())
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


class _PdfPathPen(BasePen):
    """A glyph outline as PDF path operators (quadratic curves made cubic by BasePen)."""

    def __init__(self, glyph_set: Any) -> None:
        super().__init__(glyph_set)
        self.ops: list[str] = []

    def _moveTo(self, pt: tuple[float, float]) -> None:
        self.ops.append(f"{pt[0]:g} {pt[1]:g} m")

    def _lineTo(self, pt: tuple[float, float]) -> None:
        self.ops.append(f"{pt[0]:g} {pt[1]:g} l")

    def _curveToOne(self, p1: tuple[float, float], p2: tuple[float, float], p3: tuple[float, float]) -> None:
        self.ops.append(" ".join(f"{v:g}" for point in (p1, p2, p3) for v in point) + " c")

    def _closePath(self) -> None:
        self.ops.append("h")


def type3_pdf(font_file: str, lines: tuple[str, ...] = TEXT, naming: str = "differences") -> bytes:
    """The text of ``lines`` in a Type3 font whose glyph procedures fill the outlines of
    ``font_file``'s glyphs, with no /ToUnicode. ``naming``: ``differences``, glyphs named
    ``g33``, ``g34`` ... by first use in /Differences; ``renumbered``, the codes given by first
    use but the glyphs named as StandardEncoding names those codes, and no /Differences (an
    assumed StandardEncoding reads garbage); ``standard``, each character at its own code
    under its StandardEncoding name, no /Differences (the assumption is right)."""
    from fontTools.encodings.StandardEncoding import StandardEncoding

    font = TTFont(str(DATA / font_file))
    cmap = font.getBestCmap()
    glyph_set = font.getGlyphSet()
    upem = font["head"].unitsPerEm
    codes: dict[str, int] = {" ": 32}
    for char in "".join(lines):
        if char not in codes:
            codes[char] = ord(char) if naming == "standard" else 33 + len(codes) - 1
    pdf = pikepdf.new()
    procs = Dictionary()
    differences: list[Any] = []
    widths = {}
    for char, code in codes.items():
        glyph = glyph_set[cmap[ord(char)]]
        pen = _PdfPathPen(glyph_set)
        glyph.draw(pen)
        name = f"g{code}" if naming == "differences" else StandardEncoding[code]
        body = f"{glyph.width} 0 d0\n" + "\n".join(pen.ops) + ("\nf" if pen.ops else "")
        procs[f"/{name}"] = pdf.make_stream(body.encode())
        if naming == "differences":
            differences += [code, Name("/" + name)]
        widths[code] = glyph.width
    content = "\n".join(f"BT /F1 14 Tf 72 {700 - 24 * n} Td <{bytes(codes[c] for c in line).hex()}> Tj ET"
                         for n, line in enumerate(lines))
    return type3_page(pdf, procs, differences, widths, upem, content)


def type3_page(pdf: pikepdf.Pdf, procs: Dictionary, differences: list[Any], widths: dict[int, float],
               upem: float, content: str) -> bytes:
    """``pdf`` saved with one page showing ``content`` in a Type3 font /F1 of ``procs``
    (glyph space in 1/``upem`` em), its /Encoding's /Differences (none when empty) and widths."""
    first, last = min(widths), max(widths)
    type3 = Dictionary(Type=Name.Font, Subtype=Name.Type3, FontBBox=Array([-200, -300, 1200, 1000]),
                       FontMatrix=Array([1 / upem, 0, 0, 1 / upem, 0, 0]), CharProcs=procs,
                       Encoding=Dictionary(Type=Name.Encoding, Differences=Array(differences)),
                       FirstChar=first, LastChar=last,
                       Widths=Array([widths.get(code, 0) for code in range(first, last + 1)]),
                       Resources=Dictionary())
    if not differences:
        del type3.Encoding.Differences
    page = pdf.add_blank_page(page_size=(612, 792))
    page.Resources = Dictionary(Font=Dictionary(F1=pdf.make_indirect(type3)))
    page.Contents = pdf.make_stream(content.encode())
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def add_glyph_procedure(pdf: pikepdf.Pdf, procs: Dictionary, differences: list[Any], widths: dict[int, float],
                        code: int, glyph_set: Any, glyph: Any, matrix: str, scale: float) -> None:
    """Glyph procedure ``/g<code>``: ``glyph``'s outline filled under ``matrix`` (a ``cm``'s
    six numbers), advancing its width times ``scale``; named in ``differences``."""
    pen = _PdfPathPen(glyph_set)
    glyph.draw(pen)
    body = (f"{glyph.width * scale:g} 0 d0\nq {matrix} cm\n" + "\n".join(pen.ops) + ("\nf" if pen.ops else "")
            + "\nQ")
    procs[f"/g{code}"] = pdf.make_stream(body.encode())
    differences += [code, Name(f"/g{code}")]
    widths[code] = glyph.width * scale


def hanging_type3_pdf(font_file: str, lines: tuple[str, ...] = TEXT, small: float = 0.55) -> bytes:
    """``lines`` in one Type3 font holding ``font_file``'s glyphs at two sizes (the odd lines
    in the small one), drawn as Ghostscript's bitmap fonts are: upside down for a text matrix
    that turns them over, hanging from their size's cap line, so each size has its own
    baseline in glyph space."""
    font = TTFont(str(DATA / font_file))
    cmap = font.getBestCmap()
    glyph_set = font.getGlyphSet()
    upem = font["head"].unitsPerEm
    cap = glyph_set[cmap[ord("H")]]
    pen = _PdfPathPen(glyph_set)
    cap.draw(pen)
    cap_height = max(float(op.split()[1]) for op in pen.ops if op.endswith((" m", " l")))
    pdf = pikepdf.new()
    procs = Dictionary()
    differences: list[Any] = []
    widths: dict[int, float] = {}
    codes: dict[tuple[float, str], int] = {}
    content = []
    for n, line in enumerate(lines):
        size = small if n % 2 else 1.0
        shown = bytearray()
        for char in line:
            key = (size, char)
            if key not in codes:
                code = codes[key] = 32 + len(codes)
                add_glyph_procedure(pdf, procs, differences, widths, code, glyph_set, glyph_set[cmap[ord(char)]],
                                    f"{size:g} 0 0 {-size:g} 0 {cap_height * size:g}", size)
            shown.append(codes[key])
        content.append(f"BT /F1 20 Tf 1 0 0 -1 72 {740 - 30 * n} Tm <{bytes(shown).hex()}> Tj ET")
    return type3_page(pdf, procs, differences, widths, upem, "\n".join(content))


def word_f1(found: str, truth: str) -> float:
    def words(text: str) -> collections.Counter[str]:
        return collections.Counter(re.findall(r"\w+", text))

    a, b = words(found), words(truth)
    common = sum((a & b).values())
    if not common:
        return 0.0
    precision, recall = common / sum(a.values()), common / sum(b.values())
    return 2 * precision * recall / (precision + recall)


FONTS = ("NotoSerifDisplay-Italic-ascii.ttf", "NotoSansDisplay-Bold-ascii.ttf")


@pytest.mark.parametrize("font_file", FONTS)
def test_default_profile_does_not_guess_a_font_with_no_mapping(font_file: str) -> None:
    with glyphweave.open(stripped_pdf(font_file)) as doc:
        page = doc.pages[0]
        text = page.text()
        stats = page.stats
    assert re.sub(r"\s", "", text) == ""  # unresolved glyphs are placeholders, never letters
    assert stats.unresolved == stats.glyphs == sum(len(line) for line in TEXT)
    assert "shape" not in stats.decoded_by


@pytest.mark.parametrize("font_file", FONTS)
def test_shapes_profile_reads_a_font_with_no_mapping(font_file: str) -> None:
    with glyphweave.open(stripped_pdf(font_file), profile="shapes") as doc:
        page = doc.pages[0]
        text = page.text()
        stats = page.stats
    truth = "\n".join(TEXT)
    assert word_f1(text, truth) >= 0.95, text
    letters = [(a, b) for a, b in zip(text.split("\n"), TEXT, strict=False)]
    right = sum(x == y for a, b in letters for x, y in zip(a, b, strict=False))
    assert right / len(re.sub(r"\n", "", truth)) >= 0.95, text
    assert stats.decoded_by.get("shape", 0) >= 0.95 * sum(len(line.replace(" ", "")) for line in TEXT)


@pytest.mark.parametrize("font_file", FONTS)
def test_shapes_profile_reads_a_type3_font_from_its_glyph_procedures(font_file: str) -> None:
    data = type3_pdf(font_file)
    with glyphweave.open(data) as doc:
        assert re.sub(r"\s", "", doc.pages[0].text()) == ""
        stats = doc.pages[0].stats
        assert stats.unresolved_outlined == stats.unresolved == stats.glyphs  # glyph procedures draw them
    with glyphweave.open(data, profile="shapes") as doc:
        text = doc.pages[0].text()
    assert word_f1(text, "\n".join(TEXT)) >= 0.95, text


def test_a_font_with_tounicode_is_left_to_it() -> None:
    """A glyph the font's /ToUnicode leaves out is there on purpose (a shaping part):
    the shape decoder does not read it, and the default profile suggests nothing."""
    data = stripped_pdf(FONTS[0])
    pdf = pikepdf.open(io.BytesIO(data))
    font = pdf.pages[0].Resources.Font.F1
    font.ToUnicode = pdf.make_stream(b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap "
                                     b"1 begincodespacerange <00> <FF> endcodespacerange "
                                     b"1 beginbfchar <21> <0054> endbfchar endcmap end end")
    out = io.BytesIO()
    pdf.save(out)
    with glyphweave.open(out.getvalue(), profile="shapes") as doc:
        stats = doc.pages[0].stats
    assert set(stats.decoded_by) == {"tounicode"} and stats.unresolved_outlined == 0


@pytest.mark.parametrize("font_file", FONTS)
def test_renumbered_symbolic_truetype_prints_no_garbage(font_file: str) -> None:
    """WinAnsi assumed for a symbolic TrueType subset whose codes were renumbered would print
    "!\"#$..." for "The quick": its glyphs' shapes say otherwise, so the default profile
    leaves them unresolved, and the shapes profile reads them."""
    data = symbolic_truetype_pdf(font_file, renumbered=True)
    with glyphweave.open(data) as doc:
        text = doc.pages[0].text()
        stats = doc.pages[0].stats
    assert re.sub(r"\s", "", text) == "", text
    assert "standard-fallback" not in stats.decoded_by and stats.unresolved_outlined == stats.unresolved > 0
    with glyphweave.open(data, profile="shapes") as doc:
        assert word_f1(doc.pages[0].text(), "\n".join(TEXT)) >= 0.95


def test_without_the_check_the_renumbered_font_is_garbage(tmp_path: Path) -> None:
    profile = tmp_path / "unchecked.toml"
    profile.write_text('[profile]\nname = "unchecked"\nextends = "default"\n'
                       "[options.standard-fallback]\ncheck_shapes = false\n", encoding="utf-8")
    with glyphweave.open(symbolic_truetype_pdf(FONTS[0], renumbered=True), profile=str(profile)) as doc:
        text = doc.pages[0].text()
    assert text.startswith('!"# $%&')  # "The quick" as the codes 0x21... read as WinAnsi


@pytest.mark.parametrize("font_file", FONTS)
def test_symbolic_truetype_whose_codes_are_winansi_keeps_them(font_file: str) -> None:
    with glyphweave.open(symbolic_truetype_pdf(font_file, renumbered=False)) as doc:
        text = doc.pages[0].text()
        assert doc.pages[0].stats.decoded_by.get("standard-fallback", 0) > 150
    assert text.split("\n")[:len(TEXT)] == list(TEXT)


@pytest.mark.parametrize("font_file", FONTS)
def test_renumbered_font_with_no_encoding_prints_no_garbage(font_file: str) -> None:
    """A Type3 font declaring no encoding, its codes given in order of first use: the
    StandardEncoding viewers assume reads garbage ("!"#$..."), so its glyphs are left
    unresolved and counted; ``--profile shapes`` reads them; the same font at the codes
    StandardEncoding names keeps them."""
    pdf = type3_pdf(font_file, naming="renumbered")
    with glyphweave.open(pdf) as doc:
        stats = doc.pages[0].stats
        assert stats.decoded_by.get("standard-fallback", 0) == 0
        assert stats.unresolved > 150
    with glyphweave.open(pdf, profile="shapes") as doc:
        assert word_f1(doc.pages[0].text(), "\n".join(TEXT)) >= 0.9
    with glyphweave.open(type3_pdf(font_file, naming="standard")) as doc:
        text = doc.pages[0].text()
        assert doc.pages[0].stats.decoded_by.get("standard-fallback", 0) > 150
    assert text.split("\n")[:len(TEXT)] == list(TEXT)


@pytest.mark.parametrize("font_file", FONTS)
def test_type3_font_of_several_sizes_hung_upside_down(font_file: str) -> None:
    """Ghostscript's bitmap Type3 fonts hold several sizes (and faces) in one font, drawn
    upside down and hanging from each size's cap line: each glyph is read on its own size's
    baseline (one baseline for all read the small glyphs as other characters)."""
    with glyphweave.open(hanging_type3_pdf(font_file), profile="shapes") as doc:
        text = doc.pages[0].text()
    assert word_f1(text, "\n".join(TEXT)) >= 0.9, text


def two_face_type3_pdf(faces: tuple[str, ...], lines: tuple[str, ...] = TEXT) -> bytes:
    """``lines`` in one Type3 font holding the glyphs of two faces at one size (line n in
    face n % 2), upright: a bag of faces, as some producers write a document's regular and
    bold into a single Type3 font. Many characters have a glyph in each face."""
    sets = []
    for face in faces:
        font = TTFont(str(DATA / face))
        sets.append((font.getBestCmap(), font.getGlyphSet(), font["head"].unitsPerEm))
    upem = sets[0][2]
    pdf = pikepdf.new()
    procs = Dictionary()
    differences: list[Any] = []
    widths: dict[int, float] = {}
    codes: dict[tuple[int, str], int] = {}
    content = []
    for n, line in enumerate(lines):
        face = n % 2
        cmap, glyph_set, own_upem = sets[face]
        shown = bytearray()
        for char in line:
            if (face, char) not in codes:
                code = codes[(face, char)] = 32 if char == " " and face == 0 else 33 + len(codes)
                scale = upem / own_upem
                add_glyph_procedure(pdf, procs, differences, widths, code, glyph_set, glyph_set[cmap[ord(char)]],
                                    f"{scale:g} 0 0 {scale:g} 0 0", scale)
            shown.append(codes[(face, char)])
        content.append(f"BT /F1 14 Tf 72 {700 - 24 * n} Td <{bytes(shown).hex()}> Tj ET")
    return type3_page(pdf, procs, differences, widths, upem, "\n".join(content))


def test_a_type3_font_holding_two_faces_reads_each_glyph_on_its_own() -> None:
    """Where many characters have two glyphs of different shapes, the font is a bag of faces:
    the rule that one character has one glyph would read every second "e" as another letter."""
    with glyphweave.open(two_face_type3_pdf(FONTS), profile="shapes") as doc:
        text = doc.pages[0].text()
    assert word_f1(text, "\n".join(TEXT)) >= 0.9, text


def test_a_font_of_plain_letters_makes_rare_look_alikes_cost_more() -> None:
    """In a font whose letters are nearly all ASCII, an accented look-alike ("ì" beside "i")
    costs :data:`shapes.PLAIN` more; a font with many accented letters is read without it."""
    refs = shapes.load_references()
    plain = refs.priors["Latn" + shapes.PLAIN_KEY]
    i, grave, e = refs.chars.index("i"), refs.chars.index("ì"), refs.chars.index("e")
    assert plain[grave] - refs.priors["Latn"][grave] == pytest.approx(shapes.PLAIN)
    assert (plain[i], plain[e]) == (refs.priors["Latn"][i], refs.priors["Latn"][e])

    def reader(chars: str) -> shapes.FontReader:
        picked = {c: next(k for k, ch in enumerate(refs.chars) if ch == c) for c in chars}
        drawn = [raster.Shape(bits=refs.bits[k], box=(0.05, refs.bottom[k], 0.5, refs.top[k]),
                              advance=refs.advance[k], parts=refs.parts[k], holes=refs.holes[k])
                 for k in picked.values()]
        return shapes.FontReader.measure(drawn, refs)

    assert reader("abcdefghijklmnopqrstuvwxyz").plain
    assert not reader("aąbcćdeęfghijklłmnńoóprsśtuwyzźż").plain


def test_type3_glyphs_are_read_in_the_same_order_in_every_process(tmp_path: Path) -> None:
    """A Type3 font's glyph procedures come in the dictionary's sorted order, not pikepdf's
    keys(), a set whose order follows each process's string hashing: the reader samples a
    large font's glyphs in that order, and a page read differently from one run to the next
    (i as ì, in one full test run in three)."""
    import subprocess
    import sys

    pdf = tmp_path / "faces.pdf"
    pdf.write_bytes(two_face_type3_pdf(FONTS))
    with glyphweave.open(pdf, profile="shapes") as doc:
        doc.pages[0].text()
        (info,) = [state.info for state in doc._fonts._fonts.values()]
        assert list(info.type3_glyphs) == sorted(info.type3_glyphs) and len(info.type3_glyphs) > shapes.MEASURED
    script = ("import sys, glyphweave\n"
              "with glyphweave.open(sys.argv[1], profile='shapes') as doc:\n"
              "    print(doc.pages[0].text())\n")
    texts = {subprocess.run([sys.executable, "-c", script, str(pdf)], capture_output=True, text=True, check=True,
                            env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "4", "9")}
    assert len(texts) == 1


def test_a_tounicode_that_reads_nothing_says_nothing() -> None:
    """TraceMonkey's figure font has a /ToUnicode with no entry for its codes: it is read by shape."""
    pdf = pikepdf.open(io.BytesIO(stripped_pdf(FONTS[0])))
    pdf.pages[0].Resources.Font.F1.ToUnicode = pdf.make_stream(
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap "
        b"1 begincodespacerange <00> <FF> endcodespacerange endcmap end end")
    out = io.BytesIO()
    pdf.save(out)
    with glyphweave.open(out.getvalue(), profile="shapes") as doc:
        text = doc.pages[0].text()
        assert doc.pages[0].stats.decoded_by.get("shape", 0) > 150
    assert word_f1(text, "\n".join(TEXT)) >= 0.95


def test_shape_never_replaces_a_real_mapping() -> None:
    """A font with /ToUnicode is read through it in the shapes profile too."""
    with glyphweave.open(make_pdf(b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET"), profile="shapes") as doc:
        stats = doc.pages[0].stats
        assert doc.pages[0].text().strip() == "Hello"
    assert "shape" not in stats.decoded_by


def test_min_confidence_holds_back_doubtful_readings(tmp_path: Path) -> None:
    def answered(min_confidence: float) -> int:
        profile = tmp_path / f"p{min_confidence}.toml"
        profile.write_text(f'[profile]\nname = "p"\nextends = "shapes"\n[options.shape]\n'
                           f"min_confidence = {min_confidence}\n", encoding="utf-8")
        with glyphweave.open(stripped_pdf(FONTS[0]), profile=str(profile)) as doc:
            return doc.pages[0].stats.decoded_by.get("shape", 0)

    assert answered(0.0) > answered(0.9) > 0


# -- the matcher's parts ---------------------------------------------------------------------


def test_raster_fills_by_the_nonzero_rule_and_counts_pieces_and_counters() -> None:
    square = "M0 0L500 0L500 500L0 500Z"
    shape = raster.shape_of_path(square, 1000, 600)
    assert shape is not None
    assert shape.bits == (1 << raster.GRID * raster.GRID) - 1
    assert shape.box == (0.0, 0.0, 0.5, 0.5) and shape.advance == 0.6
    assert (shape.parts, shape.holes) == (1, 0)
    ring = "M0 0L0 500L500 500L500 0Z M100 100L400 100L400 400L100 400Z"  # counter drawn the other way
    ring_shape = raster.shape_of_path(ring, 1000)
    assert ring_shape is not None and (ring_shape.parts, ring_shape.holes) == (1, 1)
    centre = raster.GRID // 2 * raster.GRID + raster.GRID // 2
    assert not ring_shape.bits >> centre & 1
    two = raster.shape_of_path("M0 0L100 0L100 100L0 100Z M0 400L100 400L100 500L0 500Z", 1000)
    assert two is not None and (two.parts, two.holes) == (2, 0)
    assert raster.shape_of_path("", 1000) is None
    assert raster.shape_of_path("M0 0L100 0Z", 1000) is None  # no area


def test_raster_keeps_a_hairline() -> None:
    """A stroke half a pixel thick (a hairline serif, a rule) still marks its pixels."""
    thin = round(1000 / raster.GRID / 2)
    shape = raster.shape_of_path(f"M0 0L1000 0L1000 {thin}L0 {thin}Z M0 {1000 - thin}L1000 {1000 - thin}"
                                 f"L1000 1000L0 1000Z", 1000)
    assert shape is not None and shape.ink >= 2 * raster.GRID


def test_bitmap_glyph_is_read_like_an_outline() -> None:
    rows = [[c in (1, 2) or r in (0, 1) for c in range(8)] for r in range(10)]
    shape = raster.shape_of_bitmap(rows, (0.0, 0.0, 0.8, 1.0))
    assert shape is not None and shape.box == pytest.approx((0.0, 0.0, 0.8, 1.0))


def test_references_cover_the_text_alphabets() -> None:
    refs = shapes.load_references()
    chars = set(refs.chars)
    assert set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,;:!?()") <= chars
    assert {"α", "Ж", "é", "€", "•"} <= chars
    assert len(refs) > 5000


def shape_of_reference(refs: shapes.References, i: int) -> raster.Shape:
    """Reference ``i`` as a glyph's shape (its width from its proportions)."""
    height = refs.top[i] - refs.bottom[i]
    width = math.exp(refs.aspect[i]) * (height + 0.02) - 0.02
    return raster.Shape(bits=refs.bits[i], box=(0.05, refs.bottom[i], 0.05 + width, refs.top[i]),
                        advance=refs.advance[i], parts=refs.parts[i], holes=refs.holes[i])


def test_references_read_themselves() -> None:
    """A reference, read in a font of its own x-height, is its own character."""
    refs = shapes.load_references()
    wanted = {c: i for i, c in reversed(list(enumerate(refs.chars))) if c in "aegkmQRW&5"}
    found = {}
    for char, i in wanted.items():
        reader = shapes.FontReader(references=refs, x_height=refs.x_height[i], script="Latn")
        reading = reader.read(shape_of_reference(refs, i))
        assert reading is not None
        found[char] = reading.char
    assert found == {c: c for c in wanted}


def test_one_character_one_glyph() -> None:
    """Two glyphs of different shapes that read as one character share the characters out:
    a font's "l" and "I" are not both "l"."""
    refs = shapes.load_references()
    i_l = refs.chars.index("l")
    i_i = next(i for i, c in enumerate(refs.chars) if c == "I" and refs.x_height[i] == refs.x_height[i_l])
    readings = shapes.read_shapes({"first": shape_of_reference(refs, i_l), "second": shape_of_reference(refs, i_i)},
                                  refs)
    assert {r.char for r in readings.values()} == {"l", "I"}
    # a subset's duplicate of one of them (a hair taller) follows it, whatever it is given
    twin = shape_of_reference(refs, i_l)
    twin = attrs.evolve(twin, box=(*twin.box[:3], twin.box[3] + 0.001))
    readings = shapes.read_shapes({"first": shape_of_reference(refs, i_l), "second": shape_of_reference(refs, i_i),
                                   "copy": twin}, refs)
    assert readings["copy"].char == readings["first"].char


def one_font(refs: shapes.References, chars: str) -> dict[str, raster.Shape]:
    """The references of ``chars`` from one reference font (the one whose "0" comes first)."""
    x_height = refs.x_height[refs.chars.index("0")]
    found = {}
    for i, char in enumerate(refs.chars):
        if char in chars and char not in found and refs.x_height[i] == x_height:
            found[char] = shape_of_reference(refs, i)
    assert set(found) == set(chars)
    return found


def test_tabular_figures_tell_zero_from_o() -> None:
    """A zero-shaped glyph as wide as a letter, in a font whose figures share one width, is an
    "O"; as wide as the figures, a "0". With no figures to measure, or in a monospaced font,
    the widths tell nothing and the shape alone decides."""
    refs = shapes.load_references()
    font = one_font(refs, "023456789HETaonbdhkO")
    figure, letter = font["5"].advance, font["O"].advance
    assert abs(figure - letter) > 0.03  # the premise: this font's "O" is wider than its figures
    zero = font.pop("0")
    del font["O"]
    wide_zero = attrs.evolve(zero, advance=letter)
    assert shapes.read_shapes({**font, "?": wide_zero}, refs)["?"].char == "O"
    assert shapes.read_shapes({**font, "?": zero}, refs)["?"].char == "0"
    no_figures = {k: v for k, v in font.items() if not k.isdigit()}
    assert shapes.read_shapes({**no_figures, "?": wide_zero}, refs)["?"].char == "0"
    monospaced = {k: attrs.evolve(v, advance=letter) for k, v in font.items()}
    assert shapes.read_shapes({**monospaced, "?": wide_zero}, refs)["?"].char == "0"


def test_capital_height_tells_i_from_l() -> None:
    """A stem read as "l" that stands at the capitals' height, lower than the ascenders, is
    not an "l" (an "I"): in every reference font whose ascenders stand above its capitals."""
    refs = shapes.load_references()
    fonts: dict[float, dict[str, int]] = {}
    for i, char in enumerate(refs.chars):
        fonts.setdefault(refs.x_height[i], {}).setdefault(char, i)
    tried = 0
    for indices in fonts.values():
        if not all(c in indices for c in "HETBDbdhkl"):
            continue
        font = {c: shape_of_reference(refs, indices[c]) for c in "HETBDbdhk"}
        stem, capital = shape_of_reference(refs, indices["l"]), font["H"].box[3]
        if font["b"].box[3] - capital <= 0.02:
            continue
        tried += 1
        short = attrs.evolve(stem, box=(*stem.box[:3], capital))
        assert shapes.read_shapes({**font, "?": stem}, refs)["?"].char == "l"
        assert shapes.read_shapes({**font, "?": short}, refs)["?"].char != "l"
    assert tried >= 2


# -- a real file ------------------------------------------------------------------------------

CAMBRIA = SHARED / "corpus" / "glyphnames-gNNN-htmldoc-cambria.pdf"
TRUTH = DATA / "cambria-transcription.txt"


@pytest.mark.skipif(not CAMBRIA.is_file(), reason=f"shared corpus file not found: {CAMBRIA}")
def test_htmldoc_cambria_file_reads_by_shape() -> None:
    """htmldoc's Cambria (a CFF subset named gNNN, no /ToUnicode): the hand-checked
    transcription of five pages, read with F1 >= 0.98; the default profile leaves the
    same glyphs unresolved."""
    transcription = TRUTH.read_text(encoding="utf-8")
    pages = [int(n) for n in re.findall(r"^=== page (\d+)", transcription, flags=re.M)]
    truth = "\n".join(line for line in transcription.splitlines() if not line.startswith(("#", "===")))
    with glyphweave.open(CAMBRIA, profile="shapes") as doc:
        found = "\n".join(doc.pages[n - 1].text() for n in pages)
    assert word_f1(found, truth) >= 0.98  # the issue asks 0.95; 1.0 since the font's widths and heights count
    with glyphweave.open(CAMBRIA) as doc:
        default = "\n".join(doc.pages[n - 1].text() for n in pages)
    assert word_f1(default, truth) < 0.5


PDFTEX_BITMAP = SHARED / "corpus" / "type3-pdftex-bitmap-paper.pdf"


@pytest.mark.skipif(not PDFTEX_BITMAP.is_file(), reason=f"shared corpus file not found: {PDFTEX_BITMAP}")
def test_pdftex_bitmap_type3_file_reads_by_shape() -> None:
    """pdfTeX's bitmap Type3 fonts (image masks, no /ToUnicode): page 1 against its
    hand-checked transcription, F1 >= 0.95 (the default profile reads none of it)."""
    transcription = (DATA / "pdftex-bitmap-transcription.txt").read_text(encoding="utf-8")
    truth = "\n".join(line for line in transcription.splitlines() if not line.startswith(("#", "===")))
    with glyphweave.open(PDFTEX_BITMAP, profile="shapes") as doc:
        found = doc.pages[0].text()
    assert word_f1(found, truth) >= 0.95, found
    with glyphweave.open(PDFTEX_BITMAP) as doc:
        assert word_f1(doc.pages[0].text(), truth) < 0.5


ERGO_BAG = SHARED / "corpus" / "type3-custom-names-notounicode.pdf"


@pytest.mark.skipif(not ERGO_BAG.is_file(), reason=f"shared corpus file not found: {ERGO_BAG}")
def test_a_real_type3_bag_of_faces_reads_by_shape() -> None:
    """A Polish form whose one Type3 font holds a regular and a bold face (custom glyph names,
    no /ToUnicode): its first 15 lines against a transcription made by eye. 0.946 today (the
    one-glyph-one-character rule, not dropped for a bag, read 0.38); what is left is ż read as
    ź, ć held back, and I read as l in capitals, which only word evidence could settle."""
    transcription = (DATA / "ergo-type3-bag-transcription.txt").read_text(encoding="utf-8")
    truth = "\n".join(line for line in transcription.splitlines() if not line.startswith(("#", "===")))
    lines = len(truth.splitlines())
    with glyphweave.open(ERGO_BAG, profile="shapes") as doc:
        found = "\n".join(doc.pages[0].text().splitlines()[:lines])
    assert word_f1(found, truth) >= 0.93, found


def test_default_extract_says_the_shapes_profile_could_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from glyphweave.cli import main

    pdf = tmp_path / "stripped.pdf"
    pdf.write_bytes(stripped_pdf(FONTS[1]))
    out = tmp_path / "out.txt"
    assert main(["extract", str(pdf), "-o", str(out)]) == 0
    note = capsys.readouterr().err
    assert "--profile shapes" in note and f"{sum(len(line) for line in TEXT)} glyphs" in note
    assert main(["extract", str(pdf), "-o", str(out), "--profile", "shapes"]) == 0
    assert "--profile shapes" not in capsys.readouterr().err
    assert "quick brown fox" in out.read_text(encoding="utf-8")


def test_scan_proposes_shapes_and_accept_validates_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """scan --propose gives every outlined glyph of a stripped font a proposal with its
    confidence; registry accept validates the confident ones, and the registry profile then
    reads them with no shape decoder at all."""
    from glyphweave.cli import main
    from glyphweave.glyphmap.registry import read_registry

    pdf = tmp_path / "stripped.pdf"
    pdf.write_bytes(stripped_pdf(FONTS[0]))
    reg = tmp_path / "registry.tsv"
    assert main(["scan", str(pdf), "-r", str(reg), "--propose", "-j", "1", "--progress", "off"]) == 0
    entries = list(read_registry(reg))
    distinct = set("".join(TEXT))
    assert len(entries) == len(distinct)
    assert all(e.status == "proposed" and e.source == "shape" and e.confidence is not None for e in entries)
    right = sum(e.mapping == " " if e.mapping == " " else e.mapping in distinct for e in entries)
    assert right == len(entries)
    # the contexts show the neighbours by their proposals, not as question marks
    contexts = [e.context for e in entries]
    assert all("??" not in c.replace("⟦?⟧", "") for c in contexts)  # the text has one "?", at a line's end
    words = set(" ".join(TEXT).split())
    inner = [w for c in contexts for w in c.split()[1:-1] if "⟦?⟧" not in w]  # the ends may be cut
    assert sum(w in words for w in inner) > 0.9 * len(inner) > 100
    assert {e.em for e in entries if e.svg} == {1000}  # the test fonts' units per em: drawn to scale
    capsys.readouterr()
    assert main(["registry", "accept", "--min-confidence", "0.3", "-r", str(reg)]) == 0
    accepted = capsys.readouterr().out.splitlines()
    validated = [e for e in read_registry(reg) if e.status == "validated"]
    assert len(accepted) == len(validated) > 0.8 * len(entries)
    assert all(e.confidence is not None and e.confidence >= 0.3 for e in validated)
    profile = tmp_path / "mine.toml"
    profile.write_text(f'[profile]\nname = "mine"\nextends = "registry"\n[options.glyph-map]\nregistry = "{reg.name}"\n',
                       encoding="utf-8")
    with glyphweave.open(pdf, profile=str(profile)) as doc:
        text = doc.pages[0].text()
        assert doc.pages[0].stats.decoded_by.get("glyph-map", 0) >= len(validated)
    assert word_f1(text, "\n".join(TEXT)) > 0.7


def test_scan_without_propose_proposes_nothing(tmp_path: Path) -> None:
    from glyphweave.glyphmap.scan import scan

    pdf = tmp_path / "stripped.pdf"
    pdf.write_bytes(stripped_pdf(FONTS[0]))
    report = scan([str(pdf)], str(tmp_path / "registry.tsv"), jobs=1)
    assert {e.status for e in report.registry} == {"unresolved"}


def test_type3_glyphs_are_drawn_for_the_sheet(tmp_path: Path) -> None:
    """The registry holds a Type3 glyph's drawing, and keys the glyph by it."""
    from glyphweave.glyphmap.scan import scan
    from glyphweave.glyphmap.sheet import path_bounds

    pdf = tmp_path / "type3.pdf"
    pdf.write_bytes(type3_pdf(FONTS[1]))
    report = scan([str(pdf)], str(tmp_path / "registry.tsv"), jobs=1, propose=True)
    drawn = [e for e in report.registry if e.svg]
    assert len(drawn) == len(set("".join(TEXT)) - {" "})
    assert all(e.key.endswith("/o:" + Drawing.from_path(e.svg).hash) for e in drawn)
    bounds = path_bounds(next(e.svg for e in drawn if e.mapping == "T"))
    assert bounds is not None and 500 < bounds[3] < 800  # a capital's top, in thousandths of an em


def test_a_bitmap_type3_glyph_is_read_from_its_image_mask() -> None:
    """An inline image mask (a ring, 16 x 16, /Decode [1 0]: 1 paints) read as a shape and drawn."""
    from glyphweave.glyphmap.type3 import type3_path, type3_shape

    rows = [[(4 <= abs(r - 7.5) + 0.0 <= 7.5 and 4 <= abs(c - 7.5) <= 7.5) or
             (abs(r - 7.5) > 3.5 or abs(c - 7.5) > 3.5) for c in range(16)] for r in range(16)]
    data = bytes(int("".join("1" if v else "0" for v in row[i:i + 8]), 2) for row in rows for i in (0, 8))
    proc = b"600 0 0 0 600 700 d1\nq 600 0 0 700 0 0 cm\nBI /W 16 /H 16 /IM true /D [1 0] ID " + data + b" EI Q"
    pdf = pikepdf.new()
    font = Dictionary(Type=Name.Font, Subtype=Name.Type3, FontBBox=Array([0, 0, 600, 700]),
                      FontMatrix=Array([0.001, 0, 0, 0.001, 0, 0]),
                      CharProcs=Dictionary(ring=pdf.make_stream(proc)),
                      Encoding=Dictionary(Type=Name.Encoding, Differences=Array([65, Name("/ring")])),
                      FirstChar=65, LastChar=65, Widths=Array([600]), Resources=Dictionary())
    page = pdf.add_blank_page(page_size=(612, 792))
    page.Resources = Dictionary(Font=Dictionary(F1=pdf.make_indirect(font)))
    page.Contents = pdf.make_stream(b"BT /F1 24 Tf 72 700 Td (A) Tj ET")
    out = io.BytesIO()
    pdf.save(out)
    with glyphweave.open(out.getvalue()) as doc:
        info = doc.pages[0].table.font_infos[0]
        shape = type3_shape(info, "ring")
        drawing = type3_path(info, "ring")
    assert shape is not None and (shape.parts, shape.holes) == (1, 1)
    assert shape.box == pytest.approx((0.0, 0.0, 0.6, 0.7))
    assert drawing.startswith("M") and drawing.count("Z") == 16 + 8  # a run per row, two in the ring's middle rows


@pytest.mark.parametrize("collecting", [True, False])
def test_loading_the_references_leaves_the_collector_as_it_found_it(collecting):
    import gc

    was = gc.isenabled()
    try:
        (gc.enable if collecting else gc.disable)()
        refs = shapes.load_references.__wrapped__()
        assert gc.isenabled() is collecting
    finally:
        (gc.enable if was else gc.disable)()
    assert len(refs) == len(shapes.load_references())
