"""Measuring a shown string: where each glyph of one Tj/TJ operand starts and ends along
the baseline, in text space, in the current text state (ISO 32000-1 §9.4.4).

The interpreter measures an operand the first time it meets it in a font and text state
(equal operands are remembered, see :meth:`PageInterpreter._show`). This module is the
reference: :func:`measure_simple` for a simple font's operand, :func:`measure_composite` for a
composite font's, :func:`placed` for the part both share once codes and advances are known. The compiled build runs both from
:mod:`glyphweave.pdf._cmeasure` (the same numbers to the bit, worked out in C doubles
instead of a tuple per step); a test compares the two.
"""

from __future__ import annotations

import math
from itertools import accumulate, islice
from typing import Any

__all__ = ["KnownCodes", "composite_codes", "measure_composite", "measure_simple", "placed"]

Placed = tuple[tuple[float, ...], tuple[float, ...], "tuple[float, float, float] | None", float]
"""(starts, pens, extent, end): see :func:`placed`."""


class KnownCodes:
    """What the measuring keeps per font between operands: nothing, here. The reference
    looks every code up in the font's own caches (code to CID, code to text), which fill on
    first use and never change an answer. The compiled build's class of
    this name keeps the codes met before in C (a composite font's in a table keyed by the
    code's bytes as an integer, a simple font's decoding in an array by code), which answers
    for them without a dictionary look-up per code; the interpreter holds one per font
    (:attr:`~glyphweave.pdf.fontstate.FontState.known_codes`) in either build."""

    __slots__ = ()

    def __len__(self) -> int:
        return 0


def measure_simple(widths: Any, table: Any, strings: list[Any], adjustments: list[tuple[int, float]] | None,
                   hscale: float, th: float, tc: float, tw: float, wmode: int,
                   known: KnownCodes | None = None) -> tuple[Any, ...]:
    """A simple font's operand: its ``strings`` (with TJ numbers as ``adjustments``,
    ``(bytes shown before, number)``) measured with the font's advances scaled by ``hscale``
    (``widths``, a list by code) and decoded through ``table`` (the font's decode cache).
    ``known``, the font's :class:`KnownCodes`, keeps nothing here.

    Returns (codes, advances, starts, pens, extent, end, decoded): codes as ints, the other
    sequences as tuples (see :class:`~glyphweave.pdf.interpreter.Measured`)."""
    codes = tuple(strings[0] if len(strings) == 1 else b"".join(strings))
    advances = tuple(map(widths.__getitem__, codes))
    shifts = None
    if adjustments:
        scale = -hscale / 1000.0
        shifts = [(count, value * scale) for count, value in adjustments]
    starts, pens, extent, end = placed(codes, advances, shifts, bool(tw) and 32 in codes, 32, wmode, tc, tw, th)
    decoded = tuple(map(table.__getitem__, codes)) if codes else ()
    return codes, advances, starts, pens, extent, end, decoded


def measure_composite(split: Any, width: int, cid_table: Any, widths: Any, table: Any, strings: list[Any],
                      adjustments: list[tuple[int, float]] | None, hscale: float, th: float, tc: float, tw: float,
                      wmode: int, space_single_byte: bool, known: KnownCodes | None = None) -> tuple[Any, ...]:
    """A composite font's operand: its codes split by the font's CMap (``split``; ``width``
    its one code length, 0 when it has several), each code's CID (``cid_table``) and the
    CID's advance scaled by ``hscale`` (``widths``), measured and decoded as
    :func:`measure_simple` does. Word spacing applies to the single-byte code 32 only, in
    a CMap that has single-byte codes (``space_single_byte``; §9.3.3). ``known``, the
    font's :class:`KnownCodes`, keeps nothing here.

    Returns (codes, cids, advances, starts, pens, extent, end, decoded): codes as bytes."""
    codes, shifts = composite_codes(split, width, strings, adjustments, -hscale / 1000.0)
    cids = tuple(map(cid_table.__getitem__, codes))
    advances = tuple(map(widths.__getitem__, cids))
    spaced = bool(tw) and space_single_byte and b" " in codes
    starts, pens, extent, end = placed(codes, advances, shifts, spaced, b" ", wmode, tc, tw, th)
    decoded = tuple(map(table.__getitem__, codes)) if codes else ()
    return codes, cids, advances, starts, pens, extent, end, decoded


def composite_codes(split: Any, width: int, strings: list[Any], adjustments: list[tuple[int, float]] | None,
                    scale: float) -> tuple[tuple[bytes, ...], list[tuple[int, float]] | None]:
    """A composite font's codes in an operand's strings, and its TJ numbers as (codes
    before, pen shift): ``split`` splits bytes into codes, ``width`` is its one code length
    (0 when it has several)."""
    if len(strings) == 1 and not adjustments:
        return tuple(split(bytes(strings[0]))), None
    if width and not any(len(data) % width for data in strings):
        # One code length (Identity-H, most Unicode CMaps) and whole codes in every
        # string: split the operand once; a byte offset is a code count times width.
        codes = tuple(split(b"".join(strings)))
        if not adjustments:
            return codes, None
        return codes, [(count // width, value * scale) for count, value in adjustments]
    # Codes never span strings: split each, and turn byte offsets into code counts.
    parts: list[Any] = []
    offsets: dict[int, int] = {0: 0}
    seen = 0
    for data in strings:
        parts.extend(split(bytes(data)))
        seen += len(data)
        offsets[seen] = len(parts)
    if not adjustments:
        return tuple(parts), None
    return tuple(parts), [(offsets.get(count, len(parts)), value * scale) for count, value in adjustments]


def placed(codes: Any, advances: tuple[float, ...], shifts: list[tuple[int, float]] | None, spaced: bool,
           space_code: Any, wmode: int, tc: float, tw: float, th: float) -> Placed:
    """Where the glyphs of an operand stand: each glyph's start and pen end, the operand's
    extent (:func:`extent`, writing mode 0 only) and where the pen stands after it.

    A glyph's pen move is its own advance, plus Tc, plus Tw on the single-byte space when
    ``spaced``, plus the TJ numbers after it (``shifts``: (glyphs before, pen shift)). TJ
    numbers shift the following glyphs' starts but not the pen ends of the glyphs before
    them, so a kerning or word-gap adjustment is never mistaken for character spacing
    downstream."""
    moves: Any = advances if not tc and not spaced else spaced_moves(advances, codes, space_code, wmode, tc, tw, th)
    pen = 0.0
    if shifts:
        if moves is advances:
            moves = list(advances)
        n = len(codes)
        for count, shift in shifts:
            if count == 0:
                pen += shift
            elif count <= n:
                moves[count - 1] += shift
    positions = tuple(accumulate(moves, initial=pen))
    end = positions[-1]
    if not codes:
        return (), (), None, end
    starts = positions[:-1]
    # A glyph's pen end is the next start, except where a TJ number moved the pen.
    pens = positions[1:] if not shifts else unshifted(positions[1:], shifts)
    return starts, pens, extent(pen, moves, advances, starts, pens) if wmode == 0 else None, end


def spaced_moves(advances: tuple[float, ...], codes: Any, space_code: Any, wmode: int, tc: float, tw: float,
                 th: float) -> list[float]:
    """Pen moves: each glyph's own advance plus character spacing, and word spacing on
    the single-byte space (Tz scales both in writing mode 0 only)."""
    if wmode == 0:
        extra = tc * th
        wextra = (tc + tw) * th
        return [o + (wextra if c == space_code else extra) for o, c in zip(advances, codes, strict=True)]
    return [o + tc + (tw if c == space_code else 0.0) for o, c in zip(advances, codes, strict=True)]


def unshifted(pens: tuple[float, ...], shifts: list[tuple[int, float]]) -> tuple[float, ...]:
    """Pen ends without the TJ numbers that follow each glyph."""
    ends = list(pens)
    n = len(ends)
    for count, shift in shifts:
        if 0 < count <= n:
            ends[count - 1] -= shift
    return tuple(ends)


def extent(pen: float, moves: Any, advances: tuple[float, ...], starts: tuple[float, ...],
           pens: tuple[float, ...]) -> tuple[float, float, float] | None:
    """(lowest, highest offset any glyph covers, smallest step) of a horizontal operand
    whose pen only moves forward; None otherwise. Known here at little cost, it spares
    the glyph table a pass over every list."""
    n = len(advances)
    if n == 1:
        return (pen, max(pens[0], pen + advances[0]), math.inf) if advances[0] >= 0 else None
    step = min(islice(moves, n - 1))
    last = moves[-1]
    if (step if step < last else last) > 0 and (moves is advances or min(advances) >= 0):
        return (pen, max(pens[-1], starts[-1] + advances[-1]), step)
    return None
