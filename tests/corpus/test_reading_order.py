"""Reading order on real files from the shared corpus (skipped when it is absent): the cases
the geometric assemblers and order recovery exist for."""

from __future__ import annotations

from pathlib import Path

import pytest
from shared_corpus import SHARED

import glyphweave

CORPUS = SHARED / "corpus"
EVAL = SHARED / "eval" / "corpus"


def _file(folder: Path, name: str) -> Path:
    path = folder / name
    if not path.is_file():
        pytest.skip(f"{path} not found (the shared corpus is absent)")
    return path


def _text(path: Path, mode: str | None = None) -> str:
    with glyphweave.open(str(path)) as doc:
        return "".join(page.text(mode) for page in doc.pages)


@pytest.mark.parametrize("mode", ["reading", "columns"])
def test_interleaved_columns_read_column_by_column(mode):
    # The PDF Association's failure example: both columns painted line by line across the page.
    # (Its structure tree is in the same wrong order, and auto follows a usable tree.)
    text = _text(_file(CORPUS, "tagged-columns-wrong-order-pdfua.pdf"), mode)
    lines = [line for line in text.splitlines() if line.strip()]
    second = lines.index("This is the second paragraph.")
    assert lines[second - 5:second] == [
        "This is the first paragraph.", "Second line of first paragraph.", "Third line of first paragraph.",
        "Fourth line of first paragraph.", "Fifth line of first paragraph."]
    assert lines[second:second + 6] == [
        "This is the second paragraph.", "Second line of second paragraph.", "Third line of second paragraph.",
        "Fourth line of second paragraph.", "Fifth line of second paragraph.", "This is the third paragraph."]


def test_a_stamp_painted_first_is_read_where_it_sits():
    path = _file(EVAL, "rl_charspace_form.pdf")
    assert _text(path).rstrip().endswith("CERTIFIED COPY")
    with glyphweave.open(str(path)) as doc:
        page = doc.pages[0]
        page.text()
        assert page.stats.assembly["served"] == "columns"
        assert "whole lines" in page.stats.assembly["reason"]


def test_two_columns_and_ligatures():
    text = _text(_file(EVAL, "groff_twocolumn.pdf"))
    assert "ﬂ" not in text and "ﬁ" not in text
    assert "western moor and flows for sixty kilometres" in text
    # the left column ends before the right one starts
    assert text.index("any recovery can be measured with the same") < text.index("Water samples were taken")


def test_arabic_word_file_reads_in_logical_order_with_base_letters():
    text = _text(_file(CORPUS, "doc-arabic-word-rtl.pdf"))
    first = text.splitlines()[0]
    assert first.startswith("تحسين")  # the first word as typed, not the last one painted
    assert "R و Python" in " ".join(first.split())
    assert not any(0xFB50 <= ord(ch) <= 0xFDFF or 0xFE70 <= ord(ch) <= 0xFEFE for ch in text)


def test_vertical_japanese_reads_its_columns_right_to_left():
    text = _text(_file(EVAL, "lo_vertical_ja.pdf"))
    assert text.splitlines()[:2] == ["秋の夜", "秋の夜は長い。窓の外では虫が鳴き、月が静かに庭を照らしている。"]
