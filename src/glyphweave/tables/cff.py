"""The strings a bare CFF font program names its glyphs by without spelling them.

A CFF program (``FontFile3`` of subtype ``Type1C`` or ``CIDFontType0C``: what Ghostscript,
Distiller and XeTeX embed) gives each glyph a string ID. IDs below 391 are the CFF
specification's standard strings (Adobe Technical Note #5176, Appendix A); a charset can also
be one of three predefined lists (Appendix C): ISOAdobe (the first 229 standard strings),
Expert and ExpertSubset.

The lists are the mirror ``glyphweave/tables/resources/cff/strings.tsv``, written by
``tools/make_cff_strings.py`` (provenance beside it), read on first use and cached per
process; importing this module does no work. Without the mirror (a package built without its
resources) they come from fontTools' ``cffLib``, which holds the same lists but costs about
20 ms to import (it imports the OpenType table machinery with it): reading a font's glyph
names is what the mirror saves from that.
"""

from __future__ import annotations

import functools

from glyphweave.tables import loader
from glyphweave.tables.loader import Source

__all__ = ["STANDARD_STRING_COUNT", "cff_strings_source", "predefined_charset", "standard_strings"]

STANDARD_STRING_COUNT = 391
"""String IDs below this are standard strings; the others index the font's String INDEX."""

_RESOURCE = ("cff", "strings.tsv")
_FORMAT_LINE = "# glyphweave CFF strings, format 1."
_SIZES = {"standard": STANDARD_STRING_COUNT, "expert": 166, "expert_subset": 87}


def standard_strings() -> tuple[str, ...]:
    """The 391 standard strings, by string ID."""
    return _load()[0]["standard"]


def predefined_charset(offset: int) -> tuple[str, ...]:
    """The glyph names of a predefined charset, by glyph ID: ``offset`` is the Top DICT's
    charset value, 0 (ISOAdobe), 1 (Expert) or 2 (ExpertSubset)."""
    lists = _load()[0]
    if offset == 0:
        return lists["standard"][:229]
    if offset == 1:
        return lists["expert"]
    if offset == 2:
        return lists["expert_subset"]
    raise ValueError(f"no predefined CFF charset {offset}")


def cff_strings_source() -> Source:
    """Which source serves the lists: ``"mirror"`` or ``"fallback"`` (fontTools)."""
    return _load()[1]


@functools.cache
def _load() -> tuple[dict[str, tuple[str, ...]], Source]:
    text = loader.read_text(*_RESOURCE, encoding="ascii")
    if text is None:
        from fontTools import cffLib

        return {"standard": tuple(cffLib.cffStandardStrings), "expert": tuple(cffLib.cffIExpertStrings),
                "expert_subset": tuple(cffLib.cffExpertSubsetStrings)}, "fallback"
    return _parse(text), "mirror"


def _parse(text: str) -> dict[str, tuple[str, ...]]:
    lines = text.splitlines()
    if not lines or not lines[0].startswith(_FORMAT_LINE):
        raise ValueError(f"glyphweave resource cff/strings.tsv: unknown format line {lines[0][:80] if lines else ''!r}")
    lists: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in lines[1:]:
        if line.startswith("@"):
            name, _, count = line[1:].partition(" ")
            current = lists[name] = []
            if _SIZES.get(name) != int(count):
                raise ValueError(f"glyphweave resource cff/strings.tsv: list {name!r} of {count} names")
        elif current is None or not line:
            raise ValueError(f"glyphweave resource cff/strings.tsv: malformed line {line!r}")
        else:
            current.append(line)
    for name, size in _SIZES.items():
        if len(lists.get(name, ())) != size:
            raise ValueError(f"glyphweave resource cff/strings.tsv: list {name!r} incomplete")
    return {name: tuple(names) for name, names in lists.items()}
