"""How much of a page's visible text a tagged PDF's structure tree covers, and so whether
the structure is usable at all: the one measure every user of the structure records
(:mod:`glyphweave.core.structure`) shares, the structure assembler and ``Page.structure()``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

import attrs

from glyphweave.core.glyphtable import GlyphTable
from glyphweave.core.structure import ContentKey, PageStructure


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
