"""The document's font cache is bounded: past its size the least recently used fonts are
dropped and read again when a page uses them again, with the same text and without
reporting a font's damage twice."""

from __future__ import annotations

import pytest

from glyphweave.pdf.fonts import FontLoader
from pdfs import Page, helvetica, make_pdf, open_pdf, truetype

FONTS = {f"F{i}": helvetica(widths=True) for i in range(1, 7)}
FONTS["Bad"] = truetype(tounicode=b"this is no CMap at all")


def _content() -> bytes:
    shows = [f"/F{i} 10 Tf ({chr(96 + i)}) Tj".encode() for i in range(1, 7)]
    lines = [*shows, b"/Bad 10 Tf (x) Tj"]
    return b"BT 72 700 Td " + b" 0 -14 Td ".join(lines) + b" ET"


def _extract(size: int | None, monkeypatch: pytest.MonkeyPatch) -> tuple[str, list[str], int]:
    if size is not None:
        monkeypatch.setattr(FontLoader, "cache_size", size)
    # Two pages sharing every font: with a small cache the second page reads them again.
    with open_pdf(make_pdf(_content(), fonts=FONTS, extra_pages=[Page(_content())])) as doc:
        text = doc.text()
        return text, [str(warning) for warning in doc.warnings()], len(doc._fonts._fonts)


def test_a_small_font_cache_gives_the_same_text_and_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    text, warnings, kept = _extract(None, monkeypatch)
    assert kept == 7
    assert "abcdef" in text.replace("\n", "").replace(" ", "")
    assert len([w for w in warnings if "unreadable ToUnicode" in w]) == 1
    small = _extract(2, monkeypatch)
    assert small[0] == text
    assert small[1] == warnings  # the broken font was read twice, reported once
    assert small[2] <= 2


def test_the_fonts_the_cache_drops_are_freed_without_the_cyclic_collector(monkeypatch: pytest.MonkeyPatch) -> None:
    # The console script keeps what outlives a page from the cyclic collector (gc.freeze),
    # so a dropped font must not be a reference cycle (FontState once held itself).
    import gc

    from glyphweave.pdf.fonts import FontState

    _extract(2, monkeypatch)
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        _extract(2, monkeypatch)
        gc.collect()
        left = [found for found in gc.garbage if isinstance(found, FontState)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
        gc.collect()
    assert left == []


def test_standard_metrics_are_read_only_for_a_font_that_lacks_widths_or_a_descriptor(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Reading a standard font's metrics parses its part of the metrics table: a font that
    # gives its own /Widths and descriptor never uses them.
    from glyphweave.pdf import fonts

    asked: list[str] = []
    real = fonts._std14

    def std14(base_font: str) -> object:
        asked.append(base_font)
        return real(base_font)

    monkeypatch.setattr(fonts, "_std14", std14)
    own = {"T": truetype(base_font="Times-Roman", mapping={0x41: "A"}), "H": helvetica(widths=True),
           "N": helvetica(base_font="Courier")}
    with open_pdf(make_pdf(b"BT /T 10 Tf 72 700 Td (A) Tj /H 10 Tf (b) Tj /N 10 Tf (c) Tj ET", fonts=own)) as doc:
        assert doc.text().replace(" ", "").strip() == "Abc"
    assert asked == ["Helvetica", "Courier"]  # no descriptor; no /Widths: the AFM's stand in
