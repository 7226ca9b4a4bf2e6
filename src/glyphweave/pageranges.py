"""Page ranges as users write them: ``1-3,7,10-`` (1-based and inclusive, as in a viewer),
or by the labels the document gives its pages: ``iv``, ``ix-xii``, ``A-3``.

Reading a specification is split from applying it to a document, so a command can refuse a
malformed one (``0``, ``5-2``, ``1-2-3``, an empty string) before it opens any file, and a
batch refuses it once rather than file by file. A part that is not made of digits and dashes
is a page label (or two joined by a dash); it is looked up in the document's labels when
the ranges are applied, and a label the document does not have is an error there.
"""

from __future__ import annotations

import re

import attrs

from glyphweave.core.errors import PageError, UsageError

__all__ = ["PageLabel", "PageRange", "first_pages", "label_pages", "parse_page_spec", "select_pages"]

_RANGE = re.compile(r"(?P<first>[0-9]*)\s*(?P<dash>-)?\s*(?P<last>[0-9]*)", re.ASCII)
_NUMERIC = re.compile(r"[0-9\s-]+", re.ASCII)
"""A part made of digits and dashes: a page number or range, well formed or not."""


@attrs.frozen
class PageRange:
    """Pages ``first`` to ``last``, 1-based and inclusive; ``last`` None runs to the end."""

    first: int
    last: int | None

    def __str__(self) -> str:
        if self.last == self.first:
            return str(self.first)
        return f"{self.first}-{'' if self.last is None else self.last}"


@attrs.frozen
class PageLabel:
    """A page by its label (``iv``), or the pages from one label to another (``ix-xii``,
    ``A-1-A-4``): resolved against the document's labels by :func:`select_pages`."""

    text: str

    def __str__(self) -> str:
        return self.text


def parse_page_spec(spec: str) -> tuple[PageRange | PageLabel, ...]:
    """The ranges of ``spec`` (``"2"``, ``"1-3"``, ``"10-"``, ``"-5"``, labels such as
    ``"iv"`` or ``"ix-xii"``, joined by commas).

    :raises UsageError: an empty specification, a part of digits and dashes that is not a
        number or a range, page 0 or a negative page, or a reversed range; the message says
        how to write it.
    """
    parts = [part.strip() for part in spec.split(",")]
    if not any(parts):
        raise UsageError("no pages given (write e.g. 1-3,7,10-; pages are 1-based)")
    ranges: list[PageRange | PageLabel] = []
    for part in parts:
        if not part:
            continue
        if not _NUMERIC.fullmatch(part):
            ranges.append(PageLabel(part))
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


def select_pages(ranges: tuple[PageRange | PageLabel, ...], count: int, *, clamp: bool = False,
                 labels: list[str] | None = None) -> list[int]:
    """0-based indices of the pages ``ranges`` select in a document of ``count`` pages whose
    pages are labelled ``labels`` (None: the document gives no labels).

    ``clamp`` keeps what lies inside the document and drops the rest, as pdftotext's
    ``-f``/``-l`` do (``1-3`` of a one-page file is page 1, ``5-`` of it is nothing, and a
    label the file does not have is nothing): what a batch over files of many lengths
    wants. Without it, a page past the end or a label not found is an error.

    :raises PageError: (without ``clamp``) a range reaches past the last page, or a label
        names no page (or a range of labels runs backwards).
    """
    first_of = first_pages(labels)
    indices: list[int] = []
    for page_range in ranges:
        if isinstance(page_range, PageLabel):
            found = label_pages(page_range.text, first_of)
            if found is None:
                if clamp:
                    continue
                raise PageError(_no_label(page_range.text, labels, count))
            indices.extend(found)
            continue
        last = count if page_range.last is None else page_range.last
        if (last > count or page_range.first > count) and not clamp:
            raise PageError(f"page range '{page_range}' reaches past the last page "
                            f"(the document has {count} page{'' if count == 1 else 's'})")
        indices.extend(range(page_range.first - 1, min(last, count)))
    return indices


def first_pages(labels: list[str] | None) -> dict[str, int]:
    """Each label's first page (a label may come again: a viewer goes to the first)."""
    first_of: dict[str, int] = {}
    for index, label in enumerate(labels or ()):
        first_of.setdefault(label, index)
    return first_of


def label_pages(text: str, first_of: dict[str, int]) -> range | None:
    """The pages ``text`` names among labels (each label's first page, ``first_of``): one
    label, or two joined by a dash (tried at each dash, since a label may hold one: ``A-1``);
    None when it names none.

    :raises PageError: the two labels are in the wrong order.
    """
    index = first_of.get(text)
    if index is not None:
        return range(index, index + 1)
    for at, char in enumerate(text):
        if char != "-":
            continue
        start, end = first_of.get(text[:at].strip()), first_of.get(text[at + 1:].strip())
        if start is not None and end is not None:
            if end < start:
                raise PageError(f"page range '{text}' is reversed (its second label comes before its first)")
            return range(start, end + 1)
    return None


def _no_label(text: str, labels: list[str] | None, count: int) -> str:
    if not labels:
        return (f"page '{text}' is not a page number, and the document gives its pages no labels "
                f"(write numbers, 1 to {count})")
    return (f"no page is labelled '{text}' (the document's labels run from '{labels[0]}' to "
            f"'{labels[-1]}'; numbers 1 to {count} work too)")
