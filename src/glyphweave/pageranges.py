"""Page ranges as users write them: ``1-3,7,10-`` (1-based and inclusive, as in a viewer).

Reading a specification is split from applying it to a document, so a command can refuse a
malformed one (``0``, ``5-2``, ``abc``, an empty string) before it opens any file, and a
batch refuses it once rather than file by file.
"""

from __future__ import annotations

import re

import attrs

from glyphweave.core.errors import PageError, UsageError

__all__ = ["PageRange", "parse_page_spec", "select_pages"]

_RANGE = re.compile(r"(?P<first>[0-9]*)\s*(?P<dash>-)?\s*(?P<last>[0-9]*)", re.ASCII)


@attrs.frozen
class PageRange:
    """Pages ``first`` to ``last``, 1-based and inclusive; ``last`` None runs to the end."""

    first: int
    last: int | None

    def __str__(self) -> str:
        if self.last == self.first:
            return str(self.first)
        return f"{self.first}-{'' if self.last is None else self.last}"


def parse_page_spec(spec: str) -> tuple[PageRange, ...]:
    """The ranges of ``spec`` (``"2"``, ``"1-3"``, ``"10-"``, ``"-5"``, joined by commas).

    :raises UsageError: an empty specification, a part that is not a number or a range,
        page 0 or a negative page, or a reversed range; the message says how to write it.
    """
    parts = [part.strip() for part in spec.split(",")]
    if not any(parts):
        raise UsageError("no pages given (write e.g. 1-3,7,10-; pages are 1-based)")
    ranges = []
    for part in parts:
        if not part:
            continue
        match = _RANGE.fullmatch(part)
        if match is None or not (match["first"] or match["dash"] or match["last"]):  # "-": every page
            raise UsageError(f"page range {part!r} is not a page or a range (write e.g. 1-3,7,10-)")
        first = int(match["first"]) if match["first"] else 1
        last = int(match["last"]) if match["last"] else (None if match["dash"] else first)
        if first < 1 or last == 0:
            raise UsageError(f"page range {part!r}: pages are numbered from 1, as in a viewer")
        if last is not None and last < first:
            raise UsageError(f"page range {part!r} is reversed (write {last}-{first})")
        ranges.append(PageRange(first, last))
    return tuple(ranges)


def select_pages(ranges: tuple[PageRange, ...], count: int, *, clamp: bool = False) -> list[int]:
    """0-based indices of the pages ``ranges`` select in a document of ``count`` pages.

    ``clamp`` keeps what lies inside the document and drops the rest, as pdftotext's
    ``-f``/``-l`` do (``1-3`` of a one-page file is page 1, ``5-`` of it is nothing): what a
    batch over files of many lengths wants. Without it, a page past the end is an error.

    :raises PageError: (without ``clamp``) a range reaches past the last page.
    """
    indices: list[int] = []
    for page_range in ranges:
        last = count if page_range.last is None else page_range.last
        if (last > count or page_range.first > count) and not clamp:
            raise PageError(f"page range '{page_range}' reaches past the last page "
                            f"(the document has {count} page{'' if count == 1 else 's'})")
        indices.extend(range(page_range.first - 1, min(last, count)))
    return indices
