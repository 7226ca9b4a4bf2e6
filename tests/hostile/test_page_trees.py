"""No page lost in silence: a page tree qpdf refuses is walked by glyphweave, and what qpdf
repaired is a warning."""

from __future__ import annotations

import io
from pathlib import Path

import pikepdf
import pytest

import glyphweave
from glyphweave.cli import main
from glyphweave.pdf.pagetree import walk_page_tree

from .page_trees import page_box_overflow, page_tree_loop


def test_a_page_tree_with_a_loop_gives_every_page_and_one_warning(tmp_path: Path) -> None:
    with glyphweave.open(page_tree_loop()) as doc:
        assert len(doc) == 2
        assert doc.text() == "First page\n\fSecond page\n\f"  # the second inherits its font and box
        assert [str(w) for w in doc.file_warnings] == ["page tree: object 2 0 R is reached twice (a loop); read once"]
        assert (doc.file_warnings[0].kind, doc.file_warnings[0].page) == ("file", None)
        assert doc.warnings()[0] == doc.file_warnings[0]


def test_the_walk_pushes_inherited_attributes_and_skips_what_is_no_page() -> None:
    pdf = pikepdf.open(io.BytesIO(page_tree_loop()), inherit_page_attributes=False)
    found: list[str] = []
    pages = walk_page_tree(pdf, found)
    assert [page.objgen for page in pages] == [(3, 0), (6, 0)]
    assert pages[1].MediaBox == [0, 0, 612, 792] and "/F1" in pages[1].Resources.Font
    assert len(found) == 1 and "a loop" in found[0]


def test_a_page_whose_box_overflows_is_kept_clamped_said_and_strict_fails(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    pdf = tmp_path / "overflow.pdf"
    pdf.write_bytes(page_box_overflow())
    assert main(["extract", str(pdf)]) == 0
    out, err = capsys.readouterr()
    assert out == "First page\n\fSecond page\n\f"
    assert err == ("glyphweave: warning: file: object 4 0: a number of 400 digits, too large to read, clamped to "
                   "2,147,483,647 (the object was kept)\n")
    assert main(["extract", str(pdf), "--strict", "--quiet"]) == 3
    capsys.readouterr()
    with glyphweave.open(page_box_overflow()) as doc:  # bytes: the same
        assert len(doc) == 2 and doc.pages[1].mediabox == (0, 0, 2**31 - 1, 792)


def test_a_page_qpdf_drops_from_a_stream_it_cannot_copy_is_said(tmp_path: Path) -> None:
    # A stream other than BytesIO is read by qpdf alone (no copy to clamp): the page is
    # lost, and qpdf's words say so.
    pdf = tmp_path / "overflow.pdf"
    pdf.write_bytes(page_box_overflow())
    with pdf.open("rb") as stream, glyphweave.open(stream) as doc:
        assert doc.text() == "First page\n\f"
        lines = [str(warning) for warning in doc.file_warnings]
        assert lines and all(line.startswith("qpdf: ") for line in lines)
        assert "treating object as null" in lines[0] and max(map(len, lines)) < 300


def test_a_repair_qpdf_repeats_on_every_stream_is_one_warning_with_a_count() -> None:
    from .page_trees import repeated_repairs

    with glyphweave.open(repeated_repairs(3)) as doc:
        assert doc.text() == "Page 1\n\fPage 2\n\fPage 3\n\f"
        (record,) = doc.file_warnings
        warning = record.message
        assert (record.kind, record.source) == ("file", "qpdf")
        assert warning.startswith("qpdf: stream keyword followed by carriage return only (object ")
        assert warning.endswith(" and 2 more)")
