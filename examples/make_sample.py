"""Build ``examples/sample.pdf``, the small PDF the README's quick start extracts.

Run from anywhere (needs only pikepdf, which glyphweave depends on)::

    python examples/make_sample.py            # rewrites examples/sample.pdf next to this script

The output is byte-for-byte reproducible (fixed /ID, no dates) and saved uncompressed, so every
operator can be read in a text editor. What it contains, and what each part exercises:

Page 1 (MediaBox 612 x 792, CropBox 36 36 576 756)
  * A standard-14 font, Helvetica, with /Encoding /WinAnsiEncoding and its AFM widths as /Widths
    (no font program is embedded). Codes 0x80-0x9F decode differently in WinAnsi than in Latin-1:
    the em dash (0x97), curly quotes (0x93, 0x94) and the euro sign (0x80) check that.
  * A heading at 20 pt.
  * A line set with TJ kerning: small numbers inside words (tightening, and one slight loosening)
    that must *not* become spaces.
  * A line whose words carry no space characters at all: each gap is a TJ offset of one space width
    (-278/1000 em), which must become a space.
  * A line whose second part is positioned by ``Td``, a space width after the first part ends.
  * A fake-bold word: ``bold`` painted three times, offset by 0.3 pt (as word processors do for
    bold without a bold font). The dedup filter keeps the first paint only.
  * Two lines outside the CropBox (one below it, one in the right margin): the visible-box filter
    drops them; they are still in the raw glyphs (``glyphweave glyphs``).

Page 2
  * A heading and one line, so ``--pages`` has something to choose.

Expected text of ``glyphweave extract examples/sample.pdf`` (a form feed, shown here as ``<FF>``,
ends each page)::

    glyphweave sample — page one
    This line is set with TJ kerning: Wave, Toy, AVA, Vowel.
    Words placed by offsets alone.
    The next words are positioned by Td.
    “Quotes”, café, naïve and € 5 decode through WinAnsiEncoding.
    A fake-bold word: bold and the sentence goes on.
    <FF>Page two
    Extract only this page with --pages 2.
    <FF>

With ``--profile raw`` (no filters) the fake-bold line reads ``boldboldbold`` and both HIDDEN lines appear.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pikepdf
from pikepdf import Array, Dictionary, Name

HERE = Path(__file__).resolve().parent

# Helvetica advance widths (1/1000 em) for WinAnsiEncoding codes 32..255, from Adobe's Core 14 AFM
# (Helvetica.afm); codes WinAnsi leaves undefined (127, 129, 141, 143, 144, 157) are 0.
HELVETICA_WINANSI_WIDTHS = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, 0,
    556, 0, 222, 556, 333, 1000, 556, 556, 333, 1000, 667, 333, 1000, 0, 611, 0,
    0, 222, 222, 333, 333, 350, 556, 1000, 333, 1000, 500, 333, 944, 0, 500, 667,
    278, 333, 556, 556, 556, 556, 260, 556, 333, 737, 370, 556, 584, 333, 737, 333,
    400, 584, 333, 333, 333, 556, 537, 278, 333, 333, 365, 556, 834, 834, 834, 611,
    667, 667, 667, 667, 667, 667, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278,
    722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611,
    556, 556, 556, 556, 556, 556, 889, 500, 556, 556, 556, 556, 278, 278, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 584, 611, 556, 556, 556, 556, 500, 556, 500,
]  # fmt: skip
SPACE = HELVETICA_WINANSI_WIDTHS[0]


def enc(text: str) -> bytes:
    """Encode text as WinAnsi codes (cp1252 is WinAnsiEncoding for every code we use)."""
    return text.encode("cp1252")


def width(text: str, size: float) -> float:
    """Advance of ``text`` in points at ``size``, from the /Widths above."""
    return sum(HELVETICA_WINANSI_WIDTHS[c - 32] for c in enc(text)) * size / 1000


def lit(text: str) -> str:
    """A PDF literal string for ``text``, in 7-bit ASCII (octal escapes above 0x7E)."""
    out = []
    for c in enc(text):
        if c in b"()\\":
            out.append("\\" + chr(c))
        elif 32 <= c < 127:
            out.append(chr(c))
        else:
            out.append(f"\\{c:03o}")
    return "(" + "".join(out) + ")"


def tj(*parts: str | int) -> str:
    """A TJ array: strings are shown, integers move the pen left by n/1000 em (negative: right)."""
    return "[" + " ".join(lit(p) if isinstance(p, str) else str(p) for p in parts) + "] TJ"


def page_one() -> str:
    x, size = 72, 11
    ops = [
        # Heading.
        f"BT /F1 20 Tf {x} 700 Td {lit('glyphweave sample — page one')} Tj ET",
        # Body: 11 pt, 14 pt leading, lines advanced with T*.
        f"BT /F1 {size} Tf 14 TL {x} 660 Td",
        # Kerning inside words: must not turn into spaces.
        tj(
            "This line is set with TJ k",
            20,
            "erning: W",
            80,
            "ave, T",
            70,
            "oy, A",
            60,
            "V",
            50,
            "A, V",
            -30,
            "owel.",
        ),
        "T*",
        # No space characters at all: every word gap is a TJ offset one space wide.
        tj("Words", -SPACE, "placed", -SPACE, "by", -SPACE, "offsets", -SPACE, "alone."),
        "T*",
        # A second run positioned by Td, one space width after the first run ends.
        f"{lit('The next words')} Tj",
        f"{width('The next words', size) + width(' ', size):.3f} 0 Td {lit('are positioned by Td.')} Tj",
        f"{-(width('The next words', size) + width(' ', size)):.3f} -14 Td",
        # WinAnsi codes that differ from Latin-1 (0x80-0x9F) and accented letters.
        f"{lit('“Quotes”, café, naïve and € 5 decode through WinAnsiEncoding.')} Tj",
        "ET",
    ]
    # Fake bold: the same word painted three times, 0.3 pt apart (the first paint is the one kept).
    y = 660 - 4 * 14
    lead = "A fake-bold word: "
    bold_x = x + width(lead, size)
    ops.append(f"BT /F1 {size} Tf {x} {y} Td {lit(lead.rstrip())} Tj ET")
    for dx, dy in ((0, 0), (0.3, 0), (0.3, 0.3)):
        ops.append(f"BT /F1 {size} Tf {bold_x + dx:.3f} {y + dy:.3f} Td {lit('bold')} Tj ET")
    tail_x = bold_x + width("bold ", size)
    ops.append(f"BT /F1 {size} Tf {tail_x:.3f} {y} Td {lit('and the sentence goes on.')} Tj ET")
    # Outside the CropBox (36 36 576 756) but inside the MediaBox: must not be extracted.
    ops.append(f"BT /F1 9 Tf {x} 18 Td {lit('HIDDEN: this line lies below the CropBox.')} Tj ET")
    ops.append(f"BT /F1 9 Tf 582 400 Td {lit('HIDDEN: margin')} Tj ET")
    return "\n".join(ops) + "\n"


def page_two() -> str:
    return (
        f"BT /F1 20 Tf 72 700 Td {lit('Page two')} Tj ET\n"
        f"BT /F1 11 Tf 72 660 Td {lit('Extract only this page with --pages 2.')} Tj ET\n"
    )


def build(out: Path) -> None:
    pdf = pikepdf.new()
    font = pdf.make_indirect(
        Dictionary(
            Type=Name.Font,
            Subtype=Name.Type1,
            BaseFont=Name.Helvetica,
            Encoding=Name.WinAnsiEncoding,
            FirstChar=32,
            LastChar=255,
            Widths=Array(HELVETICA_WINANSI_WIDTHS),
        )
    )
    resources = pdf.make_indirect(Dictionary(Font=Dictionary(F1=font)))
    for content in (page_one(), page_two()):
        page = Dictionary(
            Type=Name.Page,
            MediaBox=Array([0, 0, 612, 792]),
            CropBox=Array([36, 36, 576, 756]),
            Resources=resources,
            Contents=pdf.make_stream(content.encode("ascii")),
        )
        pdf.pages.append(pikepdf.Page(pdf.make_indirect(page)))
    pdf.save(
        out,
        compress_streams=False,
        object_stream_mode=pikepdf.ObjectStreamMode.disable,
        deterministic_id=True,
        fix_metadata_version=False,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, default=HERE / "sample.pdf")
    args = parser.parse_args()
    build(args.output)
    print(f"wrote {args.output} ({args.output.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
