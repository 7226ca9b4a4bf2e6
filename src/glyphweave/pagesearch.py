"""Search a page's text: each match with the page, the text it matched and the quads of the
glyphs it covers, as PyMuPDF's ``page.search_for`` gives them.

A match is looked for in the page's words (:mod:`glyphweave.pagewords`) read in order, words
joined by a space and lines by a line end, so it finds what a reader sees:

* **ligatures**: a word's text has its ligatures spelled out, so ``find`` matches the four
  letters painted as ``ﬁ``, ``n``, ``d`` (and a query typed with a ligature is read as its
  letters: queries are NFKC-normalised);
* **line ends**: whitespace in a query matches any whitespace, a line end included, so a
  phrase split across two lines is found;
* **hyphenation**: a word split at a line end (``extrac-`` / ``tion``) is found as the word
  (``extraction``) and as written with its hyphen (``well-known`` from ``well-`` / ``known``):
  the page is searched as painted, with each line-end hyphen dropped, and with it kept but the
  line end gone; a match found more than one way is reported once.

A query is a literal string, or with ``regex=True`` a Python regular expression; ``case=False``
(the default) ignores case. A match covers whole glyphs: a part of a ligature's letters
matches the ligature glyph. Boxes and quads are measured on the page as shown, as words are.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Sequence
from typing import NamedTuple

import attrs

from glyphweave.core.errors import UsageError
from glyphweave.core.glyphtable import GlyphTable
from glyphweave.layout.mathletters import fold_math_letters
from glyphweave.layout.scripts import expand_ligatures
from glyphweave.pagespace import shown_transform
from glyphweave.pagewords import TextBlock, TextLine, TextWord

__all__ = ["Quad", "SearchHit", "compile_query", "search_blocks"]

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]
"""Four corners on the page as shown: upper left, upper right, lower left, lower right, as the
text reads (for text set upside down, its upper left is the shown page's lower right), the
order of PyMuPDF's ``Quad``."""

HYPHENS = ("-", "\u2010")
"""What ends a word split at a line end (a soft hyphen is written ``-`` in a word's text)."""


@attrs.frozen(kw_only=True)
class SearchHit:
    """One match on a page."""

    page: int
    """The page's 0-based index."""
    text: str
    """What matched, as the page's words read (``extraction`` for ``extrac-`` / ``tion``)."""
    quads: tuple[Quad, ...]
    """One quad per line the match covers, in reading order."""
    glyphs: tuple[int, ...]
    """The glyphs it covers (indices into the page's glyph table), in reading order."""
    lines: tuple[str, ...]
    """The text of each line it covers (what ``glyphweave grep`` prints)."""

    @property
    def boxes(self) -> tuple[tuple[float, float, float, float], ...]:
        """Each quad's bounds, ``(x0, top, x1, bottom)``."""
        out = []
        for quad in self.quads:
            xs = [p[0] for p in quad]
            ys = [p[1] for p in quad]
            out.append((min(xs), min(ys), max(xs), max(ys)))
        return tuple(out)


def compile_query(query: str, *, case: bool = False, regex: bool = False) -> re.Pattern[str]:
    """``query`` as a pattern (see the module docstring).

    :raises UsageError: the query is empty, matches the empty string, or is not a valid
        regular expression."""
    flags = 0 if case else re.IGNORECASE
    if regex:
        try:
            pattern = re.compile(query, flags)
        except re.error as exc:
            raise UsageError(f"not a valid regular expression: {query!r} ({exc})") from None
    else:
        parts = unicodedata.normalize("NFKC", query).split()
        if not parts:
            raise UsageError("the search text is empty")
        pattern = re.compile(r"\s+".join(map(re.escape, parts)), flags)
    if pattern.fullmatch(""):
        raise UsageError(f"the pattern {query!r} matches the empty string: every place would match")
    return pattern


class _Span(NamedTuple):
    start: int
    """Where the word starts in the searched text."""
    order: int
    """Its position among the page's words."""
    word: TextWord
    line: int
    """Its line's position among the page's lines."""
    drop_last: bool
    """Its line-end hyphen is left out of the searched text."""


Box = tuple[float, float, float, float]
ToShown = Callable[[float, float], Point]


def search_blocks(number: int, blocks: Sequence[TextBlock], table: GlyphTable, cropbox: Box,
                  rotate: int, pattern: re.Pattern[str]) -> list[SearchHit]:
    """The matches of ``pattern`` in the words of ``blocks`` (page ``number``, whose glyph
    table is ``table``), in reading order."""
    lines = [line for block in blocks for line in block.lines]
    if not lines:
        return []
    hyphenated = any(_ends_in_hyphen(line) for line in lines[:-1])
    found: dict[tuple[int, ...], tuple[tuple[int, int], SearchHit]] = {}
    to_shown = shown_transform(cropbox, rotate)
    for join in (("space", "dropped", "kept") if hyphenated else ("space",)):
        text, spans = _searched(lines, join)
        starts = [span.start for span in spans]
        for match in pattern.finditer(text):
            a, b = match.span()
            if a == b:
                continue
            hit = _hit(number, match.group(), spans, starts, a, b, lines, table, to_shown)
            if hit is not None and hit[1].glyphs not in found:
                found[hit[1].glyphs] = hit
    return [hit for _key, hit in sorted(found.values(), key=lambda item: item[0])]


def _ends_in_hyphen(line: TextLine) -> bool:
    last = line.words[-1].text
    return len(last) > 1 and last.endswith(HYPHENS)


def _searched(lines: Sequence[TextLine], join: str) -> tuple[str, list[_Span]]:
    """The text searched and where each word lies in it: lines joined by a line end, or,
    after a line ending in a hyphen, with the hyphen ``dropped`` and no line end, or the
    hyphen ``kept`` and no line end (``space``: every line end kept)."""
    parts: list[str] = []
    spans: list[_Span] = []
    at = 0
    order = 0
    for n, line in enumerate(lines):
        if n:
            glued = join != "space" and _ends_in_hyphen(lines[n - 1])
            if not glued:
                parts.append("\n")
                at += 1
        last = len(line.words) - 1
        for k, word in enumerate(line.words):
            if k:
                parts.append(" ")
                at += 1
            drop = join == "dropped" and k == last and n + 1 < len(lines) and _ends_in_hyphen(line)
            text = word.text[:-1] if drop else word.text
            spans.append(_Span(at, order, word, n, drop))
            parts.append(text)
            at += len(text)
            order += 1
    return "".join(parts), spans


def _hit(number: int, matched: str, spans: list[_Span], starts: list[int], a: int, b: int,
         lines: Sequence[TextLine], table: GlyphTable, to_shown: ToShown) -> tuple[tuple[int, int], SearchHit] | None:
    """The hit of the match ``a``..``b`` of the searched text, with its place in reading order."""
    first = max(bisect_right(starts, a) - 1, 0)
    by_line: dict[int, list[int]] = {}
    key: tuple[int, int] | None = None
    for span in spans[first:]:
        if span.start >= b:
            break
        length = len(span.word.text) - (1 if span.drop_last else 0)
        lo, hi = max(a - span.start, 0), min(b - span.start, length)
        if lo >= hi:
            continue
        if key is None:
            key = (span.order, lo)
        by_line.setdefault(span.line, []).extend(_glyphs_of(span.word, lo, hi, table))
    if key is None:
        return None
    quads = tuple(_quad(glyphs, table, to_shown) for glyphs in by_line.values())
    return key, SearchHit(page=number, text=matched, quads=quads,
                          glyphs=tuple(g for glyphs in by_line.values() for g in glyphs),
                          lines=tuple(lines[n].text for n in by_line))


def _glyphs_of(word: TextWord, lo: int, hi: int, table: GlyphTable) -> list[int]:
    """The glyphs of ``word`` that hold its characters ``lo``..``hi``: found from each glyph's
    text where the glyphs spell the word in order; the whole word where they do not (a word
    put in logical order, a soft hyphen, an /ActualText)."""
    if lo == 0 and hi >= len(word.text):
        return list(word.glyphs)
    texts = table.text
    pieces = [fold_math_letters(expand_ligatures(texts[g])) for g in word.glyphs]
    if "".join(pieces) != word.text:
        return list(word.glyphs)
    out = []
    at = 0
    for g, piece in zip(word.glyphs, pieces, strict=True):
        end = at + len(piece)
        if end > lo and at < hi:
            out.append(g)
        at = end
    return out


def _quad(glyphs: list[int], table: GlyphTable, to_shown: ToShown) -> Quad:
    """The quad around ``glyphs`` (of one line), along their writing direction."""
    ox, oy, ex, ey = table.ox, table.oy, table.ex, table.ey
    lox, loy, hix, hiy = table.lox, table.loy, table.hix, table.hiy
    ux, uy = table.dx[glyphs[0]], table.dy[glyphs[0]]
    nx, ny = -uy, ux
    along: list[float] = []
    across: list[float] = []
    for g in glyphs:
        for x, y in ((ox[g] + lox[g], oy[g] + loy[g]), (ex[g] + lox[g], ey[g] + loy[g]),
                     (ex[g] + hix[g], ey[g] + hiy[g]), (ox[g] + hix[g], oy[g] + hiy[g])):
            along.append(x * ux + y * uy)
            across.append(x * nx + y * ny)
    a0, a1, c0, c1 = min(along), max(along), min(across), max(across)

    def corner(a: float, c: float) -> Point:
        return to_shown(a * ux + c * nx, a * uy + c * ny)

    return corner(a0, c1), corner(a1, c1), corner(a0, c0), corner(a1, c0)
