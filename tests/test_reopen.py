"""Long documents are opened again every ``Document.reopen_pages`` pages (where reopening
is cheap beside the extraction), so that qpdf's cache of parsed objects does not grow with
the page count: the text and warnings stay what one opening gives, fonts read before a
reopening keep working, and a file that changed on disk or a stream is never reopened.

The tests set ``reopen_share`` high: their pages take less time than opening them does."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pikepdf
import pytest

import glyphweave
from glyphweave import api
from glyphweave.api import Document
from glyphweave.cli import main
from glyphweave.core.errors import DocumentClosedError, PDFOpenError
from pdfs import Page, helvetica, make_pdf, truetype

# F2 is set on the first page and shows nothing there: its ToUnicode CMap is first read on
# a later page, from whatever opening of the file is current by then.
FONTS = {
    "F1": helvetica(widths=True),
    "F2": truetype(mapping={0x41: "Ω", 0x42: "∑"}),
    "Bad": truetype(tounicode=b"this is no CMap at all"),
}
FIRST = b"BT /F2 10 Tf /F1 10 Tf 72 700 Td (page one) Tj ET"
LATER = b"BT /F1 10 Tf 72 700 Td (page %d) Tj 0 -14 Td /F2 10 Tf (AB) Tj 0 -14 Td /Bad 10 Tf (x) Tj ET"


def _document() -> bytes:
    return make_pdf(FIRST, fonts=FONTS,
                    extra_pages=[Page(LATER % n) for n in range(2, 6)])


@pytest.fixture(autouse=True)
def _reopening_is_cheap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Document, "reopen_share", 1e12)


def _extract(source: Any, every: int, monkeypatch: pytest.MonkeyPatch) -> tuple[str, list[str], int]:
    """Text, warnings and how many openings replaced the first one."""
    monkeypatch.setattr(Document, "reopen_pages", every)
    openings = []
    with glyphweave.open(source, pause_gc=True) as doc:
        text = []
        for _page, page_text in doc.iter_text():
            text.append(page_text)
            if not openings or openings[-1] is not doc._pdf:
                openings.append(doc._pdf)
        return "\f".join(text), [str(warning) for warning in doc.warnings()], len(openings) - 1


@pytest.mark.parametrize("as_path", [False, True])
def test_reopening_gives_the_text_and_warnings_of_one_opening(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, as_path: bool) -> None:
    data = _document()
    source: Any = data
    if as_path:
        source = tmp_path / "long.pdf"
        source.write_bytes(data)
    once = _extract(source, 1000, monkeypatch)
    assert once[2] == 0
    assert "Ω∑" in once[0] and "page 5" in once[0]
    assert len([w for w in once[1] if "unreadable ToUnicode" in w]) == 1
    reopened = _extract(source, 1, monkeypatch)
    assert reopened[2] == 4  # before each page after the first
    assert reopened[:2] == once[:2]


def test_fonts_keep_no_object_of_the_opening_they_were_read_from(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Document, "reopen_pages", 1)
    with glyphweave.open(_document(), pause_gc=True) as doc:
        doc.text()
        states = list(doc._fonts._fonts.values())
    loaders = [state.info._to_unicode_loader for state in states if state.info._to_unicode_loader is not None]
    assert len(loaders) == 2  # F2's and Bad's
    for loader in loaders:
        held = [cell.cell_contents for cell in loader.__closure__ or ()]
        for value in held:
            inner = [c.cell_contents for c in getattr(value, "__closure__", None) or ()]
            assert not any(isinstance(v, pikepdf.Object) for v in [value, *inner]), held


def test_a_file_changed_on_disk_is_not_reopened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "long.pdf"
    path.write_bytes(_document())
    monkeypatch.setattr(Document, "reopen_pages", 1)
    with glyphweave.open(path, pause_gc=True) as doc:
        first = doc._pdf
        texts = []
        for page, text in doc.iter_text():
            texts.append(text)
            if page.number == 0:
                path.write_bytes(make_pdf(b"BT /F1 10 Tf 72 700 Td (other) Tj ET"))
        assert doc._pdf is first
    assert "page 5" in texts[-1] and len(texts) == 5


def test_a_stream_is_never_reopened(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Document, "reopen_pages", 1)
    with glyphweave.open(io.BytesIO(_document()), pause_gc=True) as doc:
        first = doc._pdf
        text = doc.text()
        assert doc._pdf is first
    assert "page 5" in text and "Ω∑" in text


def test_pages_held_from_an_earlier_opening_still_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Document, "reopen_pages", 1)
    with glyphweave.open(_document(), pause_gc=True) as doc:
        pages = [page for page, _text in doc.iter_text()]
        # Released by the iterator (holding no opening any more) and read again, each from
        # the document's current opening.
        assert all(page._pdf is None and page._obj is None for page in pages)
        assert [page.text() for page in pages] == [doc.pages[i].text() for i in range(len(doc))]
        assert "page 2" in pages[1].text()



def test_a_document_slow_to_open_is_not_reopened_for_a_few_fast_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Document, "reopen_pages", 1)
    monkeypatch.setattr(Document, "reopen_share", 0.02)
    with glyphweave.open(_document(), pause_gc=True) as doc:
        first = doc._pdf
        doc._open_seconds = 60.0  # as if opening it took a minute
        text = doc.text()
        assert doc._pdf is first
    assert "page 5" in text


def test_an_encrypted_document_is_reopened_with_its_password(monkeypatch: pytest.MonkeyPatch) -> None:
    data = make_pdf(FIRST, fonts=FONTS, extra_pages=[Page(LATER % n) for n in range(2, 6)],
                    encryption=pikepdf.Encryption(user="u", owner="o"))
    monkeypatch.setattr(Document, "reopen_pages", 1)
    openings = []
    with glyphweave.open(data, password="u", pause_gc=True) as doc:
        texts = []
        for _page, text in doc.iter_text():
            texts.append(text)
            if not openings or openings[-1] is not doc._pdf:
                openings.append(doc._pdf)
    assert len(openings) == 5
    assert "Ω∑" in texts[1] and "page 5" in texts[4]


def test_pages_after_a_reopening_come_from_the_new_opening(monkeypatch: pytest.MonkeyPatch) -> None:
    # The document lists its page dictionaries once per opening: after a reopening, a page
    # must be read from the new opening, not from the list the old one made. (Without
    # pause_gc the iterators keep each page whole, so what it was read from can be seen.)
    monkeypatch.setattr(Document, "reopen_pages", 1)
    with glyphweave.open(_document()) as doc:
        for page, _text in doc.iter_text():
            assert page._obj.is_owned_by(doc._pdf)
            assert page._obj.is_owned_by(page._pdf)
        assert doc.pages[4]._obj.is_owned_by(doc._pdf) and len(doc) == 5


def test_the_document_lets_go_of_an_opening_before_it_opens_the_next(monkeypatch: pytest.MonkeyPatch) -> None:
    # Opening first would hold both openings at once: the peak of a long document would be
    # two openings' objects, not one's.
    monkeypatch.setattr(Document, "reopen_pages", 1)
    real, opened = api._pikepdf_open, []
    held: list[Document] = []

    def opening(target: Any, password: str | None) -> Any:
        if held:
            doc = held[0]
            opened.append(("_pdf" in vars(doc), doc._fonts.pdf, doc._page_objs, dict(doc._inherited)))
        return real(target, password)

    monkeypatch.setattr(api, "_pikepdf_open", opening)
    with glyphweave.open(_document(), pause_gc=True) as doc:
        held.append(doc)
        texts = [text for page, text in doc.iter_text() if page._pdf is None]
    assert opened == [(False, None, None, {})] * 4
    assert len(texts) == 5 and "page 5" in texts[4]


def test_an_unchanged_file_that_fails_to_open_again_ends_the_document_clearly(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "long.pdf"
    path.write_bytes(_document())
    monkeypatch.setattr(Document, "reopen_pages", 2)
    real, calls = api._pikepdf_open, []

    def opening(target: Any, password: str | None) -> Any:
        calls.append(target)
        if len(calls) > 1:
            raise pikepdf.PdfError(f"{target}: out of file handles")
        return real(target, password)

    monkeypatch.setattr(api, "_pikepdf_open", opening)
    with glyphweave.open(path, pause_gc=True) as doc:
        texts = []
        with pytest.raises(PDFOpenError, match=r"long\.pdf: cannot open the PDF again to read its next pages "
                                               r"\(out of file handles\)"):
            for _page, text in doc.iter_text():
                texts.append(text)
        assert len(texts) == 2 and doc.closed and len(doc) == 5
        with pytest.raises(DocumentClosedError):
            doc.pages[0].text()
    # The command line says so in one line, writes no output and leaves the PDF as it was.
    calls.clear()
    out = tmp_path / "out.txt"
    assert main(["extract", "-j", "1", "-o", str(out), str(path)]) != 0
    err = capsys.readouterr().err
    assert "cannot open the PDF again" in err and "Traceback" not in err
    assert not out.exists() and path.read_bytes() == _document()


def test_form_fields_read_after_a_reopening_use_the_current_opening(monkeypatch: pytest.MonkeyPatch) -> None:
    pdf = pikepdf.new()
    helv = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name("/Times-Roman")))
    widgets = []
    for n in range(4):
        pdf.add_blank_page(page_size=(300, 300))
        widget = pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Widget, FT=pikepdf.Name.Tx, T=pikepdf.String(f"f{n}"),
            V=pikepdf.String(f"value {n}"), DA=pikepdf.String("/TiRo 10 Tf"), Rect=[10, 10, 200, 30]))
        pdf.pages[n].obj.Annots = pdf.make_indirect(pikepdf.Array([widget]))
        widgets.append(widget)
    pdf.Root.AcroForm = pikepdf.Dictionary(Fields=pikepdf.Array(widgets),
                                           DR=pikepdf.Dictionary(Font=pikepdf.Dictionary(TiRo=helv)))
    out = io.BytesIO()
    pdf.save(out)
    once = _extract(out.getvalue(), 1000, monkeypatch)
    reopened = _extract(out.getvalue(), 1, monkeypatch)
    assert reopened[2] == 3
    assert reopened[:2] == once[:2]
    assert once[0].split("\f") == [f"value {n}\n" for n in range(4)]
    with glyphweave.open(out.getvalue()) as doc:
        assert {g.font.base_font for g in doc.pages[0].glyphs()} == {"Times-Roman"}
