"""``batch --pages``: cut to each file's pages like ``pdftotext -f/-l``; a malformed range
is one usage error before any work, not a failure per file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from glyphweave.batch import MANIFEST, ExtractOptions, read_manifest
from glyphweave.batch.ranges import PageRange, clamped_note, parse_ranges, select
from glyphweave.cli import main
from glyphweave.core.errors import UsageError
from glyphweave.testing.pdfs import Page, make_pdf, text_at


def book(path: Path, pages: int) -> Path:
    path.write_bytes(make_pdf(text_at(f"{path.stem} page 1"),
                              extra_pages=[Page(text_at(f"{path.stem} page {n}")) for n in range(2, pages + 1)]))
    return path


@pytest.mark.parametrize(("spec", "expected"), [
    ("1-3,7,10-", (PageRange(1, 3), PageRange(7, 7), PageRange(10, None))),
    ("-2", (PageRange(1, 2),)),
    (" 4 , ", (PageRange(4, 4),)),
    ("-", (PageRange(1, None),)),
])
def test_parse(spec, expected):
    assert parse_ranges(spec) == expected


@pytest.mark.parametrize("spec", ["5-2", "0", "0-3", "1-2-3", "", ",", "--3", "2-1,3"])
def test_malformed_ranges_are_usage_errors(spec):
    with pytest.raises(UsageError, match="--pages"):
        parse_ranges(spec)
    with pytest.raises(UsageError):
        ExtractOptions(pages=spec)


def test_select_cuts_each_range_to_the_file():
    ranges = parse_ranges("1-3,7,10-")
    assert select(ranges, 1) == [0]
    assert select(ranges, 8) == [0, 1, 2, 6]
    assert select(ranges, 11) == [0, 1, 2, 6, 9, 10]
    assert select(parse_ranges("5-"), 2) == []
    assert clamped_note("1-3,7,10-", ranges, 11) is None
    assert clamped_note("1-3", parse_ranges("1-3"), 1) == "--pages 1-3: cut to this file's 1 page"
    assert "nothing extracted" in (clamped_note("5-", parse_ranges("5-"), 2) or "")


def test_labels_select_in_the_files_that_have_them():
    ranges = parse_ranges("ii,1")
    assert select(ranges, 3, ["i", "ii", "1"]) == [1, 0]
    assert clamped_note("ii,1", ranges, 3, ["i", "ii", "1"]) is None
    assert select(ranges, 3) == [0]  # a file without labels: the label selects nothing there
    assert clamped_note("ii,1", ranges, 3) == "--pages ii,1: a page label given is not in this file; the other pages extracted"
    assert "nothing extracted" in (clamped_note("ii", parse_ranges("ii"), 3) or "")


def test_a_range_past_a_short_files_end_is_cut_not_failed(capsys, tmp_path):
    short = book(tmp_path / "short.pdf", 1)
    long = book(tmp_path / "long.pdf", 4)
    out = tmp_path / "out"
    code = main(["batch", str(short), str(long), "-o", str(out), "-j", "1", "--pages", "1-3"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert [page.strip() for page in (out / "short.txt").read_text(encoding="utf-8").split("\f")] == [
        "short page 1", ""]
    assert [page.strip() for page in (out / "long.txt").read_text(encoding="utf-8").split("\f")] == [
        "long page 1", "long page 2", "long page 3", ""]
    lines = read_manifest(out / MANIFEST)
    assert lines[str(short)]["pages"] == 1 and lines[str(short)]["note"] == "--pages 1-3: cut to this file's 1 page"
    assert lines[str(long)]["note"] is None


def test_a_range_wholly_past_the_end_gives_an_empty_output_and_a_note(capsys, tmp_path):
    short = book(tmp_path / "short.pdf", 2)
    out = tmp_path / "out"
    code = main(["batch", str(short), "-o", str(out), "-j", "1", "--pages", "5-", "--format", "pages"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert (out / "short.pages.jsonl").read_bytes() == b""
    line = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    assert line["status"] == "ok" and line["pages"] == 0 and "nothing extracted" in line["note"]


def test_a_reversed_range_is_one_usage_error_before_any_file(capsys, tmp_path):
    files = [str(book(tmp_path / f"f{n}.pdf", 1)) for n in range(3)]
    code = main(["batch", *files, "-o", str(tmp_path / "out"), "--pages", "5-2"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("5-2") == 1 and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()
