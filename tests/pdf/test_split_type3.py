"""Type3 fonts that split each character in two, as Ghostscript's bitmap fonts do: a glyph
that paints the letter with no advance, then a glyph that paints nothing and carries the
advance (and the word space after the last letter of a word). The carriers are no text,
and each letter is boxed by its ink, so words read as a reader sees them."""

from __future__ import annotations

import io

import pikepdf
from pikepdf import Array, Dictionary, Name

import glyphweave

LETTERS = "Helowrdtin"  # ten letters: a font splits with eight or more
INK = 500  # each letter a 500-unit square, in a 600-unit cell; a word space of 300 more


def split_font_pdf(words: list[str], split: bool = True, letters: str = LETTERS) -> bytes:
    """``words`` in a Type3 font of letters named as themselves (so a table reads them).
    ``letters``: the font's letters. ``split``: each letter has no advance and is followed by a blank carrier glyph with the
    cell's advance (the cell and a space after a word's last letter); otherwise each letter
    advances by itself (the same page drawn the usual way)."""
    pdf = pikepdf.new()
    procs = Dictionary()
    differences: list[object] = []
    widths: dict[int, float] = {}
    codes: dict[str, int] = {}
    for n, letter in enumerate(letters):
        code = codes[letter] = 65 + n
        width = 0 if split else 600
        procs[f"/{letter}"] = pdf.make_stream(f"{width} 0 0 0 {INK} {INK} d1\n0 0 {INK} {INK} re f".encode())
        differences += [code, Name(f"/{letter}")]
        widths[code] = width
    carriers = {600: 97, 900: 98}  # within a word; after a word's last letter
    for advance, code in carriers.items():
        procs[f"/c{code}"] = pdf.make_stream(f"{advance} 0 0 0 0 0 d1".encode())
        differences += [code, Name(f"/c{code}")]
        widths[code] = advance
    shown = bytearray()
    for w, word in enumerate(words):
        for i, letter in enumerate(word):
            shown.append(codes[letter])
            last = i == len(word) - 1
            if split:
                shown.append(carriers[900 if last else 600])
        if not split and w < len(words) - 1:
            shown += b" "
            widths[32] = 300
            procs["/space"] = pdf.make_stream(b"300 0 0 0 0 0 d1")
            differences += [32, Name("/space")]
    first, last_code = min(widths), max(widths)
    font = Dictionary(Type=Name.Font, Subtype=Name.Type3, FontBBox=Array([0, 0, INK, INK]),
                      FontMatrix=Array([0.001, 0, 0, 0.001, 0, 0]), CharProcs=procs,
                      Encoding=Dictionary(Type=Name.Encoding, Differences=Array(differences)),
                      FirstChar=first, LastChar=last_code,
                      Widths=Array([widths.get(code, 0) for code in range(first, last_code + 1)]),
                      Resources=Dictionary())
    page = pdf.add_blank_page(page_size=(612, 792))
    page.Resources = Dictionary(Font=Dictionary(F1=pdf.make_indirect(font)))
    page.Contents = pdf.make_stream(b"BT /F1 20 Tf 72 700 Td <" + bytes(shown).hex().encode() + b"> Tj ET")
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


WORDS = ["Hello", "world", "in", "tiled", "lion"]


def test_split_characters_read_as_words() -> None:
    with glyphweave.open(split_font_pdf(WORDS)) as doc:
        page = doc.pages[0]
        assert page.text().strip() == " ".join(WORDS)
        table = page.table
        assert len(table) == sum(map(len, WORDS))  # the carriers are not glyphs of the text
        glyphs = table.glyphs()
        assert page.stats.unresolved == 0
    assert all(abs(g.glyph_end[0] - g.origin[0] - 20 * INK / 1000) < 1e-6 for g in glyphs)  # boxed by the ink


def test_a_split_font_reads_as_the_same_font_drawn_the_usual_way() -> None:
    with glyphweave.open(split_font_pdf(WORDS)) as split, glyphweave.open(split_font_pdf(WORDS, split=False)) as usual:
        assert split.pages[0].text() == usual.pages[0].text()
        assert [g.origin for g in split.pages[0].table.glyphs()] == [
            g.origin for g in usual.pages[0].table.glyphs() if g.text != " "]


def test_a_font_with_a_few_zero_advance_glyphs_is_not_split() -> None:
    """Fewer than eight painting glyphs with no advance (accents an ordinary font draws over
    the next letter) do not make a font split: its blank glyphs stay glyphs."""
    with glyphweave.open(split_font_pdf(["in", "it"], letters="int")) as doc:
        page = doc.pages[0]
        glyphs = page.table.glyphs()
        assert len(glyphs) == 8  # the letters and their carriers, all kept

