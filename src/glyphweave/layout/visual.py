"""A line's glyphs in visual order, with the word spaces between them, for the bidi step
(rules: assembly).

The walk decides what goes between a glyph and the one painted before it. On a left-to-right
line painted left to right those are also neighbours on the page; on a line with
right-to-left script they often are not: cairo paints an Arabic line's left-to-right number
first and then the letters from the right, so the walk's space between the number's last
digit and the line's first letter belongs to no two neighbours on the page. Sorting the
glyphs along the line and carrying each space in front of the glyph it was written for put
it after that first letter (``ي فتح`` for ``يفتح``).

So :func:`visual_units` looks at each pair of neighbours on the page:

* painted one right after the other, either way round: the walk's decision stands (it has
  seen the pair, their tracking and the line's letter spacing);
* painted apart (or in two pieces of a row): the rules decide the pair from positions,
  measured from where the left glyph ends to where the right one starts.

A space the walk wrote between glyphs that are not neighbours on the page is dropped: the
gaps it could stand for are each measured by the pair that has it.

It also keeps a number that its producer laid out as one left-to-right string together
(:func:`_numbers`, unless the rules' ``number_strings`` is off): see there.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from .lines import Line, LineGeometry
from .rules import Rules, Side, Verdict

__all__ = ["visual_units", "visual_words"]


class _Placed:
    """One glyph of the lines, where it lies along them."""

    __slots__ = ("a0", "a1", "g", "line", "pos", "run", "side", "spaced", "text")

    def __init__(self, text: str, g: int, line: int, pos: int, spaced: bool, run: int, side: Side,
                 a0: float, a1: float) -> None:
        self.text = text
        self.g = g
        self.line = line
        self.pos = pos
        self.spaced = spaced  # the walk wrote a word space in front of it
        self.run = run
        self.side = side
        self.a0 = a0  # its extent along the lines
        self.a1 = a1


def visual_units(builder: LineGeometry, lines: Sequence[Line], rules: Rules) -> list[str]:
    """The texts of the glyphs of ``lines`` (one line, or the pieces of one row) in visual
    order along the first line's direction, with " " units for word spaces (module
    docstring): what :func:`~.scripts.logical_order` reads."""
    units, glyph_of = _visual(builder, lines, rules)
    return _numbers(units, glyph_of) if rules.number_strings else units


def visual_words(builder: LineGeometry, lines: Sequence[Line], rules: Rules) -> list[list[int]]:
    """The glyphs of ``lines`` (as :func:`visual_units` takes them) cut into words where
    :func:`visual_units` puts a word space, each in visual order, words in visual order: the
    words of a line whose text is put in logical order, cut where that text has its spaces."""
    units, glyph_of = _visual(builder, lines, rules)
    words: list[list[int]] = []
    current: list[int] = []
    for unit, placed in zip(units, glyph_of, strict=True):
        if placed is None or unit.isspace():
            if current:
                words.append(current)
            current = []
        else:
            current.append(placed.g)
    if current:
        words.append(current)
    return words


def _visual(builder: LineGeometry, lines: Sequence[Line], rules: Rules) -> tuple[list[str], list[_Placed | None]]:
    """The units of :func:`visual_units` before numbers are kept whole, and the glyph of each
    (None: a word space)."""
    if not lines:
        return [], []
    ux, uy = lines[0].ux, lines[0].uy
    placed: list[_Placed] = []
    texts = builder.table.text
    for n, line in enumerate(lines):
        for pos, (g, piece) in enumerate(zip(line.glyphs, line.pieces, strict=True)):
            # a space glyph (whose piece a cut at a gutter may have emptied), or a glyph with
            # the walk's separator in front
            bare = " " if piece.isspace() or (not piece and texts[g].isspace()) else piece.lstrip(" ")
            r = builder.run_of(g)
            geo = builder.geo[r]
            _box, ox, oy, ex, ey = builder.glyph_box(g)
            a, b = ox * ux + oy * uy, ex * ux + ey * uy
            # a font without ascent or descent gives no box: the line's, else the advance's
            height = geo.height if geo.height > 0.0 else line.height if line.height > 0.0 else 1.5 * abs(b - a) or 1.0
            side = Side(ox, oy, ex, ey, ex, ey, geo.dx, geo.dy, height)
            spaced = pos > 0 and len(bare) < len(piece)
            placed.append(_Placed(bare, g, n, pos, spaced, r, side, min(a, b), max(a, b)))
    placed.sort(key=lambda p: (p.a0 + p.a1) / 2)
    units: list[str] = []
    glyph_of: list[_Placed | None] = []  # the glyph of each unit (None: a word space)
    left: _Placed | None = None
    for cur in placed:
        if left is not None and _spaced(left, cur, rules) and units and units[-1] != " ":
            units.append(" ")
            glyph_of.append(None)
        if cur.text == " " and units and units[-1] == " ":
            continue  # one space between words, whoever painted how many
        units.append(cur.text)
        glyph_of.append(cur)
        left = cur
    return units, glyph_of


def _spaced(left: _Placed, right: _Placed, rules: Rules) -> bool:
    """Whether a word space goes between the neighbours ``left`` and ``right`` (module
    docstring)."""
    if left.line == right.line and abs(left.pos - right.pos) == 1:
        return (right if right.pos > left.pos else left).spaced
    if not left.text or not right.text:
        return False
    if _direction(left.text) * _direction(right.text) < 0:
        return True  # letters of both directions, painted apart: two words (see _direction)
    lside, rside = left.side, right.side
    # The pair as the rules see a left-to-right step: from the left glyph's end (its far
    # side along the line, whichever way it was drawn) to the right glyph's start.
    if (lside.ex - lside.ox) * lside.ux + (lside.ey - lside.oy) * lside.uy < 0:
        lside = Side(lside.ex, lside.ey, lside.ox, lside.oy, lside.ox, lside.oy, lside.ux, lside.uy, lside.h)
    if (rside.ex - rside.ox) * rside.ux + (rside.ey - rside.oy) * rside.uy < 0:
        rside = Side(rside.ex, rside.ey, rside.ox, rside.oy, rside.ox, rside.oy, rside.ux, rside.uy, rside.h)
    verdict = rules.decide(lside, rside, left.text, right.text).verdict
    # Pieces of one row the rules would break (a baseline a little off) are still apart.
    return verdict is Verdict.SPACE or (verdict is Verdict.NEWLINE and left.line != right.line)


def _direction(text: str) -> int:
    """1 for a glyph whose text starts with a left-to-right letter, -1 with a right-to-left
    one, 0 otherwise (digits, punctuation, marks).

    Two neighbours on the page with letters of both directions that were not painted one
    after the other are two words even where they touch: Word lays out ``R و Python`` in an
    Arabic line with the space between ``و`` and ``Python`` moved to the far side of the
    Latin run, and the two letters touch. A digit or a full stop touching an Arabic letter
    does not count (cairo's ``و18``, Typst's ``.`` after a number, both typed attached).
    """
    cls = unicodedata.bidirectional(text[0])
    return 1 if cls == "L" else -1 if cls in ("R", "AL") else 0


# Bidi classes of what a number is made of: digits, and the separators UAX #9 lets stand
# between two of them (W4: ``-`` and ``+`` are ES; ``.``, ``,``, ``:`` and ``/`` are CS).
_DIGIT = "EN"
_SEPARATORS = frozenset({"ES", "CS"})


def _number_part(text: str) -> str | None:
    """"EN" for a glyph of European digits, "SEP" for one separator, else None."""
    if text and all(unicodedata.bidirectional(c) == _DIGIT for c in text):
        return _DIGIT
    if len(text) == 1 and unicodedata.bidirectional(text) in _SEPARATORS:
        return "SEP"
    return None


def _numbers(units: list[str], glyph_of: list[_Placed | None]) -> list[str]:
    """Join into one unit each number its producer laid out as one left-to-right string.

    Inside Arabic, UAX #9 turns European digits into Arabic numbers (W2), and a hyphen
    between two of those stays a neutral: ``800-2468`` typed in an Arabic sentence is two
    numbers that display in the other order, ``2468-800``. Renderers differ here: Typst
    follows UAX #9 and paints ``800``, ``-`` and ``2468`` as three strings in typed order
    (the visual line shows ``2468-800``), while XeTeX sets the number as one string left to
    right (``800-2468`` on the page). The glyphs of one string, painted one after the other
    left to right, digits with single separators between them, were laid out by the
    producer as one number: it is kept whole, in the order painted. A number in pieces is
    left to the bidi algorithm, which reads Typst's back as typed.
    """
    out: list[str] = []
    i, n = 0, len(units)
    while i < n:
        start = glyph_of[i]
        if start is None or _number_part(start.text) != _DIGIT:
            out.append(units[i])
            i += 1
            continue
        # the longest chain of one string, painted left to right, that alternates well
        end = i + 1
        last_digit = i
        while end < n:
            prev, cur = glyph_of[end - 1], glyph_of[end]
            if cur is None or prev is None or cur.run != prev.run or cur.g != prev.g + 1:
                break
            part = _number_part(cur.text)
            if part is None or (part == "SEP" and _number_part(prev.text) == "SEP"):
                break
            if part == _DIGIT:
                last_digit = end
            end += 1
        out.append("".join(units[i:last_digit + 1]))
        i = last_digit + 1
    return out
