"""A page's logical structure (tagged PDF, §14.7-14.8) as the structure assembler plays it.

The engine walks the document's structure tree once and hands each page the content its
elements reference, in the author's order, as :class:`StructItem` records: which marked
content (MCID, and the stream it lives in), under which block, table row and cell, with
what replacement text. This module holds the records and the one measure every user of
them shares: how much of a page the tree covers (:func:`coverage`), and so whether the
structure is usable at all.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import Any

import attrs

from glyphweave.core.glyphtable import GlyphTable

ContentKey = tuple[Any, int]
"""(the stream the marked content is in: None for the page's content, else the form
XObject's object number and generation; the MCID)."""


@attrs.frozen(slots=True)
class StructItem:
    """One piece of a page's content in the author's order."""

    keys: tuple[ContentKey, ...]
    """The marked content it stands for: one MCID, or all of an element's content when
    the element's ``text`` replaces it."""
    kind: str
    """The standard structure type of the element that holds it (role map applied)."""
    block: int
    """Identity of the nearest block-level element around it (P, H1, LI, TD, ...): where it
    changes, a line ends."""
    row: int | None = None
    """Identity of the table row (TR) around it: the cells of a row stay on one line."""
    cell: int | None = None
    """Identity of the table cell (TD, TH) around it."""
    text: str | None = None
    """The element's /ActualText, which replaces the content of ``keys``."""
    alt: str | None = None
    """A figure's /Alt (alternate description), used when the assembler is asked to."""


@attrs.frozen(slots=True)
class PageStructure:
    """What the structure tree says about one page."""

    items: tuple[StructItem, ...]
    """The page's content in the author's order."""
    in_tree: bool
    """The page has /StructParents (the tree knows it has marked content) or the tree
    references content on it."""
    warnings: tuple[str, ...] = ()
    """What was wrong with the tree (cycles, depth, bad references): the walk went on."""


@attrs.frozen(slots=True)
class Coverage:
    """How much of a page's visible text the structure tree covers."""

    usable: bool
    share: float
    """Glyphs in referenced content over visible glyphs that are not artifacts."""
    reason: str
    """Why the structure is or is not usable, in words."""
    referenced: int = 0
    artifacts: int = 0
    untagged: int = 0


def content_keys(table: GlyphTable, indices: Sequence[int]) -> tuple[dict[ContentKey, list[int]], list[int], list[int]]:
    """The glyphs ``indices`` (increasing) by marked content: (glyphs by content key, the
    glyphs in /Artifact content, the glyphs in no content with an MCID), a run at a time."""
    by_key: dict[ContentKey, list[int]] = {}
    artifacts: list[int] = []
    loose: list[int] = []
    streams = table.mcid_streams
    runs = table.raw_runs()
    n = len(indices)
    pos = 0
    for k, geo in enumerate(table.runs()):
        if pos >= n:
            break
        end = geo.end
        if indices[pos] >= end:
            continue
        stop = bisect_left(indices, end, pos)
        taken = indices[pos:stop]
        pos = stop
        if not taken:
            continue
        run = runs[k]
        if run.mcid is not None:
            by_key.setdefault((streams.get(k), run.mcid), []).extend(taken)
        elif run.tag == "Artifact":
            artifacts.extend(taken)
        else:
            loose.extend(taken)
    return by_key, artifacts, loose


def coverage(structure: PageStructure | None, by_key: dict[ContentKey, list[int]], artifacts: Sequence[int],
             loose: Sequence[int], minimum: float) -> Coverage:
    """Whether ``structure`` is usable for a page whose visible glyphs are split as
    :func:`content_keys` splits them: there must be a tree, the page must be in it, its
    marked content must be referenced, and the referenced glyphs must be at least
    ``minimum`` of the visible glyphs that are not artifacts."""
    if structure is None:
        return Coverage(False, 0.0, "no structure tree", 0, len(artifacts), len(loose))
    referenced_keys = {key for item in structure.items for key in item.keys}
    referenced = sum(len(glyphs) for key, glyphs in by_key.items() if key in referenced_keys)
    unreferenced = sum(len(glyphs) for key, glyphs in by_key.items() if key not in referenced_keys)
    content = referenced + unreferenced + len(loose)
    untagged = unreferenced + len(loose)
    share = referenced / content if content else 0.0
    if not structure.in_tree:
        return Coverage(False, share, "the page is not in the structure tree", referenced, len(artifacts), untagged)
    if not content:
        return Coverage(False, 0.0, "no text outside artifacts", referenced, len(artifacts), untagged)
    if by_key and not referenced:
        return Coverage(False, 0.0, "marked content that the tree never references", referenced, len(artifacts),
                        untagged)
    if share < minimum:
        return Coverage(False, share, f"the tree covers {share:.0%} of the page's glyphs (below {minimum:.0%})",
                        referenced, len(artifacts), untagged)
    return Coverage(True, share, f"the tree covers {share:.0%} of the page's glyphs", referenced, len(artifacts),
                    untagged)
