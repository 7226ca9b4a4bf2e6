"""The counting behind the page statistics, read from a page's runs (compiled in the compiled
build: it runs once per page over every run, and the statistics module holds attrs records,
which mypyc does not compile). The indices are the page's visible glyphs, increasing, as the
filters keep them: one pointer walks them beside the runs."""

from __future__ import annotations

from collections.abc import Sequence

from glyphweave.core.runs import Run


def kept_decoder_counts(runs: list[Run], visible: list[int]) -> tuple[dict[str | None, int], int]:
    """How many of the glyphs ``visible`` of the page whose runs are ``runs`` each decoder
    decoded, in the order the decoders first appear in paint order (None: unresolved), and
    how many of those glyphs are untagged (their run has no marked-content id).

    A run is wholly kept when the index a whole run would put at its last glyph is its last
    glyph's (the indices increase): it is counted by its decoders, worked out once per
    decoded tuple (the interpreter hands the same tuple to every run of a string measured
    before, so a book's words are counted a few thousand times, not glyph by glyph). Only a
    run a filter cut is counted glyph by glyph."""
    counts: dict[str | None, int] = {}
    whole: dict[int, list[tuple[str | None, int]]] = {}  # id of a decoded tuple -> its counts
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
            key = id(decoded)
            pairs = whole.get(key)
            if pairs is None:
                pairs = _counted(decoded)
                whole[key] = pairs
            for name, count in pairs:
                counts[name] = counts.get(name, 0) + count
            kept = length
        else:
            q = p
            while q < n and visible[q] < end:
                name = decoded[visible[q] - start][1]
                counts[name] = counts.get(name, 0) + 1
                q += 1
            kept = q - p
        if run.mcid is None:
            untagged += kept
        p += kept
        start = end
    return counts, untagged


def _counted(decoded: Sequence[tuple[str, str | None]]) -> list[tuple[str | None, int]]:
    """Each decoder of ``decoded`` and how many of its glyphs it decoded, in the order they
    first appear (a string's glyphs nearly always share one)."""
    pairs: tuple[tuple[str, str | None], ...] = decoded if type(decoded) is tuple else tuple(decoded)  # type: ignore[assignment]
    first = pairs[0][1]
    # A loop over a tuple with the names compared by identity first (a decoder's name is
    # one string object): compiled, ``all`` over a generator cost three times as much a glyph.
    for pair in pairs:
        name = pair[1]
        if name is not first and name != first:
            break
    else:
        return [(first, len(pairs))]
    found: dict[str | None, int] = {}
    for pair in pairs:
        found[pair[1]] = found.get(pair[1], 0) + 1
    return list(found.items())


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
