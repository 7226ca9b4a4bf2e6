"""fpdf2's PDFs: a poster painted from the bottom up with a text shadow, core ZapfDingbats
bullets (no ToUnicode) painted after their items; a report whose running head is painted
after the body and whose footer comes first."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import page_texts

fpdf = pytest.importorskip("fpdf")

ITEMS = [("v", "\u2756", "Telescopes open from nine in the evening"),
         ("n", "\u25a0", "Hot soup in the visitor centre"),
         ("v", "\u2756", "Talk on the rings of Saturn at ten")]
FINE_PRINT = "The observatory road is narrow and unlit; please drive slowly."


def _poster(path: Path) -> None:
    pdf = fpdf.FPDF(unit="pt", format="A4")
    pdf.add_page()
    pdf.set_font("Helvetica", size=7)
    pdf.text(72, 780, FINE_PRINT)  # the foot of the page first
    for k, (code, _char, item) in reversed(list(enumerate(ITEMS))):
        y = 400 + 30 * k
        pdf.set_font("Helvetica", size=15)
        pdf.text(100, y, item)
        pdf.set_font("ZapfDingbats", size=13)
        pdf.text(76, y, code)  # the bullet after its item
    pdf.set_font("Helvetica", size=17)
    pdf.set_text_color(160, 160, 160)
    pdf.text(74.3, 301.7, "Friday 19 September at Cairnfield")  # the shadow, then the text over it
    pdf.set_text_color(0, 0, 0)
    pdf.text(72, 300, "Friday 19 September at Cairnfield")
    pdf.set_font("Helvetica", "B", size=60)
    pdf.text(72, 150, "STARGAZING")
    pdf.text(72, 220, "NIGHT")
    pdf.output(str(path))


def test_a_poster_painted_bottom_up_with_a_shadow_reads_top_down_once(pdf_path: Path):
    _poster(pdf_path)
    [text] = page_texts(pdf_path)
    assert text.splitlines() == ["STARGAZING", "NIGHT", "Friday 19 September at Cairnfield",
                                 *(f"{char} {item}" for _code, char, item in ITEMS), FINE_PRINT]


def _report(path: Path) -> None:
    pdf = fpdf.FPDF(unit="pt", format="A4")
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", size=9)
    pdf.text(280, 810, "Page 1 of 1")  # the footer first
    pdf.set_font("Helvetica", size=11)
    pdf.set_xy(72, 120)
    pdf.multi_cell(450, 16, BODY)
    pdf.set_font("Helvetica", size=9)
    pdf.text(72, 60, "Hollin Fell Weather Station")  # the running head last
    pdf.text(440, 60, "Annual report")
    pdf.output(str(path))


BODY = ("The station recorded its highest wind speed in February, when a gust of 41 metres per second "
        "was measured on the summit mast. Snow lay on the ground for 74 days, eleven more than the "
        "average of the last decade, and the road was closed on nine of them.")


def test_a_running_head_painted_last_and_a_footer_painted_first_find_their_places(pdf_path: Path):
    _report(pdf_path)
    [text] = page_texts(pdf_path)
    lines = text.splitlines()
    assert lines[0] == "Hollin Fell Weather Station Annual report"
    assert lines[-1] == "Page 1 of 1"
    assert " ".join(lines[1:-1]).split() == BODY.split()
