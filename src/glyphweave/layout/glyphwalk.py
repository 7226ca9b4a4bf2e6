"""The reference walk: one glyph at a time over the table's columns, each pair of
neighbours put to :meth:`Rules.decide`.

It is the plain statement of what the run walk (:mod:`.runs`) computes faster, and serves
the cases the run walk leaves to it: options out of range, glyphs without a box height,
indices out of paint order.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import starmap
from operator import itemgetter
from typing import Any

from glyphweave.core.glyphtable import GlyphTable

from .rules import WIDE_GAP, Rules, Side, Verdict, operator_space, sits_on_base
from .walk import Walk


def walk_glyphs(table: GlyphTable, indices: Sequence[int], placeholder: str, rules: Rules) -> Walk:
    """The walk of the glyphs ``indices`` of ``table``, glyph by glyph."""
    if not len(indices):
        return Walk([], [], [], [])
    get = _selection(indices, len(table))
    texts = get(table.text)
    if None in table.decoded_by:
        texts = [placeholder if by is None else t for t, by in zip(texts, get(table.decoded_by), strict=True)]
    sides = _sides(table, get)
    pieces = [texts[0]]
    breaks: list[int] = []
    wide: list[int] = []
    widths: list[float] = []
    spaces: list[tuple[int, float]] = []  # the line's spaces from gaps: (glyph, gap)
    line_glyphs = 1
    last = texts[0] or "\n"  # the last non-empty piece of the line
    prev = sides[0]
    for g, (t, side) in enumerate(zip(texts[1:], sides[1:], strict=True), 1):
        decision = rules.decide(prev, side, last, t)
        if decision.verdict is Verdict.NEWLINE:
            _settle(pieces, spaces, line_glyphs - 1, rules)
            breaks.append(g)
            line_glyphs = 0
            pieces.append("\n" + t)
            last = t or "\n"
        elif decision.verdict is Verdict.SPACE:
            if not operator_space(last, t):
                spaces.append((g, decision.gap))  # math's spaces around operators always stand
            pieces.append(" " + t)
            last = t or " "
            if decision.gap >= WIDE_GAP:
                wide.append(g)
                widths.append(decision.width)
        else:
            if decision.gap:
                wide.append(g)
                widths.append(decision.width)
            pieces.append(t)
            last = t or last
        line_glyphs += 1
        if decision.verdict is Verdict.NEWLINE or not sits_on_base(t, abs(side.ex - side.ox) + abs(side.ey - side.oy)):
            prev = side  # a mark on its base leaves the base the glyph the next is measured from
    _settle(pieces, spaces, line_glyphs - 1, rules)
    return Walk(list(indices), pieces, breaks, wide, widths)


def _settle(pieces: list[str], spaces: list[tuple[int, float]], pairs: int, rules: Rules) -> None:
    """Drop the spaces of a letter-spaced line of ``pairs`` glyph pairs that are letter
    spacing, and forget them: the line has ended."""
    if spaces:
        limit = rules.settle_limit([gap for _, gap in spaces], pairs)
        if limit is not None:
            for g, gap in spaces:
                if gap <= limit:
                    pieces[g] = pieces[g][1:]
        spaces.clear()


def _sides(table: GlyphTable, get: Callable[[list[Any]], Sequence[Any]]) -> list[Side]:
    """The selected glyphs as the rules see them."""
    heights = get(table.height)
    if min(heights) <= 0:
        heights = _fallback_heights(heights, get(table.ox), get(table.oy), get(table.ex), get(table.ey),
                                    get(table.size))
    return list(starmap(Side, zip(get(table.ox), get(table.oy), get(table.ex), get(table.ey), get(table.px),
                                  get(table.py), get(table.dx), get(table.dy), heights, strict=True)))


def _selection(indices: Sequence[int], total: int) -> Callable[[list[Any]], Sequence[Any]]:
    """A function that picks the glyphs ``indices`` out of a column.

    ``indices`` are increasing (filters keep paint order), so a selection as long as the
    table that starts at 0 and ends at the last glyph is every glyph: the columns are used
    as they are. Otherwise each column is gathered once at C speed (``itemgetter``).
    """
    n = len(indices)
    if n == total and indices[0] == 0 and indices[-1] == n - 1:
        return _whole
    if n == 1:
        only = indices[0]
        return lambda col: (col[only],)
    return itemgetter(*indices)


def _whole(col: list[Any]) -> Sequence[Any]:
    return col


def _fallback_heights(
    heights: Sequence[float],
    ox: Sequence[float],
    oy: Sequence[float],
    ex: Sequence[float],
    ey: Sequence[float],
    sizes: Sequence[float],
) -> list[float]:
    """Box heights for glyphs whose font gives none (no ascent/descent, empty bbox).

    The median positive height of the page when there is one, else 1.5 × the glyph's
    own advance, else its font size, else 1.
    """
    good = sorted(h for h in heights if h > 0)
    if good:
        typical = good[len(good) // 2]
        return [h if h > 0 else typical for h in heights]
    return [
        1.5 * math.hypot(x1 - x0, y1 - y0) or abs(size) or 1.0
        for x0, y0, x1, y1, size in zip(ox, oy, ex, ey, sizes, strict=True)
    ]
