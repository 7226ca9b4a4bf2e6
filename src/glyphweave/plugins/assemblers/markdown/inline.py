"""Inline Markdown: emphasis from the fonts glyphs are set in, links, and the text finished
as the page's text is (ligatures, mathematical letters, hyphenation), on one line."""

from __future__ import annotations

import re
from collections.abc import Sequence

from glyphweave.layout import expand_ligatures
from glyphweave.plugin import GlyphTable

from .._shared import RuleOptions, finished

__all__ = ["Style", "Styles", "decorate", "decorated", "one_line"]

_BOLD_NAME = re.compile(r"bold|black|heavy|demi|[-,]bd\b|[-,]medi\b|^cmb|^cmssbx|^ec-?bx|^sfbx|^lmroman\d*-bold",
                        re.IGNORECASE)
"""Bold by name: the weights' words, TeX's Computer Modern and EC bold (CMBX10, SFBX1000),
URW's Medium (NimbusRomNo9L-Medi)."""
_ITALIC_NAME = re.compile(r"italic|oblique|slant|kursiv|[-,]it\b|[-,]ital\b|^cmti|^cmsl|^cmmi|^ec-?ti|^sfti",
                          re.IGNORECASE)
_FORCE_BOLD = 1 << 18
"""FontDescriptor /Flags bit 19: ForceBold (PDF §9.8.2)."""
_ITALIC_FLAG = 1 << 6
"""FontDescriptor /Flags bit 7: Italic."""


class Styles:
    """Which glyphs are bold and which italic, by their font's name and descriptor flags."""

    def __init__(self, table: GlyphTable) -> None:
        self.table = table
        self._by_font: dict[int, tuple[bool, bool]] = {}

    def of_font(self, index: int) -> tuple[bool, bool]:
        found = self._by_font.get(index)
        if found is None:
            name = self.table.fonts[index].base_font
            info = self.table.font_infos.get(index)
            flags = getattr(info, "flags", 0) or 0
            found = (bool(_BOLD_NAME.search(name)) or bool(flags & _FORCE_BOLD),
                     bool(_ITALIC_NAME.search(name)) or bool(flags & _ITALIC_FLAG))
            self._by_font[index] = found
        return found

    def of(self, glyphs: Sequence[int]) -> tuple[bool, bool]:
        """(bold, italic): every glyph of ``glyphs`` with text is; (False, False) for none."""
        fonts, texts = self.table.font, self.table.text
        bold = italic = True
        seen = False
        for g in glyphs:
            if not texts[g].strip():
                continue
            seen = True
            b, i = self.of_font(fonts[g])
            bold, italic = bold and b, italic and i
            if not (bold or italic):
                break
        return (bold, italic) if seen else (False, False)


def decorate(text: str, *, bold: bool = False, italic: bool = False, link: str | None = None) -> str:
    """``text`` with emphasis and a link around it; the white space around it stays outside."""
    core = text.strip()
    if not core:
        return text
    lead = text[: len(text) - len(text.lstrip())]
    trail = text[len(text.rstrip()):]
    if italic:
        core = f"*{core}*"
    if bold:
        core = f"**{core}**"
    if link:
        target = f"<{link}>" if re.search(r"[\s()<>]", link) else link
        label = core.replace("[", r"\[").replace("]", r"\]")
        core = f"[{label}]({target})"
    return lead + core + trail


Style = tuple[bool, bool, "str | None"]
"""(bold, italic, link URI or None): what a run of text is decorated with."""


def decorated(runs: Sequence[tuple[Style, Sequence[str]]]) -> str:
    """Runs of text (each its style and its parts, a part starting with the white space
    before it) joined, each run decorated (:func:`decorate`), its leading white space outside."""
    out = []
    for (bold, italic, link), parts in runs:
        text = "".join(parts)
        lead = text[: len(text) - len(text.lstrip())]
        out.append(lead + decorate(text.lstrip(), bold=bold, italic=italic, link=link))
    return "".join(out)


def one_line(options: RuleOptions, text: str) -> str:
    """``text`` (lines of one block) finished as the page's text is, then on one line: a
    Markdown paragraph is one run of text, wherever the PDF broke its lines."""
    if not getattr(options, "ligatures", False):
        text = expand_ligatures(text)
    return " ".join(finished(options, text).split())
