"""Page ranges: malformed ones are refused before any file is read; clamping as pdftotext."""

from __future__ import annotations

import pytest

from glyphweave.core.errors import PageError, UsageError
from glyphweave.pageranges import PageRange, parse_page_spec, select_pages


def test_ranges_keep_the_order_given() -> None:
    assert parse_page_spec("3, 1-2,10-,-4") == (PageRange(3, 3), PageRange(1, 2), PageRange(10, None),
                                                 PageRange(1, 4))


@pytest.mark.parametrize(("spec", "says"), [
    ("", "no pages given"),
    (" , ", "no pages given"),
    ("0", "numbered from 1"),
    ("0-3", "numbered from 1"),
    ("5-2", "reversed (write 2-5)"),
    ("abc", "not a page or a range"),
    ("1--2", "not a page or a range"),
])
def test_a_malformed_spec_is_a_usage_error_that_says_how_to_write_it(spec: str, says: str) -> None:
    with pytest.raises(UsageError, match=r"(?i)" + says.replace("(", r"\(").replace(")", r"\)")):
        parse_page_spec(spec)


def test_past_the_end_is_an_error_unless_clamped() -> None:
    ranges = parse_page_spec("1-3")
    with pytest.raises(PageError, match="has 1 page\\)"):
        select_pages(ranges, 1)
    with pytest.raises(PageError):
        select_pages(parse_page_spec("4-"), 3)
    assert select_pages(ranges, 1, clamp=True) == [0]
    assert select_pages(parse_page_spec("5-,2"), 3, clamp=True) == [1]
    assert select_pages(parse_page_spec("7"), 3, clamp=True) == []


def test_a_page_error_is_an_index_error_and_a_usage_error() -> None:
    assert issubclass(PageError, IndexError) and issubclass(PageError, UsageError)
