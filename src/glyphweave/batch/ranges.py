"""``batch --pages``: one page selection for files of every length, clamped per file.

A batch gives every file the same ``--pages``, and files differ in length, so a range is cut
to each file's pages the way ``pdftotext -f/-l`` cuts its range: ``1-3`` on a one-page file
extracts page 1, and a range wholly past a file's end selects nothing from it (the file's
output is then empty and its manifest line says why). What cannot be right for any file (a
reversed range, page 0, a word) is a usage error, raised once by :func:`parse_ranges` before
any file is opened. ``extract`` keeps its strict reading (:func:`glyphweave.api.parse_page_ranges`):
one file, whose length the user knows.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from glyphweave.core.errors import UsageError


@attrs.frozen
class PageRange:
    """Pages ``first`` to ``last``, 1-based and inclusive; ``last`` None: to the end."""

    first: int
    last: int | None


def parse_ranges(spec: str) -> tuple[PageRange, ...]:
    """``"1-3,7,10-"`` → its ranges, in the order given.

    :raises UsageError: a part that is not ``N``, ``N-M``, ``N-`` or ``-M`` with 1 <= N <= M.
    """
    ranges: list[PageRange] = []
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        first_s, dash, last_s = part.partition("-")
        try:
            first = int(first_s) if first_s.strip() or not dash else 1
            last = (int(last_s) if last_s.strip() else None) if dash else first
        except ValueError:
            raise UsageError(f"--pages: bad page range {part!r} (use e.g. 1-3,7,10-)") from None
        if first < 1 or (last is not None and last < 1):
            raise UsageError(f"--pages: {part!r}: pages are numbered from 1")
        if last is not None and last < first:
            raise UsageError(f"--pages: {part!r} is reversed (write {last}-{first})")
        ranges.append(PageRange(first, last))
    if not ranges:
        raise UsageError(f"--pages: no page range in {spec!r} (use e.g. 1-3,7,10-)")
    return tuple(ranges)


def select(ranges: Sequence[PageRange], count: int) -> list[int]:
    """The 0-based pages of a ``count``-page file that ``ranges`` name, each range cut to the
    file's pages (a range past the end gives none), in the order given."""
    pages: list[int] = []
    for page_range in ranges:
        last = count if page_range.last is None else min(page_range.last, count)
        pages.extend(range(page_range.first - 1, last))
    return pages


def clamped_note(spec: str, ranges: Sequence[PageRange], count: int) -> str | None:
    """What a manifest line says when ``ranges`` name pages past a ``count``-page file's end."""
    if all(r.first <= count and (r.last is None or r.last <= count) for r in ranges):
        return None
    plural = "" if count == 1 else "s"
    if not select(ranges, count):
        return f"--pages {spec}: no such page in this file ({count} page{plural}); nothing extracted"
    return f"--pages {spec}: cut to this file's {count} page{plural}"
