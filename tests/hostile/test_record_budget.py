"""Pages that paint far more than their content holds (a word shown hundreds of thousands of
times on one spot, an OCR layer of one-glyph text objects, forms painting forms) end at the
record limit, ``page_records_mb``: the page keeps what it recorded, says so once, and the
next page goes on. The count must not fall below what the records really hold.
"""

from __future__ import annotations

import tracemalloc
import zlib
from collections.abc import Sequence
from pathlib import Path

import pytest
from pikepdf import Name

import glyphweave
from glyphweave.cli import EXIT_LIMIT, main
from glyphweave.core.errors import ProfileError
from glyphweave.core.pipeline import read_limits
from glyphweave.guard.limits import GLYPH_BYTES, LIMIT, RUN_BYTES, STRING_BYTES, Limits
from glyphweave.guard.report import WarningRecord
from glyphweave.testing.pdfs import form, make_pdf

from .capped import glyphweave_extract, run_capped
from .filter_bombs import with_content
from .records import form_tree, one_spot, text_objects

SMALL = {"page_records_mb": 0.25}
"""A record limit a few thousand strings reach."""


def _cut(warnings: Sequence[WarningRecord]) -> list[str]:
    """The messages of the warnings of the record limit."""
    return [w.message for w in warnings if w.limit == "page_records_mb" and w.message.startswith(LIMIT)]


@pytest.mark.parametrize("build", [lambda: one_spot(5_000), lambda: text_objects(5_000), lambda: form_tree(5)],
                         ids=["one-spot", "text-objects", "form-tree"])
def test_a_page_past_the_record_limit_keeps_its_start_and_warns_once(build):
    with glyphweave.open(build(), limits=SMALL) as doc:
        page = doc.pages[0]
        text = page.text()
        warnings = page.stats.warnings
        runs = len(page.table.raw_runs())
        rest = [p.text() for p in doc.pages[1:]]
    assert text.startswith("Before\n")
    assert _cut(warnings) == [w.message for w in warnings] and len(warnings) == 1
    assert "past the record limit (page_records_mb) of 0.25 MB per page" in warnings[0].message
    assert 10 < runs < 1_000  # cut, far before the 5,000 strings (10,000 leaves of the forms)
    assert all(text == "Next page\n" for text in rest)


def test_form_paintings_count_towards_the_record_limit():
    # 10,000 paintings of a leaf that shows nothing still end at the limit.
    forms = {"L0": form(b"q Q")}
    for level in range(1, 5):
        forms[f"L{level}"] = form(b"/X Do " * 10, xobjects={"X": f"L{level - 1}"})
    with glyphweave.open(make_pdf(b"BT /F1 12 Tf 72 760 Td (Before) Tj ET /L4 Do", xobjects=forms),
                         limits={"page_records_mb": 1}) as doc:
        page = doc.pages[0]
        assert page.text() == "Before\n"
        (warning,) = _cut(page.stats.warnings)
    assert warning.startswith(f"{LIMIT}page cut after 1 strings, 6 glyphs and ") and "form paintings" in warning


def test_the_default_limit_does_not_touch_a_busy_page():
    with glyphweave.open(text_objects(5_000, next_page=False)) as doc:
        page = doc.pages[0]
        assert len(page.table) == 5_006 and page.stats.warnings == ()


def test_the_glyph_limit_still_cuts_before_the_record_limit():
    with glyphweave.open(one_spot(5_000), limits={"glyphs_per_page": 1_000}) as doc:
        page = doc.pages[0]
        assert page.text() == "Before\nword\n"
        (record,) = page.stats.warnings
    warning = record.message
    assert record.limit == "glyphs_per_page" and warning.startswith(f"{LIMIT}page cut after 1,0") and "the limit is 1,000 per page" in warning


def test_the_record_limit_is_a_profile_limit(tmp_path: Path):
    assert Limits().page_records_mb == 320 and Limits().page_records_bytes == 320 << 20
    profile = tmp_path / "tight.toml"
    profile.write_text('[profile]\nextends = "default"\n[limits]\npage_records_mb = 0.25\n', encoding="utf-8")
    with glyphweave.open(one_spot(5_000), profile=str(profile)) as doc:
        assert doc.limits.page_records_mb == 0.25
        assert len(_cut(doc.pages[0].stats.warnings)) == 1
    with pytest.raises(ProfileError, match="page_records_mb"):
        read_limits({"page_records_mb": 0}, "limits")


def test_the_command_line_sets_the_record_limit_and_strict_exits_with_the_limit_status(tmp_path: Path, capsys):
    pdf = tmp_path / "stack.pdf"
    pdf.write_bytes(one_spot(5_000))
    out = tmp_path / "out.txt"
    assert main(["extract", str(pdf), "--max-records-mb", "0.25", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert out.read_text(encoding="utf-8").startswith("Before\nword")
    assert [line for line in err.splitlines() if "warning" in line] == [
        line for line in err.splitlines() if "page_records_mb" in line] and err.count("warning") == 1
    assert main(["extract", str(pdf), "--max-records-mb", "0.25", "--strict", "-o", str(out)]) == EXIT_LIMIT
    assert main(["extract", str(pdf), "--strict", "-o", str(out)]) == 0  # the default is far above
    capsys.readouterr()


@pytest.mark.parametrize("fresh", [False, True], ids=["strings-shared", "strings-measured-afresh"])
def test_what_a_page_holds_is_no_more_than_the_interpreter_counts(fresh):
    # The records and the run geometry every page's filters build, against the count.
    words = [b"%05d" % i if fresh else b"word" for i in range(20_000)]
    content = b"BT /F1 10 Tf " + b"".join(b"1 0 0 1 %d %d Tm (%s) Tj " % (i % 500, i % 700, w)
                                          for i, w in enumerate(words)) + b"ET"
    with glyphweave.open(with_content(zlib.compress(content), Name.FlateDecode)) as doc:
        page = doc.pages[0]
        tracemalloc.start()
        try:
            table = page.table
            table.runs()
            held = tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()
        counted = len(table.raw_runs()) * RUN_BYTES + len(table) * GLYPH_BYTES + (20_000 * STRING_BYTES if fresh else 0)
    assert held < counted


def test_half_a_million_copies_on_one_spot_end_at_the_limit_in_bounded_memory(tmp_path: Path):
    # 35 KB of content: 3.3 GB before the record limit, and dedup's dictionaries then
    # costing 1.4 KB per glyph; now at most 320 MB counted.
    pdf = tmp_path / "one-spot.pdf"
    pdf.write_bytes(one_spot(500_000))
    result = run_capped(glyphweave_extract(pdf, "--strict"), tmp_path / "run", timeout=300)
    assert result.peak_mb < 600, f"peak RSS {result.peak_mb:.0f} MB"
    assert result.out.startswith("Before\nword")
    assert result.status == EXIT_LIMIT, result.err
    warnings = result.warnings
    assert len(warnings) == 1 and "past the record limit (page_records_mb) of 320 MB" in warnings[0]
