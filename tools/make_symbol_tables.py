#!/usr/bin/env python3
"""Generate the symbol-font tables shipped in ``glyphweave/tables/resources/symbols``.

Writes, deterministically (same input -> same bytes):

* ``zapfdingbats.tsv``: ``a-name<TAB>Unicode hex`` for the 202 names of Adobe's *ITC Zapf
  Dingbats Glyph List* (``zapfdingbats.txt``, table version 2.0). Source: the copy Apache
  PDFBox ships, read from the Debian package ``libpdfbox2-java`` (the jar
  ``pdfbox-2.0.27.jar``, resource ``org/apache/pdfbox/resources/glyphlist/zapfdingbats.txt``).
  Only the name/value pairs are kept; Adobe's BSD-style copyright notice is repeated in the
  file header as its licence asks. The code -> a-name step is *not* here: it is the built-in
  encoding of the ZapfDingbats AFM, already mirrored in ``resources/std14/metrics.tsv``.
* ``symbol_overrides.tsv``: ``glyph name<TAB>Unicode hex<TAB>source``: the Symbol-font glyphs
  for which the Adobe Glyph List answers only a Corporate-Use (PUA) code point, mapped to a
  standard character. Written from the facts listed in :data:`SYMBOL_OVERRIDES` below (our own
  table); the code -> glyph name step is the Symbol AFM's built-in encoding (std14 mirror) and
  every other name goes through the AGL (fontTools).
* ``wingdings.tsv``: ``code<TAB>Unicode hex<TAB>glyph name`` for Microsoft's Wingdings font
  (codes 0x20-0xFE). The Unicode column comes from the facts in :data:`WINGDINGS` below: the correspondence Unicode 7.0 (2014) was built
  for when it encoded the Wingdings/Webdings pictographs (proposal L2/11-052 and its successors),
  as reproduced in the Wikipedia "Wingdings" article; cross-checked entry by entry against the
  independent table in gaspardpetit/Docxport.Net ``DocxportNet/symbols/WingdingsEncoding.cs``
  (no differences). 0x7F and 0xFF (the Windows logo) have no Unicode character and are absent.
  The glyph-name column (the names in the Wingdings font's own post table, which writers such
  as Ghostscript put in /Differences: ``zerosans``, ``onesansinv``, ``head2right``, ...) is read
  from the Debian package ``libpdf-api2-perl`` (PDF::API2's core-font table
  ``PDF/API2/Resource/Font/CoreFont/wingdings.pm``, its ``char`` list; LGPL-2.1+, facts only).
* ``PROVENANCE.tsv``: one row per file: source package, version, path, licence, sha256, size.

Webdings is not included: libpdf-api2-perl has its glyph names but no Unicode values, and no
trustworthy installable Webdings -> Unicode table was found.

Usage::

    cd /tmp && apt-get download libpdfbox2-java libpdf-api2-perl
    dpkg-deb -x libpdfbox2-java_*.deb pdfbox && dpkg-deb -x libpdf-api2-perl_*.deb api2
    python tools/make_symbol_tables.py \\
        --jar /tmp/pdfbox/usr/share/maven-repo/org/apache/pdfbox/pdfbox/2.0.27/pdfbox-2.0.27.jar \\
        --api2-wingdings /tmp/api2/usr/share/perl5/PDF/API2/Resource/Font/CoreFont/wingdings.pm

(or install both packages and omit the paths; ``--source-version``/``--api2-version`` give the
Debian versions recorded in the provenance).

``--check`` regenerates in memory and exits 1 if the committed files differ.
"""

from __future__ import annotations

import argparse
import re
import sys
import zipfile
from pathlib import Path

from provenance import render_provenance

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "src" / "glyphweave" / "tables" / "resources" / "symbols"
GENERATOR = "tools/make_symbol_tables.py"
FORMAT_VERSION = 1
ZAPF_RESOURCE = "org/apache/pdfbox/resources/glyphlist/zapfdingbats.txt"
DEFAULT_JAR = Path("/usr/share/java/pdfbox2.jar")
DEFAULT_API2 = Path("/usr/share/perl5/PDF/API2/Resource/Font/CoreFont/wingdings.pm")
API2_PATH = "PDF/API2/Resource/Font/CoreFont/wingdings.pm"
ZAPF_LICENCE = "BSD-3-Clause (Adobe Systems Incorporated 2002, 2010; notice kept in the file header)"

# Symbol glyphs whose AGL value is Corporate-Use PUA -> the standard character.
# Sources (facts only):
#   symbol.txt  = Unicode's VENDORS/ADOBE/symbol.txt (also lists U+00A9/U+00AE/U+2122 for the
#                 serif copyright/registered/trademark glyphs); the sans forms get the same
#                 characters, as the eval truth (shared/eval README rule 8) requires.
#   apple-c02   = Unicode's VENDORS/APPLE/SYMBOL.TXT, version c02 (2005): the Mac OS Symbol
#                 layout equals Adobe Symbol here; its b4/c1 revision (2002) moved the glyph
#                 fragments 0xBE, 0xE6-0xEF, 0xF4, 0xF6-0xFE to the Unicode 3.2 characters.
#                 Cross-checked with Perl Encode's "MacSymbol" table (perl 5.36, Debian).
#   uncertain   = our choice, documented: U+23D0 VERTICAL LINE EXTENSION (Unicode 4.0, added
#                 for such extenders); Apple c02 changed 0xBD but the value could not be
#                 confirmed from an installable copy.
# Left unresolved on purpose: radicalex (0x60, F8E5) and apple (F8FF): no table gives a
# standard character, so they stay PUA -> unresolved.
SYMBOL_OVERRIDES: tuple[tuple[str, int, str], ...] = (
    ("copyrightserif", 0x00A9, "symbol.txt"),
    ("copyrightsans", 0x00A9, "symbol.txt+eval-rule-8"),
    ("registerserif", 0x00AE, "symbol.txt"),
    ("registersans", 0x00AE, "symbol.txt+eval-rule-8"),
    ("trademarkserif", 0x2122, "symbol.txt"),
    ("trademarksans", 0x2122, "symbol.txt+eval-rule-8"),
    ("Delta", 0x0394, "symbol.txt (AGL prefers U+2206 INCREMENT; the Symbol font's Greek row)"),
    ("Omega", 0x03A9, "symbol.txt (AGL prefers U+2126 OHM SIGN; the Symbol font's Greek row)"),
    ("arrowhorizex", 0x23AF, "apple-c02"),
    ("arrowvertex", 0x23D0, "uncertain"),
    ("parenlefttp", 0x239B, "apple-c02"),
    ("parenleftex", 0x239C, "apple-c02"),
    ("parenleftbt", 0x239D, "apple-c02"),
    ("bracketlefttp", 0x23A1, "apple-c02"),
    ("bracketleftex", 0x23A2, "apple-c02"),
    ("bracketleftbt", 0x23A3, "apple-c02"),
    ("bracelefttp", 0x23A7, "apple-c02"),
    ("braceleftmid", 0x23A8, "apple-c02"),
    ("braceleftbt", 0x23A9, "apple-c02"),
    ("braceex", 0x23AA, "apple-c02"),
    ("integralex", 0x23AE, "apple-c02"),
    ("parenrighttp", 0x239E, "apple-c02"),
    ("parenrightex", 0x239F, "apple-c02"),
    ("parenrightbt", 0x23A0, "apple-c02"),
    ("bracketrighttp", 0x23A4, "apple-c02"),
    ("bracketrightex", 0x23A5, "apple-c02"),
    ("bracketrightbt", 0x23A6, "apple-c02"),
    ("bracerighttp", 0x23AB, "apple-c02"),
    ("bracerightmid", 0x23AC, "apple-c02"),
    ("bracerightbt", 0x23AD, "apple-c02"),
)

# Wingdings code -> Unicode code point (see the module docstring for the source).
_W = {
    0x20: 0x0020, 0x21: 0x1F589, 0x22: 0x2702, 0x23: 0x2701, 0x24: 0x1F453, 0x25: 0x1F56D,
    0x26: 0x1F56E, 0x27: 0x1F56F, 0x28: 0x1F57F, 0x29: 0x2706, 0x2A: 0x1F582, 0x2B: 0x1F583,
    0x2C: 0x1F4EA, 0x2D: 0x1F4EB, 0x2E: 0x1F4EC, 0x2F: 0x1F4ED, 0x30: 0x1F4C1, 0x31: 0x1F4C2,
    0x32: 0x1F4C4, 0x33: 0x1F5CF, 0x34: 0x1F5D0, 0x35: 0x1F5C4, 0x36: 0x231B, 0x37: 0x1F5AE,
    0x38: 0x1F5B0, 0x39: 0x1F5B2, 0x3A: 0x1F5B3, 0x3B: 0x1F5B4, 0x3C: 0x1F5AB, 0x3D: 0x1F5AC,
    0x3E: 0x2707, 0x3F: 0x270D, 0x40: 0x1F58E, 0x41: 0x270C, 0x42: 0x1F44C, 0x43: 0x1F44D,
    0x44: 0x1F44E, 0x45: 0x261C, 0x46: 0x261E, 0x47: 0x261D, 0x48: 0x261F, 0x49: 0x1F590,
    0x4A: 0x263A, 0x4B: 0x1F610, 0x4C: 0x2639, 0x4D: 0x1F4A3, 0x4E: 0x2620, 0x4F: 0x1F3F3,
    0x50: 0x1F3F1, 0x51: 0x2708, 0x52: 0x263C, 0x53: 0x1F4A7, 0x54: 0x2744, 0x55: 0x1F546,
    0x56: 0x271E, 0x57: 0x1F548, 0x58: 0x2720, 0x59: 0x2721, 0x5A: 0x262A, 0x5B: 0x262F,
    0x5C: 0x0950, 0x5D: 0x2638, 0x5E: 0x2648, 0x5F: 0x2649, 0x60: 0x264A, 0x61: 0x264B,
    0x62: 0x264C, 0x63: 0x264D, 0x64: 0x264E, 0x65: 0x264F, 0x66: 0x2650, 0x67: 0x2651,
    0x68: 0x2652, 0x69: 0x2653, 0x6A: 0x1F670, 0x6B: 0x1F675, 0x6C: 0x25CF, 0x6D: 0x1F53E,
    0x6E: 0x25A0, 0x6F: 0x25A1, 0x70: 0x1F790, 0x71: 0x2751, 0x72: 0x2752, 0x73: 0x2B27,
    0x74: 0x29EB, 0x75: 0x25C6, 0x76: 0x2756, 0x77: 0x2B25, 0x78: 0x2327, 0x79: 0x2BB9,
    0x7A: 0x2318, 0x7B: 0x1F3F5, 0x7C: 0x1F3F6, 0x7D: 0x1F676, 0x7E: 0x1F677,
    0x80: 0x24EA, 0x8B: 0x24FF,
    0x96: 0x1F662, 0x97: 0x1F660, 0x98: 0x1F661, 0x99: 0x1F663, 0x9A: 0x1F65E, 0x9B: 0x1F65C,
    0x9C: 0x1F65D, 0x9D: 0x1F65F, 0x9E: 0x00B7, 0x9F: 0x2022, 0xA0: 0x25AA, 0xA1: 0x26AA,
    0xA2: 0x1F786, 0xA3: 0x1F788, 0xA4: 0x25C9, 0xA5: 0x25CE, 0xA6: 0x1F53F, 0xA7: 0x25AA,
    0xA8: 0x25FB, 0xA9: 0x1F7C2, 0xAA: 0x2726, 0xAB: 0x2605, 0xAC: 0x2736, 0xAD: 0x2734,
    0xAE: 0x2739, 0xAF: 0x2735, 0xB0: 0x2BD0, 0xB1: 0x2316, 0xB2: 0x27E1, 0xB3: 0x2311,
    0xB4: 0x2BD1, 0xB5: 0x272A, 0xB6: 0x2730,
    0xC3: 0x2BB0, 0xC4: 0x2BB1, 0xC5: 0x2BB2, 0xC6: 0x2BB3, 0xC7: 0x2BB4, 0xC8: 0x2BB5,
    0xC9: 0x2BB6, 0xCA: 0x2BB7, 0xCB: 0x1F66A, 0xCC: 0x1F66B, 0xCD: 0x1F655, 0xCE: 0x1F654,
    0xCF: 0x1F657, 0xD0: 0x1F656, 0xD1: 0x1F650, 0xD2: 0x1F651, 0xD3: 0x1F652, 0xD4: 0x1F653,
    0xD5: 0x232B, 0xD6: 0x2326, 0xD7: 0x2B98, 0xD8: 0x2B9A, 0xD9: 0x2B99, 0xDA: 0x2B9B,
    0xDB: 0x2B88, 0xDC: 0x2B8A, 0xDD: 0x2B89, 0xDE: 0x2B8B, 0xDF: 0x1F868, 0xE0: 0x1F86A,
    0xE1: 0x1F869, 0xE2: 0x1F86B, 0xE3: 0x1F86C, 0xE4: 0x1F86D, 0xE5: 0x1F86F, 0xE6: 0x1F86E,
    0xE7: 0x1F878, 0xE8: 0x1F87A, 0xE9: 0x1F879, 0xEA: 0x1F87B, 0xEB: 0x1F87C, 0xEC: 0x1F87D,
    0xED: 0x1F87F, 0xEE: 0x1F87E, 0xEF: 0x21E6, 0xF0: 0x21E8, 0xF1: 0x21E7, 0xF2: 0x21E9,
    0xF3: 0x2B04, 0xF4: 0x21F3, 0xF5: 0x2B00, 0xF6: 0x2B01, 0xF7: 0x2B03, 0xF8: 0x2B02,
    0xF9: 0x1F8AC, 0xFA: 0x1F8AD, 0xFB: 0x1F5F6, 0xFC: 0x2714, 0xFD: 0x1F5F7, 0xFE: 0x1F5F9,
}  # fmt: skip
_W.update({0x81 + i: 0x2460 + i for i in range(10)})  # 1-10 in circles
_W.update({0x8C + i: 0x2776 + i for i in range(10)})  # 1-10 in black circles
_W.update({0xB7 + i: 0x1F550 + i for i in range(12)})  # clock faces one o'clock .. twelve
WINGDINGS: dict[int, int] = dict(sorted(_W.items()))


def parse_zapf(text: str) -> tuple[list[str], list[tuple[str, str]]]:
    """(copyright notice lines, [(name, hex)]) of Adobe's zapfdingbats.txt."""
    notice: list[str] = []
    pairs: list[tuple[str, str]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("#"):
            if not pairs and not line.startswith("# Format") and "Name:" not in line:
                notice.append(line)
            continue
        if not line:
            continue
        match = re.fullmatch(r"([A-Za-z0-9]+);([0-9A-F]{4})", line)
        if match is None:
            raise ValueError(f"zapfdingbats.txt: unexpected line {line!r}")
        pairs.append((match.group(1), match.group(2)))
    # Keep the copyright/licence block only (it ends at the dashed line after the disclaimer).
    end = max(i for i, line in enumerate(notice) if line.startswith("# ----"))
    return notice[: end + 1], pairs


def render_zapf(text: str, version: str) -> bytes:
    notice, pairs = parse_zapf(text)
    if len(pairs) < 200:
        raise ValueError(f"zapfdingbats.txt: only {len(pairs)} entries")
    out = [
        f"# glyphweave ZapfDingbats glyph list, format {FORMAT_VERSION}. Generated by {GENERATOR}; do not edit.",
        f"# Facts of Adobe's ITC Zapf Dingbats Glyph List 2.0 (zapfdingbats.txt) as shipped in Debian "
        f"libpdfbox2-java {version} ({ZAPF_RESOURCE}), reformatted as 'name<TAB>hex'. Its notice:",
        *notice,
        "name\tunicode",
        *(f"{name}\t{value}" for name, value in sorted(pairs, key=lambda p: _name_key(p[0]))),
    ]
    return ("\n".join(out) + "\n").encode("ascii")


def _name_key(name: str) -> tuple[str, int]:
    match = re.fullmatch(r"([a-z]+)(\d+)", name)
    return (match.group(1), int(match.group(2))) if match else (name, -1)


def render_overrides() -> bytes:
    out = [
        f"# glyphweave Symbol-font overrides, format {FORMAT_VERSION}. Generated by {GENERATOR}; do not edit.",
        "# Glyph names whose Adobe Glyph List value is Private Use, mapped to a standard character.",
        "# Sources are explained in the generator (SYMBOL_OVERRIDES); this table is our own.",
        "name\tunicode\tsource",
        *(f"{name}\t{value:04X}\t{source}" for name, value, source in SYMBOL_OVERRIDES),
    ]
    return ("\n".join(out) + "\n").encode("utf-8")


def parse_api2_names(text: str) -> list[str]:
    """The 256 glyph names of the ``'char' => [ ... ]`` list of PDF::API2's wingdings.pm."""
    match = re.search(r"'char' => \[(.*?)\]", text, re.S)
    if match is None:
        raise ValueError("wingdings.pm: no 'char' list")
    names = re.findall(r"^\s*'([^']+)',", match.group(1), re.M)
    if len(names) != 256:
        raise ValueError(f"wingdings.pm: {len(names)} names in the 'char' list, expected 256")
    return names


def render_wingdings(names: list[str], api2_version: str) -> bytes:
    out = [
        f"# glyphweave Wingdings table, format {FORMAT_VERSION}. Generated by {GENERATOR}; do not edit.",
        "# Microsoft Wingdings code -> Unicode, per the Unicode 7.0 Wingdings/Webdings correspondence",
        "# (see the generator's docstring for sources and cross-checks). 0x7F and 0xFF have no character.",
        f"# Glyph names: the Wingdings font's own, from Debian libpdf-api2-perl {api2_version} ({API2_PATH}).",
        "code\tunicode\tname",
        *(f"{code:02X}\t{value:04X}\t{names[code]}" for code, value in WINGDINGS.items()),
    ]
    return ("\n".join(out) + "\n").encode("ascii")


def build(jar: Path, version: str, api2: Path, api2_version: str) -> dict[str, bytes]:
    names = parse_api2_names(api2.read_text(encoding="utf-8"))
    zapf_text = zipfile.ZipFile(jar).read(ZAPF_RESOURCE).decode("ascii")
    rows = [
        (
            "zapfdingbats.tsv",
            render_zapf(zapf_text, version),
            "libpdfbox2-java (Debian)",
            version,
            f"{jar.name}!/{ZAPF_RESOURCE}",
            ZAPF_LICENCE,
        ),
        (
            "symbol_overrides.tsv",
            render_overrides(),
            "glyphweave (own table)",
            f"format {FORMAT_VERSION}",
            f"{GENERATOR} SYMBOL_OVERRIDES",
            "facts from Unicode VENDORS/ADOBE/symbol.txt and VENDORS/APPLE/SYMBOL.TXT c02; project licence",
        ),
        (
            "wingdings.tsv",
            render_wingdings(names, api2_version),
            "glyphweave (own table) + libpdf-api2-perl (Debian) for glyph names",
            f"format {FORMAT_VERSION}; libpdf-api2-perl {api2_version}",
            f"{GENERATOR} WINGDINGS; {API2_PATH} 'char' list",
            "facts: Unicode 7.0 Wingdings correspondence (L2/11-052); names from LGPL-2.1+ PDF::API2",
        ),
    ]
    files = {row[0]: row[1] for row in rows}
    files["PROVENANCE.tsv"] = render_provenance("symbols", GENERATOR, rows)
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jar", default=str(DEFAULT_JAR), help="pdfbox 2 jar holding zapfdingbats.txt")
    parser.add_argument("--source-version", default="2.0.27-2", help="Debian version of libpdfbox2-java")
    parser.add_argument("--api2-wingdings", default=str(DEFAULT_API2), help="PDF::API2's wingdings.pm")
    parser.add_argument("--api2-version", default="2.044-1", help="Debian version of libpdf-api2-perl")
    parser.add_argument("--out", default=str(DEFAULT_OUT))
    parser.add_argument("--check", action="store_true", help="compare with the files in --out, write nothing")
    args = parser.parse_args(argv)
    jar = Path(args.jar)
    if not jar.is_file():
        sys.exit(f"{jar} not found: apt-get download libpdfbox2-java, dpkg-deb -x it and pass --jar")
    api2 = Path(args.api2_wingdings)
    if not api2.is_file():
        sys.exit(
            f"{api2} not found: apt-get download libpdf-api2-perl, dpkg-deb -x it, pass --api2-wingdings"
        )
    files = build(jar, args.source_version, api2, args.api2_version)
    out = Path(args.out)
    if args.check:
        stale = [n for n, d in files.items() if not (out / n).is_file() or (out / n).read_bytes() != d]
        for name in stale:
            print(f"differs: {out / name}", file=sys.stderr)
        return 1 if stale else 0
    out.mkdir(parents=True, exist_ok=True)
    for name, data in sorted(files.items()):
        (out / name).write_bytes(data)
        print(f"wrote {out / name} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
