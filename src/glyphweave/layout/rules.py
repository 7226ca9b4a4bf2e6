"""The rules of the ``reading`` assembler (rules: assembly): what goes between a glyph and the one
painted before it, and how the lines are finished.

:class:`Rules` is the one statement of the word-gap and line-break rules; both walks ask
it (see :class:`~glyphweave.plugins.assemblers.reading.ReadingAssembler` for the rules in
prose). A glyph is seen by the rules as a :class:`Side`; the answer is a
:class:`Decision`.
"""

from __future__ import annotations

import enum
import math
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from functools import partial
from typing import Final, NamedTuple

from .scripts import has_rtl

# (The constants are Final: compiled, each is a constant of the module's C code, not a
# look-up in its dictionary on every glyph the rules decide.)

# Directions whose cosine is below this are a different writing direction: a new line.
# (Text set along a curve turns a few degrees per glyph and stays on its line.)
_SAME_DIRECTION: Final = 0.8

# Directions closer than this (cosine) are parallel enough for a script step or a stacked
# column to continue the line.
_PARALLEL: Final = 0.99

# Letter spacing inferred from the gaps of a line (see ReadingAssembler) is believed only
# up to this fraction of the box height (about half an em): wider, evenly spaced gaps are
# layout (a table row of one-letter cells), not tracking.
_MAX_LETTER_SPACING: Final = 0.6

# A glyph raised or lowered by more than line_gap but less than one box height, that
# starts between _SCRIPT_BACK and _SCRIPT_AHEAD box heights from where the previous glyph
# ended, is a sub- or superscript step (ReportLab raises 10 pt superscripts on 12 pt text
# by 6 pt, groff by half an em: more than half a box height of ascent-to-descent metrics).
_SCRIPT_BACK: Final = -0.5
_SCRIPT_AHEAD: Final = 1.0

# Upright CJK glyphs stacked in a column (vertical text set glyph by glyph with wmode 0):
# the next glyph sits at most this many box heights below the previous one, and less than
# _STACK_ALONG box heights to either side of it.
_STACK_STEP: Final = 2.0
_STACK_ALONG: Final = 0.5

# Code point ranges of CJK characters, between which no space is ever inserted: Hangul
# Jamo, CJK radicals, ideographic description, CJK symbols and punctuation, kana,
# Bopomofo, Hangul compatibility Jamo, Kanbun, CJK strokes, enclosed and compatibility
# CJK, ideographs (with extension A), Yi, Hangul syllables and Jamo extensions,
# compatibility ideographs, vertical and compatibility forms, halfwidth and fullwidth
# forms, kana supplements, ideograph extensions B onwards.
_CJK_RANGES = (
    (0x1100, 0x11FF),
    (0x2E80, 0x2FDF),
    (0x2FF0, 0x31FF),
    (0x3200, 0x4DBF),
    (0x4E00, 0xA4CF),
    (0xA960, 0xA97F),
    (0xAC00, 0xD7FF),
    (0xF900, 0xFAFF),
    (0xFE10, 0xFE1F),
    (0xFE30, 0xFE4F),
    (0xFF00, 0xFFEF),
    (0x1B000, 0x1B2FF),
    (0x20000, 0x3FFFF),
)
_CJK_STARTS = [lo for lo, _ in _CJK_RANGES]


def is_cjk(ch: str) -> bool:
    """True when the character ``ch`` is CJK (ideograph, kana, hangul, CJK punctuation,
    fullwidth form...)."""
    cp = ord(ch)
    k = bisect_right(_CJK_STARTS, cp) - 1
    return k >= 0 and cp <= _CJK_RANGES[k][1]


_KINDS: Final[dict[str, tuple[bool, bool, bool, bool, bool, bool]]] = {}
"""Cache: glyph text -> (is whitespace, first char is CJK, last char is CJK, is a
nonspacing mark, first char is a math symbol, last char is one)."""


def _kind(text: str) -> tuple[bool, bool, bool, bool, bool, bool]:
    """The cached kind of ``text`` (a plain dictionary and a lookup, not a dictionary
    subclass with ``__missing__``: the compiled build cannot run one)."""
    kind = _KINDS.get(text)
    if kind is None:
        kind = (text.isspace(), bool(text) and is_cjk(text[0]), bool(text) and is_cjk(text[-1]),
                bool(text) and unicodedata.category(text[0]) in ("Mn", "Me"),
                bool(text) and unicodedata.category(text[0]) == "Sm",
                bool(text) and unicodedata.category(text[-1]) == "Sm")
        if len(_KINDS) < 100_000:
            _KINDS[text] = kind
    return kind


def sits_on_base(text: str, advance: float) -> bool:
    """Whether a glyph with ``text`` and own ``advance`` is a mark drawn on the glyph before
    it: a nonspacing mark (a vowel sign below, a haraka, an accent) painted on its own with
    no advance. Where the word goes on is measured from its base's end, not from the mark,
    which fpdf2 places inside its base (``कृ`` then ``पया`` read as two words)."""
    return advance == 0.0 and _kind(text)[3]


def may_space(before: str, text: str) -> bool:
    """Whether a word space may go between the piece ``before`` and the glyph text
    ``text``: not when either already is whitespace, nor between two CJK characters."""
    kb = _kind(before)
    kt = _kind(text)
    return not (kb[0] or kt[0] or (kb[2] and kt[1]))


NARY = frozenset("\u2140\u220f\u2210\u2211\u222b\u222c\u222d\u222e\u222f\u2230\u22c0\u22c1\u22c2\u22c3\u2a00\u2a01\u2a02")
"""Large (n-ary) operators: ``∑``, ``∏``, ``∫``, ``⋃``, ... Math sets a thin space between
one and its operand (``∑ x`` in typst and TeX), which a reader does not type (``∑xi``):
short of a wide gap, no word space follows one."""


def operator_space(before: str, text: str) -> bool:
    """Whether a word space between ``before`` and ``text`` stands beside a mathematical
    operator (``=``, ``±``, ``−``, ``≤``: Unicode's math symbols): math sets such spaces
    around relations and binary operators, and they are never letter spacing, so a line
    of mathematics is not taken for a letter-spaced one (:meth:`Rules.settle_limit`)."""
    return _kind(before)[5] or _kind(text)[4]


class Side:
    """One glyph as the rules see it, in page user space: the previous glyph's whole side
    and the current glyph's origin, direction and box height decide what goes between.

    A slotted record rather than a tuple: the rules read it by name at attribute speed,
    and the run walk, which needs one per run, refills two of them in place
    (:meth:`place`) instead of making one per run.
    """

    __slots__ = ("ox", "oy", "ex", "ey", "px", "py", "ux", "uy", "h")

    ox: float  # origin: where the glyph starts on its baseline (after rise)
    oy: float
    ex: float  # glyph end: the origin moved by the glyph's own advance (without Tc/Tw)
    ey: float
    px: float  # pen end: where the pen stood after the glyph (its full displacement)
    py: float
    ux: float  # unit writing direction (down the column in writing mode 1)
    uy: float
    h: float  # box height (writing mode 1: the column width), positive

    def __init__(self, ox: float, oy: float, ex: float, ey: float, px: float, py: float,
                 ux: float, uy: float, h: float) -> None:
        self.place(ox, oy, ex, ey, px, py, ux, uy, h)

    def place(self, ox: float, oy: float, ex: float, ey: float, px: float, py: float,
              ux: float, uy: float, h: float) -> None:
        """Refill in place, as the run walk does (a method of its own rather than an alias
        of ``__init__``, which the compiled build cannot call)."""
        self.ox = ox
        self.oy = oy
        self.ex = ex
        self.ey = ey
        self.px = px
        self.py = py
        self.ux = ux
        self.uy = uy
        self.h = h

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"Side({fields})"


class Verdict(enum.Enum):
    """What goes between two glyphs."""

    JOIN = "join"
    SPACE = "space"
    NEWLINE = "newline"


class Decision(NamedTuple):
    """The rules' answer between two glyphs."""

    verdict: Verdict
    gap: float
    """For a word space, the gap in box heights (tracking taken out): the spaces of a
    line letter-spaced by positioning are settled on it when the line ends
    (:func:`settle_limit`). For a join, a wide gap (:data:`WIDE_GAP`) that could not be
    a space because whitespace is on one side. 0 otherwise."""
    width: float = 0.0
    """The same gap as a distance along the line (user space), tracking not taken out:
    what a column gutter or a cell boundary is measured by (:meth:`Line.split`)."""


JOIN: Final = Decision(Verdict.JOIN, 0.0)
NEWLINE: Final = Decision(Verdict.NEWLINE, 0.0)
# A space is the one decision made afresh: tuple.__new__ spares the Python-level
# constructor of a NamedTuple, on a path taken once per word.
_decision: Final = partial(tuple.__new__, Decision)
_SPACE: Final = Verdict.SPACE
_JOIN: Final = Verdict.JOIN

WIDE_GAP: Final = 0.4
"""A gap along the line of at least this many box heights (and wider than the word gap)
is *wide*: the walks note where, so that lines can be split at gaps that may be column
gutters or table cell boundaries without measuring every word space again. A gap is
noted whether or not a space was written for it (after a painted space glyph, none is)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The word-gap and line-break rules with a page's options (all in box heights)."""

    word_gap: float
    """A gap wider than this (after tracking is taken out) is a word space."""
    line_gap: float
    """A move across the writing direction larger than this is a new line."""
    back_jump: float
    """A jump backwards along the writing direction larger than this is a new line."""
    number_strings: bool = True
    """Inside right-to-left text, a number painted as one string left to right keeps the
    order painted (:func:`~.visual.visual_units`); False: the bidi algorithm alone orders
    its digits and separators."""

    def in_range(self) -> bool:
        """Options finite and not negative: what the run walk's estimates assume."""
        return 0.0 <= self.word_gap < math.inf and 0.0 <= self.line_gap < math.inf and (
            0.0 <= self.back_jump < math.inf)

    def decide(self, prev: Side, cur: Side, before: str, text: str) -> Decision:
        """What goes between the glyph ``prev`` and the glyph ``cur`` painted after it.

        ``before`` is the last non-empty piece of the line ("\\n" when there is none),
        ``text`` the current glyph's text: they decide whether a gap may be a space.
        Distances are judged in box heights of the larger glyph of the two.
        """
        pex = prev.ex
        pey = prev.ey
        pux = prev.ux
        puy = prev.uy
        x = cur.ox
        y = cur.oy
        ux = cur.ux
        uy = cur.uy
        if x == pex and y == pey and ux == pux and uy == puy:
            return JOIN  # the next glyph of a string without Tc or kerning
        pox = prev.ox
        poy = prev.oy
        phh = prev.h
        h = cur.h
        hh = h if h > phh else phh
        across = (y - poy) * pux - (x - pox) * puy
        lim = self.line_gap * hh
        same = -lim <= across <= lim and (ux == pux and uy == puy or ux * pux + uy * puy >= _SAME_DIRECTION)
        if not same and -hh <= across <= hh and ux * pux + uy * puy > _PARALLEL:
            gap = (x - pex) * pux + (y - pey) * puy
            same = _SCRIPT_BACK * hh <= gap <= _SCRIPT_AHEAD * hh  # a script step
        if not same:
            if ux * pux + uy * puy > _PARALLEL and _stacked(before, text, (x - pox) * pux + (y - poy) * puy,
                                                            across, hh):
                return JOIN  # the next glyph of a column stacked by hand
            return NEWLINE
        gap = (x - pex) * pux + (y - pey) * puy
        limit = self.word_gap * hh
        if not gap > limit:
            if gap < 0.0:
                if gap < -self.back_jump * hh:
                    return NEWLINE
                return self._backwards(prev, cur, before, text, hh)
            if gap > self.word_gap * (h if h < phh else phh) and _direction_boundary(before, text):
                limit = self.word_gap * (h if h < phh else phh)
            else:
                return JOIN
        width = gap
        track = (prev.px - pex) * pux + (prev.py - pey) * puy
        if track > 0:
            gap -= track  # Tc, known exactly: letter spacing is no word gap
        if gap > limit:
            if may_space(before, text) and (before[-1:] not in NARY or gap >= WIDE_GAP * hh):
                return _decision((_SPACE, gap / hh, width))
            if gap >= WIDE_GAP * hh:
                return _decision((_JOIN, gap / hh, width))  # a wide gap after whitespace: noted
        return JOIN

    def _backwards(self, prev: Side, cur: Side, before: str, text: str, hh: float) -> Decision:
        """A glyph placed behind the one painted before it, on its line, where one of the
        two is right-to-left script (painted in reading order, glyph by glyph or word by
        word): the gap is measured the other way, from where the current glyph ends to
        where the previous one starts, and is a word space by the same limit. A glyph that
        overlaps the previous one (a mark, a kerned pair) is joined, and so is a step back
        in other text, where it is a repaint (a word painted again on its spot) rather than
        reading order."""
        pux = prev.ux
        puy = prev.uy
        x = cur.ox
        y = cur.oy
        # along the previous glyph's direction: its start p0 and end p1, the current c0, c1
        back = (prev.ox - x) * pux + (prev.oy - y) * puy  # p0 - c0
        own = (cur.ex - x) * pux + (cur.ey - y) * puy  # c1 - c0
        prev_own = (prev.ex - prev.ox) * pux + (prev.ey - prev.oy) * puy  # p1 - p0
        gap = back - (own if own > 0.0 else 0.0) + (prev_own if prev_own < 0.0 else 0.0)
        if gap > self.word_gap * hh and (has_rtl(text[:1]) or has_rtl(before[-1:])):
            if may_space(before, text):
                return _decision((_SPACE, gap / hh, gap))
            if gap >= WIDE_GAP * hh:
                return _decision((_JOIN, gap / hh, gap))  # a wide gap after whitespace: noted
        return JOIN

    def settle_limit(self, gaps: list[float], pairs: int) -> float | None:
        """Letter spacing by positioning: the widest gap (in box heights) that is still
        letter spacing on a line of ``pairs`` neighbouring glyph pairs whose spaces have
        ``gaps``; None when the line is not letter-spaced.

        When most gaps of the line are that wide, the line is letter-spaced by
        positioning (no Tc): its typical gap is the letter spacing, and only gaps wider
        than it by ``word_gap`` are word breaks. The walks leave out of ``gaps`` the spaces
        beside a math operator (:func:`operator_space`), which always stand.
        """
        nc = len(gaps)
        if nc < 2:
            return None
        small = pairs - nc
        if nc <= small:
            return None
        ratios = sorted(gaps)
        typical = ratios[(pairs - 1) // 2 - small]  # lower median of all the line's gaps
        if typical > _MAX_LETTER_SPACING:
            return None
        return typical + self.word_gap


def _direction_boundary(before: str, text: str) -> bool:
    """Whether right-to-left script stands on exactly one side of the pair (a Hebrew or
    Arabic word in a Latin line, or a number in a right-to-left one).

    There the gap is judged against the smaller glyph's box height: fonts made for Arabic
    reserve height for stacked marks (Amiri's box is 1.76 em, Noto Sans's 1.36), so the
    larger box overstates the word gap at the same type size, and XeTeX's ordinary word
    space between ``word`` and an Arabic word fell under the limit.
    """
    return bool(before) and bool(text) and has_rtl(before[-1]) != has_rtl(text[0])


def _stacked(before: str, text: str, along: float, across: float, hh: float) -> bool:
    """Upright CJK glyph placed right below the previous one: a vertical column."""
    if not (-_STACK_STEP * hh <= across < 0 and -_STACK_ALONG * hh <= along <= _STACK_ALONG * hh):
        return False
    return _kind(before)[2] and _kind(text)[1]


def finish_text(text: str) -> str:
    """Strip trailing whitespace of lines, keep at most one blank line in a row, drop
    leading and trailing blank lines; end with a newline unless empty."""
    lines: list[str] = []
    blank = True
    for line in text.splitlines():
        line = line.rstrip()
        if line:
            blank = False
        elif blank:
            continue
        else:
            blank = True
        lines.append(line)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n" if lines else ""
