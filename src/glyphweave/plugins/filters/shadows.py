"""Strings painted again at one offset: the shadow test of the ``dedup`` filter (rules: filters,
dedup), in a module of its own so that the compiled build compiles it (the filter itself holds
hook implementations, which mypyc does not compile).

A page pays one dictionary look-up per string of three glyphs or more; only strings whose font
and codes come again are measured, and each against the last few with the same codes. An OCR
layer repeats "the" hundreds of times a page and a manual its headers on every page, so that
loop ran a few million times over the bench, interpreted: 120 ms of the compiled build's 3.4 s.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from itertools import compress
from operator import attrgetter
from typing import Any, Final

from glyphweave.plugin import PageContext, Run, RunFrame, RunGeometry

SAME_DIRECTION: Final = 0.99
"""Two writing directions are the same when their unit vectors' dot product exceeds this
(about 8°): copies painted through a slightly different matrix still match, while text
at a real angle to its neighbour (a rotated label over a table) never does."""

SHADOW_MIN_GLYPHS: Final = 3
"""Glyphs other than spaces a string needs before a copy of it counts as a shadow: two
glyphs repeat by chance (``11`` over ``11`` in a table), three at one offset do not."""

SHADOW_RECENT: Final = 4
"""Earlier strings with the same codes a string is compared with, the most recent first in
paint order: producers paint a shadow next to its text (before or after it)."""

SHADOW_DRIFT: Final = 0.05
"""How far, in heights, each glyph's offset from its original may differ from the first
glyph's: a copy is painted through one shifted matrix, so its offsets agree to rounding."""

_SPACE_EXTRA: Final = "\u00a0\u3000"

_FONT_AND_CODES = attrgetter("font", "codes")
"""A run's font and codes: what a string painted again has the same of (codes are tuples)."""


def is_space(text: str) -> bool:
    """Whether ``text`` is spaces only (≤ U+0020, U+00A0, U+3000): never a candidate."""
    return all(ch <= " " or ch in _SPACE_EXTRA for ch in text)


def shadows(page: PageContext, indices: Sequence[int], reach: float, tolerance: float) -> bytearray | None:
    """The glyphs of strings that repeat an earlier string at one offset within ``reach``
    heights (rules: filters, dedup), as a flag per glyph of the page, or None.

    Strings are compared by their font and codes, hashed, so a page pays one dictionary
    look-up per string of three glyphs or more, and only strings with the same codes are
    measured. Both strings must be wholly among ``indices``: a copy is not dropped for an
    original that another filter removed."""
    table = page.table
    runs: Sequence[Run] = table.raw_runs()
    if len(runs) < 2:
        return None
    # The strings whose font and codes come again on the page, found at C speed: the usual
    # page has none, and a string that is not repeated is never looked at again.
    keys: list[Any] = list(map(_FONT_AND_CODES, runs))
    try:
        counts = Counter(keys)
    except TypeError:  # codes in a list: a run built by hand (the interpreter's are tuples)
        keys = [(font, tuple(codes)) for font, codes in keys]
        counts = Counter(keys)
    if len(counts) == len(keys):
        return None
    repeated = {key for key, count in counts.items() if count > 1 and len(key[1]) >= SHADOW_MIN_GLYPHS}
    if not repeated:
        return None
    geometry: Sequence[RunGeometry] = table.runs()
    frames: Sequence[RunFrame] = table.frames()
    comparable = _Comparable(runs, geometry, indices, len(table))
    seen: dict[Any, list[int]] = {}
    dropped: bytearray | None = None
    for r in compress(range(len(keys)), map(repeated.__contains__, keys)):
        key = keys[r]
        earlier = seen.get(key)
        if earlier is None:  # the first of the strings with these codes: nothing to compare
            seen[key] = [r]
            continue
        run = runs[r]
        geo = geometry[r]
        frame = frames[r]
        first = run.starts[0]
        x = frame.bx + frame.ax * first
        y = frame.by + frame.ay * first
        near = reach * geo.height
        # The last few strings with these codes only: a shadow is painted right before or
        # after its text, and an OCR layer repeats "the" hundreds of times on a page, which
        # compared all with all cost a scanned page 40 ms. Distance first, the rest after.
        copy = False
        for k in earlier[-SHADOW_RECENT:]:
            frame_k = frames[k]
            start_k = runs[k].starts[0]
            if (abs(frame_k.bx + frame_k.ax * start_k - x) <= near
                    and abs(frame_k.by + frame_k.ay * start_k - y) <= near
                    and comparable.check(k) and comparable.check(r)
                    and copies(runs[k], geometry[k], frame_k, run, geo, frame, reach, tolerance)):
                copy = True
                break
        if copy:
            if dropped is None:
                dropped = bytearray(len(table))
            dropped[geo.start:geo.end] = b"\x01" * (geo.end - geo.start)
            continue
        earlier.append(r)
    return dropped


class _Comparable:
    """Whether a run is wholly among the indices and has enough glyphs besides spaces, each
    run decided once (the page's flags of wanted glyphs made on the first question)."""

    def __init__(self, runs: Sequence[Run], geometry: Sequence[RunGeometry], indices: Sequence[int],
                 glyphs: int) -> None:
        self.runs = runs
        self.geometry = geometry
        self.indices = indices
        self.glyphs = glyphs
        self.wanted = bytearray()
        self.verdicts: dict[int, bool] = {}

    def check(self, k: int) -> bool:
        verdict = self.verdicts.get(k)
        if verdict is None:
            wanted = self.wanted
            if not wanted:
                wanted.extend(bytes(self.glyphs))
                for i in self.indices:
                    wanted[i] = 1
            geo = self.geometry[k]
            verdict = wanted.count(1, geo.start, geo.end) == geo.end - geo.start and sum(
                1 for text, by in self.runs[k].decoded if by is not None and text and not is_space(text)
            ) >= SHADOW_MIN_GLYPHS
            self.verdicts[k] = verdict
        return verdict


def copies(first: Run, first_geo: RunGeometry, first_frame: RunFrame, later: Run, later_geo: RunGeometry,
           later_frame: RunFrame, reach: float, tolerance: float) -> bool:
    """Whether ``later`` paints ``first`` again (same codes known) at one offset within reach."""
    h0, h1 = first_geo.height, later_geo.height
    if not (0.0 < h0 < math.inf and 0.0 < h1 < math.inf) or abs(h0 - h1) > tolerance * max(h0, h1):
        return False
    if first_geo.dx * later_geo.dx + first_geo.dy * later_geo.dy <= SAME_DIRECTION:
        return False
    bx0, by0, ax0, ay0 = first_frame.bx, first_frame.by, first_frame.ax, first_frame.ay
    bx1, by1, ax1, ay1 = later_frame.bx, later_frame.by, later_frame.ax, later_frame.ay
    s0, s1 = first.starts, later.starts
    dx = (bx1 + ax1 * s1[0]) - (bx0 + ax0 * s0[0])
    dy = (by1 + ay1 * s1[0]) - (by0 + ay0 * s0[0])
    if math.hypot(dx, dy) > reach * h0:
        return False
    drift = SHADOW_DRIFT * h0
    for a, b in zip(s0, s1, strict=False):
        ex = (bx1 + ax1 * b) - (bx0 + ax0 * a) - dx
        ey = (by1 + ay1 * b) - (by0 + ay0 * a) - dy
        if abs(ex) > drift or abs(ey) > drift:
            return False
    return True
