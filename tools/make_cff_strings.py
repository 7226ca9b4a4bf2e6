#!/usr/bin/env python3
"""Generate the CFF strings mirror shipped in ``glyphweave/tables/resources/cff``.

A bare CFF font program (``FontFile3`` of subtype ``Type1C`` or ``CIDFontType0C``) names its
glyphs by string ID: IDs below 391 are the CFF specification's standard strings (Adobe
Technical Note #5176, Appendix A), the rest index the font's own String INDEX. Its charset may
also be one of three predefined ones (Appendix C): ISOAdobe (the first 229 standard strings),
Expert and ExpertSubset. This writes those lists, deterministically (same input, same bytes):

* ``strings.tsv``: a format line, then per list an ``@name count`` header and one glyph name
  per line, in order: ``standard``, ``expert``, ``expert_subset``.
* ``PROVENANCE.tsv``: where the facts come from, with the file's sha256 and size.

The lists are read from fontTools' ``cffLib`` (``cffStandardStrings``, ``cffIExpertStrings``,
``cffExpertSubsetStrings``), which transcribes the specification; the script checks the sizes
the specification gives (391, 166, 87) and that ISOAdobe is the standard strings' prefix.
``glyphweave.tables.cff`` falls back to those fontTools lists when the mirror is missing.

``--check`` regenerates in memory and exits 1 if the committed files differ.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from provenance import render_provenance  # tools/provenance.py: a script's own folder is on sys.path

OUT = Path(__file__).resolve().parents[1] / "src" / "glyphweave" / "tables" / "resources" / "cff"
FORMAT_LINE = "# glyphweave CFF strings, format 1. Written by tools/make_cff_strings.py; do not edit."
SIZES = {"standard": 391, "expert": 166, "expert_subset": 87}


def _lists() -> tuple[dict[str, list[str]], str]:
    import fontTools
    from fontTools import cffLib

    lists = {"standard": list(cffLib.cffStandardStrings), "expert": list(cffLib.cffIExpertStrings),
             "expert_subset": list(cffLib.cffExpertSubsetStrings)}
    for name, size in SIZES.items():
        if len(lists[name]) != size:
            raise SystemExit(f"fontTools' {name} list has {len(lists[name])} names, the specification {size}")
    if list(cffLib.cffISOAdobeStrings) != lists["standard"][:229]:
        raise SystemExit("fontTools' ISOAdobe charset is not the first 229 standard strings")
    for names in lists.values():
        bad = [n for n in names if not n.isascii() or not n.isprintable() or " " in n or "\t" in n or n.startswith("@")]
        if bad:
            raise SystemExit(f"names this format cannot hold: {bad[:5]}")
    return lists, fontTools.version


def render() -> dict[str, bytes]:
    """The files to write, by name."""
    lists, version = _lists()
    lines = [FORMAT_LINE]
    for name, names in lists.items():
        lines.append(f"@{name} {len(names)}")
        lines.extend(names)
    table = ("\n".join(lines) + "\n").encode("ascii")
    provenance = render_provenance("cff", "tools/make_cff_strings.py", [(
        "strings.tsv", table, "fontTools (PyPI)", version,
        "fontTools/cffLib/__init__.py (cffStandardStrings, cffIExpertStrings, cffExpertSubsetStrings)",
        "facts of the CFF specification (Adobe Technical Note #5176, Appendices A and C), not copyrightable text",
    )])
    return {"strings.tsv": table, "PROVENANCE.tsv": provenance}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the committed files differ")
    args = parser.parse_args(argv)
    files = render()
    if args.check:
        stale = [name for name, data in files.items() if not (OUT / name).is_file() or (OUT / name).read_bytes() != data]
        if stale:
            print(f"out of date: {', '.join(stale)}", file=sys.stderr)
            return 1
        return 0
    OUT.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (OUT / name).write_bytes(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
