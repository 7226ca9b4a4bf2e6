"""Hostile files end in seconds, with bounded memory and a warning, never an exception.

The files are built here (``hostile.files``); limits are set low so each test stays fast,
and one test checks the default limit on a real-size bomb in a subprocess.
"""

from __future__ import annotations

import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

import glyphweave
from glyphweave.core.errors import ProfileError
from glyphweave.core.pipeline import read_limits
from glyphweave.pdf.cmap import parse_cmap
from glyphweave.testing.pdfs import Page, make_pdf, type0_identity

from .files import deflate_bomb, form_bomb, many_glyphs, nested_marked_content, nested_q


def _extract(data: bytes, **limits: float) -> tuple[str, list[str]]:
    """The text, and the warnings of the pages as extracted (``page N: ...``)."""
    with glyphweave.open(data, limits=limits or None) as doc:
        text = doc.text()
        return text, [str(warning) for warning in doc.warnings()]


def _painted(data: bytes, **limits: float) -> tuple[int, tuple[str, ...]]:
    """Glyphs painted on page 1 (before any filter), and its warnings."""
    with glyphweave.open(data, limits=limits or None) as doc:
        stats = doc.pages[0].stats
        return stats.glyphs, tuple(warning.message for warning in stats.warnings)


def test_a_deflate_bomb_is_cut_at_the_page_limit_keeping_the_text_before():
    text, warnings = _extract(deflate_bomb(200), page_content_mb=2)
    assert "Before the bomb" in text and "After the bomb" not in text
    assert any("page content cut after 1 MB: the page content limit of 2 MB reached" in w for w in warnings)


def test_the_document_limit_empties_later_pages():
    data = make_pdf(b"BT /F1 12 Tf 72 700 Td (one) Tj ET " + b" " * (3 << 20),
                    extra_pages=[Page(b" " * (3 << 20) + b"BT /F1 12 Tf 72 700 Td (two) Tj ET ")])
    with glyphweave.open(data, limits={"document_content_mb": 4}) as doc:
        first, second = doc.pages[0].text(), doc.pages[1].text()
        warnings = [warning.message for warning in doc.pages[1].stats.warnings]
    assert "one" in first and "two" not in second
    assert any("the document content limit of 4 MB" in w for w in warnings)


def test_a_form_painted_over_and_over_counts_against_the_page():
    painted, warnings = _painted(form_bomb(copies=50, form_mb=1), page_content_mb=8)
    assert 4 * 5 <= painted < 50 * 4  # a few copies of "Form", not all fifty
    # One warning for the page, counting the paintings cut or skipped after the first.
    assert len(warnings) == 1 and warnings[0].startswith("limit reached: form XObject /Fm cut after ")
    assert warnings[0].endswith(": the page content limit of 8 MB reached (and 42 more streams skipped or cut)")


def test_100k_nested_q_keep_the_text_and_warn_once():
    text, warnings = _extract(nested_q(100_000))
    assert "Deep" in text
    assert [w for w in warnings if "nested deeper" in w] == ["page 1: limit reached: q nested deeper than 1000; deeper levels ignored"]


def test_100k_nested_marked_content():
    text, warnings = _extract(nested_marked_content(100_000))
    assert "Marked" in text and any("marked content nested deeper than 1000" in w for w in warnings)


def test_glyphs_per_page():
    painted, warnings = _painted(many_glyphs(50_000), glyphs_per_page=10_000)
    assert painted == 11_000
    assert any("page cut after 11,000 glyphs: the limit is 10,000 per page" in w for w in warnings)


def test_a_page_time_limit():
    painted, warnings = _painted(many_glyphs(200_000), page_seconds=0.001)
    assert painted < 200_000
    # What the clock cut first depends on the machine's load (the stream's decoding, or only
    # the content after it): the one warning names the limit and says the content was cut.
    (warning,) = warnings
    assert warning.startswith("limit reached: page time limit of 0.001 s: ") and "content cut short after" in warning


def test_a_bfrange_over_the_whole_code_space_is_cheap():
    cmap = (b"1 begincodespacerange <00000000> <FFFFFFFF> endcodespacerange\n"
            b"1 beginbfrange <00000000> <FFFFFFFF> <0041> endbfrange\n"
            b"1 begincidrange <00000000> <FFFFFFFF> 1 endcidrange\n")
    tracemalloc.start()
    try:
        parsed = parse_cmap(cmap)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert parsed.to_cid(b"\x00\x00\x00\x05") == 6
    assert peak < 1 << 20  # kept as three ranges, never expanded code by code


def test_a_100k_element_w_array():
    w = [0, [500] * 100_000]
    data = make_pdf(b"BT /F1 12 Tf 72 700 Td <00410042> Tj ET",
                    fonts={"F1": type0_identity(w=w, mapping={0x41: "A", 0x42: "B"})})
    text, _ = _extract(data)
    assert "AB" in text


@pytest.mark.parametrize("bad", [{"page_content_mb": 0}, {"page_seconds": -1}, {"glyphs": 5}])
def test_bad_limits_are_profile_errors(bad):
    with pytest.raises(ProfileError):
        read_limits(bad, "limits")


def test_limits_from_a_profile_file(tmp_path: Path):
    profile = tmp_path / "tight.toml"
    profile.write_text('[profile]\nextends = "default"\n[limits]\npage_content_mb = 2\n')
    with glyphweave.open(deflate_bomb(20), profile=str(profile)) as doc:
        assert doc.limits.page_content_mb == 2
        assert "After the bomb" not in doc.text()
    profile.write_text('[profile]\nextends = "default"\n[limits]\npage_mb = 2\n')
    with pytest.raises(ProfileError, match=r"unknown limit 'page_mb'"):
        glyphweave.open(deflate_bomb(1), profile=str(profile))


@pytest.mark.parametrize("form", ["flate", "double", "predictor"])
def test_a_gigabyte_bomb_with_the_default_limit_stays_under_a_gigabyte(tmp_path: Path, form: str):
    # Also inside another FlateDecode, and with decode parameters that change nothing:
    # qpdf would inflate either whole before handing it over.
    pdf = tmp_path / "bomb.pdf"
    pdf.write_bytes(deflate_bomb(1024, form=form))
    code = ("import resource, sys, glyphweave\n"
            "with glyphweave.open(sys.argv[1]) as doc:\n"
            "    text = doc.text(); warnings = [w.message for w in doc.pages[0].stats.warnings]\n"
            "assert 'Before the bomb' in text and any('page content limit of 64 MB' in w for w in warnings)\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n")
    done = subprocess.run([sys.executable, "-c", code, str(pdf)], capture_output=True, text=True,
                          timeout=300)  # a hang guard, not a measurement
    assert done.returncode == 0, done.stderr
    peak_kb = int(done.stdout.strip())
    assert peak_kb < 1024 * 1024, f"peak RSS {peak_kb // 1024} MB"


def test_the_command_line_limit_options_stats_and_strict_exit(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    import json

    from glyphweave.cli import EXIT_LIMIT, main

    pdf = tmp_path / "bomb.pdf"
    pdf.write_bytes(deflate_bomb(20))
    assert main(["extract", str(pdf), "--max-page-mb", "2", "--stats"]) == 0
    out, err = capsys.readouterr()
    assert "Before the bomb" in out and "After the bomb" not in out
    stats, warning = err.splitlines()  # the statistics, then the warning (printed by default)
    assert warning == ("glyphweave: warning: page 1: limit reached: page content cut after 1 MB: the page "
                       "content limit of 2 MB reached")
    report = json.loads(stats)
    assert report["warnings"] == 1
    assert report["warning_messages"] == [
        "page 1: limit reached: page content cut after 1 MB: the page content limit of 2 MB reached"]
    assert main(["extract", str(pdf), "--max-page-mb", "2", "--strict"]) == EXIT_LIMIT
    capsys.readouterr()
    assert main(["extract", str(pdf), "--strict"]) == 0  # 20 MB is within the default limit
    with pytest.raises(SystemExit) as exited:  # argparse refuses it: a usage error
        main(["extract", str(pdf), "--max-page-mb", "-1"])
    assert exited.value.code == 2
    assert "'-1' is not a number of MB above 0" in capsys.readouterr().err


def test_a_font_stream_past_its_limit_is_left_unread_with_a_warning():
    from .files import tounicode_bomb

    text, warnings = _extract(tounicode_bomb(20), font_stream_mb=1)
    assert "Hello" in text  # the font's encoding answered instead
    assert any("limit reached: stream larger than the font stream limit of 1 MB" in w for w in warnings), warnings


@pytest.mark.parametrize("content", [
    b"BT /F1 10 Tf %s Tr 72 700 Td (a) Tj ET",
    # The same in an OCR glyph block, which the tokenizer reads as one item.
    b"q 1 0 0 1 72 700 cm BT %s Tr 1 0 0 1 0 0 Tm /F1 10 Tf 0 0 Td (a) Tj ET Q",
])
def test_a_number_too_large_for_an_integer_skips_its_operator_only(content: bytes):
    # float() of 400 nines is infinity, and no integer: the operator is skipped, not the document.
    text, warnings = _extract(make_pdf(content % (b"9" * 400) + b" BT /F1 10 Tf 72 600 Td (b) Tj ET"))
    assert text.split() == ["a", "b"]
    assert len(warnings) == 1 and "Tr" in warnings[0] and "infinity" in warnings[0]
