"""Blocks: lines that sit together (a paragraph, a table cell, a label), found from where
they lie.

Two lines of the same direction belong to one block when the second sits below the first
(in reading progression) by at most :data:`BLOCK_LEADING` times the larger of their
heights, and their extents along the direction overlap. Blocks are the connected groups
of that relation. Lines are visited in order of their across position with a window, so
a page of many lines is not a quadratic walk.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import Final

from .lines import Box, Line

BLOCK_LEADING: Final = 1.6
"""Baseline-to-baseline distance, in line heights, up to which two lines are one block:
single to one-and-a-half spaced text (a line height is about 1.15 em, leading about 1.2
em per spacing step) without joining paragraphs separated by a blank line."""

SAME_DIRECTION: Final = 0.99
"""Cosine above which two lines read in the same direction."""


class Block:
    """Lines that sit together, in reading order (down the block)."""

    __slots__ = ("box", "lines", "ux", "uy")

    def __init__(self, lines: list[Line]) -> None:
        self.lines = lines
        self.ux = lines[0].ux
        self.uy = lines[0].uy
        self.box: Box = (min(ln.box[0] for ln in lines), min(ln.box[1] for ln in lines),
                         max(ln.box[2] for ln in lines), max(ln.box[3] for ln in lines))

    def __repr__(self) -> str:
        return f"Block({len(self.lines)} lines, {self.lines[0].text[:30]!r}...)"


def same_direction(a: Line, b: Line) -> bool:
    return a.ux * b.ux + a.uy * b.uy > SAME_DIRECTION


def build_blocks(lines: Sequence[Line]) -> list[Block]:
    """The blocks of ``lines``, each in reading order, in paint order of their first line."""
    if not lines:
        return []
    parent = list(range(len(lines)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    order = sorted(range(len(lines)), key=lambda i: lines[i].across)
    acrosses = [lines[i].across for i in order]
    tallest = max(ln.height for ln in lines)
    for pos, i in enumerate(order):
        a = lines[i]
        reach = BLOCK_LEADING * tallest
        lo = bisect_left(acrosses, a.across - reach)
        # lines below a (lower across) within reach; at most a bounded number are checked
        for j in order[max(lo, pos - 64):pos]:
            b = lines[j]
            if not same_direction(a, b):
                continue
            if a.across - b.across > BLOCK_LEADING * max(a.height, b.height):
                continue
            if b.start < a.end and a.start < b.end:
                ra, rb = find(i), find(j)
                if ra != rb:
                    parent[max(ra, rb)] = min(ra, rb)
    groups: dict[int, list[int]] = {}
    for i in range(len(lines)):
        groups.setdefault(find(i), []).append(i)
    blocks = []
    for members in groups.values():
        members.sort(key=lambda i: (-lines[i].across, lines[i].start))
        blocks.append((min(members), Block([lines[i] for i in members])))
    blocks.sort(key=lambda item: item[0])
    return [block for _first, block in blocks]
