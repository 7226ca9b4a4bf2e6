"""Generate ``src/glyphweave/tables/resources/encodings/base_encodings.tsv`` (and its PROVENANCE).

The five simple-font base encodings of ISO 32000-1 Annex D, as glyph names per code:

- StandardEncoding: ``fontTools.encodings.StandardEncoding``.
- WinAnsiEncoding: Python's ``cp1252`` codec, each character named through
  ``fontTools.agl`` (see ``_name``), then the Annex D rules: 0xA0 is ``space`` and 0xAD is
  ``hyphen`` (table D.2, footnotes 1 and 2), and every unused code above 0x20 (0x7F, 0x81,
  0x8D, 0x8F, 0x90, 0x9D) is ``bullet`` (footnote 3). Codes below 0x20 are undefined.
- MacRomanEncoding: the PDF variant, not Mac OS Roman. ``fontTools.encodings.MacRoman``
  is Mac OS Roman, so the 15 glyphs Annex D leaves out (notequal, infinity, lessequal,
  greaterequal, partialdiff, summation, product, pi, integral, Omega, radical,
  approxequal, Delta, lozenge, apple) are undefined, 0xCA is ``space`` (footnote 1),
  0xDB stays ``currency`` (PDF never took Mac OS 8.5's Euro there), and codes below 0x20
  and 0x7F are undefined.
- PDFDocEncoding: pikepdf's registered ``pdfdoc`` codec, named through ``fontTools.agl``; the
  control codes (0x00-0x17) are undefined, as they have no glyph.
- MacExpertEncoding: parsed from Ghostscript's ``Resource/Init/gs_mex_e.ps`` (the same
  table as ISO 32000-1 Annex D.4); no installed Python package carries it.

With ``--gs-init`` pointing at Ghostscript's ``Resource/Init`` folder, the derived
Standard, WinAnsi, MacRoman and PDFDoc tables are also cross-checked against
Ghostscript's own vectors (gs_std_e.ps, gs_wan_e.ps, gs_mro_e.ps, gs_pdf_e.ps); any
disagreement stops the run. Debian ships that folder in ``libgs10-common``::

    apt-get download libgs10-common && dpkg-deb -x libgs10-common_*.deb /tmp/gs
    python tools/gen_encodings.py --gs-init /tmp/gs/usr/share/ghostscript/*/Resource/Init \
        --gs-label "Debian libgs10-common 10.0.0~dfsg-11+deb12u9"

Only facts (which glyph name sits at which code) are taken from Ghostscript.

It also writes ``base_encoding_text.tsv``: each code's text, the AGL's reading of its glyph
name (``fontTools.agl.toUnicode``), so that decoding a base-encoded font does not load the
whole AGL on first use. It writes ``glyph_list.tsv.gz`` too: the whole Adobe Glyph List
(``fontTools.agl.LEGACY_AGL2UV``), which ``glyph_name_to_unicode`` reads instead of importing
fontTools.agl. ``--text-only`` rewrites just those two files (and their PROVENANCE entries)
from the shipped ``base_encodings.tsv``, without Ghostscript.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from pathlib import Path

import fontTools
import pikepdf

from glyphweave.tables.derived_encodings import (
    Table,
    macroman,
    pdfdoc,
    standard,
    winansi,
)

NAMES = ("StandardEncoding", "WinAnsiEncoding", "MacRomanEncoding", "MacExpertEncoding", "PDFDocEncoding")
OUT = Path(__file__).resolve().parents[1] / "src" / "glyphweave" / "tables" / "resources" / "encodings"


_TOKEN = re.compile(r"/[^\s/\[\]{}()<>%]+|[^\s/\[\]{}()<>%]+")


def parse_gs_vector(path: Path, known: dict[str, Table]) -> Table:
    """The 256 names of the encoding a Ghostscript ``gs_*_e.ps`` file defines.

    Understands what those files use: literal names, and ``Vector start count getinterval
    aload pop`` copying a run from a vector defined earlier (passed in ``known``).
    """
    text = "\n".join(line.split("%", 1)[0] for line in path.read_text("latin-1").splitlines())
    tokens = _TOKEN.findall(text)
    start = next(i for i, t in enumerate(tokens) if t.startswith("/") and t.endswith("Encoding"))
    out: list[str] = []
    i = start + 1
    while len(out) < 256:
        token = tokens[i]
        if token.startswith("/"):
            out.append(token[1:])
            i += 1
        elif token in known and tokens[i + 3 : i + 6] == ["getinterval", "aload", "pop"]:
            first, count = int(tokens[i + 1]), int(tokens[i + 2])
            out.extend(n or ".notdef" for n in known[token][first : first + count])
            i += 6
        else:
            raise SystemExit(f"{path.name}: unexpected token {token!r}")
    return [None if n == ".notdef" else n for n in out]


def cross_check(name: str, ours: Table, theirs: Table) -> None:
    diffs = [
        f"  {c:02X}: ours {o!r}, Ghostscript {t!r}"
        for c, (o, t) in enumerate(zip(ours, theirs, strict=True))
        if o != t
    ]
    if diffs:
        raise SystemExit(f"{name} differs from Ghostscript:\n" + "\n".join(diffs))
    print(f"{name}: matches Ghostscript", file=sys.stderr)


TEXT_FILE = "base_encoding_text.tsv"
GLYPH_LIST_FILE = "glyph_list.tsv.gz"


def write_glyph_list() -> str:
    """Write the full Adobe Glyph List (fontTools.agl.LEGACY_AGL2UV) as name, then its code
    points in hex, sorted by name and gzipped without a timestamp; returns the PROVENANCE
    entry of the file."""
    import gzip

    from fontTools.agl import LEGACY_AGL2UV

    lines = [
        "# The Adobe Glyph List: each glyph name and its text, as hex code points.",
        "# Generated by tools/gen_encodings.py from fontTools.agl; do not edit.",
    ]
    lines += [name + "\t" + " ".join(f"{point:04X}" for point in points)
              for name, points in sorted(LEGACY_AGL2UV.items())]
    data = gzip.compress(("\n".join(lines) + "\n").encode("ascii"), mtime=0)
    (OUT / GLYPH_LIST_FILE).write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    print(f"wrote {GLYPH_LIST_FILE} ({len(LEGACY_AGL2UV)} names) sha256={digest}", file=sys.stderr)
    return GLYPH_LIST_PROVENANCE.format(fonttools=fontTools.version, sha256=digest)


def write_text_table(tables: dict[str, Table]) -> str:
    """Write each code's text per base encoding (hex code points, '-' for none); returns the
    PROVENANCE entry of the file."""
    from fontTools.agl import toUnicode

    def text(glyph: str | None) -> str:
        value = toUnicode(glyph) if glyph is not None else ""
        return " ".join(f"{ord(ch):04X}" for ch in value) if value else "-"

    lines = [
        "# The text of each code of the base encodings: the AGL's reading of base_encodings.tsv's",
        "# glyph names, as hex code points ('-': none). Generated by tools/gen_encodings.py; do not edit.",
        "\t".join(("code", *NAMES)),
    ]
    for code in range(256):
        lines.append("\t".join((f"{code:02X}", *(text(tables[n][code]) for n in NAMES))))
    data = ("\n".join(lines) + "\n").encode("ascii")
    (OUT / TEXT_FILE).write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    print(f"wrote {TEXT_FILE} sha256={digest}", file=sys.stderr)
    return TEXT_PROVENANCE.format(fonttools=fontTools.version, sha256=digest)


def _shipped_tables() -> dict[str, Table]:
    from glyphweave.tables.encodings import _parse_tables

    return {name: list(glyphs) for name, glyphs in
            _parse_tables((OUT / "base_encodings.tsv").read_text("ascii")).items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gs-init", type=Path, help="Ghostscript Resource/Init folder")
    parser.add_argument("--gs-label", default="Ghostscript Resource/Init", help="where that folder came from")
    parser.add_argument("--text-only", action="store_true",
                        help=f"only rewrite {TEXT_FILE} from the shipped base_encodings.tsv")
    args = parser.parse_args(argv)
    if args.text_only:
        entry = write_text_table(_shipped_tables())
        provenance = (OUT / "PROVENANCE").read_text(encoding="utf-8")
        head = provenance.split(TEXT_FILE + "\n", 1)[0].rstrip("\n")
        (OUT / "PROVENANCE").write_text(head + "\n\n" + entry + "\n" + write_glyph_list(), encoding="utf-8")
        return
    if args.gs_init is None:
        parser.error("--gs-init is required (or --text-only)")
    gs: Path = args.gs_init

    tables = {
        "StandardEncoding": standard(),
        "WinAnsiEncoding": winansi(),
        "MacRomanEncoding": macroman(),
        "PDFDocEncoding": pdfdoc(),
    }
    known: dict[str, Table] = {}
    known["StandardEncoding"] = parse_gs_vector(gs / "gs_std_e.ps", known)
    known["ISOLatin1Encoding"] = parse_gs_vector(gs / "gs_il1_e.ps", known)
    for name, file in (
        ("StandardEncoding", "gs_std_e.ps"),
        ("WinAnsiEncoding", "gs_wan_e.ps"),
        ("MacRomanEncoding", "gs_mro_e.ps"),
        ("PDFDocEncoding", "gs_pdf_e.ps"),
    ):
        cross_check(name, tables[name], parse_gs_vector(gs / file, known))
    tables["MacExpertEncoding"] = parse_gs_vector(gs / "gs_mex_e.ps", known)

    lines = [
        "# Base encodings of ISO 32000-1 Annex D: glyph name per code, '-' when undefined.",
        "# Generated by tools/gen_encodings.py; see PROVENANCE. Do not edit by hand.",
        "\t".join(("code", *NAMES)),
    ]
    for code in range(256):
        lines.append("\t".join((f"{code:02X}", *(tables[n][code] or "-" for n in NAMES))))
    data = ("\n".join(lines) + "\n").encode("ascii")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "base_encodings.tsv").write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    entry = write_text_table(tables)
    (OUT / "PROVENANCE").write_text(
        PROVENANCE.format(
            fonttools=fontTools.version,
            pikepdf=pikepdf.__version__,
            python=".".join(map(str, sys.version_info[:3])),
            gs_label=args.gs_label,
            sha256=digest,
        ) + "\n" + entry + "\n" + write_glyph_list(),
        encoding="utf-8",
    )
    print(f"wrote base_encodings.tsv sha256={digest}", file=sys.stderr)


PROVENANCE = """\
base_encodings.tsv
  what:     the five base encodings of ISO 32000-1 Annex D (StandardEncoding, WinAnsiEncoding,
            MacRomanEncoding, MacExpertEncoding, PDFDocEncoding): code -> glyph name
  how:      python tools/gen_encodings.py (the rules per table are in that script's docstring);
            a char is named by fontTools.agl.UV2AGL (AGL for New Fonts), else by its single name
            in the full AGL (fontTools.agl.LEGACY_AGL2UV)
  sources:  StandardEncoding  fontTools {fonttools} fontTools.encodings.StandardEncoding (MIT)
            WinAnsiEncoding   Python {python} cp1252 codec + fontTools.agl names + Annex D footnotes
            MacRomanEncoding  fontTools {fonttools} fontTools.encodings.MacRoman, less the 15 Mac OS-only
                              glyphs, 0xCA = space (the PDF variant, not Mac OS Roman)
            PDFDocEncoding    pikepdf {pikepdf} 'pdfdoc' codec + fontTools.agl names
            MacExpertEncoding Ghostscript Resource/Init/gs_mex_e.ps ({gs_label}); facts only
  checked:  Standard, WinAnsi, MacRoman and PDFDoc agree code for code with Ghostscript's
            gs_std_e.ps, gs_wan_e.ps, gs_mro_e.ps and gs_pdf_e.ps from the same folder
  licence:  the tables are facts (the code-to-glyph-name assignments published in ISO 32000-1
            Annex D); no program text from the sources is included
  sha256:   {sha256}
"""

TEXT_PROVENANCE = """\
base_encoding_text.tsv
  what:     the text of each code of the five base encodings, as Unicode code points
  how:      python tools/gen_encodings.py [--text-only]: the glyph names of base_encodings.tsv
            read by fontTools {fonttools} fontTools.agl.toUnicode (the AGL specification's rules)
  why:      decoding a base-encoded font would otherwise load the whole AGL on first use
  licence:  facts derived from base_encodings.tsv and the Adobe Glyph List (BSD-3-Clause)
  sha256:   {sha256}
"""

GLYPH_LIST_PROVENANCE = """\
glyph_list.tsv.gz
  what:     the Adobe Glyph List (every name of its legacy list and the code points it gives)
  how:      python tools/gen_encodings.py [--text-only]: fontTools {fonttools} fontTools.agl.LEGACY_AGL2UV
  why:      importing fontTools.agl parses the list (7 ms per process); this copy reads in 1.5 ms
  licence:  the Adobe Glyph List (BSD-3-Clause, Adobe); facts only, no program text
  sha256:   {sha256}
"""


if __name__ == "__main__":
    main()
