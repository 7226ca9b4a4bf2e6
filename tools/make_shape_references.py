"""Build the shape matcher's reference table from fonts with open licences.

    python tools/make_shape_references.py [--fonts-list FILE] [--out PATH]

Each font of the list (one ``family<TAB>style<TAB>path<TAB>licence`` line per font; the
default list names the Debian packages' files: fonts-dejavu-core, fonts-liberation2,
fonts-noto-core, fonts-texgyre) is read with fontTools; every character of
:func:`characters` it has is drawn with the outline module's pen and reduced to its shape
(:mod:`glyphweave.glyphmap.raster`). Shapes of one character that are near copies of a
shape already kept (another family's, or another style's) are dropped, so the table keeps
the variety of the designs, not their number. The table and its PROVENANCE.tsv (one line
per font: family, style, file, its SHA-256, licence, shapes kept) are written to
``src/glyphweave/tables/resources/shapes/``. No font file is needed at run time.

The table format is documented in :mod:`glyphweave.glyphmap.shapes` (``load_references``).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import struct
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "src"))

from glyphweave.glyphmap.outline import glyph_path  # noqa: E402
from glyphweave.glyphmap.raster import GRID, grow, shape_of_path  # noqa: E402
from glyphweave.glyphmap.shapes import MAGIC, style_flags  # noqa: E402

OUT = os.path.join(HERE, "..", "src", "glyphweave", "tables", "resources", "shapes")

DEBIAN = "/usr/share/fonts/truetype"
GYRE = "/usr/share/texmf/fonts/opentype/public/tex-gyre"
OFL = "SIL Open Font License 1.1"
DEJAVU = "Bitstream Vera Fonts licence with DejaVu changes (public domain)"
GUST = "GUST Font License (LPPL 1.3c)"


def default_fonts() -> list[tuple[str, str, str, str]]:
    """family, style, path, licence of the fonts the table is built from."""
    fonts = []
    for family, stem, styles in (
        ("DejaVu Sans", "dejavu/DejaVuSans", {"regular": "", "bold": "-Bold", "italic": "-Oblique",
                                              "bold italic": "-BoldOblique"}),
        ("DejaVu Serif", "dejavu/DejaVuSerif", {"regular": "", "bold": "-Bold", "italic": "-Italic",
                                                "bold italic": "-BoldItalic"}),
        ("DejaVu Sans Mono", "dejavu/DejaVuSansMono", {"regular": "", "bold": "-Bold", "italic": "-Oblique",
                                                       "bold italic": "-BoldOblique"}),
    ):
        for style, suffix in styles.items():
            fonts.append((family, style, f"{DEBIAN}/{stem}{suffix}.ttf", DEJAVU))
    four = {"regular": "-Regular", "bold": "-Bold", "italic": "-Italic", "bold italic": "-BoldItalic"}
    for family, stem in (("Liberation Sans", "liberation2/LiberationSans"),
                         ("Liberation Serif", "liberation2/LiberationSerif"),
                         ("Liberation Mono", "liberation2/LiberationMono"),
                         ("Noto Sans", "noto/NotoSans"), ("Noto Serif", "noto/NotoSerif")):
        for style, suffix in four.items():
            fonts.append((family, style, f"{DEBIAN}/{stem}{suffix}.ttf", OFL))
    gyre = {"regular": "-regular", "bold": "-bold", "italic": "-italic", "bold italic": "-bolditalic"}
    for family, stem in (("TeX Gyre Termes", "texgyretermes"), ("TeX Gyre Heros", "texgyreheros"),
                         ("TeX Gyre Cursor", "texgyrecursor"), ("TeX Gyre Pagella", "texgyrepagella"),
                         ("TeX Gyre Schola", "texgyreschola"), ("TeX Gyre Bonum", "texgyrebonum"),
                         ("TeX Gyre Adventor", "texgyreadventor")):
        for style, suffix in gyre.items():
            fonts.append((family, style, f"{GYRE}/{stem}{suffix}.otf", GUST))
    return fonts


def characters() -> list[str]:
    """The characters the references cover: what a Latin, Greek or Cyrillic text is likely
    to use (letters with their accents, digits, punctuation, the common symbols)."""
    chars: list[str] = []
    ranges = [
        (0x21, 0x7E),    # ASCII
        (0xA1, 0xFF),    # Latin-1
        (0x100, 0x17F),  # Latin Extended-A
        (0x391, 0x3A9), (0x3B1, 0x3C9),  # Greek
        (0x410, 0x44F), (0x401, 0x401), (0x451, 0x451),  # Cyrillic
        (0x2010, 0x2027), (0x2030, 0x203A),  # general punctuation
        (0x2190, 0x2195),  # arrows
        (0x2200, 0x2212), (0x2218, 0x221E), (0x2227, 0x222B), (0x2248, 0x2248), (0x2260, 0x2265),
        (0x2282, 0x2287),  # mathematical operators
    ]
    singles = "€™™ƒ†‡•…‰№ℓ℮∂∆∏∑−√∞∫≈≠≤≥■□▪▫▲►▼◄◆◇○●◦★☆✓✔✗✘♠♣♥♦ﬀﬁﬂﬃﬄ"
    for first, last in ranges:
        for point in range(first, last + 1):
            char = chr(point)
            if unicodedata.category(char)[0] in "LNPSM" and char not in chars:
                chars.append(char)
    for char in singles:
        if char not in chars:
            chars.append(char)
    return chars


def font_shapes(path: str, wanted: list[str]) -> tuple[list[tuple[str, object]], float]:
    """The shapes of ``wanted`` in the font at ``path`` and the font's x-height in em."""
    from fontTools.ttLib import TTFont

    font = TTFont(path, lazy=True)
    cmap = font.getBestCmap() or {}
    glyph_set = font.getGlyphSet()
    upem = font["head"].unitsPerEm
    found = []
    for char in wanted:
        name = cmap.get(ord(char))
        if name is None:
            continue
        drawn, advance = glyph_path(glyph_set[name], glyph_set)
        shape = shape_of_path(drawn, upem, advance) if drawn else None
        if shape is not None:
            found.append((char, shape))
    x_height = next((s.box[3] for c, s in found if c == "x"), 0.0)
    return found, x_height


def near_copy(shape, grown: int, x_height: float, kept: list[tuple], tolerance: int) -> bool:
    """Whether a shape is a copy of one already kept: the same pieces and counters, the
    same proportions and place (within 0.1 of ``log(width / height)``, 0.05 x-height),
    and within ``tolerance`` stray pixels."""
    x0, y0, x1, y1 = shape.box
    aspect = shape.aspect
    for other, other_grown, other_aspect, other_bottom, other_top, parts, holes in kept:
        if (parts, holes) != (shape.parts, shape.holes) or abs(aspect - other_aspect) > 0.1:
            continue
        if abs(y0 / x_height - other_bottom) > 0.05 or abs(y1 / x_height - other_top) > 0.05:
            continue
        if (shape.bits & ~other_grown).bit_count() + (other & ~grown).bit_count() <= tolerance:
            return True
    return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fonts-list", help="family<TAB>style<TAB>path<TAB>licence per line")
    parser.add_argument("--out", default=OUT)
    parser.add_argument("--tolerance", type=int, default=2, help="stray pixels under which a shape is a copy")
    args = parser.parse_args(argv)
    if args.fonts_list:
        with open(args.fonts_list, encoding="utf-8") as handle:
            fonts = [tuple(line.rstrip("\n").split("\t")) for line in handle if line.strip()]
    else:
        fonts = default_fonts()
    wanted = characters()
    kept: dict[str, list[tuple]] = {}
    records: list[bytes] = []
    used: dict[str, int] = {}
    provenance = []
    for family, style, path, licence in fonts:
        if not os.path.exists(path):
            raise SystemExit(f"{path}: not found (install the Debian font packages named in this tool's doc)")
        shapes, x_height = font_shapes(path, wanted)
        if x_height <= 0:
            raise SystemExit(f"{path}: no 'x' to measure the x-height by")
        flags = style_flags(family, style)
        count = 0
        for char, shape in shapes:
            grown = grow(shape.bits)
            have = kept.setdefault(char, [])
            if near_copy(shape, grown, x_height, have, args.tolerance):
                continue
            have.append((shape.bits, grown, shape.aspect, shape.box[1] / x_height, shape.box[3] / x_height,
                         shape.parts, shape.holes))
            index = used.setdefault(char, len(used))
            x0, y0, x1, y1 = shape.box
            records.append(struct.pack("<HB", index, flags) + shape.bits.to_bytes(GRID * GRID // 8, "little")
                           + struct.pack("<6h2B", *(round(v * 1000) for v in (x0, y0, x1, y1, shape.advance, x_height)),
                                       min(shape.parts, 255), min(shape.holes, 255)))
            count += 1
        with open(path, "rb") as handle:
            digest = hashlib.sha256(handle.read()).hexdigest()
        provenance.append(f"{family}\t{style}\t{os.path.basename(path)}\t{digest}\t{licence}\t{count}")
    alphabet = "".join(used).encode("utf-8")
    body = MAGIC + struct.pack("<HII", GRID, len(alphabet), len(records)) + alphabet + b"".join(records)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "references.bin"), "wb") as handle:
        handle.write(body)
    with open(os.path.join(args.out, "PROVENANCE.tsv"), "w", encoding="utf-8") as handle:
        handle.write("family\tstyle\tfile\tsha256\tlicence\tshapes\n")
        handle.write("\n".join(provenance) + "\n")
    print(f"{len(records)} shapes of {len(used)} characters from {len(fonts)} fonts", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
