"""Hostile geometry: every installed built-in assembler returns text (or warns), never raises,
on glyphs no sane producer paints: zero-size fonts, NaN / infinite / 1e300 matrices, glyphs
far outside the page, an empty page, 100k glyphs on one line, 20k one-glyph lines in random
paint order.

Two levels: glyph tables built by hand (values a PDF cannot even spell, such as NaN, reach
the assemblers as they are) and synthetic PDFs through the whole pipeline. The built-in
assemblers are looked up in the plugin registry; those not installed are skipped. Nothing
here is timed: a quadratic walk shows as a slow test, not a failed one.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest

import glyphweave
from glyphweave.components.catalog import Catalog
from glyphweave.core.glyphtable import GlyphTable
from glyphweave.core.stages import Assembled, Assembler
from glyphweave.testing.factories import TEST_FONT, add_text, page_context, text_of
from glyphweave.testing.pdfs import make_pdf, text_at

BUILT_IN = ("reading", "columns", "auto", "layout", "markdown")


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.discover()


@pytest.fixture(params=BUILT_IN)
def name(request: pytest.FixtureRequest, catalog: Catalog) -> str:
    if request.param not in catalog.names("assembler"):
        pytest.skip(f"assembler {request.param!r} is not installed")
    return str(request.param)


@pytest.fixture
def assembler(name: str, catalog: Catalog) -> Assembler:
    cls = catalog.get("assembler", name)
    instance = cls(**cls.validate_options({}))
    assert isinstance(instance, Assembler)
    return instance


def assemble(assembler: Assembler, table: GlyphTable) -> str:
    result = text_of(assembler.assemble(page_context(table), range(len(table))))
    text = result.text if isinstance(result, Assembled) else result
    assert isinstance(text, str)
    return text


def words(text: str) -> list[str]:
    return text.split()


# -- glyph tables ---------------------------------------------------------------------------------------

def add_run(table: GlyphTable, text: str, matrix: tuple[float, ...], *, size: float = 10.0, advance: float = 5.0,
            lo: float = -2.5, hi: float = 7.5, wmode: int = 0) -> None:
    """One run with exactly this text matrix (add_text builds its own from an angle)."""
    n = len(text)
    starts = [i * advance for i in range(n)]
    table.add_run(
        font=table.font_index(TEST_FONT), size=size, matrix=matrix, rise=0.0, wmode=wmode,
        codes=[ord(ch) & 0xFF for ch in text], cids=None, decoded=[(ch, "test") for ch in text],
        starts=starts, advances=[advance] * n, pens=[s + advance for s in starts], lo=lo, hi=hi,
        render=0, mcid=None, tag=None, actual_text=None, token=0,
    )


NAN, INF = math.nan, math.inf
MATRICES = {
    "nan-scale": (NAN, 0.0, 0.0, NAN, 72.0, 700.0),
    "nan-origin": (1.0, 0.0, 0.0, 1.0, NAN, NAN),
    "all-nan": (NAN,) * 6,
    "inf-scale": (INF, 0.0, 0.0, INF, 72.0, 700.0),
    "inf-origin": (1.0, 0.0, 0.0, 1.0, INF, -INF),
    "inf-shear": (1.0, INF, -INF, 1.0, 72.0, 700.0),
    "1e300-scale": (1e300, 0.0, 0.0, 1e300, 72.0, 700.0),
    "1e300-origin": (1.0, 0.0, 0.0, 1.0, 1e300, -1e300),
    "1e300-everything": (1e300, 1e300, -1e300, 1e300, 1e300, 1e300),
    "tiny": (1e-300, 0.0, 0.0, 1e-300, 72.0, 700.0),
    "singular": (0.0, 0.0, 0.0, 0.0, 72.0, 700.0),
    "mirrored": (-1.0, 0.0, 0.0, 1.0, 300.0, 700.0),
}


@pytest.mark.parametrize("matrix", list(MATRICES.values()), ids=list(MATRICES))
@pytest.mark.parametrize("wmode", [0, 1])
def test_hostile_matrices(assembler: Assembler, matrix: tuple[float, ...], wmode: int):
    t = GlyphTable()
    add_text(t, "Before the storm", 72, 720)
    add_run(t, "Hostile", matrix, wmode=wmode)
    add_run(t, "text", matrix, wmode=wmode)
    add_text(t, "After the storm", 72, 600)
    text = assemble(assembler, t)
    for word in ("Before", "storm", "After"):
        assert word in text


@pytest.mark.parametrize("matrix", list(MATRICES.values()), ids=list(MATRICES))
def test_words_and_search_on_hostile_matrices(matrix: tuple[float, ...]):
    """Words, lines and blocks (and a search over them) on the same glyphs: records for every
    word, whatever its box, and the sane words where they are."""
    from glyphweave.pagesearch import compile_query, search_blocks
    from glyphweave.pagewords import read_blocks, rule_options

    t = GlyphTable()
    add_text(t, "Before the storm", 72, 720)
    add_run(t, "Hostile", matrix)
    add_text(t, "After the storm", 72, 600)
    page = page_context(t)
    blocks = read_blocks(page, range(len(t)), None, rule_options(None))
    texts = [word.text for block in blocks for word in block.words]
    assert {"Before", "After", "storm"} <= set(texts)
    hits = search_blocks(0, blocks, t, page.cropbox, page.rotate, compile_query("the storm"))
    assert [hit.text for hit in hits] == ["the storm", "the storm"]


@pytest.mark.parametrize("size", [0.0, 1e-300, 1e300, NAN, INF])
def test_zero_and_absurd_font_sizes(assembler: Assembler, size: float):
    t = GlyphTable()
    add_text(t, "Normal text here", 72, 720)
    add_text(t, "sized text", 72, 700, size=size)
    add_text(t, "more normal text", 72, 680)
    text = assemble(assembler, t)
    assert "Normal" in text and "more normal text" in text


def test_glyphs_without_extent(assembler: Assembler):
    # zero advance, zero box height: every glyph a point, all on one spot
    t = GlyphTable()
    add_run(t, "pointlike", (1.0, 0.0, 0.0, 1.0, 72.0, 700.0), advance=0.0, lo=0.0, hi=0.0)
    add_run(t, "again", (1.0, 0.0, 0.0, 1.0, 72.0, 700.0), advance=0.0, lo=0.0, hi=0.0)
    add_text(t, "Visible", 72, 680)
    text = assemble(assembler, t)
    assert "Visible" in text


def test_glyphs_far_outside_the_page(assembler: Assembler):
    t = GlyphTable()
    add_text(t, "On the page", 72, 700)
    add_text(t, "far right", 1e12, 700)
    add_text(t, "far below", 72, -1e15)
    add_text(t, "far away", -1e200, 1e200, angle=33)
    add_text(t, "Back home", 72, 680)
    text = assemble(assembler, t)
    assert "On the page" in text and "Back home" in text
    assert all(word in words(text) for word in ("far", "right", "below", "away"))


def test_an_empty_page(assembler: Assembler):
    assert assemble(assembler, GlyphTable()) == ""


def test_a_page_of_whitespace(assembler: Assembler):
    t = GlyphTable()
    add_text(t, "     ", 72, 700)
    add_text(t, "  ", 72, 650, angle=90)
    assert assemble(assembler, t).strip() == ""


def one_line(n: int, *, cells: bool) -> GlyphTable:
    """``n`` glyphs on one baseline: running text, or cells of ten letters set wide apart
    (every gap between two cells may be a gutter)."""
    t = GlyphTable()
    if cells:
        for k in range(n // 10):
            add_text(t, "abcdefghij", k * 9.0, 700, size=1.0)
    else:
        add_text(t, ("lorem ipsum dolor sit amet " * (n // 27 + 1))[:n], 0, 700, size=1.0)
    return t


@pytest.mark.parametrize("cells", [False, True], ids=["text", "cells"])
def test_100k_glyphs_on_one_line(assembler: Assembler, cells: bool):
    text = assemble(assembler, one_line(100_000, cells=cells))
    if cells:
        assert words(text).count("abcdefghij") == 10_000
    else:
        assert "lorem ipsum dolor" in text and len(words(text)) > 15_000


def test_100k_glyphs_on_four_lines_of_cells(assembler: Assembler):
    # Four rows of 2,500 cells each: every row splits at every gap (order recovery's
    # interleaved columns, the columns assembler's gutters).
    t = GlyphTable()
    for row in range(4):
        for k in range(2_500):
            add_text(t, "abcdefghij", k * 9.0 + row * 0.37, 700 - 2 * row, size=1.0)
    text = assemble(assembler, t)
    assert words(text).count("abcdefghij") == 10_000


def shuffled_lines(n: int, *, seed: int = 7) -> GlyphTable:
    """``n`` one-glyph lines, one below the other, painted in random order."""
    t = GlyphTable()
    rows = list(range(n))
    random.Random(seed).shuffle(rows)
    for row in rows:
        add_text(t, "abcdefghijklmnopqrstuvwxyz"[row % 26], 72, 780 - row * 0.03, size=0.025)
    return t


def shuffled_grid(n: int, *, seed: int = 11) -> GlyphTable:
    """``n`` one-glyph lines on a grid of 100 columns, painted in random order."""
    t = GlyphTable()
    cells = [(k % 100, k // 100) for k in range(n)]
    random.Random(seed).shuffle(cells)
    for col, row in cells:
        add_text(t, "0123456789"[col % 10], 36 + col * 5.4, 780 - row * 0.6, size=0.5)
    return t


@pytest.mark.parametrize("build", [shuffled_lines, shuffled_grid], ids=["column", "grid"])
def test_20k_one_glyph_lines_in_random_order(assembler: Assembler, build: Callable[[int], GlyphTable]):
    text = assemble(assembler, build(20_000))
    assert sum(ch.isalnum() for ch in text) == 20_000


# -- through the whole pipeline ------------------------------------------------------------------------

def extract(data: bytes, mode: str) -> tuple[str, list[str]]:
    with glyphweave.open(data) as doc:
        text = doc.text(mode=mode)
        return text, [str(warning) for warning in doc.warnings()]


BIG = "1" + "0" * 300  # 1e300 as a PDF can write it (no exponents in PDF numbers)
CONTENTS = {
    "zero-size-font": text_at("Zero", 72, 700, size=0) + b"\n" + text_at("Visible", 72, 650),
    "zero-text-matrix": text_at("Zero", 72, 700, matrix=(0, 0, 0, 0)) + b"\n" + text_at("Visible", 72, 650),
    "huge-text-matrix": (f"BT /F1 12 Tf {BIG} 0 0 {BIG} 72 700 Tm (Huge) Tj ET\n".encode()
                         + text_at("Visible", 72, 650)),
    "huge-ctm-overflowing": (f"q {BIG} 0 0 {BIG} 0 0 cm {BIG} 0 0 {BIG} 0 0 cm ".encode()
                             + text_at("Inf", 1, 1) + b" Q\n" + text_at("Visible", 72, 650)),
    "huge-origin": text_at("Far", 72, 700).replace(b"72 700 Tm", f"{BIG} -{BIG} Tm".encode())
    + b"\n" + text_at("Visible", 72, 650),
    "nan-operands": b"BT /F1 12 Tf nan 0 0 nan 72 700 Tm (NaN) Tj inf 0 Td (Inf) Tj ET\n"
    + text_at("Visible", 72, 650),
    "far-outside-the-page": (b"BT /F1 12 Tf 1 0 0 1 1000000000 -1000000000 Tm (Away) Tj "
                             b"0 1 -1 0 -500000000 500000000 Tm (Rotated) Tj ET\n" + text_at("Visible", 72, 650)),
    "tiny-scale": b"BT /F1 12 Tf 0.000000001 0 0 0.000000001 72 700 Tm (Tiny) Tj ET\n" + text_at("Visible", 72, 650),
    # (inside q/Q: text state outlives ET, and would stretch "Visible" off the page too)
    "huge-tz-tc-tw": f"q BT /F1 12 Tf {BIG} Tz {BIG} Tc -{BIG} Tw 72 700 Td (Spread out) Tj ET Q\n".encode()
    + text_at("Visible", 72, 650),
    "empty-page": b"",
    "empty-text-objects": b"BT ET BT /F1 12 Tf ET BT /F1 0 Tf () Tj ET",
}


@pytest.mark.parametrize("content", list(CONTENTS.values()), ids=list(CONTENTS))
def test_hostile_content_through_the_pipeline(name: str, content: bytes):
    text, warnings = extract(make_pdf(content), name)
    assert isinstance(text, str)
    if b"Visible" in content:
        assert "Visible" in text  # the rest of the page survives
    assert all(isinstance(w, str) and w for w in warnings)


def test_100k_glyphs_on_one_line_through_the_pipeline(name: str):
    # 100 strings of 1,000 glyphs, each string one TJ with a word gap every ten glyphs
    word = b"(abcdefghij) -300 "
    content = b"BT /F1 1 Tf 0 700 Td " + (b"[" + word * 100 + b"] TJ ") * 100 + b"ET"
    text, _warnings = extract(make_pdf(content, mediabox=(0, 0, 1e6, 792)), name)
    assert words(text).count("abcdefghij") == 10_000


def test_20k_one_glyph_lines_in_random_order_through_the_pipeline(name: str):
    rows = list(range(20_000))
    random.Random(3).shuffle(rows)
    content = b"BT /F1 0.03 Tf " + b"".join(
        f"1 0 0 1 72 {780 - row * 0.035:.3f} Tm ({'abcdefghijklmnopqrstuvwxyz'[row % 26]}) Tj ".encode()
        for row in rows) + b"ET"
    text, _warnings = extract(make_pdf(content), name)
    assert sum(ch.isalpha() for ch in text) == 20_000
