"""How the registry names a glyph across documents: the font's family and the glyph's
outline, or its code where the font has no outline.

A subset font is renamed per document (``ABCDEF+Wingdings-Regular``) and may renumber its
codes, so neither the font name nor the code identifies a glyph across a corpus. The
family (:func:`family_of`) drops the subset tag and the style words, and the outline hash
(:mod:`.outline`) identifies the drawing itself: the same glyph met in many subsets, under
different codes, is one key (:func:`make_key`).
"""

from __future__ import annotations

import re

from glyphweave.core.fontinfo import strip_subset_prefix

# A PostScript name puts the style after a hyphen or comma ("Helvetica-BoldOblique",
# "Arial,Bold"), and vendors glue "MT" or "PS" to the family ("ArialMT",
# "TimesNewRomanPS-BoldMT"). Words inside the family ("TimesNewRoman") are never touched.
_VENDOR = re.compile(r"(?:PSMT|PS|MT)$")


def family_of(base_font: str) -> str:
    """The font family of ``base_font``: subset tag, style (after a hyphen or comma) and
    glued vendor suffixes removed (``ABCDEF+TimesNewRomanPS-BoldItalicMT`` →
    ``TimesNewRoman``; ``Arial,Bold`` → ``Arial``; ``ArialMT`` → ``Arial``;
    ``Wingdings-Regular`` → ``Wingdings``). A name that would vanish stays as it is."""
    name = strip_subset_prefix(base_font).strip()
    family = re.split(r"[-,]", name, maxsplit=1)[0]
    family = _VENDOR.sub("", family) or family
    return family or name or "(unnamed)"


def code_hex(code: int | bytes) -> str:
    """A character code as hex: ``41`` for a simple font's code 65, ``0041`` for a
    two-byte composite code."""
    if isinstance(code, int):
        return f"{code:02x}"
    return bytes(code).hex()


def make_key(family: str, code: str, outline_hash: str | None) -> str:
    """The key of a glyph: its family and outline hash, or its code where it has no outline."""
    return f"{family}/o:{outline_hash}" if outline_hash else f"{family}/c:{code}"
