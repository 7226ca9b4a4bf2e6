"""The counting behind the page statistics, read from a page's runs (compiled in the compiled
build: it runs once per page over every run, and the statistics module holds attrs records,
which mypyc does not compile). The indices are the page's visible glyphs, increasing, as the
filters keep them: one pointer walks them beside the runs."""

from __future__ import annotations

from glyphweave.core.runs import Run


def kept_decoders(runs: list[Run], visible: list[int]) -> tuple[list[str | None], int]:
    """The decoders of the glyphs ``visible`` of the page whose runs are ``runs``, in paint
    order, and how many of those glyphs are untagged (their run has no marked-content id).
    A run is wholly kept when the index a whole run would put at its last glyph is its last
    glyph's (the indices increase); only a run a filter cut is gathered glyph by glyph."""
    decoders: list[str | None] = []
    untagged = 0
    n = len(visible)
    p = 0  # the position in ``visible`` of the first index at or after the run's start
    start = 0
    for run in runs:
        decoded = run.decoded
        length = len(decoded)
        end = start + length
        last = p + length - 1
        if length and last < n and visible[last] == end - 1:
            decoders.extend([pair[1] for pair in decoded])
            kept = length
        else:
            q = p
            while q < n and visible[q] < end:
                decoders.append(decoded[visible[q] - start][1])
                q += 1
            kept = q - p
        if run.mcid is None:
            untagged += kept
        p += kept
        start = end
    return decoders, untagged


def unresolved_by_font(runs: list[Run], visible: list[int]) -> dict[int, int]:
    """How many of the glyphs ``visible`` no decoder resolved, per font (the runs' ``font``):
    read from the runs, so that a page with a few unresolved glyphs does not expand its
    table's columns to find their fonts."""
    found: dict[int, int] = {}
    n = len(visible)
    p = 0
    start = 0
    for run in runs:
        decoded = run.decoded
        end = start + len(decoded)
        count = 0
        while p < n and visible[p] < end:
            if decoded[visible[p] - start][1] is None:
                count += 1
            p += 1
        if count:
            found[run.font] = found.get(run.font, 0) + count
        start = end
    return found
