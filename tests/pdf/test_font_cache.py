"""The document's font cache is bounded: past its size the least recently used fonts are
dropped and read again when a page uses them again, with the same text and without
reporting a font's damage twice."""

from __future__ import annotations

import pikepdf
import pytest

from glyphweave.pdf.fonts import FontLoader
from glyphweave.testing.pdfs import FontSpec
from pdfs import Page, helvetica, make_pdf, open_pdf, truetype, type0_identity

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


# -- fonts that decode alike ---------------------------------------------------------------------


def copies(spec: FontSpec, n: int) -> list[FontSpec]:
    """``n`` font dictionaries alike, each its own object, the later ones pointing at the
    streams the first wrote (as a scanner writes one font again for every page)."""
    first: list[pikepdf.Object] = []

    def copy(pdf: pikepdf.Pdf) -> pikepdf.Object:
        if not first:
            first.append(spec(pdf))
            return first[0]
        return pdf.make_indirect(pikepdf.Dictionary(dict(first[0].items())))

    return [copy] * n


def _resolved(monkeypatch: pytest.MonkeyPatch, pdf: bytes) -> tuple[str, list[tuple[object, bytes]]]:
    """The document's text, and each (font key, code) the decoder chain resolved."""
    from glyphweave.core.decoding import DecoderChain

    asked: list[tuple[object, bytes]] = []
    real = DecoderChain._resolve

    def resolve(self: DecoderChain, info: object, code: bytes, cid: int | None) -> tuple[str, str | None]:
        asked.append((info.key, code))  # type: ignore[attr-defined]
        return real(self, info, code, cid)  # type: ignore[arg-type]

    monkeypatch.setattr(DecoderChain, "_resolve", resolve)
    with open_pdf(pdf) as doc:
        return doc.text(), asked


def _pages(fonts: list[FontSpec]) -> bytes:
    """One page per font, each showing "abc" in its own copy, under the name F1."""
    pages = [Page(b"BT /F1 10 Tf 72 700 Td (abc) Tj ET", fonts={"F1": font}) for font in fonts[1:]]
    return make_pdf(b"BT /F1 10 Tf 72 700 Td (abc) Tj ET", fonts={"F1": fonts[0]}, extra_pages=pages)


def test_fonts_that_decode_alike_ask_the_decoders_once_per_code(monkeypatch: pytest.MonkeyPatch) -> None:
    mapping = {0x61: "x", 0x62: "y", 0x63: "z"}
    text, asked = _resolved(monkeypatch, _pages(copies(truetype(mapping=mapping), 3)))
    assert text.split() == ["xyz"] * 3
    assert len(asked) == 3 and len({key for key, _ in asked}) == 1
    # Composite fonts share their code -> CID cache as well as their decoding.
    text, asked = _resolved(monkeypatch, _pages(copies(type0_identity(mapping={0x6162: "x"}), 2)))
    assert text.split() == ["x"] * 2  # "c" alone is no whole code of Identity-H
    assert len(asked) == len(set(asked)) == 2 and len({key for key, _ in asked}) == 1


@pytest.mark.parametrize("second", [
    truetype(mapping={0x61: "x", 0x62: "y", 0x63: "z"}),  # the same ToUnicode written again: another stream
    truetype(mapping={0x61: "x", 0x62: "y", 0x63: "w"}),
    truetype(mapping={0x61: "x", 0x62: "y", 0x63: "z"}, base_font="ABCDEF+OtherSans"),
    helvetica(widths=True),
], ids=["own-stream", "other-mapping", "other-name", "other-font"])
def test_fonts_that_may_decode_otherwise_keep_their_own_decoding(monkeypatch: pytest.MonkeyPatch,
                                                                  second: FontSpec) -> None:
    first = truetype(mapping={0x61: "x", 0x62: "y", 0x63: "z"})
    _, asked = _resolved(monkeypatch, _pages([first, second]))
    assert len(asked) == 6 and len({key for key, _ in asked}) == 2


def test_fonts_sharing_a_decoding_stay_apart_when_the_cache_drops_them(monkeypatch: pytest.MonkeyPatch) -> None:
    # With a cache of one font, each page reads its font again, and the decoding is asked
    # again only once the last font holding it is gone.
    monkeypatch.setattr(FontLoader, "cache_size", 1)
    text, asked = _resolved(monkeypatch, _pages(copies(truetype(mapping={0x61: "x", 0x62: "y", 0x63: "z"}), 3)))
    assert text.split() == ["xyz"] * 3
    assert len(asked) in (3, 9) and len(asked) == 3 * len({key for key, _ in asked})


def test_the_decoding_identity_leaves_out_what_decoders_cannot_tell_apart() -> None:
    from glyphweave.core.fontinfo import FontInfo
    from glyphweave.pdf.fonts import decoding_identity

    one = FontInfo(key=(1, 0), base_font="F", differences={65: "A"})
    same = FontInfo(key=(2, 0), base_font="F", differences={65: "A"})
    other = FontInfo(key=(3, 0), base_font="F", differences={65: "B"})
    one.memo["x"] = 1
    assert decoding_identity(one, ()) == decoding_identity(same, ()) != decoding_identity(other, ())
    pdf = pikepdf.new()
    first, second = (pdf.make_stream(b"") for _ in range(2))
    assert decoding_identity(one, [("ToUnicode", first)]) == decoding_identity(same, [("ToUnicode", first)])
    assert decoding_identity(one, [("ToUnicode", first)]) != decoding_identity(same, [("ToUnicode", second)])
    assert decoding_identity(one, [("ToUnicode", first)]) != decoding_identity(same, [("program", first)])
