"""``batch --pages``: one page selection for files of every length, clamped per file.

A batch gives every file the same ``--pages``, and files differ in length, so a range is cut
to each file's pages the way ``pdftotext -f/-l`` cuts its range: ``1-3`` on a one-page file
extracts page 1, and a range wholly past a file's end selects nothing from it (the file's
output is then empty and its manifest line says why). What cannot be right for any file (a
reversed range, page 0, a word) is a usage error, raised once by :func:`parse_ranges` before
any file is opened. ``extract`` reads the same ranges strictly (a page past the end is an
error): one file, whose length the user knows.
"""

from __future__ import annotations

from collections.abc import Sequence

from glyphweave.core.errors import PageError, UsageError
from glyphweave.pageranges import (
    PageLabel,
    PageRange,
    first_pages,
    label_pages,
    parse_page_spec,
    select_pages,
)

__all__ = ["PageLabel", "PageRange", "clamped_note", "parse_ranges", "select"]


def parse_ranges(spec: str) -> tuple[PageRange | PageLabel, ...]:
    """``"1-3,7,10-"`` → its ranges, in the order given (:mod:`glyphweave.pageranges`).

    :raises UsageError: a part that is not ``N``, ``N-M``, ``N-`` or ``-M`` with 1 <= N <= M,
        or no part at all; the message names ``--pages``.
    """
    try:
        return parse_page_spec(spec)
    except UsageError as exc:
        raise UsageError(f"--pages: {exc}") from None


def select(ranges: Sequence[PageRange | PageLabel], count: int, labels: list[str] | None = None) -> list[int]:
    """The 0-based pages of a ``count``-page file (labelled ``labels``) that ``ranges`` name,
    each range cut to the file's pages (a range past the end, or a label the file does not
    have, gives none), in the order given."""
    return select_pages(tuple(ranges), count, clamp=True, labels=labels)


def clamped_note(spec: str, ranges: Sequence[PageRange | PageLabel], count: int,
                 labels: list[str] | None = None) -> str | None:
    """What a manifest line says when ``ranges`` name pages past a ``count``-page file's end,
    or labels it does not have."""
    first_of = first_pages(labels)
    past = any(isinstance(r, PageRange) and (r.first > count or (r.last is not None and r.last > count))
               for r in ranges)
    unlabelled = any(isinstance(r, PageLabel) and _label_missing(r.text, first_of) for r in ranges)
    if not past and not unlabelled:
        return None
    plural = "" if count == 1 else "s"
    if not select(ranges, count, labels):
        return f"--pages {spec}: no such page in this file ({count} page{plural}); nothing extracted"
    if not past:
        return f"--pages {spec}: a page label given is not in this file; the other pages extracted"
    return f"--pages {spec}: cut to this file's {count} page{plural}"


def _label_missing(text: str, first_of: dict[str, int]) -> bool:
    try:
        return label_pages(text, first_of) is None
    except PageError:  # a reversed range of labels: nothing in a batch
        return True
