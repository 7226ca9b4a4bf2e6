#!/usr/bin/env python3
"""Generate the standard-14 font metrics mirror shipped in ``glyphweave/tables/resources/std14``.

Writes, deterministically (same AFM input -> same bytes):

* ``metrics.tsv``: for each of the 14 standard fonts, an ``@font`` header line with the
  font-wide metrics, then one ``glyphname<TAB>width<TAB>code`` row per glyph in AFM order
  (width in 1/1000 em, code = the AFM ``C`` value, i.e. the font's built-in encoding, -1 if none).
* ``PROVENANCE.tsv``: one row per generated or copied file: source package and version, path of
  the source inside that package, licence, sha256 and size of the file.
* the licence text that travels with the source files, copied verbatim.

Sources (``--source``):

``adobe`` (default)
    Adobe's original Core 14 AFM files as shipped by the PyPI package ``matplotlib`` in
    ``matplotlib/mpl-data/fonts/pdfcorefonts/``. Their licence (``readme.txt`` there, copied as
    ``ADOBE-CORE14-AFM-README.txt``) allows use, copying and distribution for any purpose,
    provided the notices are kept and modifications are noted. Read from an installed matplotlib,
    from a wheel (``--wheel``, e.g. from ``pip download matplotlib --no-deps -d /tmp/mpl``)
    or from a folder (``--afm-dir`` together with ``--source-version``).
``urw``
    The metric-compatible URW++ clones from the Debian package ``fonts-urw-base35``
    (``/usr/share/fonts/type1/urw-base35``), AGPL-3 with a font exception. Kept as an alternative
    should the Adobe files become unavailable; note the licence differs from the project's.

``--check`` regenerates in memory and exits 1 if the committed files differ.

Usage::

    pip download matplotlib --no-deps -d /tmp/mpl
    python tools/make_std14_metrics.py --wheel /tmp/mpl/matplotlib-*.whl
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

from provenance import render_provenance, sha256

from glyphweave.tables.std14 import STD14_NAMES

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "src" / "glyphweave" / "tables" / "resources" / "std14"
FORMAT_VERSION = 1
GENERATOR = "tools/make_std14_metrics.py"

STD14 = STD14_NAMES  # the fonts, in the order the package reads them

ADOBE_DIR_IN_PACKAGE = "matplotlib/mpl-data/fonts/pdfcorefonts"
ADOBE_LICENCE_FILE = "readme.txt"
ADOBE_LICENCE_COPY = "ADOBE-CORE14-AFM-README.txt"
ADOBE_LICENCE = (
    "Adobe Core 14 AFM licence: use, copy and distribute for any purpose without charge, "
    "keep copyright notices, note modifications (see ADOBE-CORE14-AFM-README.txt)"
)

URW_DIR = Path("/usr/share/fonts/type1/urw-base35")
URW_COPYRIGHT = Path("/usr/share/doc/fonts-urw-base35/copyright")
URW_LICENCE_COPY = "URW-BASE35-COPYRIGHT.txt"
URW_LICENCE = "AGPL-3 with font exception (see URW-BASE35-COPYRIGHT.txt)"
URW_FILES = {
    "Courier": "NimbusMonoPS-Regular.afm",
    "Courier-Bold": "NimbusMonoPS-Bold.afm",
    "Courier-BoldOblique": "NimbusMonoPS-BoldItalic.afm",
    "Courier-Oblique": "NimbusMonoPS-Italic.afm",
    "Helvetica": "NimbusSans-Regular.afm",
    "Helvetica-Bold": "NimbusSans-Bold.afm",
    "Helvetica-BoldOblique": "NimbusSans-BoldItalic.afm",
    "Helvetica-Oblique": "NimbusSans-Italic.afm",
    "Times-Roman": "NimbusRoman-Regular.afm",
    "Times-Bold": "NimbusRoman-Bold.afm",
    "Times-BoldItalic": "NimbusRoman-BoldItalic.afm",
    "Times-Italic": "NimbusRoman-Italic.afm",
    "Symbol": "StandardSymbolsPS.afm",
    "ZapfDingbats": "D050000L.afm",
}

# AFM header keys copied to the @font line, under our own names.
HEADER_KEYS = {
    "Ascender": "ascender",
    "Descender": "descender",
    "CapHeight": "cap_height",
    "XHeight": "x_height",
    "ItalicAngle": "italic_angle",
    "IsFixedPitch": "fixed_pitch",
    "EncodingScheme": "encoding_scheme",
}


# ----------------------------------------------------------------------------------------- AFM parsing


class AFMError(ValueError):
    pass


def _number(text: str) -> str:
    """Normalise a number: integers as integers, others without trailing zeros."""
    value = float(text)
    if value == int(value):
        return str(int(value))
    return repr(value)


def parse_afm(text: str, label: str) -> tuple[dict[str, str], list[tuple[str, str, int]]]:
    """Return (header, [(glyph name, width, code)]) of one AFM file.

    Only what we ship is read: header keys, and C/WX/N of the character metrics.
    """
    header: dict[str, str] = {}
    glyphs: list[tuple[str, str, int]] = []
    seen: set[str] = set()
    in_chars = False
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("Comment"):
            continue
        if in_chars:
            if line.startswith("EndCharMetrics"):
                in_chars = False
                continue
            code: int | None = None
            width: str | None = None
            name: str | None = None
            for part in line.split(";"):
                fields = part.split()
                if not fields:
                    continue
                key = fields[0]
                if key == "C" and len(fields) == 2:
                    code = int(fields[1])
                elif key == "CH" and len(fields) == 2:
                    code = int(fields[1].strip("<>"), 16)
                elif (key, len(fields)) in (("WX", 2), ("W0X", 2), ("W", 3), ("W0", 3)):
                    width = _number(fields[1])
                elif key == "N" and len(fields) == 2:
                    name = fields[1]
            if code is None or width is None or name is None:
                raise AFMError(f"{label}:{lineno}: incomplete character metrics: {line!r}")
            if name in seen:
                raise AFMError(f"{label}:{lineno}: glyph {name!r} listed twice")
            seen.add(name)
            glyphs.append((name, width, code))
            continue
        key, _, value = line.partition(" ")
        if key == "StartCharMetrics":
            in_chars = True
        elif key == "EndFontMetrics":
            break
        elif key in ("FontName", "FontBBox", *HEADER_KEYS):
            header[key] = value.strip()
    if not glyphs:
        raise AFMError(f"{label}: no character metrics")
    if "FontBBox" not in header:
        raise AFMError(f"{label}: no FontBBox")
    return header, glyphs


# --------------------------------------------------------------------------------------- output writing


def render_metrics(fonts: dict[str, tuple[str, bytes]], source_desc: str, modified_note: str) -> bytes:
    """fonts: canonical name -> (source file name, AFM bytes)."""
    out: list[str] = [
        f"# glyphweave standard-14 font metrics, format {FORMAT_VERSION}. Generated by {GENERATOR}; do not edit.",
        f"# Source: {source_desc}",
        f"# {modified_note}",
        "# '@font<TAB>Name<TAB>key=value...' starts a font (afm, afm_sha256, bbox=llx,lly,urx,ury, ascender,",
        "# descender, cap_height, x_height, italic_angle, fixed_pitch, encoding_scheme; keys the AFM lacks are",
        "# left out); the rows after it are 'glyphname<TAB>width<TAB>code': width in 1/1000 em, code the AFM C",
        "# value (the font's built-in encoding), -1 when the glyph is unencoded.",
    ]
    for canonical in STD14:
        file_name, data = fonts[canonical]
        header, glyphs = parse_afm(data.decode("latin-1"), file_name)
        bbox = ",".join(_number(v) for v in header["FontBBox"].split())
        if len(bbox.split(",")) != 4:
            raise AFMError(f"{file_name}: malformed FontBBox {header['FontBBox']!r}")
        fields = [f"afm={file_name}", f"afm_sha256={sha256(data)}", f"bbox={bbox}"]
        for afm_key, our_key in HEADER_KEYS.items():
            if afm_key not in header:
                continue
            value = header[afm_key]
            if afm_key == "IsFixedPitch":
                value = value.lower()
            elif afm_key != "EncodingScheme":
                value = _number(value)
            fields.append(f"{our_key}={value}")
        out.append("\t".join(["@font", canonical, *fields]))
        for name, width, code in glyphs:
            if "\t" in name or name.startswith(("@", "#")):
                raise AFMError(f"{file_name}: glyph name {name!r} cannot be written")
            out.append(f"{name}\t{width}\t{code}")
    return ("\n".join(out) + "\n").encode("ascii")


# ------------------------------------------------------------------------------------------- sources


def _adobe_reader(args: argparse.Namespace) -> tuple[Callable[[str], bytes], str]:
    """Return (read(file name in pdfcorefonts) -> bytes, matplotlib version)."""
    if args.wheel:
        wheel = Path(args.wheel)
        match = re.match(r"matplotlib-([^-]+)-", wheel.name)
        version = args.source_version or (match.group(1) if match else None)
        if not version:
            sys.exit(f"cannot tell the matplotlib version from {wheel.name}; pass --source-version")
        archive = zipfile.ZipFile(wheel)
        return (lambda name: archive.read(f"{ADOBE_DIR_IN_PACKAGE}/{name}")), version
    if args.afm_dir:
        if not args.source_version:
            sys.exit("--afm-dir needs --source-version (the matplotlib version the files come from)")
        folder = Path(args.afm_dir)
        return (lambda name: (folder / name).read_bytes()), args.source_version
    import importlib.metadata
    import importlib.util

    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("matplotlib is not installed: pass --wheel (pip download matplotlib --no-deps) or --afm-dir")
    folder = Path(next(iter(spec.submodule_search_locations))) / "mpl-data" / "fonts" / "pdfcorefonts"
    version = args.source_version or importlib.metadata.version("matplotlib")
    return (lambda name: (folder / name).read_bytes()), version


def collect_adobe(args: argparse.Namespace) -> dict[str, bytes]:
    read, version = _adobe_reader(args)
    fonts = {name: (f"{name}.afm", read(f"{name}.afm")) for name in STD14}
    licence_text = read(ADOBE_LICENCE_FILE)
    metrics = render_metrics(
        fonts,
        f"Adobe Core 14 AFM files (Adobe Systems, 1997) as shipped in PyPI matplotlib {version}, "
        f"{ADOBE_DIR_IN_PACKAGE}/",
        "Modified by glyphweave: only glyph names, widths, codes and font-wide metrics are kept, "
        "reformatted as TSV; the licence is in ADOBE-CORE14-AFM-README.txt.",
    )
    package = "matplotlib (PyPI)"
    return _with_provenance(
        [
            ("metrics.tsv", metrics, package, version, f"{ADOBE_DIR_IN_PACKAGE}/*.afm", ADOBE_LICENCE),
            (
                ADOBE_LICENCE_COPY,
                licence_text,
                package,
                version,
                f"{ADOBE_DIR_IN_PACKAGE}/{ADOBE_LICENCE_FILE}",
                "verbatim copy",
            ),
        ]
    )


def collect_urw(args: argparse.Namespace) -> dict[str, bytes]:
    folder = Path(args.afm_dir) if args.afm_dir else URW_DIR
    version = args.source_version
    if not version:
        try:
            version = subprocess.run(
                ["dpkg-query", "-W", "-f=${Version}", "fonts-urw-base35"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            sys.exit(
                "fonts-urw-base35 is not installed (apt-get install fonts-urw-base35) or pass --source-version"
            )
    fonts = {name: (file, (folder / file).read_bytes()) for name, file in URW_FILES.items()}
    metrics = render_metrics(
        fonts,
        f"URW++ base35 AFM files (metric-compatible clones) from Debian fonts-urw-base35 {version}, {URW_DIR}/",
        "Modified by glyphweave: only glyph names, widths, codes and font-wide metrics are kept, "
        "reformatted as TSV; the licence is in URW-BASE35-COPYRIGHT.txt.",
    )
    package = "fonts-urw-base35 (Debian)"
    return _with_provenance(
        [
            ("metrics.tsv", metrics, package, version, f"{URW_DIR}/*.afm", URW_LICENCE),
            (
                URW_LICENCE_COPY,
                URW_COPYRIGHT.read_bytes(),
                package,
                version,
                str(URW_COPYRIGHT),
                "verbatim copy",
            ),
        ]
    )


def _with_provenance(rows: list[tuple[str, bytes, str, str, str, str]]) -> dict[str, bytes]:
    files = {row[0]: row[1] for row in rows}
    files["PROVENANCE.tsv"] = render_provenance("std14", GENERATOR, rows)
    return files


# ---------------------------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", choices=("adobe", "urw"), default="adobe")
    parser.add_argument("--wheel", help="adobe: a matplotlib wheel to read the AFM files from")
    parser.add_argument("--afm-dir", help="folder holding the AFM files (and readme.txt for adobe)")
    parser.add_argument("--source-version", help="version of the source package, when it cannot be found out")
    parser.add_argument("--out", default=str(DEFAULT_OUT), help="output folder (default: the package's)")
    parser.add_argument("--check", action="store_true", help="compare with the files in --out, write nothing")
    args = parser.parse_args(argv)

    files = collect_adobe(args) if args.source == "adobe" else collect_urw(args)
    out = Path(args.out)
    if args.check:
        stale = [
            name
            for name, data in files.items()
            if not (out / name).is_file() or (out / name).read_bytes() != data
        ]
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
