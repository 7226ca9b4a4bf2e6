"""Page ranges: malformed ones are refused before any file is read; clamping as pdftotext."""

from __future__ import annotations

import re

import pytest

from glyphweave.core.errors import PageError, UsageError
from glyphweave.pageranges import PageLabel, PageRange, parse_page_spec, select_pages


def test_ranges_keep_the_order_given() -> None:
    assert parse_page_spec("3, 1-2,10-,-4") == (PageRange(3, 3), PageRange(1, 2), PageRange(10, None),
                                                 PageRange(1, 4))


@pytest.mark.parametrize(("spec", "says"), [
    ("", "no pages given"),
    (" , ", "no pages given"),
    ("0", "numbered from 1"),
    ("0-3", "numbered from 1"),
    ("5-2", "reversed (write 2-5)"),
    ("1--2", "not a page or a range"),
    ("1-2-3", "not a page or a range"),
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


# --------------------------------------------------------------------------- page labels
LABELS = ["i", "ii", "iii", "1", "2", "A-1", "A-2", "1"]


def test_parts_with_letters_are_labels() -> None:
    assert parse_page_spec("iv, 2-3, ix-xii,A-1") == (
        PageLabel("iv"), PageRange(2, 3), PageLabel("ix-xii"), PageLabel("A-1"))


@pytest.mark.parametrize(("spec", "pages"), [
    ("ii", [1]),
    ("i-iii", [0, 1, 2]),
    ("ii-2", [1, 2, 3, 4]),  # a label range may end in a label made of digits
    ("A-1", [5]),  # a label holding a dash, whole
    ("A-1-A-2", [5, 6]),  # two such labels joined by a dash
    ("iii,2", [2, 1]),  # numbers are page numbers, whatever the labels say
])
def test_labels_select_their_pages(spec: str, pages: list[int]) -> None:
    assert select_pages(parse_page_spec(spec), len(LABELS), labels=LABELS) == pages


def test_a_label_that_comes_again_names_its_first_page() -> None:
    assert select_pages(parse_page_spec("ii-1"), len(LABELS), labels=LABELS) == [1, 2, 3]


@pytest.mark.parametrize(("spec", "labels", "says"), [
    ("iv", LABELS, "no page is labelled 'iv' (the document's labels run from 'i' to '1'"),
    ("iv", None, "gives its pages no labels (write numbers, 1 to 8)"),
    ("iii-i", LABELS, "reversed"),
])
def test_a_label_not_found_is_a_page_error(spec: str, labels: list[str] | None, says: str) -> None:
    with pytest.raises(PageError, match=re.escape(says)):
        select_pages(parse_page_spec(spec), len(LABELS), labels=labels)
    if "reversed" not in says:
        assert select_pages(parse_page_spec(spec), len(LABELS), clamp=True, labels=labels) == []
