"""A page's words, lines and blocks with their boxes, in the order its text reads them.

The word-gap and line-break rules cut a page's glyphs into lines and words (the layout
engine's page geometry); the assembler that made the page's text says in which order it
read the glyphs (:attr:`~glyphweave.core.stages.Assembled.order`; paint order when it does
not say). Here the two meet:

* a **word** is what the rules call one: glyphs between word spaces or wide gaps, never
  across a line. Its text is the glyphs' text as a reader types it (Latin ligatures spelled
  out, mathematical letters folded, right-to-left script in logical order), unless the
  assembler's options keep them; it is *not* dehyphenated: the two halves of a word split at
  a line end are two words, each where it is painted;
* a **line** is the words of one of the rules' lines that the reading order takes one after
  another. A line the assembler read in two pieces (two columns on one baseline) is two
  lines. Its words come in the text's order; where the line is mostly right-to-left script, or
  joins pieces of a baseline painted out of order (a list marker painted after its item),
  they go along it as a reader does, right to left or left to right;
* a **block** is lines that sit together (a paragraph, a cell, a label: the layout
  engine's blocks) and that the reading order takes one after another.

Boxes are ``(x0, top, x1, bottom)`` in points with the origin at the top-left corner of the
page as shown (its CropBox turned by /Rotate), as :mod:`glyphweave.pagecrop` measures and
pdfplumber reports words; glyph records stay in PDF user space. ``direction`` says which way
the line reads on the page as shown: ``ltr``, ``rtl``, ``ttb`` or ``btt``.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

import attrs

from glyphweave.core.runs import run_page_size
from glyphweave.core.stages import PageContext
from glyphweave.layout import Line, PageGeometry, join_backwards, page_geometry
from glyphweave.layout.indic import has_drawn_order
from glyphweave.layout.lines import LineGeometry
from glyphweave.layout.mathletters import composed_negations, fold_math_letters
from glyphweave.layout.scripts import expand_ligatures, has_rtl
from glyphweave.layout.visual import visual_words
from glyphweave.pagespace import shown_box, shown_transform

__all__ = ["TextBlock", "TextLine", "TextWord", "read_blocks", "rule_options", "word_records"]

ShownBox = tuple[float, float, float, float]
"""``(x0, top, x1, bottom)`` in points from the top-left corner of the page as shown."""

RULE_DEFAULTS: dict[str, Any] = {"word_gap": 0.15, "line_gap": 0.5, "back_jump": 3.0, "ligatures": False,
                                 "number_strings": True, "math_letters": False, "gap": 3.0}
"""The reading-rule options words are cut by, and their defaults: an assembler that has the
options (every built-in one) lends its own values, so its text and its words agree. ``gap``
(in typical glyph advances) is the gap that cuts a line into pieces for the reading order
(a column gutter, a table's cell boundary): a word never spans one."""

SOFT_HYPHEN = "\u00ad"


@attrs.frozen(kw_only=True)
class TextWord:
    """One word (see the module docstring)."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    font: str
    """Base font name of its first glyph, without the subset tag (``Times-Roman``)."""
    size: float
    """Font size on the page, in points, of its first glyph."""
    direction: str
    """``ltr``, ``rtl``, ``ttb`` or ``btt``: the way its line reads on the page as shown."""
    glyphs: tuple[int, ...]
    """Its glyphs (indices into the page's glyph table), in paint order."""

    @property
    def bbox(self) -> ShownBox:
        return self.x0, self.top, self.x1, self.bottom

    def to_dict(self) -> dict[str, Any]:
        """A plain, JSON-friendly form, lengths to a thousandth of a point (``extract --format
        words`` writes it, with the page, block and line): the glyph indices are left out."""
        return {"text": self.text, "bbox": [round(v, 3) for v in self.bbox], "font": self.font,
                "size": round(self.size, 3), "direction": self.direction}


@attrs.frozen(kw_only=True)
class TextLine:
    """One line: its words in reading order, joined by single spaces in :attr:`text`."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    direction: str
    words: tuple[TextWord, ...]

    @property
    def bbox(self) -> ShownBox:
        return self.x0, self.top, self.x1, self.bottom

    @property
    def glyphs(self) -> tuple[int, ...]:
        """The glyphs of its words, word by word."""
        return tuple(g for word in self.words for g in word.glyphs)


@attrs.frozen(kw_only=True)
class TextBlock:
    """Lines that sit together, in reading order; :attr:`text` is their texts, one per line."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    lines: tuple[TextLine, ...]

    @property
    def bbox(self) -> ShownBox:
        return self.x0, self.top, self.x1, self.bottom

    @property
    def words(self) -> tuple[TextWord, ...]:
        return tuple(word for line in self.lines for word in line.words)


def word_records(number: int, blocks: Sequence[TextBlock]) -> Iterator[dict[str, Any]]:
    """The words of page ``number`` (0-based) as ``--format words`` writes them: page
    (1-based), block and line (0-based, in reading order), then :meth:`TextWord.to_dict`."""
    for b, block in enumerate(blocks):
        for n, line in enumerate(block.lines):
            for word in line.words:
                yield {"page": number + 1, "block": b, "line": n, **word.to_dict()}


def rule_options(assembler: object) -> dict[str, Any]:
    """The reading-rule options of ``assembler`` (:data:`RULE_DEFAULTS` for those it lacks)."""
    return {name: getattr(assembler, name, default) for name, default in RULE_DEFAULTS.items()}


def read_blocks(page: PageContext, indices: Sequence[int], order: Sequence[int] | None,
                options: dict[str, Any]) -> list[TextBlock]:
    """The blocks of the glyphs ``indices`` of ``page`` (their lines, their words), in the
    reading ``order`` (the glyphs as the assembler read them; None: paint order), cut by the
    reading rules with ``options`` (:func:`rule_options`). Words whose glyphs are all left
    out of ``order`` are not read."""
    if not len(indices):
        return []
    geometry = page_geometry(page, indices, word_gap=options["word_gap"], line_gap=options["line_gap"],
                             back_jump=options["back_jump"], ligatures=options["ligatures"],
                             number_strings=options["number_strings"])
    lines = geometry.lines
    if not lines:
        return []
    rank = _ranks(len(page.table), order)
    # (rank of its first glyph read, the line's number, the word) for every word read
    read: list[tuple[int, int, _Word]] = []
    builder = geometry.builder
    gap = options["gap"] * geometry.advance
    for number, line in enumerate(lines):
        if has_rtl(line.text):
            words = [_boxed(builder, line, glyphs, "") for glyphs in visual_words(builder, [line], geometry.rules)]
        else:
            words = [w for piece in (line.split(gap) if gap > 0 else [line]) for w in _line_words(builder, piece)]
        for word in words:
            ranks = [rank(g) for g in word.glyphs]
            first = min((r for r in ranks if r >= 0), default=-1)
            if first >= 0:
                read.append((first, number, word))
    read.sort(key=lambda item: item[0])
    # The words of one line read one after another, then those pieces joined where the text
    # joins them: a piece of a baseline painted after the piece to its right (a Latin span
    # in an Arabic line, a list marker painted after its item) reads on that line.
    pieces: list[tuple[Line, list[_Word]]] = []
    for _, number, word in read:
        if pieces and pieces[-1][0] is lines[number]:
            pieces[-1][1].append(word)
        else:
            pieces.append((lines[number], [word]))
    block_of = {id(line): k for k, block in enumerate(geometry.blocks) for line in block.lines}
    shaper = _Shaper(page, geometry, options)
    out: list[TextBlock] = []
    pending: list[TextLine] = []
    pending_block = -1
    i = 0
    for row in _rows([line for line, _ in pieces], page.mediabox):
        joined = pieces[i:i + len(row)]
        i += len(row)
        line = joined[0][0]
        row_lines = list({id(piece): piece for piece, _ in joined}.values())
        row_words = [word for _, words in joined for word in words]
        if len(row_lines) > 1 and any(has_rtl(piece.text) for piece in row_lines):
            # right-to-left script across pieces: cut where the row's text, in logical order, has spaces
            taken = {g for word in row_words for g in word.glyphs}
            cut = ([g for g in glyphs if g in taken] for glyphs in visual_words(builder, row_lines, geometry.rules))
            row_words = [_boxed(builder, line, glyphs, "") for glyphs in cut if glyphs]
        made = shaper.line(row_lines, row_words)
        if made is None:
            continue
        block = block_of.get(id(line), -1)
        if pending and block != pending_block:
            out.append(_block(pending))
            pending = []
        pending.append(made)
        pending_block = block
    assert i == len(pieces)  # join_backwards joins neighbours only: every piece was read once
    if pending:
        out.append(_block(pending))
    return out


def _rows(lines: list[Line], mediabox: tuple[float, float, float, float]) -> list[list[Line]]:
    """``lines`` (in reading order) as rows: neighbours joined as :func:`join_backwards` joins
    them, among lines of a sane size only (finite, no taller than the page): a glyph drawn
    at 1e300 points would otherwise sit on every baseline at once."""
    x0, y0, x1, y1 = mediabox
    span = max(abs(x1 - x0), abs(y1 - y0), 1.0)
    rows: list[list[Line]] = []
    sane: list[Line] = []
    for line in lines:
        if all(math.isfinite(v) for v in line.box) and 0.0 <= line.height <= span:
            sane.append(line)
            continue
        rows.extend(join_backwards(sane))
        sane = []
        rows.append([line])
    rows.extend(join_backwards(sane))
    return rows


class _Word(NamedTuple):
    text: str
    glyphs: list[int]
    box: tuple[float, float, float, float]
    """In user space."""
    start: float
    """Where it starts along its line's direction."""


def _line_words(builder: LineGeometry, line: Line) -> list[_Word]:
    """The words of ``line``: its glyphs cut where the text has a space (a separator the
    rules put in, or a whitespace glyph), so that a line's words are its text's. (The
    layout engine's own words are cut at wide gaps too, which letter-spaced text and leader
    dots have between the letters of one word.)"""
    out: list[_Word] = []
    glyphs: list[int] = []
    texts: list[str] = []

    def flush() -> None:
        if glyphs:
            out.append(_boxed(builder, line, glyphs, "".join(texts)))

    for g, piece in zip(line.glyphs, line.pieces, strict=True):
        bare = piece.lstrip(" ")
        if len(bare) != len(piece) or not bare or bare.isspace():
            flush()
            glyphs, texts = [], []
            if not bare or bare.isspace():
                continue
        glyphs.append(g)
        texts.append(bare)
    flush()
    return out


def _boxed(builder: LineGeometry, line: Line, glyphs: list[int], text: str) -> _Word:
    """The word of ``glyphs`` of ``line``, with its box and where it starts along the line."""
    ux, uy = line.ux, line.uy
    x0, y0, x1, y1 = builder.box(glyphs if glyphs == sorted(glyphs) else sorted(glyphs))
    start = min(x0 * ux + y0 * uy, x0 * ux + y1 * uy, x1 * ux + y0 * uy, x1 * ux + y1 * uy)
    return _Word(text, glyphs, (x0, y0, x1, y1), start)


def _ranks(count: int, order: Sequence[int] | None) -> Callable[[int], int]:
    """Each glyph's position in ``order`` (-1: not read); paint order when ``order`` is None."""
    if order is None:
        return int
    ranks = [-1] * count
    for position, g in enumerate(order):
        if 0 <= g < count and ranks[g] < 0:
            ranks[g] = position
    return ranks.__getitem__


class _Shaper:
    """Turns the layout engine's lines and words into the records above, for one page."""

    def __init__(self, page: PageContext, geometry: PageGeometry, options: dict[str, Any]) -> None:
        self.geometry = geometry
        self.table = page.table
        self.builder = geometry.builder
        self.ligatures = options["ligatures"]
        self.math_letters = options["math_letters"]
        self.to_shown = shown_transform(page.cropbox, page.rotate)

    def line(self, lines: list[Line], words: list[_Word]) -> TextLine | None:
        """The line record of ``words``, of ``lines`` (pieces of one baseline); None when no
        word has any text."""
        text = "".join(line.text for line in lines)
        reordered = has_rtl(text)
        rtl = reordered and _mostly_rtl(text)
        piece_of = None
        if reordered or has_drawn_order(text):
            piece_of = {g: piece for line in lines for g, piece in zip(line.glyphs, line.pieces, strict=True)}
        if rtl or len(lines) > 1:
            # along the line: right to left for right-to-left script (painted left to right),
            # and pieces of a baseline joined (a marker painted after its item goes first)
            words = sorted(words, key=lambda w: w.start, reverse=rtl)
        direction = self._direction(lines[0], rtl)
        made = tuple(w for w in (self._word(w, direction, piece_of) for w in words) if w.text)
        if not made:
            return None
        x0, top, x1, bottom = _union(w.bbox for w in made)
        return TextLine(text=" ".join(w.text for w in made), x0=x0, top=top, x1=x1, bottom=bottom,
                        direction=direction, words=made)

    def _word(self, word: _Word, direction: str, piece_of: dict[int, str] | None) -> TextWord:
        if piece_of is None:
            text = word.text
            if not self.ligatures:
                text = expand_ligatures(text)
        else:
            # the word on its own, through the rules that reorder a line's text
            glyphs = sorted(word.glyphs)  # paint order, as a line holds its glyphs
            pieces = [piece_of[g].lstrip(" ") for g in glyphs]
            text = self.geometry.line_text(self.builder.line(glyphs, pieces, []))
            # visual order decides spaces afresh from where glyphs lie: none inside a word
            text = "".join(text.split())
        if not self.math_letters:
            text = fold_math_letters(text)
        text = composed_negations(text)
        if SOFT_HYPHEN in text:
            text = text[:-1].replace(SOFT_HYPHEN, "") + ("-" if text[-1] == SOFT_HYPHEN else text[-1])
        run = self.builder.runs[self.builder.run_of(min(word.glyphs))]
        x0, top, x1, bottom = shown_box(self.to_shown, word.box)
        return TextWord(text=text, x0=x0, top=top, x1=x1, bottom=bottom, font=self.table.fonts[run.font].base_font,
                        size=run_page_size(run), direction=direction, glyphs=tuple(sorted(word.glyphs)))

    def _direction(self, line: Line, rtl: bool) -> str:
        ax, ay = self.to_shown(0.0, 0.0)
        bx, by = self.to_shown(line.ux, line.uy)
        dx, dy = bx - ax, by - ay
        if abs(dx) >= abs(dy):
            return "rtl" if rtl or dx < 0 else "ltr"
        return "ttb" if dy > 0 else "btt"


def _mostly_rtl(text: str) -> bool:
    """Whether ``text`` has more right-to-left letters than left-to-right ones."""
    rtl = ltr = 0
    for ch in text:
        kind = unicodedata.bidirectional(ch)
        if kind in ("R", "AL"):
            rtl += 1
        elif kind == "L":
            ltr += 1
    return rtl > ltr


def _union(boxes: Any) -> ShownBox:
    x0 = top = float("inf")
    x1 = bottom = float("-inf")
    for bx0, btop, bx1, bbottom in boxes:
        x0, top, x1, bottom = min(x0, bx0), min(top, btop), max(x1, bx1), max(bottom, bbottom)
    return x0, top, x1, bottom


def _block(lines: list[TextLine]) -> TextBlock:
    x0, top, x1, bottom = _union(line.bbox for line in lines)
    return TextBlock(text="\n".join(line.text for line in lines), x0=x0, top=top, x1=x1, bottom=bottom,
                     lines=tuple(lines))
